// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF side of inline.c. In PATCHED: the innermost
 * DW_TAG_inlined_subroutine covering a given place, the name of its callee
 * (through DW_AT_abstract_origin/DW_AT_specification) and the chain of
 * inlined callees around it. Then, counted in ORIG and in PATCHED, the
 * inlined instances with that same chain anywhere in the changed code and
 * in its twin: a call that only PATCHED inlines is new code of its
 * caller, not a change of the callee. Only subprograms with pc ranges at
 * the top, then inlined instances and lexical blocks below them, and only
 * where a wanted place lies (when counting: the whole subprogram of the
 * code), are read.
 *
 * Any libdwarf error ends the walk and the lookup (or count) answers
 * nothing.
 * inline-elf.c hands libdwarf the sections (and says why that way).
 */
#include <stdlib.h>
#include <string.h>
#include "inline.h"
#include "lib/util.h"

#define MAX_DEPTH	64	/* DIE nesting followed; deeper is nonsense */
#define MAX_HOPS	16	/* abstract_origin/specification chain */

struct range {
	Dwarf_Addr lo, hi;	/* [lo, hi) */
};

struct walk {
	const struct cdo *c;
	struct elf *elf;	/* the object read: PATCHED or ORIG */
	bool count;		/* count the wants' chains, not find them */
	bool *active;		/* count: the wants the subprogram is the code of */
	Dwarf_Debug dbg;
	Dwarf_Half version;	/* of the CU being walked */
	Dwarf_Addr cu_base;	/* its base address (DWARF 2-4 ranges) */
	struct inline_want *wants;
	size_t nwants;
	struct range *ranges;	/* pc ranges of one DIE */
	size_t nranges, cap;
	bool failed;		/* a libdwarf error: answer nothing */
};

/* OK and NO_ENTRY go on; an error ends the walk and the report. */
static bool dw_ok(struct walk *w, int res, Dwarf_Error err)
{
	if (res != DW_DLV_ERROR)
		return true;
	if (!w->failed)
		debugf("inline: %s: debug info not usable: %s", w->c->objname,
		       err ? dwarf_errmsg(err) : "?");
	if (err)
		dwarf_dealloc_error(w->dbg, err);
	w->failed = true;
	return false;
}

static void add_range(struct walk *w, Dwarf_Addr lo, Dwarf_Addr hi)
{
	if (hi <= lo)
		return;
	if (w->nranges == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->ranges = xrealloc(w->ranges, w->cap * sizeof(*w->ranges));
	}
	w->ranges[w->nranges].lo = lo;
	w->ranges[w->nranges++].hi = hi;
}

/* DWARF 5 .debug_rnglists; entries come cooked (base applied). */
static bool rnglists(struct walk *w, Dwarf_Attribute attr, Dwarf_Half form,
		     Dwarf_Unsigned val)
{
	Dwarf_Rnglists_Head head;
	Dwarf_Unsigned count, where, i;
	Dwarf_Error err = NULL;
	int res;

	res = dwarf_rnglists_get_rle_head(attr, form, val, &head, &count,
					  &where, &err);
	if (res != DW_DLV_OK)
		return dw_ok(w, res, err);
	for (i = 0; i < count && res == DW_DLV_OK; i++) {
		Dwarf_Unsigned raw1, raw2, lo, hi;
		Dwarf_Bool noaddr = 0;
		unsigned int len, code;

		res = dwarf_get_rnglists_entry_fields_a(head, i, &len, &code,
							&raw1, &raw2, &noaddr,
							&lo, &hi, &err);
		if (res == DW_DLV_OK && !noaddr && code != DW_RLE_end_of_list &&
		    code != DW_RLE_base_address && code != DW_RLE_base_addressx)
			add_range(w, lo, hi);
	}
	dwarf_dealloc_rnglists_head(head);
	return dw_ok(w, res, err);
}

/* DWARF 2-4 .debug_ranges: raw pairs relative to the current base. */
static bool ranges(struct walk *w, Dwarf_Die die, Dwarf_Off off)
{
	Dwarf_Addr base = w->cu_base;
	Dwarf_Ranges *r;
	Dwarf_Signed n, i;
	Dwarf_Unsigned bytes;
	Dwarf_Off real;
	Dwarf_Error err = NULL;
	int res;

	res = dwarf_get_ranges_b(w->dbg, off, die, &real, &r, &n, &bytes, &err);
	if (res != DW_DLV_OK)
		return dw_ok(w, res, err);
	for (i = 0; i < n; i++) {
		if (r[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
			base = r[i].dwr_addr2;
		else if (r[i].dwr_type == DW_RANGES_ENTRY)
			add_range(w, base + r[i].dwr_addr1, base + r[i].dwr_addr2);
		else
			break;
	}
	dwarf_ranges_dealloc(w->dbg, r, n);
	return true;
}

static bool ranges_attr(struct walk *w, Dwarf_Die die)
{
	Dwarf_Attribute attr;
	Dwarf_Error err = NULL;
	Dwarf_Unsigned val = 0;
	Dwarf_Off off = 0;
	Dwarf_Half form = 0;
	bool ok;
	int res;

	res = dwarf_attr(die, DW_AT_ranges, &attr, &err);
	if (res != DW_DLV_OK)
		return dw_ok(w, res, err);
	res = dwarf_whatform(attr, &form, &err);
	if (res == DW_DLV_OK && form == DW_FORM_rnglistx)
		res = dwarf_formudata(attr, &val, &err);
	else if (res == DW_DLV_OK)
		res = dwarf_global_formref(attr, &off, &err);
	if (res != DW_DLV_OK)
		ok = dw_ok(w, res, err);
	else if (w->version >= 5)
		ok = rnglists(w, attr, form, form == DW_FORM_rnglistx ? val : off);
	else
		ok = ranges(w, die, off);
	dwarf_dealloc_attribute(attr);
	return ok;
}

/* Fill w->ranges with the pc ranges of @die; false on an error. */
static bool die_ranges(struct walk *w, Dwarf_Die die)
{
	enum Dwarf_Form_Class cls;
	Dwarf_Error err = NULL;
	Dwarf_Addr lo, hi;
	Dwarf_Half form;
	int res;

	w->nranges = 0;
	res = dwarf_lowpc(die, &lo, &err);
	if (res != DW_DLV_OK)
		return dw_ok(w, res, err) && ranges_attr(w, die);
	res = dwarf_highpc_b(die, &hi, &form, &cls, &err);
	if (res == DW_DLV_OK)
		add_range(w, lo, cls == DW_FORM_CLASS_CONSTANT ? lo + hi : hi);
	return dw_ok(w, res, err);
}

static bool covers(const struct walk *w, Dwarf_Addr addr)
{
	size_t i;

	for (i = 0; i < w->nranges; i++)
		if (addr >= w->ranges[i].lo && addr < w->ranges[i].hi)
			return true;
	return false;
}

static bool covers_any(const struct walk *w)
{
	size_t i;

	for (i = 0; i < w->nwants; i++)
		if (covers(w, w->wants[i].addr))
			return true;
	return false;
}

/* The callee's name, through abstract_origin/specification hops. */
static char *callee_name(struct walk *w, Dwarf_Die die)
{
	Dwarf_Die cur = die, ref;
	Dwarf_Attribute attr;
	Dwarf_Error err = NULL;
	Dwarf_Off off;
	char *name = NULL, *s;
	unsigned int hop;
	int res;

	for (hop = 0; hop < MAX_HOPS && !name; hop++) {
		res = dwarf_diename(cur, &s, &err);
		if (res == DW_DLV_OK) {
			name = xstrdup(s);
			break;
		}
		if (!dw_ok(w, res, err))
			break;
		res = dwarf_attr(cur, DW_AT_abstract_origin, &attr, &err);
		if (res == DW_DLV_NO_ENTRY)
			res = dwarf_attr(cur, DW_AT_specification, &attr, &err);
		if (res != DW_DLV_OK) {
			dw_ok(w, res, err);
			break;
		}
		res = dwarf_global_formref(attr, &off, &err);
		dwarf_dealloc_attribute(attr);
		if (res == DW_DLV_OK)
			res = dwarf_offdie_b(w->dbg, off, true, &ref, &err);
		if (res != DW_DLV_OK) {
			dw_ok(w, res, err);
			break;
		}
		if (cur != die)
			dwarf_dealloc_die(cur);
		cur = ref;
	}
	if (cur != die)
		dwarf_dealloc_die(cur);
	return name;
}

/*
 * PATCHED: an inlined instance covering a wanted address, with the chain
 * of callees it is in (outermost first): the innermost one wins.
 */
static void match(struct walk *w, const char *name, const char *chain,
		  unsigned int depth)
{
	size_t i;

	for (i = 0; i < w->nwants; i++) {
		struct inline_want *wt = &w->wants[i];

		if ((wt->callee && wt->depth >= depth) || !covers(w, wt->addr))
			continue;
		free(wt->callee);
		free(wt->chain);
		wt->callee = xstrdup(name);
		wt->chain = xstrdup(chain);
		wt->depth = depth;
	}
}

/* count: one more instance of @chain in the code of the active wants. */
static void count_chain(struct walk *w, const char *chain)
{
	bool orig = w->elf == w->c->orig;
	size_t i;

	for (i = 0; i < w->nwants; i++) {
		struct inline_want *wt = &w->wants[i];

		if (!w->active[i] || !wt->chain || strcmp(wt->chain, chain))
			continue;
		if (orig)
			wt->n_orig++;
		else
			wt->n_patched++;
	}
}

/* count: do the pc ranges just read meet [@lo, @hi)? */
static bool overlaps(const struct walk *w, Dwarf_Addr lo, Dwarf_Addr hi)
{
	size_t i;

	for (i = 0; i < w->nranges; i++)
		if (lo < w->ranges[i].hi && w->ranges[i].lo < hi)
			return true;
	return false;
}

/*
 * count: which wants' code the subprogram just read is. Its pc may start
 * past the symbol (after aarch64's patchable NOPs and BTI): any overlap.
 */
static bool activate(struct walk *w)
{
	bool orig = w->elf == w->c->orig;
	bool any = false;
	size_t i;

	for (i = 0; i < w->nwants; i++) {
		const struct inline_want *wt = &w->wants[i];

		w->active[i] = orig ? overlaps(w, wt->orig_lo, wt->orig_hi) :
				      overlaps(w, wt->lo, wt->hi);
		any |= w->active[i];
	}
	return any;
}

/*
 * Is @die's subtree to be read? PATCHED: where a wanted address lies (a
 * subprogram without pc is abstract; a block without is a scope). To
 * count: the code's subprogram whole, its .cold part and the inlined
 * instances that left no code included, for every call counts.
 */
static bool wanted(struct walk *w, Dwarf_Die die, unsigned int depth)
{
	if (w->count && depth)
		return true;
	if (!die_ranges(w, die))
		return false;
	if (w->count)
		return w->nranges && activate(w);
	return w->nranges ? covers_any(w) : depth;
}

static void walk_children(struct walk *w, Dwarf_Die parent,
			  unsigned int depth, const char *chain);

/* An inlined instance: its callee joins the chain of its subtree. */
static void visit_inlined(struct walk *w, Dwarf_Die die, unsigned int depth,
			  const char *chain)
{
	char *name = callee_name(w, die);
	char *sub;

	if (w->failed)
		goto out;
	/* a name libdwarf cannot give matches nothing, but its subtree may */
	sub = xasprintf("%s%s%s", chain, *chain ? " " : "", name ? name : "?");
	if (name && w->count)
		count_chain(w, sub);
	else if (name)
		match(w, name, sub, depth);
	walk_children(w, die, depth + 1, sub);
	free(sub);
out:
	free(name);
}

/*
 * Only subprograms at the top, then inlined instances and lexical blocks
 * below them, and only where wanted().
 */
static void visit(struct walk *w, Dwarf_Die die, unsigned int depth,
		  const char *chain)
{
	Dwarf_Error err = NULL;
	Dwarf_Half tag;
	int res;

	res = dwarf_tag(die, &tag, &err);
	if (res != DW_DLV_OK) {
		dw_ok(w, res, err);
		return;
	}
	if (depth ? tag != DW_TAG_inlined_subroutine &&
		    tag != DW_TAG_lexical_block : tag != DW_TAG_subprogram)
		return;
	if (!wanted(w, die, depth))
		return;
	if (tag == DW_TAG_inlined_subroutine)
		visit_inlined(w, die, depth, chain);
	else
		walk_children(w, die, depth + 1, chain);
}

static void walk_children(struct walk *w, Dwarf_Die parent,
			  unsigned int depth, const char *chain)
{
	Dwarf_Error err = NULL;
	Dwarf_Die die, next;
	int res;

	if (depth > MAX_DEPTH)
		return;
	res = dwarf_child(parent, &die, &err);
	while (res == DW_DLV_OK) {
		visit(w, die, depth, chain);
		if (w->failed) {
			dwarf_dealloc_die(die);
			return;
		}
		res = dwarf_siblingof_b(w->dbg, die, true, &next, &err);
		dwarf_dealloc_die(die);
		die = next;
	}
	dw_ok(w, res, err);
}

static void walk_cu(struct walk *w)
{
	Dwarf_Error err = NULL;
	Dwarf_Die cu;
	int res;

	res = dwarf_siblingof_b(w->dbg, NULL, true, &cu, &err);
	if (res != DW_DLV_OK) {
		dw_ok(w, res, err);
		return;
	}
	w->cu_base = 0;
	res = dwarf_lowpc(cu, &w->cu_base, &err);
	if (dw_ok(w, res, err))
		walk_children(w, cu, 0, "");
	dwarf_dealloc_die(cu);
}

static void walk_dwarf(struct walk *w)
{
	Dwarf_Unsigned hlen, typeoff, next;
	Dwarf_Half asize, lsize, esize, type;
	struct dwarf_model *m;
	Dwarf_Off abbrev;
	Dwarf_Sig8 sig;
	Dwarf_Error err = NULL;
	int res;

	m = dwarf_model_open(w->c, w->elf, false, &w->dbg);
	if (!m) {
		debugf("inline: %s: no usable debug info%s", w->c->objname,
		       w->elf == w->c->orig ? " in ORIG" : "");
		w->failed = true;
		return;
	}
	for (;;) {
		res = dwarf_next_cu_header_d(w->dbg, true, &hlen, &w->version,
					     &abbrev, &asize, &lsize, &esize,
					     &sig, &typeoff, &next, &type, &err);
		if (res != DW_DLV_OK || w->failed)
			break;
		walk_cu(w);
	}
	dw_ok(w, res, err);
	dwarf_model_close(m, w->dbg);
}

bool inline_dwarf_lookup(const struct cdo *c, struct inline_want *wants,
			 size_t n)
{
	struct walk w = { .c = c, .elf = c->patched, .wants = wants,
			  .nwants = n };

	walk_dwarf(&w);
	free(w.ranges);
	return !w.failed;
}

bool inline_dwarf_count(const struct cdo *c, struct elf *elf,
			struct inline_want *wants, size_t n)
{
	struct walk w = { .c = c, .elf = elf, .count = true, .wants = wants,
			  .nwants = n, .failed = !inline_dwarf_usable(elf) };
	size_t i;

	if (!w.failed) {
		w.active = xcalloc(n, sizeof(*w.active));
		walk_dwarf(&w);
		free(w.active);
		free(w.ranges);
	}
	/* counts cut short by an error are no answer: none at all */
	for (i = 0; w.failed && i < n; i++) {
		if (elf == c->orig)
			wants[i].n_orig = 0;
		else
			wants[i].n_patched = 0;
	}
	return !w.failed;
}
