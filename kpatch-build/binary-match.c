/*
 * kpatch-binary-match: is a rebuilt original object the one the running
 * kernel was built from?
 *
 *   kpatch-binary-match ORIG.o SHIPPED FUNC...
 *
 * ORIG.o is an original object kpatch-build rebuilt from the distribution's
 * source and configuration; SHIPPED is the distribution's binary it belongs
 * to: the unstripped vmlinux (ET_EXEC) or the debug module (ET_REL) of the
 * -dbg package. For each FUNC, the function of that name in ORIG.o must have
 * the size and the bytes of one of that name in SHIPPED, apart from the
 * fields relocations fill (the object's, and a module's own): a live patch
 * diffed against anything else would replace code the kernel does not run.
 * A compiler update, a configuration that drifted or another source would
 * all show here first.
 *
 * Prints one line per function that does not match (its name, why); exit 0
 * when all match, 2 when one does not, 1 on bad input.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arch/arch.h"
#include "lib/elf.h"
#include "lib/util.h"

/* A function's code, and which of its bytes relocations fill (mask[i] set). */
struct code {
	unsigned char *bytes;
	unsigned char *mask;
	uint64_t size;
};

static void code_free(struct code *c)
{
	free(c->bytes);
	free(c->mask);
	memset(c, 0, sizeof(*c));
}

/* The code of @sym in a relocatable object, its relocated fields masked. */
static void code_of_rel(const struct arch *arch, const struct symbol *sym,
			struct code *c)
{
	const struct section *sec = sym->sec;
	struct reloc *r;
	uint64_t i, w;

	c->size = sym->size;
	c->bytes = xcalloc(1, c->size ? c->size : 1);
	c->mask = xcalloc(1, c->size ? c->size : 1);
	if (sec->data && sym->offset + sym->size <= sec->size)
		memcpy(c->bytes, sec->data + sym->offset, sym->size);
	if (!sec->rela)
		return;
	for_each_reloc(sec->rela, r) {
		if (r->offset < sym->offset || r->offset >= sym->offset + sym->size)
			continue;
		w = arch->reloc_size(r->type);
		for (i = 0; i < (w ? w : 8) && r->offset - sym->offset + i < c->size; i++)
			c->mask[r->offset - sym->offset + i] = 1;
	}
}

/* The entry size of @row's section: fixed, or the running kernel's struct's. */
static uint64_t entry_size(const struct special_section *row)
{
	const char *v = row->size_env ? getenv(row->size_env) : NULL;

	if (row->size)
		return row->size;
	return v ? strtoull(v, NULL, 0) : 0;
}

/*
 * Mask the jump-label sites of @sym (entries of __jump_table point at them):
 * the build may rewrite them after compiling (objtool at link time on x86).
 * Without the entry size (JUMP_STRUCT_SIZE, which kpatch-build exports from
 * the running kernel's DWARF) every reference from the table is taken.
 */
static void mask_jump_sites(struct elf *elf, const struct arch *arch,
			    const struct symbol *sym, struct code *c)
{
	const struct special_section *row = arch_special(arch, "__jump_table");
	struct section *jt = find_section_by_name(elf, "__jump_table");
	uint64_t esize, at, i;
	struct reloc *r;

	if (!row || !jt || !jt->rela)
		return;
	esize = entry_size(row);
	for_each_reloc(jt->rela, r) {
		if (esize && r->offset % esize != row->owner_off)
			continue;
		if (!r->sym || r->sym->sec != sym->sec)
			continue;
		at = (r->sym->type == STT_SECTION ? 0 : r->sym->offset) +
		     (uint64_t)arch->reloc_target(jt, r);
		if (at < sym->offset || at >= sym->offset + sym->size)
			continue;
		for (i = 0; i < arch->jump_site_len && at - sym->offset + i < c->size; i++)
			c->mask[at - sym->offset + i] = 1;
	}
}

/* Do @a (the rebuilt) and @b (the shipped) agree; else where they differ. */
static bool code_equal(const struct code *a, const struct code *b, uint64_t *at)
{
	uint64_t i;

	for (i = 0; i < a->size; i++) {
		if (a->mask[i] || (b->mask && b->mask[i]))
			continue;
		if (a->bytes[i] != b->bytes[i]) {
			*at = i;
			return false;
		}
	}
	return true;
}

/* ---- the shipped binary: a module (the ELF model) or vmlinux (libelf) */

struct shipped {
	const char *path;
	struct elf *rel;	/* a module */
	int fd;			/* vmlinux */
	Elf *e;
	size_t symtab_ndx;
};

static void shipped_open(struct shipped *s, const char *path)
{
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	memset(s, 0, sizeof(*s));
	s->path = path;
	elf_version(EV_CURRENT);
	s->fd = open(path, O_RDONLY);
	if (s->fd < 0)
		die(EXIT_BADINPUT, "%s: cannot open", path);
	s->e = elf_begin(s->fd, ELF_C_READ, NULL);
	if (!s->e || !gelf_getehdr(s->e, &eh))
		die(EXIT_BADINPUT, "%s: not an ELF file", path);
	if (eh.e_type == ET_REL) {
		elf_end(s->e);
		close(s->fd);
		s->e = NULL;
		s->rel = elf_open(path);
		if (!s->rel)
			exit(EXIT_BADINPUT);	/* elf_open() said why */
		return;
	}
	while ((scn = elf_nextscn(s->e, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			s->symtab_ndx = elf_ndxscn(scn);
	if (!s->symtab_ndx)
		die(EXIT_BADINPUT, "%s: no symbol table (a stripped binary? use the -dbg package's)", path);
}

/* The @n-th function named @name in vmlinux (0-based), read into @c. */
static bool vmlinux_code(struct shipped *s, const char *name, int n, struct code *c)
{
	Elf_Scn *scn = elf_getscn(s->e, s->symtab_ndx);
	Elf_Data *d = elf_getdata(scn, NULL);
	GElf_Shdr sh, tsh;
	GElf_Sym sym;
	size_t i, nsyms;
	const char *nm;

	gelf_getshdr(scn, &sh);
	nsyms = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
	for (i = 0; i < nsyms; i++) {
		if (!gelf_getsym(d, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		nm = elf_strptr(s->e, sh.sh_link, sym.st_name);
		if (!nm || strcmp(nm, name) || n-- > 0)
			continue;
		if (!gelf_getshdr(elf_getscn(s->e, sym.st_shndx), &tsh) ||
		    tsh.sh_type != SHT_PROGBITS)
			return false;
		c->size = sym.st_size;
		c->bytes = xcalloc(1, c->size ? c->size : 1);
		c->mask = NULL;
		if (pread(s->fd, c->bytes, c->size,
			  (off_t)(tsh.sh_offset + sym.st_value - tsh.sh_addr)) != (ssize_t)c->size)
			die(EXIT_BADINPUT, "%s: cannot read %s", s->path, name);
		return true;
	}
	return false;
}

/* The @n-th function named @name in the shipped binary, read into @c. */
static bool shipped_code(struct shipped *s, const struct arch *arch,
			 const char *name, int n, struct code *c)
{
	struct symbol *sym;

	if (!s->rel)
		return vmlinux_code(s, name, n, c);
	for_each_sym_named(s->rel, sym, name) {
		if (sym->type != STT_FUNC || !sym->sec || n-- > 0)
			continue;
		code_of_rel(arch, sym, c);
		return true;
	}
	return false;
}

/* ---- one function */

static bool match_one(struct elf *orig, const struct arch *arch,
		      struct shipped *s, const char *name)
{
	struct symbol *sym = NULL, *t;
	struct code mine = { 0 }, theirs = { 0 };
	uint64_t at = 0, size0 = 0;
	int n;

	for_each_sym_named(orig, t, name)
		if (t->type == STT_FUNC && t->sec)
			sym = t;
	if (!sym) {
		printf("%s: not a function of %s\n", name, orig->path);
		return false;
	}
	code_of_rel(arch, sym, &mine);
	mask_jump_sites(orig, arch, sym, &mine);
	/* a static function may have namesakes: any one that matches will do */
	for (n = 0; shipped_code(s, arch, name, n, &theirs); n++) {
		if (!size0)
			size0 = theirs.size;
		if (theirs.size == mine.size && code_equal(&mine, &theirs, &at)) {
			code_free(&mine);
			code_free(&theirs);
			return true;
		}
		code_free(&theirs);
	}
	if (!n)
		printf("%s: not in %s\n", name, s->path);
	else if (size0 != mine.size)
		printf("%s: %llu bytes rebuilt, %llu bytes in %s\n", name,
		       (unsigned long long)mine.size, (unsigned long long)size0, s->path);
	else
		printf("%s: differs from %s at offset 0x%llx\n", name, s->path,
		       (unsigned long long)at);
	code_free(&mine);
	return false;
}

int main(int argc, char **argv)
{
	struct shipped s;
	struct elf *orig;
	const struct arch *arch;
	int i, bad = 0;

	progname = "kpatch-binary-match";
	if (argc < 4) {
		fprintf(stderr, "usage: kpatch-binary-match ORIG.o SHIPPED FUNC...\n");
		return EXIT_BADINPUT;
	}
	orig = elf_open(argv[1]);
	arch = orig ? arch_get(orig) : NULL;
	if (!arch) {
		elf_close(orig);
		return EXIT_BADINPUT;
	}
	shipped_open(&s, argv[2]);
	for (i = 3; i < argc; i++)
		bad += !match_one(orig, arch, &s, argv[i]);
	if (s.rel)
		elf_close(s.rel);
	if (s.e) {
		elf_end(s.e);
		close(s.fd);
	}
	elf_close(orig);
	return bad ? EXIT_REFUSED : 0;
}
