// SPDX-License-Identifier: GPL-2.0
/*
 * The objects of the running kernel a patch targets. klp relocations for an
 * object are applied only when the patch has a klp_object of that name
 * (vmlinux always; a module when a .kpatch.funcs record or a callback names
 * it, or when the command line does with --symtab/--object); a relocation
 * for any other object would never be written, so it is refused.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "klpc.h"
#include "arch/arch.h"
#include "lib/ksymtab.h"
#include "lib/util.h"

void klpc_fail(const char *file, const char *what, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: %s: ", progname, file, what);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_BADINPUT);
}

const struct arch *klpc_arch(struct klpc *k)
{
	const struct arch *arch = arch_get(k->elf);

	if (!arch)
		exit(EXIT_BADINPUT);
	return arch;
}

struct klp_obj *klpc_obj(struct klpc *k, const char *name, bool create)
{
	struct klp_obj *obj;

	htable_for_each(&k->objs, obj, node, hash_str(name))
		if (!strcmp(obj->name, name))
			return obj;
	if (!create)
		return NULL;
	obj = xcalloc(1, sizeof(*obj));
	obj->name = xstrdup(name);
	htable_add(&k->objs, &obj->node, hash_str(name));
	list_add_tail(&obj->list, &k->obj_list);
	return obj;
}

char *klpc_obj_name(struct klpc *k, const char *what, const char *raw)
{
	size_t len = strlen(raw), i;
	char *name;

	if (!len)
		klpc_fail(k->path, what, "empty object name");
	if (len > KLP_OBJNAME_MAX)
		klpc_fail(k->path, what,
			  "object name '%s' is %zu characters, over the kernel's limit of %d (MODULE_NAME_LEN - 1)",
			  raw, len, KLP_OBJNAME_MAX);
	name = xstrdup(raw);
	for (i = 0; i < len; i++) {
		char c = klp_objname_char(name[i]);

		name[i] = c;
		if (!(c == '_' || (c >= '0' && c <= '9') ||
			   (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			klpc_fail(k->path, what,
				  "object name '%s' is not a module name (character '%c')",
				  raw, raw[i]);
	}
	return name;
}

/* The NUL-terminated string a relocation at @sec+@off points to. */
static const char *reloc_string(struct klpc *k, struct section *sec,
				uint64_t off)
{
	struct reloc *r = find_reloc_at(sec, off);
	struct section *ts;
	uint64_t at;

	if (!r)
		return NULL;
	if (!r->sym)
		klpc_fail(k->path, sec->name,
			  "entry at 0x%lx: string pointer without a symbol",
			  (unsigned long)off);
	ts = r->sym->sec;
	if (!ts || !ts->data)
		klpc_fail(k->path, sec->name,
			  "entry at 0x%lx: string pointer to %s, which is not data",
			  (unsigned long)off, r->sym->name);
	at = r->sym->offset + r->addend;
	if (at >= ts->size || !memchr(ts->data + at, 0, ts->size - at))
		klpc_fail(k->path, sec->name,
			  "entry at 0x%lx: string pointer past the end of %s",
			  (unsigned long)off, ts->name);
	return (const char *)ts->data + at;
}

/* Mark the objects named by entries of @size bytes with objname at @off. */
static void objects_from(struct klpc *k, struct section *sec,
			 unsigned int size, unsigned int off)
{
	uint64_t at;

	if (sec->size % size)
		klpc_fail(k->path, sec->name,
			  "size %zu is not a multiple of the %u-byte entry",
			  sec->size, size);
	for (at = 0; at < sec->size; at += size) {
		const char *raw = reloc_string(k, sec, at + off);
		char *name;

		if (!raw)
			continue;	/* a callback's objname not filled in */
		name = klpc_obj_name(k, sec->name, raw);
		klpc_obj(k, name, true)->known = true;
		free(name);
	}
}

void klpc_collect_objects(struct klpc *k)
{
	struct section *sec;

	klpc_obj(k, KLP_VMLINUX, true)->known = true;
	sec = find_section_by_name(k->elf, KPATCH_FUNCS_SECTION);
	if (sec)
		objects_from(k, sec, KPATCH_FUNC_SIZE, KPATCH_FUNC_OBJNAME);
	for_each_sec(k->elf, sec)
		if (!strncmp(sec->name, KPATCH_CALLBACKS_PREFIX,
			     strlen(KPATCH_CALLBACKS_PREFIX)))
			objects_from(k, sec, KPATCH_CALLBACK_SIZE,
				     KPATCH_CALLBACK_OBJNAME);
}

void klpc_free(struct klpc *k)
{
	struct klp_obj *obj, *to;
	struct klp_conv *c, *tc;

	list_for_each_entry_safe(c, tc, &k->conv_list, list) {
		free(c->name);
		free(c);
	}
	list_for_each_entry_safe(obj, to, &k->obj_list, list) {
		ksymtab_free(obj->symtab);
		free(obj->name);
		free(obj);
	}
	htable_free(&k->objs);
	htable_free(&k->convs);
}
