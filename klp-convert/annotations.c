// SPDX-License-Identifier: GPL-2.0
/*
 * The two inputs naming symbols of the running kernel: annotation tables
 * (".klp.module_relocs.<obj>": 12-byte records, a 64-bit absolute
 * relocation to the symbol and its sympos, written by KLP_MODULE_RELOC() or
 * by create-diff-object) and symbols the differ already named
 * ".klp.sym.<obj>.<name>,<sympos>". Both end as one struct klp_conv per
 * symbol; every check of the kernel's loader that can be made here is made
 * here, with the symbol or section named.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "klpc.h"
#include "arch/arch.h"
#include "lib/util.h"

static uint32_t sym_key(const struct symbol *sym)
{
	return hash_u64((uint64_t)(uintptr_t)sym);
}

static struct klp_conv *find_conv(struct klpc *k, const struct symbol *sym)
{
	struct klp_conv *c;

	htable_for_each(&k->convs, c, node, sym_key(sym))
		if (c->sym == sym)
			return c;
	return NULL;
}

struct klp_conv *klpc_conv_of(struct klpc *k, const struct symbol *sym)
{
	return find_conv(k, sym);
}

/*
 * ".klp.sym.<obj>.<name>,<pos>" as the kernel's sscanf reads it: the object
 * up to the first '.', the name up to the first ','.
 */
static void split_klp_name(struct klpc *k, const char *full, char **obj,
			   char **name, unsigned long *pos)
{
	const char *o = full + strlen(KLP_SYM_PREFIX), *dot, *comma;
	char *end;

	dot = strchr(o, '.');
	comma = dot ? strchr(dot + 1, ',') : NULL;
	if (!dot || dot == o || !comma || comma == dot + 1 || !comma[1])
		klpc_fail(k->path, full,
			  "malformed klp symbol name (want .klp.sym.<obj>.<name>,<sympos>)");
	*pos = strtoul(comma + 1, &end, 10);
	if (*end || comma[1] < '0' || comma[1] > '9')
		klpc_fail(k->path, full, "malformed sympos '%s'", comma + 1);
	*obj = xasprintf("%.*s", (int)(dot - o), o);
	*name = xasprintf("%.*s", (int)(comma - dot - 1), dot + 1);
}

static void check_name(struct klpc *k, const struct symbol *sym,
		       const char *name)
{
	size_t len = strlen(name);

	if (!len)
		klpc_fail(k->path, sym->name, "empty symbol name");
	if (len > KLP_SYMNAME_MAX)
		klpc_fail(k->path, sym->name,
			  "symbol name is %zu characters, over the kernel's limit of %d (KSYM_NAME_LEN - 1)",
			  len, KLP_SYMNAME_MAX);
	if (strchr(name, ','))
		klpc_fail(k->path, sym->name,
			  "symbol name contains ',' (the kernel splits the sympos there)");
}

static struct klp_obj *known_obj(struct klpc *k, const char *what,
				 const char *raw)
{
	char *name = klpc_obj_name(k, what, raw);
	struct klp_obj *obj = klpc_obj(k, name, false);

	if (!obj || !obj->known)
		klpc_fail(k->path, what,
			  "unknown object '%s': no .kpatch.funcs record, callback, --symtab or --object names it, so the patch has no klp_object whose load would apply these relocations",
			  name);
	free(name);
	return obj;
}

static void check_symtab(struct klpc *k, const struct symbol *sym,
			 const struct klp_obj *obj, const char *name,
			 unsigned long pos)
{
	unsigned long n;

	if (!obj->symtab)
		return;
	n = klpc_symtab_count(obj, name);
	if (!n)
		klpc_fail(k->path, sym->name, "no symbol '%s' in %s (%s)",
			  name, obj->name, obj->symtab_path);
	if (!pos && n > 1)
		klpc_fail(k->path, sym->name,
			  "ambiguous: %s has %lu symbols named '%s'; give the sympos (1..%lu)",
			  obj->name, n, name, n);
	if (pos > n)
		klpc_fail(k->path, sym->name,
			  "sympos %lu, but %s has only %lu symbol(s) named '%s'",
			  pos, obj->name, n, name);
}

/* Record that @sym (in @obj, at @pos) becomes a klp symbol. */
void klpc_add_conv(struct klpc *k, const char *what, struct symbol *sym,
		   struct klp_obj *obj, unsigned long pos, bool record)
{
	struct klp_conv *c;
	char *oname = NULL, *name;
	unsigned long npos;

	if (sym->type == STT_SECTION || sym->sec || sym->shndx == SHN_ABS ||
	    sym->shndx == SHN_COMMON)
		klpc_fail(k->path, sym->name,
			  "%s: the symbol is defined in the patch module, not in the running kernel",
			  what);
	if (!strncmp(sym->name, KLP_SYM_PREFIX, strlen(KLP_SYM_PREFIX))) {
		split_klp_name(k, sym->name, &oname, &name, &npos);
		if (strcmp(known_obj(k, sym->name, oname)->name, obj->name))
			klpc_fail(k->path, sym->name,
				  "the name says object %s, %s says %s",
				  oname, what, obj->name);
		if (npos != pos)
			klpc_fail(k->path, sym->name,
				  "the name says sympos %lu, %s says %lu",
				  npos, what, pos);
		free(oname);
	} else {
		name = xstrdup(sym->name);
	}
	check_name(k, sym, name);
	c = find_conv(k, sym);
	if (c) {
		if (c->obj != obj || c->sympos != pos)
			klpc_fail(k->path, sym->name,
				  "annotated twice: as %s,%lu and as %s,%lu",
				  c->obj->name, c->sympos, obj->name, pos);
		free(name);
		return;
	}
	check_symtab(k, sym, obj, name, pos);
	c = xcalloc(1, sizeof(*c));
	c->sym = sym;
	c->obj = obj;
	c->name = name;
	c->sympos = pos;
	c->from_record = record;
	htable_add(&k->convs, &c->node, sym_key(sym));
	list_add_tail(&c->list, &k->conv_list);
	k->nr_convs++;
}

static int cmp_reloc_off(const void *a, const void *b)
{
	const struct reloc *x = *(struct reloc *const *)a;
	const struct reloc *y = *(struct reloc *const *)b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/*
 * The relocations of an annotation section, by offset. Each marks a 12-byte
 * record; tables of several objects were concatenated by ld, so a record may
 * follow the previous one after alignment padding (less than 8 bytes, to an
 * 8-aligned offset) -- anything else is a record without its relocation.
 */
static struct reloc **table_entries(struct klpc *k, struct section *sec,
				    size_t *count)
{
	const struct arch *arch = klpc_arch(k);
	struct reloc **e, *r;
	size_t n = 0, i, holes = 0;
	uint64_t pos = 0;

	if (sec->rela)
		for_each_reloc(sec->rela, r)
			n++;
	if (!n)
		klpc_fail(k->path, sec->name,
			  "annotation section has no relocations (%zu bytes)",
			  sec->size);
	if (sec->sh.sh_type == SHT_NOBITS)
		klpc_fail(k->path, sec->name, "annotation section has no contents");
	e = xcalloc(n, sizeof(*e));
	n = 0;
	for_each_reloc(sec->rela, r)
		e[n++] = r;
	qsort(e, n, sizeof(*e), cmp_reloc_off);
	for (i = 0; i < n; i++) {
		uint64_t o = e[i]->offset, gap = o - pos;

		if (!e[i]->sym)
			klpc_fail(k->path, sec->name,
				  "relocation at 0x%lx has no symbol",
				  (unsigned long)o);
		if (e[i]->type != arch->r_abs64)
			klpc_fail(k->path, sec->name,
				  "relocation at 0x%lx is not a 64-bit absolute one (type %u)",
				  (unsigned long)o, e[i]->type);
		if (o < pos || o + KLP_MODULE_RELOC_SIZE > sec->size)
			klpc_fail(k->path, sec->name,
				  "relocation at 0x%lx is not on the sym field of a whole %d-byte record",
				  (unsigned long)o, KLP_MODULE_RELOC_SIZE);
		if (gap && (gap >= 8 || o % 8))
			holes += (gap + KLP_MODULE_RELOC_SIZE - 1) / KLP_MODULE_RELOC_SIZE;
		pos = o + KLP_MODULE_RELOC_SIZE;
	}
	if (pos < sec->size)
		holes += (sec->size - pos + KLP_MODULE_RELOC_SIZE - 1) / KLP_MODULE_RELOC_SIZE;
	if (holes)
		klpc_fail(k->path, sec->name,
			  "entry count mismatch: %zu bytes hold %zu records of %d bytes but there are %zu relocations",
			  sec->size, n + holes, KLP_MODULE_RELOC_SIZE, n);
	*count = n;
	return e;
}

static void read_table(struct klpc *k, struct section *sec)
{
	struct klp_obj *obj;
	struct reloc **e;
	size_t n, i;

	obj = known_obj(k, sec->name, sec->name + strlen(KLP_MODULE_RELOCS_PREFIX));
	e = table_entries(k, sec, &n);
	for (i = 0; i < n; i++) {
		uint32_t pos = target_get(k->elf->big_endian,
					  sec->data + e[i]->offset +
					  KLP_MODULE_RELOC_SYMPOS, 4);
		char what[64];

		snprintf(what, sizeof(what), "record at 0x%lx",
			 (unsigned long)e[i]->offset);
		klpc_add_conv(k, what, e[i]->sym, obj, pos, true);
	}
	free(e);
}

static bool is_klp_sym_candidate(const struct symbol *sym)
{
	return !sym->sec && (sym->shndx == SHN_UNDEF ||
			     sym->shndx == SHN_LIVEPATCH) &&
	       !strncmp(sym->name, KLP_SYM_PREFIX, strlen(KLP_SYM_PREFIX));
}

void klpc_read_annotations(struct klpc *k)
{
	struct section *sec;
	struct symbol *sym;

	for_each_sec(k->elf, sec)
		if (!strncmp(sec->name, KLP_MODULE_RELOCS_PREFIX,
			     strlen(KLP_MODULE_RELOCS_PREFIX)))
			read_table(k, sec);
	/* the differ's names carry object and sympos even without a record */
	for_each_sym(k->elf, sym) {
		char *oname, *name;
		unsigned long pos;

		if (!is_klp_sym_candidate(sym) || find_conv(k, sym))
			continue;
		split_klp_name(k, sym->name, &oname, &name, &pos);
		klpc_add_conv(k, "its name", sym, known_obj(k, sym->name, oname),
			 pos, false);
		free(oname);
		free(name);
	}
}
