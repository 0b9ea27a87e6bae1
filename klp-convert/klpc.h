/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klp-convert: turn a linked patch module's annotated references to the
 * running kernel into the kernel's livepatch ELF format
 * (Documentation/livepatch/module-elf-format.rst).
 */
#ifndef KLPC_H
#define KLPC_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/elf.h"
#include "lib/hash.h"
#include "kmod/include/kpatch-formats.h"

/* One object of the running kernel the patch targets. */
struct klp_obj {
	struct list_head list;
	struct hnode node;
	char *name;
	struct ksymtab *symtab;	/* from --symtab, or NULL */
	const char *symtab_path;
	bool known;		/* may carry klp relocations */
};

/* One symbol becoming a klp symbol. */
struct klp_conv {
	struct list_head list;
	struct hnode node;	/* by symbol pointer */
	struct symbol *sym;
	struct klp_obj *obj;
	char *name;		/* the plain symbol name */
	unsigned long sympos;
	bool from_record;	/* listed in an annotation section */
};

struct klpc {
	struct elf *elf;
	const char *path;
	struct htable objs;	/* struct klp_obj by name */
	struct htable convs;	/* struct klp_conv by symbol */
	struct list_head obj_list, conv_list;
	unsigned int nr_convs, nr_moved, nr_sections;
};

/* "klp-convert: <file>: <what>: <reason>", exit 1 */
void klpc_fail(const char *file, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

/* The arch ops of the module's machine; exit 1 for another (said). */
const struct arch *klpc_arch(struct klpc *k);

/* objects */
struct klp_obj *klpc_obj(struct klpc *k, const char *name, bool create);
/* '-' to '_' as the kernel names modules; dies on a name it cannot use. */
char *klpc_obj_name(struct klpc *k, const char *what, const char *raw);
void klpc_collect_objects(struct klpc *k);
void klpc_free(struct klpc *k);

/* --symtab OBJ=FILE (symtab.c; klpc_free() frees the tables with the objects) */
void klpc_load_symtab(struct klpc *k, const char *arg);
/* Number of symbols named @name in @obj's symtab. */
unsigned long klpc_symtab_count(const struct klp_obj *obj, const char *name);

/* annotations and conversion */
void klpc_read_annotations(struct klpc *k);
/* @sym (named by @what) becomes a klp symbol of @obj at @pos. */
void klpc_add_conv(struct klpc *k, const char *what, struct symbol *sym,
		   struct klp_obj *obj, unsigned long pos, bool record);
/* Undefined symbols no annotation names, found in the --symtab tables. */
void klpc_convert_unannotated(struct klpc *k, const char *const *symvers,
			      int nsymvers, bool strict);
struct klp_conv *klpc_conv_of(struct klpc *k, const struct symbol *sym);
void klpc_convert(struct klpc *k);

#endif
