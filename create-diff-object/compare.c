// SPDX-License-Identifier: GPL-2.0
/*
 * Compare: decide for every PATCHED function and object whether it is
 * SAME, CHANGED or NEW. Bytes are compared over the symbol's own range and
 * relocations symbolically: two relocations are equal when they apply at
 * the same offset with the same type and reach correlated targets at the
 * same place, whatever the symbol indices. String literals compare by
 * their text, special statics by their contents. A function whose bytes
 * differ only in immediates that are line numbers the patch moved is SAME,
 * and so is one whose strings differ only in such a number: the line table
 * says so (line-table.c), or, without one, for an immediate, a call that
 * takes a __LINE__ follows it. Both are reported as line shifts.
 * The propagate pass (propagate.c) runs next.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "cdo.h"
#include "line-table.h"
#include "reloc-target.h"
#include "lib/util.h"

static bool same_bytes(const struct section *a, uint64_t aoff,
		       const struct section *b, uint64_t boff, uint64_t len)
{
	bool anob = a->sh.sh_type == SHT_NOBITS, bnob = b->sh.sh_type == SHT_NOBITS;

	if (anob || bnob)
		return anob && bnob;
	if (aoff + len > a->size || boff + len > b->size)
		return false;
	/* an empty range of an empty section has no data buffer at all */
	return !len || !memcmp(a->data + aoff, b->data + boff, len);
}

static bool in_section(const struct section *sec, int64_t off)
{
	return off >= 0 && (uint64_t)off < sec->size;
}

/* The string at @off of @sec and its length (to its NUL or the end). */
static const char *string_at(const struct section *sec, int64_t off,
			     size_t *len)
{
	const char *s;

	if (off < 0 || (uint64_t)off >= sec->size || !sec->data)
		return NULL;
	s = (const char *)sec->data + off;
	*len = strnlen(s, sec->size - off);
	return s;
}

static bool same_string(const struct section *a, int64_t aoff,
			const struct section *b, int64_t boff)
{
	const char *sa, *sb;
	size_t la, lb;

	sa = string_at(a, aoff, &la);
	sb = string_at(b, boff, &lb);
	return sa && sb && la == lb && !memcmp(sa, sb, la);
}

static bool same_target(const struct cdo *c, const struct target *a,
			const struct target *b, int depth);

/*
 * The relocations of [ao, ao+len) in @as and [bo, bo+len) in @bs reach the
 * same things at the same places. Data pointing to data is followed a few
 * levels deep, no further.
 */
static bool same_reloc_range(const struct cdo *c, struct section *as,
			     uint64_t ao, struct section *bs, uint64_t bo,
			     uint64_t len, int depth)
{
	struct reloc **ra, **rb;
	size_t na, nb, i;

	if (depth > 4)
		return true;
	na = relocs_in(as, ao, len, &ra);
	nb = relocs_in(bs, bo, len, &rb);
	if (na != nb)
		return false;
	for (i = 0; i < na; i++) {
		struct target ta, tb;

		reloc_target(c, as, ra[i], &ta);
		reloc_target(c, bs, rb[i], &tb);
		if (ra[i]->offset - ao != rb[i]->offset - bo ||
		    ra[i]->type != rb[i]->type || !same_target(c, &ta, &tb, depth + 1))
			return false;
	}
	return true;
}

/*
 * Call-site data (__dyndbg entries, ubsan locations) is the same when it
 * points to the same things; its plain bytes are line numbers.
 */
static bool same_callsite(const struct cdo *c, const struct target *a,
			  const struct target *b, int depth)
{
	uint64_t size = sci(a->sec)->entsize, ao = 0, bo = 0, len;

	if (a->off != b->off && !size)
		return false;
	if (size && sci(b->sec)->entsize == size) {
		if (a->off % size != b->off % size || a->off < 0 || b->off < 0)
			return false;
		ao = a->off - a->off % size;
		bo = b->off - b->off % size;
		len = size;
	} else if (!size && !sci(b->sec)->entsize) {
		len = a->sec->size;
		if (b->sec->size != len)
			return false;
	} else {
		return false;
	}
	return same_reloc_range(c, a->sec, ao, b->sec, bo, len, depth);
}

/*
 * Special statics (__func__.N, __warned.N, descriptors) are never paired:
 * they are the same when they hold the same thing. In call-site data only
 * what they point to counts.
 */
static bool same_special_static(const struct cdo *c, const struct symbol *a,
				const struct symbol *b, int depth)
{
	if (strcmp(si(a)->norm, si(b)->norm) || a->size != b->size)
		return false;
	if (!sci(a->sec)->callsite &&
	    !same_bytes(a->sec, a->offset, b->sec, b->offset, a->size))
		return false;
	return same_reloc_range(c, a->sec, a->offset, b->sec, b->offset, a->size,
				depth);
}

/*
 * References into anonymous code reach a chunk (chunk.c). A new chunk
 * before it shifts it in the section; what counts is the code reached: the
 * same place in a chunk of the same bytes and relocations.
 */
static bool same_chunk(const struct cdo *c, const struct target *a,
		       const struct target *b, int depth)
{
	struct span ca, cb;

	if ((uint64_t)a->addend - a->off != (uint64_t)b->addend - b->off ||
	    a->off < 0 || b->off < 0 || (uint64_t)a->off > a->sec->size ||
	    (uint64_t)b->off > b->sec->size ||
	    (sci(b->sec)->twin != a->sec &&
	     !similar_section_names(a->sec->name, b->sec->name)))
		return false;
	ca = chunk_at(a->sec, a->off);
	cb = chunk_at(b->sec, b->off);
	return a->off - ca.off == b->off - cb.off && ca.len == cb.len &&
	       same_bytes(a->sec, ca.off, b->sec, cb.off, ca.len) &&
	       same_reloc_range(c, a->sec, ca.off, b->sec, cb.off, ca.len,
				depth);
}

/* A mergeable section of fixed-size constants (.rodata.cst8): a pool. */
static bool is_constant_pool(const struct section *sec)
{
	return (sec->sh.sh_flags & SHF_MERGE) && sec->sh.sh_entsize &&
	       !is_string_section(sec) && sec->sh.sh_type != SHT_NOBITS;
}

/*
 * The linker merges equal constants and moves them at will: a reference
 * is to a value, whatever its offset in the pool (a new constant before it
 * shifts it). The same place in an entry of the same bytes.
 */
static bool same_constant(const struct target *a, const struct target *b)
{
	uint64_t size = a->sec->sh.sh_entsize;

	if (b->sec->sh.sh_entsize != size || a->off < 0 || b->off < 0 ||
	    (uint64_t)a->addend - a->off != (uint64_t)b->addend - b->off ||
	    a->off % size != b->off % size ||
	    (sci(b->sec)->twin != a->sec &&
	     !similar_section_names(a->sec->name, b->sec->name)))
		return false;
	return same_bytes(a->sec, a->off - a->off % size, b->sec,
			  b->off - b->off % size, size);
}

static bool same_target(const struct cdo *c, const struct target *a,
			const struct target *b, int depth)
{
	if (is_no_target(a) || is_no_target(b))
		return is_no_target(a) && is_no_target(b) &&
		       a->addend == b->addend;
	if (a->sym && b->sym) {
		if (a->addend != b->addend)
			return false;
		if (!a->sym->sec && !b->sym->sec)
			return !strcmp(a->sym->name, b->sym->name);
		if (si(b->sym)->twin)
			return si(b->sym)->twin == a->sym;
		return si(a->sym)->special_static && si(b->sym)->special_static &&
		       same_special_static(c, a->sym, b->sym, depth);
	}
	if (!a->sec || !b->sec)
		return false;
	if (is_string_section(a->sec) && is_string_section(b->sec) &&
	    in_section(a->sec, a->off) && in_section(b->sec, b->off))
		return (uint64_t)a->addend - a->off == (uint64_t)b->addend - b->off &&
		       same_string(a->sec, a->off, b->sec, b->off);
	/*
	 * Past the end of a string section: no string there, but the high
	 * half of an address GCC computes once for several (a high-half
	 * relocation to .LC+N): the same place of the same strings.
	 */
	if (is_string_section(a->sec) && is_string_section(b->sec))
		return a->addend == b->addend && a->off == b->off &&
		       a->sec->size == b->sec->size &&
		       same_bytes(a->sec, 0, b->sec, 0, a->sec->size);
	if (sci(a->sec)->callsite && sci(b->sec)->callsite)
		return (uint64_t)a->addend - a->off == (uint64_t)b->addend - b->off &&
		       similar_section_names(a->sec->name, b->sec->name) &&
		       same_callsite(c, a, b, depth);
	if (is_anonymous_code(a->sec) && is_anonymous_code(b->sec))
		return same_chunk(c, a, b, depth);
	if (is_constant_pool(a->sec) && is_constant_pool(b->sec))
		return same_constant(a, b);
	if (a->addend != b->addend || a->off != b->off ||
	    (sci(b->sec)->twin != a->sec &&
	     !similar_section_names(a->sec->name, b->sec->name)))
		return false;
	if (a->sec->sh.sh_entsize && a->off >= 0)
		return same_bytes(a->sec, a->off, b->sec, b->off,
				  a->sec->sh.sh_entsize);
	return a->sec->size == b->sec->size &&
	       same_bytes(a->sec, 0, b->sec, 0, a->sec->size);
}

/* compare.c's symbolic test, for the other passes (inline.c's report). */
bool targets_equal(const struct cdo *c, const struct target *a,
		   const struct target *b)
{
	return same_target(c, a, b, 0);
}

static bool is_word_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

static size_t digits_end(const char *s, size_t len, size_t i)
{
	while (i < len && isdigit((unsigned char)s[i]))
		i++;
	return i;
}

/* @len digits, no leading zero, at most SOURCE_LINE_MAX (arch.h). */
static bool parse_line(const char *s, size_t len, unsigned long *line)
{
	size_t i;

	if (!len || s[0] == '0')
		return false;
	for (*line = 0, i = 0; i < len; i++) {
		*line = *line * 10 + (unsigned long)(s[i] - '0');
		if (*line > SOURCE_LINE_MAX)
			return false;
	}
	return true;
}

/* Is the number at [@i, @end) of @s a word of its own? */
static bool whole_number(const char *s, size_t len, size_t i, size_t end)
{
	if (i && (is_word_char(s[i - 1]) || s[i - 1] == '.'))
		return false;
	if (end == len)
		return true;
	return !is_word_char(s[end]) &&
	       !(s[end] == '.' && end + 1 < len && isdigit((unsigned char)s[end + 1]));
}

/*
 * @a and @b differ only in one decimal number, written as __stringify and
 * printf write a line: a whole word ("file.c:17", "line 17"), not a part
 * of a name, a version or a hex number ("v17", "1.17", "0x17", "17a").
 * Its values go to @na and @nb.
 */
static bool one_number_differs(const char *a, size_t la, const char *b,
			       size_t lb, unsigned long *na, unsigned long *nb)
{
	size_t i = 0, ea, eb;

	while (i < la && i < lb && a[i] == b[i])
		i++;
	while (i && isdigit((unsigned char)a[i - 1]))
		i--;
	ea = digits_end(a, la, i);
	eb = digits_end(b, lb, i);
	if (la - ea != lb - eb || memcmp(a + ea, b + eb, la - ea) ||
	    !whole_number(a, la, i, ea))
		return false;
	return parse_line(a + i, ea - i, na) && parse_line(b + i, eb - i, nb);
}

/* Read once, when a string or immediate first needs them; compare() frees them. */
static void read_line_tables(struct cdo *c)
{
	if (c->lines_read)
		return;
	c->lines_read = true;
	c->orig_lines = line_table_read(c, c->orig);
	c->patched_lines = line_table_read(c, c->patched);
}

/*
 * Code of @o and @p at @off refers to strings @to and @tp that differ only
 * in a number: a line number the patch moved (FORTIFY's "field ... at
 * FILE:LINE", __FILE__ ":" __stringify(__LINE__)) when the line table says
 * the same place of their code came from the one line in ORIG and the other
 * in PATCHED. A line shift like a __LINE__ immediate's, not a change.
 */
static bool line_string(struct cdo *c, const struct symbol *o,
			const struct symbol *p, struct target to,
			struct target tp, long off)
{
	unsigned long na, nb;
	size_t la = 0, lb = 0;
	const char *a, *b;

	/* code may reach its strings through pointer slots (arch.h) */
	follow_slot(c, &to);
	follow_slot(c, &tp);
	if (to.sym || tp.sym || !to.sec || !tp.sec ||
	    !is_string_section(to.sec) || !is_string_section(tp.sec) ||
	    (uint64_t)to.addend - to.off != (uint64_t)tp.addend - tp.off)
		return false;
	a = string_at(to.sec, to.off, &la);
	b = string_at(tp.sec, tp.off, &lb);
	if (!a || !b || !one_number_differs(a, la, b, lb, &na, &nb))
		return false;
	read_line_tables(c);
	if (!line_moved(c->orig_lines, o, na, c->patched_lines, p, nb)) {
		debugf("compare: %s+0x%lx: string differs only in the number %lu -> %lu, %s",
		       p->name, off, na, nb,
		       c->orig_lines && c->patched_lines ?
		       "not a line the line table moves" :
		       "and no line table says it is a line");
		return false;
	}
	debugf("compare: %s+0x%lx: string differs only in line %lu -> %lu, a line the line table moves",
	       p->name, off, na, nb);
	return true;
}

/*
 * Relocations @ro of @o and @rp of @p reach the same thing at the same
 * place, or strings that differ only in a moved line (@lines set).
 */
static bool same_reloc(struct cdo *c, const struct symbol *o,
		       const struct symbol *p, const struct reloc *ro,
		       const struct reloc *rp, bool *lines)
{
	long off = rp->offset - p->offset;
	struct target to, tp;

	reloc_target(c, o->sec, ro, &to);
	reloc_target(c, p->sec, rp, &tp);
	if (ro->offset - o->offset != rp->offset - p->offset ||
	    ro->type != rp->type)
		goto differs;
	if (same_target(c, &to, &tp, 0))
		return true;
	if (line_string(c, o, p, to, tp, off)) {
		*lines = true;
		return true;
	}
differs:
	debugf("compare: %s+0x%lx: %s%+ld -> %s%+ld", p->name, off,
	       target_name(&to), (long)to.addend, target_name(&tp),
	       (long)tp.addend);
	return false;
}

/* @lines: some strings differ only in moved lines (line_string()). */
static bool same_relocs(struct cdo *c, const struct symbol *o,
			const struct symbol *p, long *diff, bool *lines)
{
	struct reloc **ro, **rp;
	size_t no = relocs_in(o->sec, o->offset, o->size, &ro);
	size_t np = relocs_in(p->sec, p->offset, p->size, &rp);
	size_t i;

	for (i = 0; i < no && i < np; i++) {
		if (!same_reloc(c, o, p, ro[i], rp[i], lines)) {
			*diff = rp[i]->offset - p->offset;
			return false;
		}
	}
	if (no != np) {
		*diff = i < np ? (long)(rp[i]->offset - p->offset) : (long)p->size;
		return false;
	}
	return true;
}

/*
 * Functions known to take a __LINE__ argument: the only evidence when
 * there is no line table (an object built without -g). Every subsystem has
 * more (__ext4_iget, __ext4_error, ...), which only the line table tells.
 */
static const char *const line_funcs[] = {
	"__might_sleep", "__might_resched", "__might_fault", "___might_sleep",
	"__warn_printk", "_printk", "printk", "lockdep_rcu_suspicious",
	"__btrfs_abort_transaction", "btrfs_handle_fs_error",
	"__btrfs_handle_fs_error", "warn_slowpath_fmt", "__cant_sleep",
	"__cant_migrate", "_dev_printk", "_dev_warn", "_dev_err", "_dev_info",
	"__dynamic_pr_debug", "__dynamic_dev_dbg", "rcu_read_lock_held",
	"__kasan_check_read",
};

/* A function's code, ORIG's and PATCHED's, asked about its immediates. */
struct line_ctx {
	const struct cdo *c;
	const struct symbol *orig, *func;
	bool tables;		/* the line table covers both: it decides */
};

/* Lines are counted from 1; the bound keeps out addresses and masks. */
static bool may_be_line(uint64_t v)
{
	return v >= 1 && v <= SOURCE_LINE_MAX;
}

/* The one of line_funcs[] a call after @imm reaches, or NULL. */
static const char *line_call_after(const struct line_ctx *lc,
				   const struct line_imm *imm)
{
	const struct symbol *f = lc->func;
	struct reloc **rs;
	size_t n, i, k;

	n = relocs_in(f->sec, f->offset + imm->end, 64, &rs);
	for (i = 0; i < n; i++) {
		struct target t;

		reloc_target(lc->c, f->sec, rs[i], &t);
		if (!t.sym)
			continue;
		for (k = 0; k < ARRAY_SIZE(line_funcs); k++)
			if (!strcmp(t.sym->name, line_funcs[k]))
				return line_funcs[k];
	}
	return NULL;
}

/*
 * The line table's evidence: the row of @imm's own instruction comes from
 * its ORIG value in ORIG and its PATCHED value in PATCHED; or, since GCC
 * may schedule an argument's setup away from its call's statement, some
 * other place of the function does, as for strings (line_moved()). A
 * constant that changed is then no line of the function, or one the patch
 * did not move to the new value.
 */
static bool line_table_says(const struct line_ctx *lc,
			    const struct line_imm *imm)
{
	const struct cdo *c = lc->c;
	const char *name = lc->func->name;
	long where;

	if (line_moved_at(c->orig_lines, lc->orig, imm->a, c->patched_lines,
			  lc->func, imm->b, imm->at)) {
		debugf("compare: %s+0x%zx: immediate %lu -> %lu is a line the line table moves, at this instruction",
		       name, imm->at, (unsigned long)imm->a,
		       (unsigned long)imm->b);
		return true;
	}
	where = line_moved_where(c->orig_lines, lc->orig, imm->a,
				 c->patched_lines, lc->func, imm->b);
	if (where >= 0) {
		debugf("compare: %s+0x%zx: immediate %lu -> %lu is a line the line table moves, at +0x%lx",
		       name, imm->at, (unsigned long)imm->a,
		       (unsigned long)imm->b, where);
		return true;
	}
	debugf("compare: %s+0x%zx: immediate %lu -> %lu, not a line the line table moves",
	       name, imm->at, (unsigned long)imm->a, (unsigned long)imm->b);
	return false;
}

/*
 * Is @imm's change a moved __LINE__? Where the line table covers the
 * function it decides; without one (no -g) a call to a function known to
 * take a __LINE__ must follow it (line_funcs[]).
 */
static bool is_line_imm(void *ctx, const struct line_imm *imm)
{
	const struct line_ctx *lc = ctx;
	const char *call;

	if (!may_be_line(imm->a) || !may_be_line(imm->b))
		return false;
	if (lc->tables)
		return line_table_says(lc, imm);
	call = line_call_after(lc, imm);
	if (call)
		debugf("compare: %s+0x%zx: immediate %lu -> %lu feeds %s, which takes a __LINE__ (no line table)",
		       lc->func->name, imm->at, (unsigned long)imm->a,
		       (unsigned long)imm->b, call);
	return call;
}

/* First differing byte of two functions/objects (over the shorter). */
static long first_diff(const struct symbol *o, const struct symbol *p)
{
	uint64_t i, n = o->size < p->size ? o->size : p->size;

	if (!o->sec->data || !p->sec->data)
		return 0;
	for (i = 0; i < n; i++)
		if (o->sec->data[o->offset + i] != p->sec->data[p->offset + i])
			break;
	return i;
}

/* The code of @o and @p differs only in immediates that are moved lines. */
static bool line_immediates(struct cdo *c, const struct symbol *o,
			    const struct symbol *p)
{
	struct line_ctx lc = { c, o, p, false };

	if (!is_func(p) || !o->sec->data || !p->sec->data ||
	    !c->arch->line_only_change)
		return false;
	read_line_tables(c);
	lc.tables = line_rows_in(c->orig_lines, o) &&
		    line_rows_in(c->patched_lines, p);
	return c->arch->line_only_change(o->sec->data + o->offset,
					 p->sec->data + p->offset, p->size,
					 is_line_imm, &lc);
}

static void compare_entity(struct cdo *c, struct symbol *p)
{
	struct symbol *o = si(p)->twin;
	struct syminfo *s = si(p);
	bool bytes, lines = false;
	long diff = -1;

	if (p->size != o->size) {
		s->change_off = first_diff(o, p);
		si(p)->status = CHANGED;
		debugf("compare: %s: size %lu -> %lu", p->name,
		       (unsigned long)o->size, (unsigned long)p->size);
		return;
	}
	bytes = same_bytes(o->sec, o->offset, p->sec, p->offset, p->size);
	if (!same_relocs(c, o, p, &diff, &lines)) {
		s->change_off = diff;
		si(p)->status = CHANGED;
		debugf("compare: %s: relocation at offset 0x%lx differs", p->name,
		       diff);
		return;
	}
	if (!bytes && !line_immediates(c, o, p)) {
		s->change_off = first_diff(o, p);
		si(p)->status = CHANGED;
		debugf("compare: %s: bytes differ at offset 0x%lx", p->name,
		       (unsigned long)s->change_off);
		return;
	}
	s->line_only = lines || !bytes;
	if (s->line_only)
		debugf("compare: %s: only lines moved (%s): a line shift, not a change",
		       p->name, bytes ? "in strings" : lines ?
		       "in __LINE__ immediates and strings" :
		       "in __LINE__ immediates");
}

void compare(struct cdo *c)
{
	struct symbol *p;

	for_each_sym(c->patched, p) {
		if (!is_entity(p))
			continue;
		if (si(p)->special_static)
			si(p)->status = SAME;
		else if (!si(p)->twin)
			si(p)->status = NEW;
		else
			compare_entity(c, p);
	}
	line_table_free(c->orig_lines);
	line_table_free(c->patched_lines);
	c->orig_lines = c->patched_lines = NULL;
}
