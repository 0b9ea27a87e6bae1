/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between emit.c (the output's sections and symbols), emit-relocs.c (their
 * relocations, retargeted) and records.c (the records the patch module
 * template and klp-convert read).
 */
#ifndef CDO_EMIT_H
#define CDO_EMIT_H

#include "cdo.h"

/* A copied range: [off, off+len) of input section @in, at @out_off of @out. */
struct piece {
	struct section *in;
	uint64_t off, len;
	struct section *out;
	uint64_t out_off;
};

/* A klp symbol the output refers to: one .klp.module_relocs record each. */
struct klpsym {
	struct symbol *sym;
	unsigned long sympos;
};

/* The output being built. */
struct emitter {
	struct cdo *c;
	struct elf *out;
	struct piece *pieces;		/* a section's pieces follow each other */
	size_t npieces, cap;
	struct klpsym *klp;		/* in the order they were created */
	size_t nklp;
	struct section *strings;	/* .kpatch.strings, made on first use */
};

/* emit-relocs.c: the relocations of every piece, retargeted into the output */
void copy_relocs(struct emitter *em);

/* records.c, in the order emit() writes them */
void emit_func_records(struct emitter *em);
void fill_callbacks(struct emitter *em);
void emit_klp_records(struct emitter *em);
void emit_import_ns(struct emitter *em);

#endif
