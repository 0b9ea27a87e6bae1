// SPDX-License-Identifier: GPL-2.0
/*
 * The model in memory: its sections, symbols and relocations made, kept in
 * the hash indices (by name, by section+offset), looked up, changed and
 * freed. Reading a file into it is lib/elf-read.c, writing it out
 * lib/elf-write.c; both go through what is here.
 */
#include <stdlib.h>
#include <string.h>
#include "elf.h"
#include "util.h"

/* ---- construction and indices ---- */

static uint32_t sym_off_key(const struct section *sec, uint64_t offset)
{
	return hash_u64((uint64_t)(uintptr_t)sec * 31 + offset);
}

void elf_index_symbol(struct elf *elf, struct symbol *sym)
{
	htable_add(&elf->sym_name_hash, &sym->name_hash, hash_str(sym->name));
	if (sym->sec) {
		list_add_tail(&sym->sec_list, &sym->sec->symbols);
		htable_add(&elf->sym_off_hash, &sym->off_hash,
			   sym_off_key(sym->sec, sym->offset));
	} else {
		INIT_LIST_HEAD(&sym->sec_list);
	}
}

static void unindex_symbol(struct elf *elf, struct symbol *sym)
{
	htable_del(&elf->sym_name_hash, &sym->name_hash);
	if (sym->sec) {
		list_del(&sym->sec_list);
		htable_del(&elf->sym_off_hash, &sym->off_hash);
	}
}

static struct section *new_section(struct elf *elf, const char *name)
{
	struct section *sec = xcalloc(1, sizeof(*sec));

	sec->elf = elf;
	sec->name = xstrdup(name);
	INIT_LIST_HEAD(&sec->relocs);
	INIT_LIST_HEAD(&sec->symbols);
	list_add_tail(&sec->list, &elf->sections);
	htable_add(&elf->sec_name_hash, &sec->name_hash, hash_str(name));
	elf->nr_sections++;
	return sec;
}

struct reloc *elf_append_reloc(struct section *rela, uint64_t offset,
			       struct symbol *sym, unsigned int type,
			       int64_t addend)
{
	struct reloc *r = xcalloc(1, sizeof(*r));

	r->rela = rela;
	r->sym = sym;
	r->offset = offset;
	r->type = type;
	r->addend = addend;
	list_add_tail(&r->list, &rela->relocs);
	htable_add(&rela->elf->reloc_off_hash, &r->off_hash,
		   sym_off_key(rela->base, offset));
	return r;
}

struct elf *elf_alloc(const char *path)
{
	struct elf *elf = xcalloc(1, sizeof(*elf));

	elf->path = xstrdup(path);
	INIT_LIST_HEAD(&elf->sections);
	INIT_LIST_HEAD(&elf->symbols);
	htable_init(&elf->sec_name_hash);
	htable_init(&elf->sym_name_hash);
	htable_init(&elf->sym_off_hash);
	htable_init(&elf->reloc_off_hash);
	return elf;
}

struct elf *elf_new(const struct elf *like, const char *path)
{
	struct elf *elf = elf_alloc(path);

	elf->ehdr = like->ehdr;
	elf->big_endian = like->big_endian;
	return elf;
}

/* ---- lookups ---- */

struct section *find_section_by_name(const struct elf *elf, const char *name)
{
	struct section *sec;

	htable_for_each(&elf->sec_name_hash, sec, name_hash, hash_str(name))
		if (!strcmp(sec->name, name))
			return sec;
	return NULL;
}

struct section *find_section_by_index(const struct elf *elf, unsigned int idx)
{
	return idx < elf->nr_sec_index ? elf->sec_by_index[idx] : NULL;
}

struct symbol *find_symbol_by_name(const struct elf *elf, const char *name)
{
	struct symbol *sym;

	for_each_sym_named(elf, sym, name)
		return sym;
	return NULL;
}

struct symbol *find_symbol_by_index(const struct elf *elf, unsigned int idx)
{
	return idx < elf->nr_sym_index ? elf->sym_by_index[idx] : NULL;
}

struct symbol *find_symbol_at(const struct section *sec, uint64_t offset)
{
	struct symbol *sym, *best = NULL;

	htable_for_each(&sec->elf->sym_off_hash, sym, off_hash,
			sym_off_key(sec, offset)) {
		if (sym->sec != sec || sym->offset != offset ||
		    sym->type == STT_SECTION)
			continue;
		if (!best || (sym->type == STT_FUNC && best->type != STT_FUNC) ||
		    (sym->size && !best->size))
			best = sym;
	}
	return best;
}

struct symbol *find_symbol_containing(const struct section *sec,
				      uint64_t offset)
{
	struct symbol *sym;

	list_for_each_entry(sym, &sec->symbols, sec_list)
		if ((sym->type == STT_FUNC || sym->type == STT_OBJECT) &&
		    offset >= sym->offset && offset < sym->offset + sym->size)
			return sym;
	return NULL;
}

struct reloc *find_reloc_at(const struct section *sec, uint64_t offset)
{
	struct reloc *r;

	htable_for_each(&sec->elf->reloc_off_hash, r, off_hash,
			sym_off_key(sec, offset))
		if (r->offset == offset && r->rela->base == sec)
			return r;
	return NULL;
}

struct reloc *find_reloc_in_range(const struct section *sec, uint64_t offset,
				  uint64_t len)
{
	struct reloc *r, *best = NULL;
	uint64_t o;

	if (!sec->rela)
		return NULL;
	if (len > 64) {
		for_each_reloc(sec->rela, r)
			if (r->offset >= offset && r->offset < offset + len &&
			    (!best || r->offset < best->offset))
				best = r;
		return best;
	}
	for (o = offset; o < offset + len; o++) {
		r = find_reloc_at(sec, o);
		if (r)
			return r;
	}
	return NULL;
}

/* ---- mutation ---- */

struct section *elf_create_section(struct elf *elf, const char *name,
				   unsigned int type, uint64_t flags,
				   uint64_t entsize, uint64_t align,
				   size_t size)
{
	struct section *sec = new_section(elf, name);

	sec->sh.sh_type = type;
	sec->sh.sh_flags = flags;
	sec->sh.sh_entsize = entsize;
	sec->sh.sh_addralign = align ? align : 1;
	sec->sh.sh_size = size;
	sec->size = size;
	if (type != SHT_NOBITS && size)
		sec->data = xcalloc(1, size);
	return sec;
}

struct section *elf_rela_section(struct elf *elf, struct section *base)
{
	struct section *rela;
	char *name;

	if (base->rela)
		return base->rela;
	name = xasprintf(".rela%s", base->name);
	rela = elf_create_section(elf, name, SHT_RELA, SHF_INFO_LINK,
				  sizeof(Elf64_Rela), 8, 0);
	free(name);
	rela->base = base;
	rela->link = elf->symtab;
	base->rela = rela;
	return rela;
}

uint64_t elf_section_append(struct section *sec, const void *data,
			    size_t len, uint64_t align)
{
	uint64_t off = sec->size;

	if (align > 1)
		off = (off + align - 1) & ~(align - 1);
	if (align > sec->sh.sh_addralign)
		sec->sh.sh_addralign = align;
	if (sec->sh.sh_type != SHT_NOBITS) {
		sec->data = xrealloc(sec->data, off + len);
		memset(sec->data + sec->size, 0, off - sec->size);
		if (data)
			memcpy(sec->data + off, data, len);
		else
			memset(sec->data + off, 0, len);
	}
	sec->size = off + len;
	sec->sh.sh_size = sec->size;
	return off;
}

struct symbol *elf_create_symbol(struct elf *elf, const char *name,
				 struct section *sec, uint64_t offset,
				 uint64_t size, unsigned char bind,
				 unsigned char type)
{
	struct symbol *sym = xcalloc(1, sizeof(*sym));

	sym->elf = elf;
	sym->name = xstrdup(name);
	sym->sec = sec;
	sym->shndx = SHN_UNDEF;
	sym->offset = offset;
	sym->size = size;
	sym->bind = bind;
	sym->type = type;
	list_add_tail(&sym->list, &elf->symbols);
	elf->nr_symbols++;
	elf_index_symbol(elf, sym);
	if (type == STT_SECTION && sec && !sec->secsym)
		sec->secsym = sym;
	return sym;
}

struct symbol *elf_section_symbol(struct elf *elf, struct section *sec)
{
	if (!sec->secsym)
		elf_create_symbol(elf, sec->name, sec, 0, 0, STB_LOCAL,
				  STT_SECTION);
	return sec->secsym;
}

struct reloc *elf_add_reloc(struct elf *elf, struct section *base,
			    uint64_t offset, struct symbol *sym,
			    unsigned int type, int64_t addend)
{
	return elf_append_reloc(elf_rela_section(elf, base), offset, sym,
				type, addend);
}

void elf_remove_reloc(struct reloc *r)
{
	list_del(&r->list);
	htable_del(&r->rela->elf->reloc_off_hash, &r->off_hash);
	free(r);
}

void elf_move_reloc(struct reloc *r, struct section *rela)
{
	list_del(&r->list);
	htable_del(&r->rela->elf->reloc_off_hash, &r->off_hash);
	r->rela = rela;
	list_add_tail(&r->list, &rela->relocs);
	htable_add(&rela->elf->reloc_off_hash, &r->off_hash,
		   sym_off_key(rela->base, r->offset));
}

void elf_rename_symbol(struct symbol *sym, const char *name)
{
	char *n = xstrdup(name);

	htable_del(&sym->elf->sym_name_hash, &sym->name_hash);
	free(sym->name);
	sym->name = n;
	htable_add(&sym->elf->sym_name_hash, &sym->name_hash, hash_str(n));
}

void elf_rename_section(struct section *sec, const char *name)
{
	char *n = xstrdup(name);

	htable_del(&sec->elf->sec_name_hash, &sec->name_hash);
	free(sec->name);
	sec->name = n;
	htable_add(&sec->elf->sec_name_hash, &sec->name_hash, hash_str(n));
}

void elf_undefine_symbol(struct symbol *sym)
{
	if (sym->sec) {
		if (sym->sec->secsym == sym)
			sym->sec->secsym = NULL;
		list_del(&sym->sec_list);
		htable_del(&sym->elf->sym_off_hash, &sym->off_hash);
	}
	sym->sec = NULL;
	sym->shndx = SHN_UNDEF;
	sym->offset = 0;
	sym->size = 0;
}

void elf_remove_symbol(struct symbol *sym)
{
	struct elf *elf = sym->elf;

	if (sym->sec && sym->sec->secsym == sym)
		sym->sec->secsym = NULL;
	unindex_symbol(elf, sym);
	list_del(&sym->list);
	elf->nr_symbols--;
	if (sym->index < elf->nr_sym_index &&
	    elf->sym_by_index[sym->index] == sym)
		elf->sym_by_index[sym->index] = NULL;
	free(sym->name);
	free(sym);
}

static void free_section(struct section *sec)
{
	struct elf *elf = sec->elf;

	if (sec->index < elf->nr_sec_index &&
	    elf->sec_by_index[sec->index] == sec)
		elf->sec_by_index[sec->index] = NULL;
	free(sec->data);
	free(sec->name);
	free(sec);
}

void elf_remove_section(struct section *sec)
{
	struct elf *elf = sec->elf;
	struct section *rela = sec->rela;
	struct reloc *r, *t;

	if (rela) {
		for_each_reloc_safe(rela, r, t)
			elf_remove_reloc(r);
		htable_del(&elf->sec_name_hash, &rela->name_hash);
		list_del(&rela->list);
		elf->nr_sections--;
		free_section(rela);
	}
	if (sec->base) {
		for_each_reloc_safe(sec, r, t)
			elf_remove_reloc(r);
		sec->base->rela = NULL;
	}
	while (!list_empty(&sec->symbols)) {
		struct symbol *sym = list_entry(sec->symbols.next,
						struct symbol, sec_list);
		elf_undefine_symbol(sym);
	}
	htable_del(&elf->sec_name_hash, &sec->name_hash);
	list_del(&sec->list);
	elf->nr_sections--;
	free_section(sec);
}

void elf_move_section_after(struct section *sec, struct section *after)
{
	list_del(&sec->list);
	list_add_tail(&sec->list, after->list.next);
}

void elf_close(struct elf *elf)
{
	struct section *sec, *ts;
	struct symbol *sym, *tsym;

	if (!elf)
		return;
	list_for_each_entry_safe(sec, ts, &elf->sections, list) {
		struct reloc *r, *tr;

		if (is_rela_section(sec))
			list_for_each_entry_safe(r, tr, &sec->relocs, list)
				free(r);
	}
	list_for_each_entry_safe(sec, ts, &elf->sections, list)
		free_section(sec);
	list_for_each_entry_safe(sym, tsym, &elf->symbols, list) {
		free(sym->name);
		free(sym);
	}
	htable_free(&elf->sec_name_hash);
	htable_free(&elf->sym_name_hash);
	htable_free(&elf->sym_off_hash);
	htable_free(&elf->reloc_off_hash);
	free(elf->sec_by_index);
	free(elf->sym_by_index);
	free(elf->path);
	free(elf);
}
