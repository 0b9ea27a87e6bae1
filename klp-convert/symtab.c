// SPDX-License-Identifier: GPL-2.0
/*
 * --symtab OBJ=FILE: the symbol table of a running-kernel object as
 * `readelf -s --wide` prints it (vmlinux or a module). Only the number of
 * defined symbols of each name matters: kallsyms lists exactly those, and a
 * klp symbol's sympos is its rank among same-named ones (0: unique).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "klpc.h"
#include "lib/util.h"

struct name_count {
	struct list_head list;
	struct hnode node;
	char *name;
	unsigned long count;
};

static void count_name(struct klp_obj *obj, const char *name)
{
	struct htable *t = obj->symtab;
	struct name_count *nc;

	htable_for_each(t, nc, node, hash_str(name))
		if (!strcmp(nc->name, name)) {
			nc->count++;
			return;
		}
	nc = xcalloc(1, sizeof(*nc));
	nc->name = xstrdup(name);
	nc->count = 1;
	htable_add(t, &nc->node, hash_str(name));
	list_add_tail(&nc->list, &obj->names);
}

/* "  12: 0000... 34 FUNC LOCAL DEFAULT 5 name": the name if kallsyms has it */
static const char *kallsyms_name(char *line)
{
	char *f[8], *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(line, " \t\n", &save); tok && n < 8;
	     tok = strtok_r(NULL, " \t\n", &save))
		f[n++] = tok;
	if (n < 8 || !isdigit((unsigned char)f[0][0]) ||
	    f[0][strlen(f[0]) - 1] != ':')
		return NULL;
	if (strcmp(f[3], "FUNC") && strcmp(f[3], "OBJECT") &&
	    strcmp(f[3], "NOTYPE") && strcmp(f[3], "IFUNC"))
		return NULL;
	if (!strcmp(f[6], "UND"))
		return NULL;
	return f[7];
}

/* Lines of the ".symtab" table only (a .dynsym would count twice). */
static unsigned long read_symtab(FILE *f, struct klp_obj *obj)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long n = 0;
	bool in_symtab = true;

	while (getline(&line, &cap, f) > 0) {
		const char *name;

		if (!strncmp(line, "Symbol table '", 14)) {
			in_symtab = !strncmp(line + 14, ".symtab'", 8);
			continue;
		}
		if (!in_symtab)
			continue;
		name = kallsyms_name(line);
		if (name) {
			count_name(obj, name);
			n++;
		}
	}
	free(line);
	return n;
}

void klpc_load_symtab(struct klpc *k, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct klp_obj *obj;
	char *raw, *name;
	FILE *f;

	if (!eq || eq == arg || !eq[1])
		klpc_fail(k->path, "--symtab", "'%s' is not OBJ=FILE", arg);
	raw = xasprintf("%.*s", (int)(eq - arg), arg);
	name = klpc_obj_name(k, "--symtab", raw);
	obj = klpc_obj(k, name, true);
	if (obj->symtab)
		klpc_fail(k->path, "--symtab", "two symbol tables for %s",
			  name);
	f = fopen(eq + 1, "r");
	if (!f)
		klpc_fail(eq + 1, "--symtab", "cannot open: %s",
			  strerror(errno));
	obj->symtab = xcalloc(1, sizeof(*obj->symtab));
	htable_init(obj->symtab);
	INIT_LIST_HEAD(&obj->names);
	obj->symtab_path = eq + 1;
	if (!read_symtab(f, obj))
		klpc_fail(eq + 1, "--symtab",
			  "no symbols: not the output of readelf -s --wide");
	fclose(f);
	obj->known = true;
	free(raw);
	free(name);
}

unsigned long klpc_symtab_count(const struct klp_obj *obj, const char *name)
{
	struct name_count *nc;

	htable_for_each(obj->symtab, nc, node, hash_str(name))
		if (!strcmp(nc->name, name))
			return nc->count;
	return 0;
}

void klpc_free_symtab(struct klp_obj *obj)
{
	struct name_count *nc, *t;

	if (!obj->symtab)
		return;
	list_for_each_entry_safe(nc, t, &obj->names, list) {
		free(nc->name);
		free(nc);
	}
	htable_free(obj->symtab);
	free(obj->symtab);
}
