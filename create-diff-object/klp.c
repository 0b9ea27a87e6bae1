// SPDX-License-Identifier: GPL-2.0
/*
 * References to the running kernel. Every symbol the output uses but does
 * not define is either exported (listed in Module.symvers: a plain
 * undefined symbol the module loader resolves) or not, and then it becomes
 * a klp symbol ".klp.sym.<obj>.<name>,<sympos>" that the livepatch core
 * resolves through kallsyms. sympos counts same-named symbols in kallsyms
 * order (by address, which PARENT_SYMTAB gives); 0 means the name is
 * unique. A local is found through the STT_FILE block of its source file;
 * when two files share a basename, the block whose other locals best match
 * this object's wins.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdo.h"
#include "lib/ksymtab.h"
#include "lib/util.h"

struct export {
	struct hnode node;
	char *name;
	char *ns;
	char *module;		/* "vmlinux" or the module's path without .ko */
};

struct symvers {
	struct htable by_name;
};

static struct symvers *load_symvers(const char *path)
{
	struct symvers *sv = xcalloc(1, sizeof(*sv));
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t len = 0;

	if (!f)
		die(EXIT_BADINPUT, "%s: cannot open Module.symvers", path);
	htable_init(&sv->by_name);
	while (getline(&line, &len, f) > 0) {
		char *save = NULL, *crc, *name, *mod, *kind, *ns;
		struct export *x;

		crc = strtok_r(line, "\t\n", &save);
		name = strtok_r(NULL, "\t\n", &save);
		mod = strtok_r(NULL, "\t\n", &save);
		kind = strtok_r(NULL, "\t\n", &save);
		ns = strtok_r(NULL, "\t\n", &save);
		if (!crc || !name || !mod || !kind)
			continue;
		x = xcalloc(1, sizeof(*x));
		x->name = xstrdup(name);
		x->ns = ns && *ns ? xstrdup(ns) : NULL;
		x->module = xstrdup(mod);
		htable_add(&sv->by_name, &x->node, hash_str(name));
	}
	free(line);
	fclose(f);
	return sv;
}

void klp_load(struct cdo *c)
{
	c->pst = ksymtab_read(c->parent_symtab_path);
	if (!c->pst)
		die(EXIT_BADINPUT, "%s: cannot read parent symbol table: %s",
		    c->parent_symtab_path, strerror(errno));
	c->symvers = load_symvers(c->symvers_path);
}

void klp_free(struct cdo *c)
{
	struct export *x;
	size_t i;

	ksymtab_free(c->pst);
	if (c->symvers) {
		struct htable *h = &c->symvers->by_name;

		for (i = 0; h->buckets && i < (1u << h->bits); i++) {
			struct hnode *n = h->buckets[i], *next;

			for (; n; n = next) {
				next = n->next;
				x = container_of(n, struct export, node);
				free(x->name);
				free(x->ns);
				free(x->module);
				free(x);
			}
		}
		htable_free(h);
		free(c->symvers);
	}
}

static struct export *find_export(struct cdo *c, const char *name)
{
	struct export *x;

	htable_for_each(&c->symvers->by_name, x, node, hash_str(name))
		if (!strcmp(x->name, name))
			return x;
	return NULL;
}

/* Same module name, whatever '-' or '_' it is spelled with. */
static bool same_module_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') &&
				  (*b == '-' || *b == '_')))
			return false;
	return !*a && !*b;
}

/*
 * Exported by the parent module itself: the module loader would resolve
 * it only while that module is loaded (the patch could not load before
 * it) and would pin it as a dependency. For the patch it is a symbol of
 * its klp object like any other, resolved when the module comes.
 */
static bool exported_by_parent(struct cdo *c, const struct export *x)
{
	const char *base = strrchr(x->module, '/');

	if (!strcmp(c->parent, "vmlinux"))
		return false;
	return same_module_name(base ? base + 1 : x->module, c->parent);
}

const char *klp_export_namespace(struct cdo *c, const char *name)
{
	struct export *x = find_export(c, name);

	return x ? x->ns : NULL;
}

/* How many of this object's local names the file block @file holds. */
static unsigned int block_score(struct cdo *c, unsigned int file)
{
	struct symbol *sym;
	unsigned int score = 0;

	for_each_sym(c->orig, sym) {
		struct ksym *e;

		if (!is_local_sym(sym) || !is_entity(sym))
			continue;
		for_each_ksym_named(c->pst, e, sym->name)
			if (e->file == file)
				score++;
	}
	return score;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct ksym *x = *(struct ksym *const *)a;
	const struct ksym *y = *(struct ksym *const *)b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static bool file_matches(struct cdo *c, unsigned int file)
{
	const char *f;

	if (!file || !c->srcfile)
		return false;
	f = c->pst->files[file - 1];
	return !strcmp(f, c->srcfile);
}

/*
 * Position of @name (local or not) in the parent: 0 when unique, else its
 * 1-based rank among same-named symbols. -1: not found; -2: ambiguous.
 */
static long find_sympos(struct cdo *c, const char *name, bool local)
{
	struct ksym *e, **cands = NULL, *pick = NULL;
	size_t n = 0, i;
	unsigned int best = 0, ties = 0;
	long pos = -1;

	for_each_ksym_named(c->pst, e, name) {
		if (!ksym_in_kallsyms(e))
			continue;
		cands = xrealloc(cands, (n + 1) * sizeof(*cands));
		cands[n++] = e;
	}
	for (i = 0; i < n; i++) {
		unsigned int score;

		if (cands[i]->local != local)
			continue;
		if (!local) {
			pick = cands[i];
			ties = 1;
			break;
		}
		score = (file_matches(c, cands[i]->file) ? 1000000 : 0) +
			block_score(c, cands[i]->file);
		if (!pick || score > best) {
			pick = cands[i];
			best = score;
			ties = 1;
		} else if (score == best) {
			ties++;
		}
	}
	if (!pick)
		goto out;
	if (ties > 1) {
		pos = -2;
		goto out;
	}
	if (n == 1) {
		pos = 0;
		goto out;
	}
	qsort(cands, n, sizeof(*cands), cmp_entry);
	for (i = 0; i < n; i++)
		if (cands[i] == pick)
			pos = i + 1;
out:
	free(cands);
	return pos;
}

/* The livepatch object name of the parent: module names use '_'. */
char *klp_objname(struct cdo *c)
{
	char *s = xstrdup(c->parent), *p;

	for (p = s; *p; p++)
		*p = klp_objname_char(*p);
	return s;
}

unsigned long klp_func_sympos(struct cdo *c, struct symbol *sym)
{
	long pos = find_sympos(c, sym->name, is_local_sym(sym));

	if (pos == -1)
		refuse(c, sym->name, "function not found in %s's symbol table %s",
		       c->parent, c->parent_symtab_path);
	else if (pos == -2)
		refuse(c, sym->name, "ambiguous: several files of this name in %s define it",
		       c->parent);
	return pos < 0 ? 0 : pos;
}

/*
 * Will a reference to @sym from the output be a klp relocation to the
 * patched module (resolved by livepatch when the module loads, so only
 * after the loader has read the patch's own tables)?
 */
bool klp_module_reference(struct cdo *c, struct symbol *sym)
{
	struct export *x;

	if (!strcmp(c->parent, "vmlinux") || (sym->sec && si(sym)->include))
		return false;
	if (si(sym)->twin)
		sym = si(sym)->twin;
	x = is_local_sym(sym) ? NULL : find_export(c, sym->name);
	if (x)
		return exported_by_parent(c, x);
	return sym->sec || find_sympos(c, sym->name, false) != -1;
}

char *klp_external_name(struct cdo *c, struct symbol *sym, bool *is_klp,
			unsigned long *sympos)
{
	struct export *x;
	char *obj, *name;
	long pos;

	/* the running kernel knows the symbol by its ORIG name (count.3) */
	if (si(sym)->twin)
		sym = si(sym)->twin;
	*is_klp = false;
	*sympos = 0;
	x = is_local_sym(sym) ? NULL : find_export(c, sym->name);
	if (x && !exported_by_parent(c, x))
		return xstrdup(sym->name);
	pos = find_sympos(c, sym->name, is_local_sym(sym));
	if (pos == -1 && !sym->sec)
		return xstrdup(sym->name);	/* defined elsewhere: assume exported */
	if (pos == -1) {
		refuse(c, sym->name, "not found in %s's symbol table %s",
		       c->parent, c->parent_symtab_path);
		pos = 0;
	} else if (pos == -2) {
		refuse(c, sym->name, "ambiguous: several files named %s in %s define it",
		       c->srcfile ? c->srcfile : "?", c->parent);
		pos = 0;
	}
	*is_klp = true;
	*sympos = pos;
	obj = klp_objname(c);
	name = xasprintf(KLP_SYM_PREFIX "%s.%s,%ld", obj, sym->name, pos);
	free(obj);
	return name;
}
