// SPDX-License-Identifier: GPL-2.0
/*
 * --symtab OBJ=FILE: the symbol table of a running-kernel object as
 * `readelf -s --wide` prints it (vmlinux or a module), read by the reader
 * the differ uses too (lib/ksymtab.h). Only the number of defined symbols
 * of each name matters: kallsyms lists exactly those, and a klp symbol's
 * sympos is its rank among same-named ones (0: unique).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "klpc.h"
#include "lib/ksymtab.h"
#include "lib/util.h"

void klpc_load_symtab(struct klpc *k, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct klp_obj *obj;
	char *raw, *name;

	if (!eq || eq == arg || !eq[1])
		klpc_fail(k->path, "--symtab", "'%s' is not OBJ=FILE", arg);
	raw = xasprintf("%.*s", (int)(eq - arg), arg);
	name = klpc_obj_name(k, "--symtab", raw);
	obj = klpc_obj(k, name, true);
	if (obj->symtab)
		klpc_fail(k->path, "--symtab", "two symbol tables for %s",
			  name);
	obj->symtab = ksymtab_read(eq + 1);
	if (!obj->symtab)
		klpc_fail(eq + 1, "--symtab", "cannot open: %s",
			  strerror(errno));
	obj->symtab_path = eq + 1;
	if (!obj->symtab->nsyms)
		klpc_fail(eq + 1, "--symtab",
			  "no symbols: not the output of readelf -s --wide");
	obj->known = true;
	free(raw);
	free(name);
}

unsigned long klpc_symtab_count(const struct klp_obj *obj, const char *name)
{
	struct ksym *s;
	unsigned long n = 0;

	for_each_ksym_named(obj->symtab, s, name)
		if (ksym_in_kallsyms(s))
			n++;
	return n;
}
