// SPDX-License-Identifier: GPL-2.0
/*
 * Undefined symbols that no annotation names, resolved through the symbol
 * tables of --symtab: a hand-written patch need not list an unexported
 * symbol in a KLP_MODULE_RELOC table when the running kernel has only one
 * of that name. Such a symbol becomes a klp symbol with sympos 0; one with
 * several candidates is refused with every candidate named (object, file
 * symbol, sympos), which is what the author then writes in the table.
 *
 * Exported symbols stay plain undefined symbols (the module loader resolves
 * them): a name is exported when one of the symbol tables has its
 * __ksymtab_<name> entry or a --symvers file (Module.symvers) lists it, and
 * so do the symbols the module loader defines itself (ppc64le's .TOC.). A
 * name no symbol table defines is refused with --strict (the loader could
 * not resolve it), and left alone without it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "klpc.h"
#include "arch/arch.h"
#include "lib/ksymtab.h"
#include "lib/util.h"

#define KSYMTAB_PREFIX	"__ksymtab_"

struct export_name {
	struct list_head list;
	struct hnode node;
	char *name;
};

/* The names of the --symvers files. */
struct exports {
	struct htable by_name;
	struct list_head names;
};

/* One definition of the wanted name in one object's symbol table. */
struct candidate {
	struct klp_obj *obj;
	const struct ksym *ksym;
	unsigned long sympos;	/* 0: the only one of its name in obj */
};

static bool in_exports(struct exports *exports, const char *name)
{
	struct export_name *x;

	htable_for_each(&exports->by_name, x, node, hash_str(name))
		if (!strcmp(x->name, name))
			return true;
	return false;
}

/* Module.symvers: "<crc>\t<name>\t<module>\t<export type>[\t<namespace>]" */
static void read_symvers(struct exports *exports, const char *path)
{
	char *line = NULL, *name, *end;
	size_t len = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		klpc_fail(path, "--symvers", "cannot open: %s", strerror(errno));
	while (getline(&line, &len, f) > 0) {
		struct export_name *x;

		name = strchr(line, '\t');
		if (!name)
			continue;
		end = strchr(++name, '\t');
		if (!end || end == name)
			continue;
		*end = '\0';
		if (in_exports(exports, name))
			continue;
		x = xcalloc(1, sizeof(*x));
		x->name = xstrdup(name);
		htable_add(&exports->by_name, &x->node, hash_str(name));
		list_add_tail(&x->list, &exports->names);
	}
	free(line);
	fclose(f);
}

static void free_exports(struct exports *exports)
{
	struct export_name *x, *tmp;

	list_for_each_entry_safe(x, tmp, &exports->names, list) {
		free(x->name);
		free(x);
	}
	htable_free(&exports->by_name);
}

static bool exported(struct klpc *k, struct exports *exports, const char *name)
{
	struct klp_obj *obj;
	char *ks;
	bool found = false;

	if (in_exports(exports, name))
		return true;
	ks = xasprintf(KSYMTAB_PREFIX "%s", name);
	list_for_each_entry(obj, &k->obj_list, list)
		if (obj->symtab && klpc_symtab_count(obj, ks)) {
			found = true;
			break;
		}
	free(ks);
	return found;
}

static int cmp_addr(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	if (x->ksym->value != y->ksym->value)
		return x->ksym->value < y->ksym->value ? -1 : 1;
	return x->ksym->order < y->ksym->order ? -1 :
	       x->ksym->order > y->ksym->order;
}

/*
 * Every definition of @name in the symbol tables, each with the sympos
 * the kernel would give it: its 1-based rank by address among the
 * same-named symbols of its object (kallsyms order), 0 when unique there.
 */
static struct candidate *find_candidates(struct klpc *k, const char *name,
					 size_t *count)
{
	struct candidate *c = NULL;
	struct klp_obj *obj;
	struct ksym *s;
	size_t n = 0, first, i;

	list_for_each_entry(obj, &k->obj_list, list) {
		if (!obj->symtab)
			continue;
		first = n;
		for_each_ksym_named(obj->symtab, s, name) {
			if (!ksym_in_kallsyms(s))
				continue;
			c = xrealloc(c, (n + 1) * sizeof(*c));
			c[n++] = (struct candidate){ .obj = obj, .ksym = s };
		}
		if (n - first < 2)
			continue;
		qsort(c + first, n - first, sizeof(*c), cmp_addr);
		for (i = first; i < n; i++)
			c[i].sympos = i - first + 1;
	}
	*count = n;
	return c;
}

/* "vmlinux: name,1 (kernel/a.c), name,2 (global)" for the refusal */
static char *describe(const struct candidate *c, size_t n, const char *name)
{
	char *list = xstrdup(""), *next;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct ksym *s = c[i].ksym;
		const char *file = s->local && s->file ?
			c[i].obj->symtab->files[s->file - 1] : NULL;

		next = xasprintf("%s%s%s,%lu in %s%s%s", list, i ? "; " : "",
				 name, c[i].sympos, c[i].obj->name,
				 file ? " file " : " (global)", file ? file : "");
		free(list);
		list = next;
	}
	return list;
}

/* A symbol the module loader defines for every module (ppc64le's .TOC.) */
static bool loader_symbol(struct klpc *k, const char *name)
{
	const char *const *n = klpc_arch(k)->loader_symbols;

	for (; n && *n; n++)
		if (!strcmp(*n, name))
			return true;
	return false;
}

static bool is_unannotated(struct klpc *k, const struct symbol *sym)
{
	return !sym->sec && sym->shndx == SHN_UNDEF && sym->name[0] &&
	       sym->bind != STB_LOCAL && sym->type != STT_SECTION &&
	       strncmp(sym->name, KLP_SYM_PREFIX, strlen(KLP_SYM_PREFIX)) &&
	       !klpc_conv_of(k, sym) && !loader_symbol(k, sym->name);
}

/*
 * @sym is undefined and not exported: the one definition the symbol tables
 * have of it becomes its klp reference. @complete (--strict): the --symvers
 * files list every export, so a name found nowhere is never resolved at load.
 */
static void resolve(struct klpc *k, struct symbol *sym, bool complete)
{
	struct candidate *c;
	size_t n;
	char *list;

	c = find_candidates(k, sym->name, &n);
	if (n == 1) {
		fprintf(stderr,
			"%s: %s: %s: not exported, the only one in %s: .klp.sym.%s.%s,0\n",
			progname, k->path, sym->name, c[0].obj->name,
			c[0].obj->name, sym->name);
		klpc_add_conv(k, "its symbol table", sym, c[0].obj, 0, false);
	} else if (n > 1) {
		list = describe(c, n, sym->name);
		klpc_fail(k->path, sym->name,
			  "not exported and not in a KLP_MODULE_RELOC table, and ambiguous: %zu candidates: %s; name the one you mean in a KLP_MODULE_RELOC(%s) table with its sympos",
			  n, list, c[0].obj == c[n - 1].obj ? c[0].obj->name : "<obj>");
	} else if (complete) {
		klpc_fail(k->path, sym->name,
			  "undefined, not exported by the kernel and not in a KLP_MODULE_RELOC table");
	}
	free(c);
}

void klpc_convert_unannotated(struct klpc *k, const char *const *symvers,
			      int nsymvers, bool strict)
{
	struct exports exports;
	struct klp_obj *obj;
	struct symbol *sym;
	bool have_symtab = false;
	int i;

	list_for_each_entry(obj, &k->obj_list, list)
		have_symtab |= obj->symtab != NULL;
	if (!have_symtab && !strict)
		return;
	htable_init(&exports.by_name);
	INIT_LIST_HEAD(&exports.names);
	for (i = 0; i < nsymvers; i++)
		read_symvers(&exports, symvers[i]);
	for_each_sym(k->elf, sym)
		if (is_unannotated(k, sym) && !exported(k, &exports, sym->name))
			resolve(k, sym, strict);
	free_exports(&exports);
}
