/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ELF model every tool of the project shares: a relocatable object read
 * with libelf into sections, symbols and relocations, indexed with hash
 * tables (by name, by index, by section+offset), mutated in memory and
 * written back as a new, valid object.
 *
 * ELFCLASS64 ET_REL objects with RELA relocations, of either byte order,
 * are modelled: x86_64, ppc64le, s390x and aarch64 kernel objects and
 * modules. The symbol and relocation tables are read and written through
 * libelf's translation (gelf, ELF_T_SYM / ELF_T_RELA), so the model holds
 * them in host order; section contents stay in file order, and whoever
 * interprets data bytes reads them with target_get() (target-order.h) and
 * elf->big_endian. A relocation without a symbol (index 0: R_PPC64_ENTRY,
 * R_*_NONE) is kept with sym == NULL and written back as index 0. Section
 * groups are dropped on read (they only matter for deduplication in a final
 * link, which patch objects never need).
 *
 * The model owns all of its memory: names and section contents are copied
 * on read, so the file is closed once elf_open() returns. It holds the ELF
 * object and nothing of what a tool makes of it: a tool's own state hangs
 * off ->priv (the differ's pairing, status and inclusion are its struct
 * syminfo / secinfo, create-diff-object/cdo.h), which the model never
 * reads, sets or frees.
 */
#ifndef KP_ELF_H
#define KP_ELF_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>
#include "hash.h"
#include "list.h"
#include "target-order.h"

#ifndef SHN_LIVEPATCH
#define SHN_LIVEPATCH		0xff20
#endif
#ifndef SHF_RELA_LIVEPATCH
#define SHF_RELA_LIVEPATCH	0x00100000
#endif

struct elf;
struct symbol;

struct section {
	struct list_head list;		/* elf->sections, output order */
	struct hnode name_hash;
	struct elf *elf;
	char *name;
	GElf_Shdr sh;			/* sh_size tracks size for NOBITS */
	unsigned int index;		/* index in the file read, or written */
	unsigned char *data;		/* owned contents; NULL for NOBITS */
	size_t size;

	struct section *link;		/* sh_link as a section, if any */
	struct section *base;		/* rela: the section it relocates */
	struct section *rela;		/* non-rela: its relocation section */
	struct list_head relocs;	/* rela: struct reloc, file order */
	struct symbol *secsym;		/* the STT_SECTION symbol, if any */
	struct list_head symbols;	/* symbols defined in this section */

	/* the state a tool keeps of it (the differ's secinfo) */
	void *priv;
};

struct symbol {
	struct list_head list;		/* elf->symbols, symtab order */
	struct list_head sec_list;	/* sec->symbols */
	struct hnode name_hash;
	struct hnode off_hash;		/* elf->sym_off_hash by sec+offset */
	struct elf *elf;
	char *name;
	unsigned int index;		/* symtab index, file read or written */
	unsigned char bind, type, other;
	uint16_t shndx;			/* st_shndx when sec is NULL */
	struct section *sec;		/* defining section, or NULL */
	uint64_t offset;		/* st_value */
	uint64_t size;

	/* the state a tool keeps of it (the differ's syminfo) */
	void *priv;
};

struct reloc {
	struct list_head list;		/* rela->relocs */
	struct hnode off_hash;		/* elf->reloc_off_hash */
	struct section *rela;
	struct symbol *sym;		/* NULL: symbol index 0 */
	uint64_t offset;
	int64_t addend;
	unsigned int type;
};

struct elf {
	char *path;
	GElf_Ehdr ehdr;
	bool big_endian;		/* ELFDATA2MSB: data bytes are big-endian */
	struct list_head sections;
	struct list_head symbols;
	struct htable sec_name_hash;
	struct htable sym_name_hash;
	struct htable sym_off_hash;
	struct htable reloc_off_hash;	/* relocations by target section+offset */
	struct section **sec_by_index;	/* as read; NULL holes for groups */
	unsigned int nr_sec_index;
	struct symbol **sym_by_index;	/* as read */
	unsigned int nr_sym_index;
	struct section *symtab, *strtab, *shstrtab;
	unsigned int nr_sections, nr_symbols;
};

/*
 * Reading, writing, freeing. An error is one line on stderr naming the
 * object (and the section or symbol), and NULL or -1 for the tool to
 * decide about.
 */
struct elf *elf_open(const char *path);
/* An empty object for the same machine as @like, to be written to @path. */
struct elf *elf_new(const struct elf *like, const char *path);
int elf_write(struct elf *elf, const char *path);
void elf_close(struct elf *elf);

/* Lookups: all hash based. */
struct section *find_section_by_name(const struct elf *elf, const char *name);
struct section *find_section_by_index(const struct elf *elf, unsigned int idx);
struct symbol *find_symbol_by_name(const struct elf *elf, const char *name);
struct symbol *find_symbol_by_index(const struct elf *elf, unsigned int idx);
/* A non-section symbol starting exactly at sec+offset (functions first). */
struct symbol *find_symbol_at(const struct section *sec, uint64_t offset);
/* A function or object symbol whose extent covers sec+offset. */
struct symbol *find_symbol_containing(const struct section *sec,
				      uint64_t offset);
/* The relocation applying at @offset of the non-rela section @sec. */
struct reloc *find_reloc_at(const struct section *sec, uint64_t offset);
/* The first relocation in [offset, offset+len) of @sec, lowest offset. */
struct reloc *find_reloc_in_range(const struct section *sec, uint64_t offset,
				  uint64_t len);

#define for_each_sec(elf, s)	list_for_each_entry(s, &(elf)->sections, list)
#define for_each_sym(elf, s)	list_for_each_entry(s, &(elf)->symbols, list)
#define for_each_reloc(rela, r)	list_for_each_entry(r, &(rela)->relocs, list)
#define for_each_reloc_safe(rela, r, t) \
	list_for_each_entry_safe(r, t, &(rela)->relocs, list)
/* Iterate the symbols with exactly @nm as name. */
#define for_each_sym_named(elf, s, nm)					\
	htable_for_each(&(elf)->sym_name_hash, s, name_hash, hash_str(nm)) \
		if (!strcmp((s)->name, nm))

static inline bool is_rela_section(const struct section *sec)
{
	return sec->sh.sh_type == SHT_RELA;
}

static inline bool is_text_section(const struct section *sec)
{
	return sec->sh.sh_type == SHT_PROGBITS &&
	       (sec->sh.sh_flags & SHF_EXECINSTR);
}

static inline bool is_string_section(const struct section *sec)
{
	return (sec->sh.sh_flags & SHF_STRINGS) != 0;
}

static inline bool is_local_sym(const struct symbol *sym)
{
	return sym->bind == STB_LOCAL;
}

static inline bool is_undef_sym(const struct symbol *sym)
{
	return !sym->sec && sym->shndx == SHN_UNDEF && sym->type != STT_FILE;
}

/* Mutation. New sections and symbols go to the end of their lists. */
struct section *elf_create_section(struct elf *elf, const char *name,
				   unsigned int type, uint64_t flags,
				   uint64_t entsize, uint64_t align,
				   size_t size);
/* The relocation section of @base, created on first use. */
struct section *elf_rela_section(struct elf *elf, struct section *base);
/* Append @len bytes (zeroes when @data is NULL) at @align; returns offset. */
uint64_t elf_section_append(struct section *sec, const void *data,
			    size_t len, uint64_t align);
struct symbol *elf_create_symbol(struct elf *elf, const char *name,
				 struct section *sec, uint64_t offset,
				 uint64_t size, unsigned char bind,
				 unsigned char type);
/* The STT_SECTION symbol of @sec, created on first use. */
struct symbol *elf_section_symbol(struct elf *elf, struct section *sec);
struct reloc *elf_add_reloc(struct elf *elf, struct section *base,
			    uint64_t offset, struct symbol *sym,
			    unsigned int type, int64_t addend);
void elf_remove_reloc(struct reloc *reloc);
/* Move a relocation to another relocation section (same base offset). */
void elf_move_reloc(struct reloc *reloc, struct section *rela);
void elf_rename_symbol(struct symbol *sym, const char *name);
void elf_rename_section(struct section *sec, const char *name);
/* Make @sym an undefined reference (drops its section and value). */
void elf_undefine_symbol(struct symbol *sym);
void elf_remove_symbol(struct symbol *sym);
/* Removes the section, its relocations and its relocation section. */
void elf_remove_section(struct section *sec);
/* Place @sec right after @after in the section list (output order). */
void elf_move_section_after(struct section *sec, struct section *after);

/*
 * For lib/elf-read.c only: the model's own constructors (lib/elf.c), with
 * which it builds the model of the file it reads. The tools use
 * elf_open(), elf_new() and the mutations above.
 */
/* An empty model, for the object at @path. */
struct elf *elf_alloc(const char *path);
/* Enter @sym, its name, section and offset set, in the model's indices. */
void elf_index_symbol(struct elf *elf, struct symbol *sym);
/*
 * A relocation appended to the relocation section @rela, which need not be
 * its base's ->rela (a .klp.rela section is not).
 */
struct reloc *elf_append_reloc(struct section *rela, uint64_t offset,
			       struct symbol *sym, unsigned int type,
			       int64_t addend);

#endif
