// SPDX-License-Identifier: GPL-2.0
/*
 * Reading an object into the model (elf_open()). Every index and offset
 * found in the file is checked before use: a corrupted or truncated object
 * gets one clear line naming it (and the section or symbol) and elf_open()
 * returns NULL, never a crash; the tool decides what to do about it. The
 * model is built with lib/elf.c's constructors, the ones its mutation uses,
 * so a model read and a model made hold their indices alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "elf.h"
#include "util.h"

/* The error line, naming the object: -1, for the reader to return. */
static int __attribute__((format(printf, 2, 3)))
bad(const struct elf *elf, const char *fmt, ...)
{
	char *msg;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	errorf("%s: %s", elf->path, msg ? msg : fmt);
	free(msg);
	return -1;
}

static int read_ehdr(struct elf *elf, Elf *e)
{
	const char *id;
	size_t n;

	if (elf_kind(e) != ELF_K_ELF)
		return bad(elf, "not an ELF object");
	id = elf_getident(e, &n);
	if (!id || n < EI_NIDENT)
		return bad(elf, "truncated ELF header");
	if (id[EI_CLASS] != ELFCLASS64)
		return bad(elf, "not a 64-bit ELF object (wrong machine?)");
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return bad(elf, "unknown byte order %u", (unsigned int)id[EI_DATA]);
	elf->big_endian = id[EI_DATA] == ELFDATA2MSB;
	if (!gelf_getehdr(e, &elf->ehdr))
		return bad(elf, "bad ELF header: %s", elf_errmsg(-1));
	if (elf->ehdr.e_type != ET_REL)
		return bad(elf, "not a relocatable object (ELF type %u)",
		    elf->ehdr.e_type);
	return 0;
}

static int read_section_data(struct elf *elf, Elf_Scn *scn,
			     struct section *sec)
{
	Elf_Data *d;

	sec->size = sec->sh.sh_size;
	if (sec->sh.sh_type == SHT_NOBITS || !sec->size)
		return 0;
	/* the tables are read translated, by read_symbols and read_relocs */
	if (sec->sh.sh_type == SHT_SYMTAB || sec->sh.sh_type == SHT_RELA)
		return 0;
	d = elf_rawdata(scn, NULL);
	if (!d || d->d_size != sec->sh.sh_size || !d->d_buf)
		return bad(elf, "section %s: truncated or unreadable contents",
		    sec->name);
	sec->data = xmalloc(sec->size);
	memcpy(sec->data, d->d_buf, sec->size);
	return 0;
}

static int read_sections(struct elf *elf, Elf *e)
{
	size_t nsec, shstrndx, i;

	if (elf_getshdrnum(e, &nsec) || elf_getshdrstrndx(e, &shstrndx))
		return bad(elf, "bad section headers: %s", elf_errmsg(-1));
	if (!nsec || shstrndx >= nsec)
		return bad(elf, "no section name table");
	elf->sec_by_index = xcalloc(nsec, sizeof(*elf->sec_by_index));
	elf->nr_sec_index = nsec;
	for (i = 1; i < nsec; i++) {
		Elf_Scn *scn = elf_getscn(e, i);
		GElf_Shdr sh;
		const char *name;
		struct section *sec;

		if (!scn || !gelf_getshdr(scn, &sh))
			return bad(elf, "bad section header %zu", i);
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!name)
			return bad(elf, "section %zu: bad name offset", i);
		if (sh.sh_type == SHT_GROUP)
			continue;
		if (sh.sh_type == SHT_REL)
			return bad(elf, "section %s: REL relocations are not supported",
			    name);
		/* empty (size 0: no contents yet), then its header whole */
		sec = elf_create_section(elf, name, sh.sh_type, sh.sh_flags,
					 sh.sh_entsize, sh.sh_addralign, 0);
		sec->sh = sh;
		sec->index = i;
		elf->sec_by_index[i] = sec;
		if (read_section_data(elf, scn, sec))
			return -1;
		if (sh.sh_type == SHT_SYMTAB) {
			if (elf->symtab)
				return bad(elf, "more than one symbol table");
			elf->symtab = sec;
		}
		if (i == shstrndx)
			elf->shstrtab = sec;
	}
	if (!elf->symtab)
		return bad(elf, "no symbol table (stripped object?)");
	return 0;
}

/* sh_link / sh_info as section pointers, checked. */
static int link_sections(struct elf *elf)
{
	struct section *sec;

	for_each_sec(elf, sec) {
		unsigned int l = sec->sh.sh_link, inf = sec->sh.sh_info;

		if (l) {
			if (l >= elf->nr_sec_index || !elf->sec_by_index[l])
				return bad(elf, "section %s: bad sh_link %u",
				    sec->name, l);
			sec->link = elf->sec_by_index[l];
		}
		if (!is_rela_section(sec))
			continue;
		if (sec->link != elf->symtab)
			return bad(elf, "section %s: relocations not against the symbol table",
			    sec->name);
		if (!inf || inf >= elf->nr_sec_index || !elf->sec_by_index[inf] ||
		    is_rela_section(elf->sec_by_index[inf]))
			return bad(elf, "section %s: bad target section %u",
			    sec->name, inf);
		sec->base = elf->sec_by_index[inf];
		/*
		 * A livepatch relocation section (.klp.rela.<obj>.<sec>)
		 * shares its target with the ordinary .rela<sec>: it is
		 * reachable from its own relocs only, never as base->rela.
		 */
		if (sec->sh.sh_flags & SHF_RELA_LIVEPATCH)
			continue;
		if (sec->base->rela)
			return bad(elf, "section %s: two relocation sections",
			    sec->base->name);
		sec->base->rela = sec;
	}
	if (!elf->symtab->link || elf->symtab->link->sh.sh_type != SHT_STRTAB)
		return bad(elf, "symbol table without string table");
	elf->strtab = elf->symtab->link;
	return 0;
}

/* The name at @off of @strtab; NULL (said) when there is none. */
static const char *strtab_name(struct elf *elf, struct section *strtab,
			       uint64_t off)
{
	const char *s = (const char *)strtab->data;

	if (!s || off >= strtab->size || !memchr(s + off, 0, strtab->size - off)) {
		bad(elf, "%s: bad name offset %lu", strtab->name,
		    (unsigned long)off);
		return NULL;
	}
	return s + off;
}

static Elf_Data *find_xindex(struct elf *elf, Elf *e)
{
	struct section *sec;

	for_each_sec(elf, sec)
		if (sec->sh.sh_type == SHT_SYMTAB_SHNDX &&
		    sec->link == elf->symtab)
			return elf_getdata(elf_getscn(e, sec->index), NULL);
	return NULL;
}

static int place_symbol(struct elf *elf, struct symbol *sym, unsigned int shndx)
{
	struct section *sec;

	sym->shndx = shndx;
	if (shndx == SHN_UNDEF || (shndx >= SHN_LORESERVE && shndx <= SHN_HIRESERVE))
		return 0;
	if (shndx >= elf->nr_sec_index)
		return bad(elf, "symbol %s: bad section index %u", sym->name, shndx);
	sec = elf->sec_by_index[shndx];
	if (!sec) {
		/* a section group: its signature symbol is of no use to us */
		sym->shndx = SHN_UNDEF;
		return 0;
	}
	if (sym->type != STT_SECTION && sec->sh.sh_type != SHT_NOBITS &&
	    (sym->offset > sec->size || sym->size > sec->size - sym->offset))
		return bad(elf, "symbol %s extends past section %s", sym->name,
		    sec->name);
	sym->sec = sec;
	if (sym->type == STT_SECTION && !sec->secsym)
		sec->secsym = sym;
	return 0;
}

/* Symbol @i of the table @d (@xd: its extended section indices), or NULL. */
static struct symbol *read_symbol(struct elf *elf, Elf_Data *d, Elf_Data *xd,
				  size_t i)
{
	struct symbol *sym;
	const char *name;
	Elf32_Word xndx = 0;
	GElf_Sym s;

	if (!gelf_getsymshndx(d, xd, i, &s, &xndx)) {
		bad(elf, "bad symbol %zu", i);
		return NULL;
	}
	name = strtab_name(elf, elf->strtab, s.st_name);
	if (!name)
		return NULL;
	sym = xcalloc(1, sizeof(*sym));
	sym->elf = elf;
	sym->index = i;
	sym->name = xstrdup(name);
	sym->bind = GELF_ST_BIND(s.st_info);
	sym->type = GELF_ST_TYPE(s.st_info);
	sym->other = s.st_other;
	sym->offset = s.st_value;
	sym->size = s.st_size;
	if (place_symbol(elf, sym, s.st_shndx == SHN_XINDEX ? xndx : s.st_shndx))
		goto fail;
	if (sym->type == STT_SECTION && sym->sec && !sym->name[0]) {
		free(sym->name);
		sym->name = xstrdup(sym->sec->name);
	}
	return sym;
fail:
	free(sym->name);
	free(sym);
	return NULL;
}

static int read_symbols(struct elf *elf, Elf *e)
{
	struct section *st = elf->symtab;
	Elf_Data *d = elf_getdata(elf_getscn(e, st->index), NULL);
	Elf_Data *xd = find_xindex(elf, e);
	size_t n, i;

	if (st->sh.sh_entsize != sizeof(Elf64_Sym) || !d ||
	    d->d_size != st->sh.sh_size || d->d_type != ELF_T_SYM)
		return bad(elf, "bad symbol table");
	n = d->d_size / sizeof(Elf64_Sym);
	if (st->sh.sh_info > n)
		return bad(elf, "bad symbol table: sh_info %u past %zu symbols",
		    (unsigned int)st->sh.sh_info, n);
	elf->sym_by_index = xcalloc(n ? n : 1, sizeof(*elf->sym_by_index));
	elf->nr_sym_index = n;
	for (i = 1; i < n; i++) {
		struct symbol *sym;

		sym = read_symbol(elf, d, xd, i);
		if (!sym)
			return -1;
		list_add_tail(&sym->list, &elf->symbols);
		elf->sym_by_index[i] = sym;
		elf->nr_symbols++;
		elf_index_symbol(elf, sym);
	}
	return 0;
}

static int read_relocs(struct elf *elf, Elf *e, struct section *rela)
{
	Elf_Data *d;
	size_t n, i;

	if (rela->sh.sh_entsize != sizeof(Elf64_Rela) ||
	    rela->size % sizeof(Elf64_Rela))
		return bad(elf, "section %s: bad relocation entry size", rela->name);
	n = rela->size / sizeof(Elf64_Rela);
	if (!n)
		return 0;
	d = elf_getdata(elf_getscn(e, rela->index), NULL);
	if (!d || d->d_size != rela->size || d->d_type != ELF_T_RELA)
		return bad(elf, "section %s: truncated or unreadable relocations",
		    rela->name);
	for (i = 0; i < n; i++) {
		GElf_Rela r;
		unsigned int symi;

		if (!gelf_getrela(d, i, &r))
			return bad(elf, "section %s: relocation %zu unreadable",
			    rela->name, i);
		symi = GELF_R_SYM(r.r_info);
		if (symi >= elf->nr_sym_index)
			return bad(elf, "section %s: relocation %zu: bad symbol index %u",
			    rela->name, i, symi);
		if (rela->base->sh.sh_type != SHT_NOBITS &&
		    r.r_offset >= rela->base->size)
			return bad(elf, "section %s: relocation %zu: offset 0x%lx past section end",
			    rela->name, i, (unsigned long)r.r_offset);
		elf_append_reloc(rela, r.r_offset,
			     symi ? elf->sym_by_index[symi] : NULL,
			     GELF_R_TYPE(r.r_info), r.r_addend);
	}
	return 0;
}

static int read_model(struct elf *elf, Elf *e)
{
	struct section *sec;

	if (read_ehdr(elf, e) || read_sections(elf, e) || link_sections(elf) ||
	    read_symbols(elf, e))
		return -1;
	for_each_sec(elf, sec)
		if (is_rela_section(sec) && read_relocs(elf, e, sec))
			return -1;
	return 0;
}

struct elf *elf_open(const char *path)
{
	struct elf *elf = elf_alloc(path);
	Elf *e = NULL;
	int fd, ret = -1;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		bad(elf, "cannot open: %s", strerror(errno));
		goto out;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e) {
		bad(elf, "cannot read ELF: %s", elf_errmsg(-1));
		goto out;
	}
	ret = read_model(elf, e);
out:
	elf_end(e);
	if (fd >= 0)
		close(fd);
	if (!ret)
		return elf;
	/* what was read so far is a model elf_close() can free */
	elf_close(elf);
	return NULL;
}
