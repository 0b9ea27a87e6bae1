/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where relocations point, for every pass: the relocations of a range of
 * a section in offset order, and what one reaches, as an entity (and the
 * offset in it) or a section. Comparing, including and emitting all see
 * references this way, never as raw symbols and addends (reloc-target.c).
 */
#ifndef CDO_RELOC_TARGET_H
#define CDO_RELOC_TARGET_H

#include "cdo.h"

/* Where relocation @r points: an entity (and offset in it) or a section. */
struct target {
	struct symbol *sym;		/* entity, undefined symbol, or NULL */
	struct section *sec;		/* anonymous section when sym is NULL */
	int64_t off;			/* offset inside sym or sec */
	int64_t addend;			/* addend relative to sym or sec start */
};

/* A relocation without a symbol (index 0) reaches nothing but its addend. */
static inline bool is_no_target(const struct target *t)
{
	return !t->sym && !t->sec;
}

static inline const char *target_name(const struct target *t)
{
	return t->sym ? t->sym->name : t->sec ? t->sec->name : "(no symbol)";
}

/* Relocations applying in [off, off+len) of @sec, sorted; returns count. */
size_t relocs_in(const struct section *sec, uint64_t off, uint64_t len,
		 struct reloc ***first);
void reloc_target(const struct cdo *c, const struct section *sec,
		  const struct reloc *r, struct target *t);
/* A target that is a pointer slot (arch.h): what the slot points to instead. */
void follow_slot(const struct cdo *c, struct target *t);

#endif
