/* SPDX-License-Identifier: GPL-2.0 */
/*
 * create-diff-object: the passes over the shared ELF model, run by main.c's
 * pass table in this order. Each pass keeps its state in struct cdo (or in
 * the differ's state of each symbol and section, struct syminfo / secinfo,
 * hung off the model's ->priv: lib/elf.h holds only the ELF object every
 * tool shares) and calls no other pass's entry point: only main.c runs a pass (test/static checks
 * it); what one leaves, the next reads. What several passes do alike is a
 * layer that is no pass: reloc-target.c (where a relocation points) and
 * include-work.c (the worklist of what joins the output, which the include
 * and special passes fill and include-special drains).
 *
 *   read        main.c       open ORIG and PATCHED, pick the arch ops
 *   classify    entity.c     what each symbol and section is (function,
 *                            .cold/prefix piece, special static, the
 *                            section's row of the special-section table)
 *   split       split.c      a section of several functions (.sched.text)
 *                            cut along its symbols: branches between them
 *                            become relocations
 *   callsite    special.c    per-call-site data (__dyndbg): its entries
 *   chunks      chunk.c      anonymous code (.altinstr_aux) as the chunks
 *                            references reach
 *   parent      klp.c        PARENT_SYMTAB and Module.symvers
 *   directives  verify.c     KPATCH_IGNORE_* / KPATCH_FORCE_UNSAFE
 *   correlate   correlate.c  pair ORIG and PATCHED symbols and sections
 *   compare     compare.c    SAME / CHANGED / NEW, relocations compared
 *                            symbolically, __LINE__-only changes ignored
 *                            (immediates; strings by the line table,
 *                            line-table.c)
 *   propagate   propagate.c  changes that reach the users of what changed
 *   inline      inline*.c    report: which inlined callee a change lies in
 *                            (DWARF, when the object has it), if ORIG
 *                            inlined it there too: not a call the patch adds
 *   include     include.c    changed/new functions and what they need
 *   special     special.c    entries of special sections for included code
 *   include-special include.c  what those entries need
 *   verify      verify.c     refusals: data, __init, ftrace, exports, ...
 *   emit        emit.c       the output object: its sections and symbols,
 *               emit-relocs.c  their relocations retargeted (what the
 *                            loader cannot reach refused), and its records
 *               records.c    (named through klp.c: exported, or klp symbol
 *                            with sympos); only when nothing was refused
 *
 * Entities are symbols with a byte range (functions and objects); sections
 * are only containers, so a function in a shared section (.sched.text) is
 * compared over its own range like any other. Nothing here knows a
 * machine: that is arch/ (arch.h), and the record formats are
 * kmod/include/kpatch-formats.h.
 */
#ifndef CDO_H
#define CDO_H

#include <stdbool.h>
#include "lib/elf.h"
#include "arch/arch.h"
#include "kmod/include/kpatch-formats.h"

struct ksymtab;
struct symvers;
struct line_table;

/* What compare found of a symbol (propagate gives ORIG's its twin's). */
enum status {
	SAME = 0,
	CHANGED,
	NEW,
};

/* Per-symbol state of the differ, hung off symbol->priv. */
struct syminfo {
	struct symbol *twin;		/* the other object's counterpart */
	struct symbol *parent;		/* .cold/.part piece: its function */
	enum status status;
	bool include;			/* in the output */
	char *why;			/* debug report: why it is in the output */
	char *norm;			/* name without GCC's numbers */
	struct symbol *user;		/* first function referencing it */
	uint64_t user_off;		/* where in it, from its start */
	struct symbol *child;		/* first .cold/__pfx_ piece */
	struct symbol *sibling;		/* next piece of the same parent */
	struct symbol *out;		/* its counterpart in the output */
	bool special_static;		/* __warned.N & co: copied, never shared */
	bool ignored;			/* KPATCH_IGNORE_FUNCTION */
	bool forced;			/* KPATCH_FORCE_UNSAFE */
	bool line_only;			/* differs only in moved lines (compare.c) */
	bool copied;			/* notrace: carried as a copy, not patched */
	bool data_ref;			/* a data object refers to it */
	bool recorded;			/* has its .kpatch.funcs record */
	bool tracepoint_dropped;	/* its jump labels left out (warned) */
	long change_off;		/* first differing offset, or -1 */
	const char *inlined;		/* changed inlined callee, if known */
	char *unsplit;			/* split.c: why it cannot leave its section */
};

/* Per-section state. */
struct secinfo {
	struct section *twin;		/* the other object's counterpart */
	bool include;			/* in the output whole */
	struct section *out;		/* whole-section copy in the output */
	bool anonymous;			/* no function/object symbol inside */
	bool whole;			/* copied whole into the output */
	const struct special_section *row; /* its row of the arch's table */
	bool ignored;			/* KPATCH_IGNORE_SECTION */
	bool special;			/* arch special section */
	bool callsite;			/* per-call-site data: __dyndbg, ubsan */
	uint64_t entsize;		/* special: entry size */
	size_t nent;			/* special: number of entries */
	bool *keep;			/* special: entries kept */
	struct reloc **relocs;		/* its relocations sorted by offset */
	size_t nr_relocs;
	size_t piece0, npieces;		/* emit: its copied ranges */
	struct span *ranges;		/* needed chunks of anonymous code */
	size_t nranges, rcap;
	uint64_t *refs;			/* anonymous code: offsets referenced */
	size_t nrefs, refcap;
};

struct span {
	uint64_t off, len;
};

/* include-work.c: the worklist of what joins the output. */
struct include_work {
	struct symbol **syms;
	size_t nsyms, cap;
	struct section **secs;
	size_t nsecs, scap;
};

/* special.c: the places in string sections included functions refer to. */
struct strref;
struct strrefs {
	struct htable index;
	struct strref *pool;
};

struct cdo {
	struct elf *orig, *patched, *out;
	const struct arch *arch;
	struct section_index *sections;	/* the arch's special-section table */
	const char *orig_path, *patched_path;
	const char *parent;		/* vmlinux or a module name */
	const char *parent_symtab_path, *symvers_path;
	const char *patch_name, *out_path;
	const char *objname;		/* for messages: patched object's name */
	const char *srcfile;		/* STT_FILE of the patched object */
	struct ksymtab *pst;		/* PARENT_SYMTAB */
	struct symvers *symvers;
	unsigned int nr_changed, nr_new;
	unsigned int nr_refusals;
	/* the passes' own state */
	struct include_work work;	/* include-work.c */
	struct strrefs strrefs;		/* special.c */
	struct line_table *orig_lines;	/* compare.c, while it runs */
	struct line_table *patched_lines;
	bool lines_read;
};

static inline struct syminfo *si(const struct symbol *sym)
{
	return sym->priv;
}

static inline struct secinfo *sci(const struct section *sec)
{
	return sec->priv;
}

static inline bool is_func(const struct symbol *sym)
{
	return sym->type == STT_FUNC && sym->sec;
}

static inline bool is_entity(const struct symbol *sym)
{
	return sym->sec && (sym->type == STT_FUNC || sym->type == STT_OBJECT ||
			    (sym->type == STT_NOTYPE && sym->size));
}

/* entity.c */
void classify(struct cdo *c);
void classify_section(struct cdo *c, struct section *sec);
void unclassify(struct elf *elf);
bool is_special_static_name(const char *name);
char *normalized_name(const char *name);
bool is_btf_id_name(const char *name);
bool similar_section_names(const char *a, const char *b);
struct symbol *entity_at(const struct section *sec, uint64_t off);
bool is_init_section(const struct section *sec);
bool is_debug_section(const struct section *sec);
bool is_patch_source_section(const struct section *sec);

/* split.c: sections of several functions cut along their symbols */
void split_shared_sections(struct cdo *c);

/* chunk.c: anonymous code (.altinstr_aux) as the chunks references reach */
bool is_anonymous_code(const struct section *sec);
void find_chunks(struct cdo *c);
struct span chunk_at(const struct section *sec, uint64_t off);

/* correlate.c */
void correlate(struct cdo *c);

/* compare.c */
void compare(struct cdo *c);
/* compare.c's symbolic test of two targets (reloc-target.h) */
struct target;
bool targets_equal(const struct cdo *c, const struct target *a,
		   const struct target *b);

/* inline.c: name a changed inlined callee in the -d report */
void explain_inlined(struct cdo *c);

/* propagate.c */
void propagate(struct cdo *c);

/* verify.c */
void refuse(struct cdo *c, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void verify(struct cdo *c);
void read_directives(struct cdo *c);

/* include.c: the passes queueing on the include worklist (include-work.h) */
void include(struct cdo *c);
void include_special(struct cdo *c);

/* special.c */
void special_sections(struct cdo *c);
void callsite_sections(struct cdo *c);
uint64_t infer_entry_size(struct section *sec, unsigned int owner_off,
			  bool code_owner);

/* klp.c */
void klp_load(struct cdo *c);
void klp_free(struct cdo *c);
/* Name the output uses for an external reference to @sym. */
const char *klp_export_namespace(struct cdo *c, const char *name);
/* Allocated: the caller frees it. */
char *klp_external_name(struct cdo *c, struct symbol *sym,
			      bool *is_klp, unsigned long *sympos);
unsigned long klp_func_sympos(struct cdo *c, struct symbol *sym);
bool klp_module_reference(struct cdo *c, struct symbol *sym);
char *klp_objname(struct cdo *c);

/* emit.c: -1 when the output cannot be written (said) */
int emit(struct cdo *c);

#endif
