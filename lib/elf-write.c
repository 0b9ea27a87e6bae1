// SPDX-License-Identifier: GPL-2.0
/*
 * Writing the model as a new object. Section and symbol indices are
 * assigned afresh (locals first, as the ELF spec demands), the symbol,
 * string and relocation tables are regenerated from the model (in host
 * order; libelf translates them to the object's byte order, kept in the ELF
 * header's EI_DATA), and libelf lays out the file. The output goes to a
 * temporary name that is renamed over the target only once it is complete,
 * so a failure never leaves a half-written object behind. An error is one
 * line naming the object, and -1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "elf.h"
#include "util.h"

struct strbuf {
	char *buf;
	size_t len, cap;
	struct htable seen;
};

struct str_entry {
	struct hnode node;
	size_t off;
	const char *s;
};

static size_t strbuf_add(struct strbuf *sb, const char *s)
{
	struct str_entry *e;
	size_t n = strlen(s) + 1;
	uint32_t key = hash_str(s);

	htable_for_each(&sb->seen, e, node, key)
		if (!strcmp(e->s, s))
			return e->off;
	if (sb->len + n > sb->cap) {
		sb->cap = (sb->len + n) * 2;
		sb->buf = xrealloc(sb->buf, sb->cap);
	}
	memcpy(sb->buf + sb->len, s, n);
	e = xmalloc(sizeof(*e));
	e->off = sb->len;
	e->s = s;
	htable_add(&sb->seen, &e->node, key);
	sb->len += n;
	return e->off;
}

static void strbuf_init(struct strbuf *sb)
{
	memset(sb, 0, sizeof(*sb));
	htable_init(&sb->seen);
	strbuf_add(sb, "");
}

static void strbuf_release(struct strbuf *sb)
{
	unsigned int i;

	for (i = 0; i < (1u << sb->seen.bits); i++) {
		struct hnode *n = sb->seen.buckets[i], *next;

		for (; n; n = next) {
			next = n->next;
			free(container_of(n, struct str_entry, node));
		}
	}
	htable_free(&sb->seen);
}

static void set_section_data(struct section *sec, void *buf, size_t len)
{
	free(sec->data);
	sec->data = buf;
	sec->size = len;
	sec->sh.sh_size = len;
}

static void ensure_tables(struct elf *elf)
{
	if (!elf->shstrtab)
		elf->shstrtab = elf_create_section(elf, ".shstrtab", SHT_STRTAB,
						   0, 0, 1, 0);
	if (!elf->strtab)
		elf->strtab = elf_create_section(elf, ".strtab", SHT_STRTAB,
						 0, 0, 1, 0);
	if (!elf->symtab)
		elf->symtab = elf_create_section(elf, ".symtab", SHT_SYMTAB, 0,
						 sizeof(Elf64_Sym), 8, 0);
	elf->symtab->link = elf->strtab;
}

static bool keep_symbol(const struct symbol *sym)
{
	/* a section symbol whose section is gone has nothing to name */
	return !(sym->type == STT_SECTION && !sym->sec);
}

/* Locals first; every kept symbol gets its new index. */
static unsigned int number_symbols(struct elf *elf, unsigned int *first_global)
{
	struct symbol *sym;
	unsigned int idx = 1;

	for_each_sym(elf, sym)
		if (keep_symbol(sym) && sym->bind == STB_LOCAL)
			sym->index = idx++;
	*first_global = idx;
	for_each_sym(elf, sym)
		if (keep_symbol(sym) && sym->bind != STB_LOCAL)
			sym->index = idx++;
	return idx;
}

static int build_symtab(struct elf *elf)
{
	unsigned int n, first_global;
	struct strbuf names;
	struct symbol *sym;
	Elf64_Sym *tab;

	n = number_symbols(elf, &first_global);
	tab = xcalloc(n, sizeof(*tab));
	strbuf_init(&names);
	for_each_sym(elf, sym) {
		Elf64_Sym *s;

		if (!keep_symbol(sym))
			continue;
		s = &tab[sym->index];
		s->st_name = sym->type == STT_SECTION ? 0 :
			     strbuf_add(&names, sym->name);
		s->st_info = GELF_ST_INFO(sym->bind, sym->type);
		s->st_other = sym->other;
		s->st_value = sym->offset;
		s->st_size = sym->size;
		if (sym->sec && sym->sec->index >= SHN_LORESERVE) {
			errorf("%s: too many sections to write", elf->path);
			free(tab);
			strbuf_release(&names);
			free(names.buf);
			return -1;
		}
		s->st_shndx = sym->sec ? sym->sec->index : sym->shndx;
	}
	set_section_data(elf->symtab, tab, n * sizeof(*tab));
	elf->symtab->sh.sh_info = first_global;
	elf->symtab->sh.sh_entsize = sizeof(Elf64_Sym);
	set_section_data(elf->strtab, names.buf, names.len);
	strbuf_release(&names);
	return 0;
}

static int build_rela(struct elf *elf, struct section *rela)
{
	Elf64_Rela *tab;
	struct reloc *r;
	size_t n = 0;

	for_each_reloc(rela, r)
		n++;
	tab = xcalloc(n, sizeof(*tab));
	n = 0;
	for_each_reloc(rela, r) {
		if (r->sym && (!keep_symbol(r->sym) || !r->sym->index)) {
			errorf("%s: %s+0x%lx: relocation against removed symbol %s",
			       elf->path, rela->base->name,
			       (unsigned long)r->offset, r->sym->name);
			free(tab);
			return -1;
		}
		tab[n].r_offset = r->offset;
		tab[n].r_info = GELF_R_INFO(r->sym ? r->sym->index : 0, r->type);
		tab[n].r_addend = r->addend;
		n++;
	}
	set_section_data(rela, tab, n * sizeof(*tab));
	rela->sh.sh_entsize = sizeof(Elf64_Rela);
	rela->link = elf->symtab;
	return 0;
}

static void number_sections(struct elf *elf)
{
	struct section *sec;
	unsigned int idx = 1;

	for_each_sec(elf, sec)
		sec->index = idx++;
}

static int build_tables(struct elf *elf)
{
	struct strbuf names;
	struct section *sec;
	struct symbol *sym;

	ensure_tables(elf);
	/* symbols of removed sections must not survive as dangling */
	for_each_sym(elf, sym)
		sym->index = 0;
	number_sections(elf);
	if (build_symtab(elf))
		return -1;
	for_each_sec(elf, sec)
		if (is_rela_section(sec) && build_rela(elf, sec))
			return -1;
	strbuf_init(&names);
	for_each_sec(elf, sec)
		sec->sh.sh_name = strbuf_add(&names, sec->name);
	set_section_data(elf->shstrtab, names.buf, names.len);
	strbuf_release(&names);
	for_each_sec(elf, sec) {
		sec->sh.sh_link = sec->link ? sec->link->index : 0;
		if (is_rela_section(sec))
			sec->sh.sh_info = sec->base->index;
		else if (sec->sh.sh_flags & SHF_INFO_LINK && sec->sh.sh_info)
			sec->sh.sh_info = 0;
	}
	return 0;
}

/* What libelf translates: the tables; contents are written as they are. */
static Elf_Type data_type(const struct elf *elf, const struct section *sec)
{
	if (sec == elf->symtab)
		return ELF_T_SYM;
	if (is_rela_section(sec))
		return ELF_T_RELA;
	return ELF_T_BYTE;
}

static int write_sections(struct elf *elf, Elf *e)
{
	struct section *sec;

	for_each_sec(elf, sec) {
		Elf_Scn *scn = elf_newscn(e);
		Elf_Data *d;
		GElf_Shdr sh;

		if (!scn)
			goto err;
		d = elf_newdata(scn);
		if (!d)
			goto err;
		d->d_buf = sec->data;
		d->d_size = sec->size;
		d->d_type = data_type(elf, sec);
		d->d_align = sec->sh.sh_addralign ? sec->sh.sh_addralign : 1;
		d->d_version = EV_CURRENT;
		sh = sec->sh;
		sh.sh_size = sec->size;
		sh.sh_offset = 0;
		if (!gelf_update_shdr(scn, &sh))
			goto err;
	}
	return 0;
err:
	errorf("%s: cannot build section %s: %s", elf->path, sec->name,
	       elf_errmsg(-1));
	return -1;
}

/* The ELF header into @e; false: libelf refused it. */
static bool write_ehdr(struct elf *elf, Elf *e)
{
	GElf_Ehdr eh;

	if (!gelf_newehdr(e, ELFCLASS64))
		return false;
	eh = elf->ehdr;
	eh.e_shoff = 0;
	eh.e_phoff = 0;
	eh.e_phnum = 0;
	eh.e_shstrndx = elf->shstrtab->index;
	eh.e_type = ET_REL;
	return gelf_update_ehdr(e, &eh);
}

int elf_write(struct elf *elf, const char *path)
{
	char *tmp;
	Elf *e;
	int fd;

	if (build_tables(elf))
		return -1;
	tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	elf_version(EV_CURRENT);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		errorf("%s: cannot create: %s", path, strerror(errno));
		goto out;
	}
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!e || !write_ehdr(elf, e))
		goto err_elf;
	if (write_sections(elf, e))
		goto err;
	if (elf_update(e, ELF_C_WRITE) < 0)
		goto err_elf;
	elf_end(e);
	if (close(fd) || rename(tmp, path)) {
		errorf("%s: cannot write: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	free(tmp);
	return 0;
err_elf:
	errorf("%s: cannot write ELF: %s", path, elf_errmsg(-1));
err:
	elf_end(e);
	close(fd);
	unlink(tmp);
out:
	free(tmp);
	return -1;
}
