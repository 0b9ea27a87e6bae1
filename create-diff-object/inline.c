// SPDX-License-Identifier: GPL-2.0
/*
 * Inlined callees: when the first change of a changed function lies in
 * code that was inlined into it, the -d report names the inlined function
 * ("patched: F (inlined callee C changed)"). compare.c has already decided
 * that F changed; this pass only explains why. Anything wrong with the
 * debug info (absent, compressed, malformed) leaves the report at "changed
 * at offset 0x...", and no outcome ever depends on this pass.
 *
 * Here: where a function changes, and the report. The first change
 * is the first offset where bytes or relocations differ from ORIG, except
 * that a forward jump whose only change is its displacement (it jumps over
 * code that grew or shrank) is not it: the arch's branch_field_end() reads
 * branches. When the function's own code is the same, its first changed
 * .cold/.part piece is looked at instead. The instructions after it that
 * hold a change are looked at too, in order: the first of all these
 * places that lies in inlined code names the callee. inline-dwarf.c finds
 * the innermost inlined instance covering each place.
 *
 * That the changed code is inlined code does not make the callee the
 * cause: a patch that adds a call to an unchanged static inline function
 * changes its caller in its own right. So the callee is named only when
 * ORIG's twin of the changed code inlined it as well, as often (by the
 * same chain of inlined callees: inline-dwarf.c counts them in both), or
 * when the callee is itself a changed function. A change lying in a call
 * that only PATCHED inlines is new code of the caller, and the report
 * gives the caller's own reason.
 */
#include <stdlib.h>
#include <string.h>
#include "inline.h"
#include "reloc-target.h"
#include "lib/util.h"

/* enough for a real change; a function rewritten whole is not "inlined" */
#define MAX_WANTS_PER_FUNC	32

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
	const struct symbol *o = si(p)->twin;
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
	const struct symbol *twin = si(piece)->twin;
	struct inline_want *wt;

	*wants = xrealloc(*wants, (*n + 1) * sizeof(**wants));
	wt = &(*wants)[(*n)++];
	memset(wt, 0, sizeof(*wt));
	wt->func = func;
	wt->addr = inline_addr(piece->sec, piece->offset + (uint64_t)off);
	/* the code whose inlined calls are counted, and its twin's */
	wt->lo = inline_addr(piece->sec, piece->offset);
	wt->hi = wt->lo + (piece->size ? piece->size : 1);
	wt->orig_lo = inline_addr(twin->sec, twin->offset);
	wt->orig_hi = wt->orig_lo + (twin->size ? twin->size : 1);
	debugf("inline: %s: first difference at %s+0x%lx", func->name,
	       piece->name, off);
}

/* Bytes at the end of @o and @p that are the same. */
static uint64_t common_suffix(const struct symbol *o, const struct symbol *p,
			      uint64_t len)
{
	const unsigned char *a = o->sec->data + o->offset + o->size;
	const unsigned char *b = p->sec->data + p->offset + p->size;
	uint64_t n = 0;

	while (n < len && a[-1 - (long)n] == b[-1 - (long)n])
		n++;
	return n;
}

/*
 * Does PATCHED's instruction @in differ from ORIG's bytes @shift bytes
 * further (0: the same place)? Past ORIG's end it does.
 */
static bool insn_differs(const struct symbol *o, const struct symbol *p,
			 const struct insn_info *in, int64_t shift)
{
	const unsigned char *a = o->sec->data + o->offset + shift;
	const unsigned char *b = p->sec->data + p->offset;
	uint64_t i;

	if ((int64_t)in->start + shift < 0 ||
	    (int64_t)in->end + shift > (int64_t)o->size)
		return true;
	for (i = in->start; i < in->end; i++) {
		/* a new displacement only: it jumps over code that changed */
		if (in->size && i >= in->field && i < in->field + in->size)
			continue;
		if (a[i] != b[i])
			return true;
	}
	return false;
}

/*
 * Code of another size: an instruction that ORIG has at the same place,
 * or at the same distance from the end, is the same code (on either side
 * of what was inserted or removed), not a change.
 */
static bool insn_changed(const struct symbol *o, const struct symbol *p,
			 const struct insn_info *in)
{
	if (!insn_differs(o, p, in, 0))
		return false;
	return o->size == p->size ||
	       insn_differs(o, p, in, (int64_t)o->size - (int64_t)p->size);
}

/*
 * Every instruction of @p after its first change at @first that holds a
 * change too: the first differing byte may be the caller's own (a
 * prologue saving one more register) while what changed is inlined code
 * further on. Same size: the instructions whose bytes differ. Another
 * size: those between the first change and the common tail that ORIG
 * has neither at the same place nor as far from the end. False when more
 * than MAX_WANTS_PER_FUNC of them changed: code the compiler laid out
 * anew (registers, order) around a change of the function's own, whose
 * first places may well lie in an unchanged inlined callee (the wants are
 * then "crowded": only a callee that changed itself is named).
 */
static bool add_changed_insns(const struct cdo *c, struct inline_want **wants,
			      size_t *n, struct symbol *func,
			      const struct symbol *o, const struct symbol *p,
			      long first)
{
	uint64_t len = avail(o) < avail(p) ? avail(o) : avail(p);
	uint64_t at = 0, end = p->size, added = 0;
	struct insn_info in;

	if ((!c->arch->decode && !c->arch->insn_length) ||
	    avail(p) != p->size || avail(o) != o->size)
		return true;
	if (o->size != p->size)
		end = p->size - common_suffix(o, p, len);
	while (at < end) {
		if (!arch_insn_bounds(c->arch, p->sec->data + p->offset,
				      p->size, at, &in))
			return true;
		at = in.end;
		if (in.end <= (uint64_t)first + 1 || !insn_changed(o, p, &in))
			continue;
		if (added++ == MAX_WANTS_PER_FUNC)
			return false;
		add_want(wants, n, func, p, in.start < (uint64_t)first ?
			 first : (long)in.start);
	}
	return true;
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
		const struct symbol *twin = si(sym)->twin;

		if (!is_func(sym) || si(sym)->parent ||
		    si(sym)->status != CHANGED || !twin)
			continue;
		off = first_diff(c, sym);
		if (off >= 0) {
			size_t start = n;

			add_want(wants, &n, sym, sym, off);
			if (!add_changed_insns(c, wants, &n, sym, twin, sym, off)) {
				debugf("inline: %s: more than %d instructions changed: only a changed callee is named",
				       sym->name, MAX_WANTS_PER_FUNC);
				while (start < n)
					(*wants)[start++].crowded = true;
			}
			continue;
		}
		for (ch = si(sym)->child; ch; ch = si(ch)->sibling) {
			if (!is_func(ch) || si(ch)->status != CHANGED ||
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

/* @callee is @func itself (recursion, or a clone of it: F.isra.0 of F) */
static bool same_function(const char *func, const char *callee)
{
	size_t n = strcspn(func, ".");

	return strlen(callee) == n && !strncmp(func, callee, n);
}

/* @callee is a function (or a clone of it) that changed itself. */
static bool changed_function(const struct cdo *c, const char *callee)
{
	struct symbol *sym;

	for_each_sym(c->patched, sym)
		if (is_func(sym) && si(sym)->status == CHANGED &&
		    same_function(sym->name, callee))
			return true;
	return false;
}

/*
 * What a change at @wt says of its function: 1, it lies in the code of a
 * changed callee; -1, in a call only PATCHED inlines there (new code of
 * the function: ORIG inlined the callee there fewer times, if at all); 0,
 * in the function's own code. A function is never its own inlined callee.
 */
static int change_cause(const struct cdo *c, const struct inline_want *wt)
{
	if (!wt->callee || same_function(wt->func->name, wt->callee))
		return 0;
	if (changed_function(c, wt->callee))
		return 1;
	if (wt->n_orig && wt->n_patched <= wt->n_orig)
		return wt->crowded ? 0 : 1;
	return -1;
}

/*
 * A function's wants are together and in address order: its first
 * changed callee names it (the first difference may be its own prologue
 * saving one more register). None does when one of its changes is new
 * inlined code: then its own source changed, whatever else did.
 */
static void name_callees(const struct cdo *c, struct inline_want *wants,
			 size_t n)
{
	const struct inline_want *named, *added;
	size_t i, j;

	for (i = 0; i < n; i = j) {
		named = added = NULL;
		for (j = i; j < n && wants[j].func == wants[i].func; j++) {
			int cause = change_cause(c, &wants[j]);

			if (cause < 0 && !added)
				added = &wants[j];
			else if (cause > 0 && !named)
				named = &wants[j];
		}
		if (added)
			debugf("inline: %s: %s inlined %u time(s), %u in ORIG: new code of its own",
			       added->func->name, added->callee,
			       added->n_patched, added->n_orig);
		else if (named)
			si(named->func)->inlined =
				xasprintf("inlined callee %s changed",
					  named->callee);
	}
}

void explain_inlined(struct cdo *c)
{
	struct inline_want *wants = NULL;
	size_t n = 0, i;

	if (!inline_dwarf_usable(c->patched))
		return;
	n = collect_wants(c, &wants);
	/*
	 * ORIG unreadable: no callee is known to be inlined there, and only
	 * one that changed itself can be named. PATCHED's instances uncounted
	 * (an error the lookup did not meet): inlined in ORIG at all is enough.
	 */
	if (n && inline_dwarf_lookup(c, wants, n)) {
		if (!inline_dwarf_count(c, c->orig, wants, n))
			debugf("inline: %s: ORIG's debug info not read",
			       c->objname);
		inline_dwarf_count(c, c->patched, wants, n);
		name_callees(c, wants, n);
	}
	for (i = 0; i < n; i++) {
		free(wants[i].callee);
		free(wants[i].chain);
	}
	free(wants);
}
