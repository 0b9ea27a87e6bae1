/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An object's line table (.debug_line): the source line each place of its
 * code comes from. No pass: compare.c asks it whether a number is a line
 * the patch moved (line-table.c).
 */
#ifndef CDO_LINE_TABLE_H
#define CDO_LINE_TABLE_H

#include "cdo.h"

struct line_table;

/* @elf's line table; NULL when it has none that can be read. */
struct line_table *line_table_read(const struct cdo *c, struct elf *elf);
void line_table_free(struct line_table *t);

/*
 * Does a place of @o's code (ORIG, table @ot) come from line @oline while
 * the same place of @p's (PATCHED, table @pt, same size) comes from line
 * @pline? False without both tables. line_moved_where() gives the first
 * such place, as an offset in the function, or -1.
 */
bool line_moved(const struct line_table *ot, const struct symbol *o,
		uint64_t oline, const struct line_table *pt,
		const struct symbol *p, uint64_t pline);
long line_moved_where(const struct line_table *ot, const struct symbol *o,
		      uint64_t oline, const struct line_table *pt,
		      const struct symbol *p, uint64_t pline);
/*
 * The same for one place, @off of both: do the rows covering the
 * instruction there (the last at or before it) say @oline and @pline?
 */
bool line_moved_at(const struct line_table *ot, const struct symbol *o,
		   uint64_t oline, const struct line_table *pt,
		   const struct symbol *p, uint64_t pline, uint64_t off);
/* Has table @t rows for @s's code at all (not an asm or -g0 piece)? */
bool line_rows_in(const struct line_table *t, const struct symbol *s);

#endif
