// SPDX-License-Identifier: GPL-2.0
/*
 * Where relocations point (reloc-target.h). A relocation names a symbol
 * and an addend; what it reaches is the entity that lives at that place
 * (a function or object, whatever symbol the assembler used: a section
 * symbol, a local label), or, where no entity does, the section itself.
 * The arch says how far into the target a PC-relative addend really
 * points. Each section's relocations are sorted by offset once, on first
 * use, so that the relocations of any range are a binary search away.
 */
#include <stdlib.h>
#include <string.h>
#include "reloc-target.h"
#include "lib/util.h"

static int cmp_reloc(const void *a, const void *b)
{
	const struct reloc *x = *(struct reloc *const *)a;
	const struct reloc *y = *(struct reloc *const *)b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static void sort_relocs(struct section *sec)
{
	struct secinfo *s = sci(sec);
	struct reloc *r;
	size_t n = 0;

	if (s->relocs || !sec->rela)
		return;
	for_each_reloc(sec->rela, r)
		n++;
	s->relocs = xcalloc(n + 1, sizeof(*s->relocs));
	n = 0;
	for_each_reloc(sec->rela, r)
		s->relocs[n++] = r;
	qsort(s->relocs, n, sizeof(*s->relocs), cmp_reloc);
	s->nr_relocs = n;
}

size_t relocs_in(const struct section *sec, uint64_t off, uint64_t len,
		 struct reloc ***first)
{
	struct secinfo *s = sci(sec);
	size_t lo = 0, hi, start;

	sort_relocs((struct section *)sec);
	hi = s->nr_relocs;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->relocs[mid]->offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	start = lo;
	while (lo < s->nr_relocs && s->relocs[lo]->offset < off + len)
		lo++;
	*first = s->relocs ? s->relocs + start : NULL;
	return lo - start;
}

void reloc_target(const struct cdo *c, const struct section *sec,
		  const struct reloc *r, struct target *t)
{
	struct symbol *s = r->sym, *e;
	int64_t off = c->arch->reloc_target(sec, r);

	memset(t, 0, sizeof(*t));
	t->addend = r->addend;
	if (!s) {		/* no symbol: the addend is all there is */
		t->off = r->addend;
		return;
	}
	if (!s->sec) {
		t->sym = s;
		t->off = off;
		return;
	}
	if (is_entity(s)) {
		t->sym = s;
		t->off = off;
		return;
	}
	/* section symbol or label: find what lives at that offset */
	off = (int64_t)((uint64_t)off + s->offset);
	e = off >= 0 ? entity_at(s->sec, off) : NULL;
	if (e) {
		t->sym = e;
		t->off = (int64_t)((uint64_t)off - e->offset);
		t->addend = (int64_t)((uint64_t)r->addend + s->offset - e->offset);
	} else {
		t->sec = s->sec;
		t->off = off;
		t->addend = (int64_t)((uint64_t)r->addend + s->offset);
	}
}

/*
 * A use through a pointer slot (an entry of a pointer_slots section, which
 * code loads: arch.h) is, for the analyses, a use of what the slot points
 * to. Emission keeps the slot itself.
 */
void follow_slot(const struct cdo *c, struct target *t)
{
	const struct secinfo *s = t->sec ? sci(t->sec) : NULL;
	struct reloc *r;

	if (!s || !s->callsite || !s->row || !s->row->pointer_slots ||
	    s->entsize != 8 || t->off < 0)
		return;
	r = find_reloc_at(t->sec, (uint64_t)t->off);
	if (r)
		reloc_target(c, t->sec, r, t);
}
