/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between inline.c (the pass) and inline-dwarf.c (its DWARF reader); the
 * libdwarf model of inline-elf.c also serves line-table.c.
 */
#ifndef CDO_INLINE_H
#define CDO_INLINE_H

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>
#include "cdo.h"

/* A changed function to explain, by a place where it changed. */
struct inline_want {
	struct symbol *func;	/* gets the report */
	uint64_t addr;		/* inline_addr() of the change, in PATCHED */
	char *callee;		/* innermost inlined callee covering addr */
	char *chain;		/* the callees around addr, outermost first */
	unsigned int depth;	/* that instance's nesting in its subprogram */
	uint64_t lo, hi;	/* the changed piece, [lo, hi) in PATCHED */
	uint64_t orig_lo, orig_hi; /* its twin, in ORIG */
	unsigned int n_patched;	/* inlined instances of chain in the piece */
	unsigned int n_orig;	/* and in its twin */
	bool crowded;		/* its function changed in too many places */
};

/* inline-elf.c: @sec+@off in the synthetic link the DWARF is read in. */
uint64_t inline_addr(const struct section *sec, uint64_t off);
/* Cheap: is there debug info libdwarf can be given at all? */
bool inline_dwarf_usable(struct elf *elf);
/*
 * libdwarf over @elf's relocated .debug_* sections, .debug_line only with
 * @lines (line-table.c); NULL if it refuses.
 */
struct dwarf_model;
struct dwarf_model *dwarf_model_open(const struct cdo *c, struct elf *elf,
				     bool lines, Dwarf_Debug *dbg);
void dwarf_model_close(struct dwarf_model *m, Dwarf_Debug dbg);

/* inline-dwarf.c: fill in the callees from PATCHED's DWARF; false when it is unreadable. */
bool inline_dwarf_lookup(const struct cdo *c, struct inline_want *wants,
			 size_t n);
/*
 * inline-dwarf.c: count the instances of each chain in @elf (ORIG or
 * PATCHED) into n_orig or n_patched; false, and those all 0, when its
 * DWARF is unreadable.
 */
bool inline_dwarf_count(const struct cdo *c, struct elf *elf,
			struct inline_want *wants, size_t n);

#endif
