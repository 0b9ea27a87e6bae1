/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A running kernel's symbol table as `readelf -s --wide` prints it for
 * vmlinux or a module: what kpatch-build hands the differ (PARENT_SYMTAB)
 * and klp-convert (--symtab). Both need the same facts to compute a klp
 * symbol's sympos: the defined symbols of each name in table order, their
 * addresses, and the STT_FILE block each local belongs to.
 */
#ifndef KP_KSYMTAB_H
#define KP_KSYMTAB_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "hash.h"

struct ksym {
	struct hnode node;
	char *name;
	uint64_t value;
	unsigned char type;		/* STT_* */
	bool local;
	unsigned int file;		/* 1-based STT_FILE block; 0: none */
	unsigned int order;		/* position in the table */
};

struct ksymtab {
	struct ksym *syms;		/* defined, named, no sections/files */
	size_t nsyms;
	char **files;			/* STT_FILE names, block i at [i - 1] */
	size_t nfiles;
	struct htable by_name;
};

/* Reads the ".symtab" table of @path; NULL with errno set if unreadable. */
struct ksymtab *ksymtab_read(const char *path);
void ksymtab_free(struct ksymtab *t);

/* kallsyms (with KALLSYMS_ALL) lists these; sympos counts only them. */
bool ksym_in_kallsyms(const struct ksym *s);

#define for_each_ksym_named(t, s, nm)					\
	htable_for_each(&(t)->by_name, s, node, hash_str(nm))		\
		if (!strcmp((s)->name, nm))

#endif
