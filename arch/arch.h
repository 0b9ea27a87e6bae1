/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything the tools need to know about one architecture, behind one
 * ops table (struct arch): relocation types, widths and targets, the ftrace
 * site every patchable function starts with (as a pattern), the prefix
 * symbols before functions, its rows of the special-section table, and the
 * instruction knowledge used to recognise a change that is only a shifted
 * __LINE__ and to read branches for the inline report. Generic code asks
 * arch_get() and never looks at e_machine, relocation types or instruction
 * bytes itself.
 *
 * A new architecture is additive: arch/<arch>/<arch>.c defines its struct
 * arch (the ops below; line_only_change and branch_field_end may be NULL;
 * arch/common.h has the helpers the architectures' code shares),
 * arch/<arch>/special.c its rows of the special-section table (the rows
 * every architecture shares are in arch/special.c; an arch's row of the
 * same name wins), and arches[] in arch/arch.c gets one line. Data bytes
 * are read and written with target_get()/target_put() (lib/target-order.h)
 * in the object's byte order.
 */
#ifndef KP_ARCH_H
#define KP_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/elf.h"

/* What a section is to the tools (the special-section table, special.c). */
enum section_role {
	SEC_KNOWN = 1,	/* code, data, or a table handled by symbol or name */
	SEC_ENTRIES,	/* a special section: the entries of included code stay */
	SEC_CALLSITE,	/* per-call-site data: entries come with their users */
	SEC_INIT,	/* freed after init: its code cannot be patched */
	SEC_DEBUG,	/* never loaded: not compared, not copied */
	SEC_REFUSED,	/* a new or changed one is refused, for @why */
};

/*
 * One row of the table. A section without a row is not understood, and a
 * new or changed one is refused as such.
 */
struct special_section {
	const char *name;
	bool prefix;		/* @name is a prefix (.data..Lubsan_data12) */
	enum section_role role;
	/* SEC_ENTRIES: the entry size, fixed or from the running kernel's
	 * struct (kpatch-struct-sizes prints it as size_env=N) */
	unsigned int size;
	const char *size_env;
	const char *size_struct;
	unsigned int owner_off;	/* entry offset of the relocation to code */
	/*
	 * Entries of a section without relocations that parallels another
	 * one entry for entry (.orc_unwind follows .orc_unwind_ip).
	 */
	const char *companion;
	/* the range of an entry that may differ for the same code */
	unsigned int ignore_off, ignore_len;
	/* the owner relocation points at data, not code (.printk_index) */
	bool data_owner;
	/*
	 * The module loader consumes it while loading the patch module, before
	 * livepatch writes relocations to another module (klp-convert).
	 */
	bool early;
	bool infer_size;	/* SEC_CALLSITE: entries of one inferred size */
	/*
	 * Its relocations must name section symbols, never a function's
	 * (objtool reads its instruction annotations that way).
	 */
	bool section_symbol_refs;
	/*
	 * SEC_CALLSITE of @size-byte pointers that code loads by offset (the
	 * ppc64 TOC): a use of a slot is a use of what it points to.
	 */
	bool pointer_slots;
	const char *why;	/* SEC_REFUSED: the reason */
	/*
	 * The entry only makes a call faster and may be left out when its
	 * key (the relocation at key_off) lives in the patched module: the
	 * call itself goes to a trampoline that always jumps to the current
	 * target (.static_call_sites).
	 */
	bool key_optional;
	unsigned int key_off;
	/*
	 * An entry whose key (at key_off) is a tracepoint of the patched
	 * module may be left out: the site keeps its compiled default, a NOP
	 * (tracepoints are static_key_false), so the patched function never
	 * fires that tracepoint; a plain key of the module is still refused.
	 */
	bool tracepoint_key_optional;
};

/*
 * The largest number taken for a __LINE__, by every arch's line_only_change
 * and by the differ's strings: source files are shorter, while the
 * addresses, masks and sizes a number could also be are mostly larger.
 */
#define SOURCE_LINE_MAX		0x100000

/*
 * An instruction that loads an immediate, found by line_only_change where
 * ORIG's and PATCHED's code differ, the same but for that value.
 */
struct line_imm {
	size_t at;		/* an offset inside it: its immediate */
	size_t end;		/* the offset just past it */
	uint64_t a, b;		/* the value it loads in ORIG, in PATCHED */
};

/* Is @imm's change (of a function's code, @ctx) a line that moved? */
typedef bool (*line_imm_fn)(void *ctx, const struct line_imm *imm);

/* The rows every architecture shares (special.c). */
extern const struct special_section special_shared[];

/*
 * How a function's ftrace site looks, as data: generic code (arch.c) finds
 * it. Either a call to @call (its relocation @reloc_off bytes into the
 * @call_len-byte instruction) right after one of @prologues (code that may
 * come first: endbr64, a global-entry TOC setup and mflr; tried in order,
 * the first whose bytes match decides, so the empty one goes last), or,
 * with @patchable_entries, an entry of __patchable_function_entries
 * pointing at the function, or @patchable_before bytes before it
 * (-fpatchable-function-entry=N,M: N NOPs, M of them before, no call).
 */
struct ftrace_prologue {
	const unsigned char *bytes;	/* in file order */
	unsigned int len;
};

struct ftrace_pattern {
	const char *call;		/* the function called; NULL: none */
	unsigned int call_len;
	unsigned int reloc_off;
	const struct ftrace_prologue *prologues;	/* ends with len 0 */
	bool patchable_entries;
	unsigned int patchable_before;
};

/* What the module loader can make of a call that leaves the patch module. */
enum call_site {
	CALL_PLAIN = 0,		/* not a call, or one the loader can route */
	CALL_NO_SLOT,		/* ppc64 bl with no nop after it for the TOC restore */
	CALL_SIBLING,		/* ppc64 tail call (b): no way back to our TOC */
};

/*
 * call_site's answers in the machine's words, for the refusals and the -d
 * report: generic code names no machine.
 */
struct call_site_words {
	const char *no_slot;		/* what a CALL_NO_SLOT call lacks */
	const char *no_slot_carried;	/* the same, why its callee is copied */
	const char *sibling;		/* why a CALL_SIBLING call cannot leave */
};

/* One decoded instruction: where it ends, and its PC-relative operand. */
struct insn_info {
	size_t start, end;		/* [start, end) in the code */
	size_t field;			/* offset of the PC-relative operand */
	unsigned int size;		/* its size in bytes; 0: none */
	int64_t target;			/* the offset it reaches, from the code */
};

struct arch {
	const char *name;
	uint16_t machine;
	unsigned int r_abs64;		/* absolute 64-bit reference (records) */
	/* PC-relative references of 32 and 8 bits (split.c's new ones) */
	unsigned int r_pc32, r_pc8;
	/* this arch's rows of the special-section table, NULL-name ended */
	const struct special_section *special;
	const struct ftrace_pattern *ftrace;
	/*
	 * Optional, for a site @ftrace cannot describe: the offset of @func's
	 * ftrace site, or -1 (aarch64: NOPs after a landing pad that an entry
	 * of __patchable_function_entries records; s390x: the brcl 0 that
	 * -mrecord-mcount records in __mcount_loc). When set, @ftrace is not
	 * used.
	 */
	long (*ftrace_site)(const struct symbol *func);
	/*
	 * The padding symbol the compiler puts before a function
	 * (CONFIG_FUNCTION_PADDING: "__pfx_" + its name), or NULL.
	 */
	const char *prefix_symbol;
	/*
	 * Bytes of a jump-label site (an entry of __jump_table points at it)
	 * that the build may rewrite after compiling: objtool's link-time
	 * pass turns x86's "jmp" into a NOP (HAVE_JUMP_LABEL_HACK), so a
	 * shipped binary differs there from the object it was linked from.
	 */
	unsigned int jump_site_len;
	/* bytes the relocated field covers; 0 for an unknown type */
	unsigned int (*reloc_size)(unsigned int type);
	bool (*reloc_is_pcrel)(unsigned int type);
	/*
	 * Offset inside the target that relocation @r in section @sec points
	 * at, given its addend (PC-relative code references are biased by
	 * the distance to the end of the instruction).
	 */
	int64_t (*reloc_target)(const struct section *sec,
				const struct reloc *r);
	/*
	 * For a call relocation @r in code @sec: can it reach a callee
	 * outside the patch module (NULL: always)?
	 */
	enum call_site (*call_site)(const struct section *sec,
				    const struct reloc *r);
	/* how its answers are put (set with @call_site) */
	const struct call_site_words *call_site_words;
	/*
	 * Optional, for an arch without @decode: does code [@start, @end) of
	 * @sec branch outside that range with no relocation? (The assembler
	 * resolves a branch to a local symbol of the same section itself: a
	 * function copied out of a section it shares, .sched.text, would
	 * branch into nothing.) NULL: it may, whenever unchanged static
	 * functions share @sec.
	 */
	bool (*unrelocated_branch_out)(const struct section *sec,
				       uint64_t start, uint64_t end);
	/*
	 * Optional: does the loader fill a slot (a GOT entry) with the value
	 * of @type's symbol alone, the addend being only the PC bias (s390x
	 * R_390_GOTENT)? Then the output names the exact target with a
	 * symbol of its own, never a section symbol plus an offset.
	 */
	bool (*reloc_slot_of_symbol)(unsigned int type);
	/*
	 * Optional: a PC-relative reference at @r of code @code (the output
	 * copy of the section) to a symbol outside the patch module, where the
	 * module may be out of the reference's reach (s390x 6.1: modules lie
	 * more than 4 GB from the kernel). Returns the relocation type to use
	 * after rewriting the instruction in @code to go through a slot the
	 * loader fills (larl of an address: lgrl from a GOT slot, which the
	 * loader's PLT stub for a function address is not), @r->type when
	 * nothing needs changing, or 0: the reference cannot reach (lrl, strl:
	 * data accessed in place).
	 */
	unsigned int (*far_reference)(unsigned char *code, uint64_t size,
				      const struct reloc *r);
	/*
	 * May a klp relocation (.klp.rela.*) carry @type? Only what the
	 * arch's apply_relocate_add() handles in both 6.1 and 6.12, and can
	 * reach the running kernel from a module with.
	 */
	bool (*klp_reloc_ok)(unsigned int type);
	/*
	 * What to do about a type @klp_reloc_ok refuses, for the refusal
	 * (ppc64le: the TOC-relative forms, which -mcmodel=large avoids), or
	 * NULL: the refusal gives the generic reason.
	 */
	const char *klp_reloc_hint;
	/*
	 * Undefined symbols the module loader defines itself for every
	 * module, NULL-ended (ppc64le: ".TOC.", the module's own TOC base):
	 * never exports nor references into the running kernel.
	 */
	const char *const *loader_symbols;
	/*
	 * The compiler leaves __mcount_loc to a post-pass (recordmcount):
	 * the differ writes it for the functions of its output.
	 */
	bool differ_writes_mcount_loc;
	/*
	 * Do @a and @b (@len bytes of a function's code) differ only in
	 * immediates that may load a line number? The arch decodes each
	 * instruction whose bytes differ and hands its place and both
	 * values to @is_line, which decides whether they are lines (the
	 * line table, or a call that takes one following it: compare.c).
	 */
	bool (*line_only_change)(const unsigned char *a, const unsigned char *b,
				 size_t len, line_imm_fn is_line, void *ctx);
	/*
	 * The inline report (optional): when @a and @b (code of @alen and
	 * @blen bytes, equal before @i) differ at @i only in the displacement
	 * of a forward branch over code that grew or shrank, the end of that
	 * displacement field; else 0.
	 */
	uint64_t (*branch_field_end)(const unsigned char *a, uint64_t alen,
				     const unsigned char *b, uint64_t blen,
				     uint64_t i, uint64_t len);
	/*
	 * Decode the instruction at @at of @code (which ends at @len). False
	 * when it cannot be decoded (or would run past @len).
	 */
	bool (*decode)(const unsigned char *code, size_t len, size_t at,
		       struct insn_info *in);
	/*
	 * Without @decode: the length of the instruction at @at of @code
	 * (which ends at @len), 0 when it runs past @len. Enough to walk the
	 * code (the inline report), not to find its PC-relative operands.
	 */
	size_t (*insn_length)(const unsigned char *code, size_t len, size_t at);
};

/*
 * The bounds of the instruction at @at (and its PC-relative operand where
 * the arch decodes them): @decode, else @insn_length. False: unknown.
 */
bool arch_insn_bounds(const struct arch *arch, const unsigned char *code,
		      size_t len, size_t at, struct insn_info *in);

/* Offset of @func's ftrace site from its start, or -1: none (arch.c). */
long arch_ftrace_site(const struct arch *arch, const struct symbol *func);
/* Is @name a prefix (padding) symbol; @parent gets the function's name. */
bool arch_is_prefix_symbol(const struct arch *arch, const char *name,
			   const char **parent);

/* The ops for @elf's machine; for another, NULL and one line naming it. */
const struct arch *arch_get(const struct elf *elf);

/* The @i-th supported architecture, or NULL past the last. */
const struct arch *arch_nth(size_t i);
/* The ops for machine @machine, or NULL. */
const struct arch *arch_for_machine(uint16_t machine);

/* The table's row for section @name, or NULL (special.c). */
const struct special_section *arch_section(const struct arch *arch,
					   const char *name);
/* The row of a special section (SEC_ENTRIES) named @name, or NULL. */
const struct special_section *arch_special(const struct arch *arch,
					   const char *name);
/* Row @i of @arch's whole table (its rows, then the shared), or NULL. */
const struct special_section *arch_row(const struct arch *arch, size_t i);

/*
 * The same lookup, hashed: for looking up every section of an object
 * (section_index_find() == arch_section()).
 */
#define SECTION_BUCKETS	256
struct section_bucket {
	const struct special_section **rows;
	size_t n;
};
struct section_index {
	struct section_bucket bucket[SECTION_BUCKETS];
};
struct section_index *section_index_new(const struct arch *arch);
const struct special_section *section_index_find(const struct section_index *x,
						 const char *name);
void section_index_free(struct section_index *x);

#endif
