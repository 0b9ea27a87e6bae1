// SPDX-License-Identifier: GPL-2.0
/*
 * Inlined callees: when the first change of a changed function lies in
 * code that was inlined into it, the -d report names the inlined function
 * ("patched: F (inlined callee C changed)"). compare.c has already decided
 * that F changed; this pass only explains why. Anything wrong with the
 * debug info (absent, compressed, malformed) leaves the report at "changed
 * at offset 0x...", and no outcome ever depends on this pass.
 *
 * Here: where a function first changes, and the report. The first change
 * is the first offset where bytes or relocations differ from ORIG, except
 * that a forward jump whose only change is its displacement (it jumps over
 * code that grew or shrank) is not it: the arch's branch_field_end() reads
 * branches. When the function's own code is the
 * same, its first changed .cold/.part piece is looked at instead.
 * inline-dwarf.c finds the innermost inlined instance covering that place.
 */
#include <stdlib.h>
#include <string.h>
#include "inline.h"
#include "lib/util.h"

static uint64_t avail(const struct symbol *s)
{
	if (!s->sec->data || s->offset >= s->sec->size)
		return 0;
	return s->size < s->sec->size - s->offset ? s->size :
	       s->sec->size - s->offset;
}

static unsigned char a_byte(const struct symbol *s, long off)
{
	return s->sec->data[s->offset + off];
}

/* Offset of the first differing relocation, or -1. */
static long first_reloc_diff(const struct cdo *c, const struct symbol *o,
			     const struct symbol *p)
{
	struct reloc **ro, **rp;
	size_t no = relocs_in(o->sec, o->offset, o->size, &ro);
	size_t np = relocs_in(p->sec, p->offset, p->size, &rp);
	size_t i;

	for (i = 0; i < no && i < np; i++) {
		uint64_t ao = ro[i]->offset - o->offset;
		uint64_t po = rp[i]->offset - p->offset;
		struct target to, tp;

		reloc_target(c, o->sec, ro[i], &to);
		reloc_target(c, p->sec, rp[i], &tp);
		if (ao != po || ro[i]->type != rp[i]->type ||
		    !targets_equal(c, &to, &tp))
			return (long)(ao < po ? ao : po);
	}
	if (i < np)
		return (long)(rp[i]->offset - p->offset);
	if (i < no)
		return (long)(ro[i]->offset - o->offset);
	return -1;
}

static uint64_t first_byte_diff(const struct cdo *c, const struct symbol *o,
				const struct symbol *p, uint64_t len)
{
	const unsigned char *a = o->sec->data + o->offset;
	const unsigned char *b = p->sec->data + p->offset;
	uint64_t (*branch_end)(const unsigned char *, uint64_t,
			       const unsigned char *, uint64_t, uint64_t,
			       uint64_t) = c->arch->branch_field_end;
	uint64_t i, end;

	for (i = 0; i < len; i++) {
		if (a[i] == b[i])
			continue;
		end = branch_end ? branch_end(a, o->size, b, p->size, i, len) : 0;
		if (!end)
			break;
		i = end - 1;
	}
	return i;
}

/* First offset where PATCHED @p differs from its ORIG twin, or -1. */
static long first_diff(const struct cdo *c, const struct symbol *p)
{
	const struct symbol *o = p->twin;
	uint64_t len, i;
	long best = -1, r;

	if (!o || !o->sec || !p->sec || !o->sec->data || !p->sec->data)
		return -1;
	len = avail(o) < avail(p) ? avail(o) : avail(p);
	i = first_byte_diff(c, o, p, len);
	if (i < len || o->size != p->size)
		best = (long)i;
	/*
	 * Same size and changed by compare_entity: change_off is its exact
	 * first differing relocation when the bytes there are equal, else
	 * its first differing byte and the relocations are all the same.
	 */
	if (o->size == p->size && !si(p)->why && si(p)->change_off >= 0)
		r = (uint64_t)si(p)->change_off < len &&
		    a_byte(o, si(p)->change_off) == a_byte(p, si(p)->change_off) ?
		    si(p)->change_off : -1;
	else
		r = first_reloc_diff(c, o, p);
	if (r >= 0 && (best < 0 || r < best))
		best = r;
	return best;
}

static void add_want(struct inline_want **wants, size_t *n, struct symbol *func,
		     const struct symbol *piece, long off)
{
	struct inline_want *wt;

	*wants = xrealloc(*wants, (*n + 1) * sizeof(**wants));
	wt = &(*wants)[(*n)++];
	memset(wt, 0, sizeof(*wt));
	wt->func = func;
	wt->addr = inline_addr(piece->sec, piece->offset + (uint64_t)off);
	debugf("inline: %s: first difference at %s+0x%lx", func->name,
	       piece->name, off);
}

/*
 * The function's own first change; when its own code compares the same
 * (it changed because a .cold piece did), the first changed piece's.
 */
static size_t collect_wants(const struct cdo *c, struct inline_want **wants)
{
	struct symbol *sym, *ch;
	size_t n = 0;
	long off;

	for_each_sym(c->patched, sym) {
		if (!is_func(sym) || sym->parent || sym->status != CHANGED ||
		    !sym->twin)
			continue;
		off = first_diff(c, sym);
		if (off >= 0) {
			add_want(wants, &n, sym, sym, off);
			continue;
		}
		for (ch = si(sym)->child; ch; ch = si(ch)->sibling) {
			if (!is_func(ch) || ch->status != CHANGED ||
			    arch_is_prefix_symbol(c->arch, ch->name, NULL))
				continue;
			off = first_diff(c, ch);
			if (off >= 0) {
				add_want(wants, &n, sym, ch, off);
				break;
			}
		}
	}
	return n;
}

void explain_inlined(struct cdo *c)
{
	struct inline_want *wants = NULL;
	size_t n = 0, i;

	if (!inline_dwarf_usable(c->patched))
		return;
	n = collect_wants(c, &wants);
	if (n && inline_dwarf_lookup(c, wants, n))
		for (i = 0; i < n; i++)
			if (wants[i].callee)
				si(wants[i].func)->inlined =
					xasprintf("inlined callee %s changed",
						  wants[i].callee);
	for (i = 0; i < n; i++)
		free(wants[i].callee);
	free(wants);
}
