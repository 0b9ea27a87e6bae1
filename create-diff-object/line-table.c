// SPDX-License-Identifier: GPL-2.0
/*
 * The line table of an object, read from .debug_line through inline-elf.c's
 * libdwarf model. compare.c asks whether a number that differs in a string
 * or an immediate is a line the patch moved: then some place of the
 * function's code (the immediate's own instruction, at best) comes from
 * that line in ORIG and, at the same offset, from the other number's line
 * in PATCHED. Only the line table knows that: a number in a string
 * that merely looks like a line number (a size, a version) is not moved by
 * it. Addresses are the model's synthetic ones (inline_addr()), so a .cold
 * piece's rows are told from its function's.
 *
 * A table libdwarf cannot read (absent, compressed, damaged) is no table:
 * nothing is then a moved line, and such strings stay changes.
 */
#include <stdlib.h>
#include "line-table.h"
#include "inline.h"
#include "lib/util.h"

struct line_row {
	uint64_t addr;
	uint64_t line;
};

struct line_table {
	struct line_row *rows;		/* sorted by address */
	size_t n, cap;
};

/* NO_ENTRY is no error; an error is freed and ends the read. */
static bool dw_fine(Dwarf_Debug dbg, int res, Dwarf_Error err)
{
	if (res != DW_DLV_ERROR)
		return true;
	if (err)
		dwarf_dealloc_error(dbg, err);
	return false;
}

static void add_row(struct line_table *t, uint64_t addr, uint64_t line)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->rows = xrealloc(t->rows, t->cap * sizeof(*t->rows));
	}
	t->rows[t->n].addr = addr;
	t->rows[t->n++].line = line;
}

/* An end-of-sequence row is past the code: no line of it. */
static int read_row(Dwarf_Line line, struct line_table *t, Dwarf_Error *err)
{
	Dwarf_Unsigned lineno;
	Dwarf_Addr addr;
	Dwarf_Bool end;
	int res;

	res = dwarf_lineendsequence(line, &end, err);
	if (res != DW_DLV_OK || end)
		return res;
	res = dwarf_lineaddr(line, &addr, err);
	if (res == DW_DLV_OK)
		res = dwarf_lineno(line, &lineno, err);
	if (res == DW_DLV_OK)
		add_row(t, addr, lineno);
	return res;
}

static bool read_unit(Dwarf_Debug dbg, Dwarf_Die cu, struct line_table *t)
{
	Dwarf_Line_Context ctx;
	Dwarf_Unsigned version;
	Dwarf_Small ntables;
	Dwarf_Line *lines;
	Dwarf_Signed n, i;
	Dwarf_Error err = NULL;
	int res;

	res = dwarf_srclines_b(cu, &version, &ntables, &ctx, &err);
	if (res != DW_DLV_OK)
		return dw_fine(dbg, res, err);
	res = dwarf_srclines_from_linecontext(ctx, &lines, &n, &err);
	for (i = 0; res == DW_DLV_OK && i < n; i++)
		res = read_row(lines[i], t, &err);
	dwarf_srclines_dealloc_b(ctx);
	return dw_fine(dbg, res, err);
}

static bool read_units(Dwarf_Debug dbg, struct line_table *t)
{
	Dwarf_Unsigned hlen, typeoff, next;
	Dwarf_Half version, asize, lsize, esize, type;
	Dwarf_Error err = NULL;
	Dwarf_Off abbrev;
	Dwarf_Sig8 sig;
	Dwarf_Die cu;
	bool ok;
	int res;

	for (;;) {
		res = dwarf_next_cu_header_d(dbg, true, &hlen, &version,
					     &abbrev, &asize, &lsize, &esize,
					     &sig, &typeoff, &next, &type, &err);
		if (res != DW_DLV_OK)
			return dw_fine(dbg, res, err);
		res = dwarf_siblingof_b(dbg, NULL, true, &cu, &err);
		if (res != DW_DLV_OK) {
			if (!dw_fine(dbg, res, err))
				return false;
			continue;
		}
		ok = read_unit(dbg, cu, t);
		dwarf_dealloc_die(cu);
		if (!ok)
			return false;
	}
}

static int cmp_row(const void *a, const void *b)
{
	const struct line_row *ra = a, *rb = b;

	if (ra->addr != rb->addr)
		return ra->addr < rb->addr ? -1 : 1;
	return 0;
}

struct line_table *line_table_read(const struct cdo *c, struct elf *elf)
{
	struct line_table *t;
	struct dwarf_model *m;
	Dwarf_Debug dbg;
	bool ok;

	if (!inline_dwarf_usable(elf))
		return NULL;
	m = dwarf_model_open(c, elf, true, &dbg);
	if (!m)
		return NULL;
	t = xcalloc(1, sizeof(*t));
	ok = read_units(dbg, t);
	dwarf_model_close(m, dbg);
	if (!ok || !t->n) {
		line_table_free(t);
		return NULL;
	}
	qsort(t->rows, t->n, sizeof(*t->rows), cmp_row);
	return t;
}

void line_table_free(struct line_table *t)
{
	if (!t)
		return;
	free(t->rows);
	free(t);
}

/* The first row at @addr or after it. */
static size_t first_row(const struct line_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->rows[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Several rows may share an address (views): any of them. */
static bool line_at(const struct line_table *t, uint64_t addr, uint64_t line)
{
	size_t i;

	for (i = first_row(t, addr); i < t->n && t->rows[i].addr == addr; i++)
		if (t->rows[i].line == line)
			return true;
	return false;
}

long line_moved_where(const struct line_table *ot, const struct symbol *o,
		      uint64_t oline, const struct line_table *pt,
		      const struct symbol *p, uint64_t pline)
{
	uint64_t obase = inline_addr(o->sec, o->offset);
	uint64_t pbase = inline_addr(p->sec, p->offset);
	size_t i;

	if (!ot || !pt)
		return -1;
	for (i = first_row(ot, obase);
	     i < ot->n && ot->rows[i].addr - obase < o->size; i++)
		if (ot->rows[i].line == oline &&
		    line_at(pt, pbase + (ot->rows[i].addr - obase), pline))
			return (long)(ot->rows[i].addr - obase);
	return -1;
}

bool line_moved(const struct line_table *ot, const struct symbol *o,
		uint64_t oline, const struct line_table *pt,
		const struct symbol *p, uint64_t pline)
{
	return line_moved_where(ot, o, oline, pt, p, pline) >= 0;
}

/*
 * The address of the rows covering @off of @s's code: the last at or
 * before it, in @s's range. False when none is.
 */
static bool covering(const struct line_table *t, const struct symbol *s,
		     uint64_t off, uint64_t *addr)
{
	uint64_t base = inline_addr(s->sec, s->offset);
	size_t i = first_row(t, base + off + 1);

	if (!i || t->rows[i - 1].addr < base)
		return false;
	*addr = t->rows[i - 1].addr;
	return true;
}

bool line_moved_at(const struct line_table *ot, const struct symbol *o,
		   uint64_t oline, const struct line_table *pt,
		   const struct symbol *p, uint64_t pline, uint64_t off)
{
	uint64_t oaddr, paddr;

	if (!ot || !pt || off >= o->size || off >= p->size ||
	    !covering(ot, o, off, &oaddr) || !covering(pt, p, off, &paddr))
		return false;
	return line_at(ot, oaddr, oline) && line_at(pt, paddr, pline);
}

bool line_rows_in(const struct line_table *t, const struct symbol *s)
{
	uint64_t base = inline_addr(s->sec, s->offset);
	size_t i;

	if (!t)
		return false;
	i = first_row(t, base);
	return i < t->n && t->rows[i].addr - base < s->size;
}
