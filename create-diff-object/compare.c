// SPDX-License-Identifier: GPL-2.0
/*
 * Compare: decide for every PATCHED function and object whether it is
 * SAME, CHANGED or NEW. Bytes are compared over the symbol's own range and
 * relocations symbolically: two relocations are equal when they apply at
 * the same offset with the same type and reach correlated targets at the
 * same place, whatever the symbol indices. String literals compare by
 * their text, special statics by their contents. A function whose bytes
 * differ only in immediates that feed a __LINE__ argument is SAME.
 * The propagate pass (propagate.c) runs next.
 */
#include <stdlib.h>
#include <string.h>
#include "cdo.h"
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

static bool same_string(const struct section *a, int64_t aoff,
			const struct section *b, int64_t boff)
{
	const char *sa, *sb;
	size_t la, lb;

	if (aoff < 0 || boff < 0 || (uint64_t)aoff >= a->size ||
	    (uint64_t)boff >= b->size || !a->data || !b->data)
		return false;
	sa = (const char *)a->data + aoff;
	sb = (const char *)b->data + boff;
	la = strnlen(sa, a->size - aoff);
	lb = strnlen(sb, b->size - boff);
	return la == lb && !memcmp(sa, sb, la);
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

static bool same_relocs(const struct cdo *c, const struct symbol *o,
			const struct symbol *p, long *diff)
{
	struct reloc **ro, **rp;
	size_t no = relocs_in(o->sec, o->offset, o->size, &ro);
	size_t np = relocs_in(p->sec, p->offset, p->size, &rp);
	size_t i;

	for (i = 0; i < no && i < np; i++) {
		struct target to, tp;

		reloc_target(c, o->sec, ro[i], &to);
		reloc_target(c, p->sec, rp[i], &tp);
		if (ro[i]->offset - o->offset != rp[i]->offset - p->offset ||
		    ro[i]->type != rp[i]->type || !same_target(c, &to, &tp, 0)) {
			*diff = rp[i]->offset - p->offset;
			debugf("compare: %s+0x%lx: %s%+ld -> %s%+ld", p->name, *diff,
			       target_name(&to), (long)to.addend,
			       target_name(&tp), (long)tp.addend);
			return false;
		}
	}
	if (no != np) {
		*diff = i < np ? (long)(rp[i]->offset - p->offset) : (long)p->size;
		return false;
	}
	return true;
}

static const char *const line_funcs[] = {
	"__might_sleep", "__might_resched", "__might_fault", "___might_sleep",
	"__warn_printk", "_printk", "printk", "lockdep_rcu_suspicious",
	"__btrfs_abort_transaction", "btrfs_handle_fs_error",
	"__btrfs_handle_fs_error", "warn_slowpath_fmt", "__cant_sleep",
	"__cant_migrate", "_dev_printk", "_dev_warn", "_dev_err", "_dev_info",
	"__dynamic_pr_debug", "__dynamic_dev_dbg", "rcu_read_lock_held",
	"__kasan_check_read",
};

struct line_ctx {
	const struct cdo *c;
	const struct symbol *func;
};

static bool is_line_call(void *ctx, size_t off)
{
	struct line_ctx *lc = ctx;
	const struct symbol *f = lc->func;
	struct reloc **rs;
	size_t n, i, k;

	n = relocs_in(f->sec, f->offset + off, 64, &rs);
	for (i = 0; i < n; i++) {
		struct target t;

		reloc_target(lc->c, f->sec, rs[i], &t);
		if (!t.sym)
			continue;
		for (k = 0; k < ARRAY_SIZE(line_funcs); k++)
			if (!strcmp(t.sym->name, line_funcs[k]))
				return true;
	}
	return false;
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

static void compare_entity(struct cdo *c, struct symbol *p)
{
	struct symbol *o = si(p)->twin;
	struct syminfo *s = si(p);
	long diff = -1;
	bool bytes;

	if (p->size != o->size) {
		s->change_off = first_diff(o, p);
		si(p)->status = CHANGED;
		debugf("compare: %s: size %lu -> %lu", p->name,
		       (unsigned long)o->size, (unsigned long)p->size);
		return;
	}
	bytes = same_bytes(o->sec, o->offset, p->sec, p->offset, p->size);
	if (!same_relocs(c, o, p, &diff)) {
		s->change_off = diff;
		si(p)->status = CHANGED;
		debugf("compare: %s: relocation at offset 0x%lx differs", p->name,
		       diff);
		return;
	}
	if (bytes)
		return;
	if (is_func(p) && o->sec->data && p->sec->data &&
	    c->arch->line_only_change) {
		struct line_ctx lc = { c, p };

		if (c->arch->line_only_change(o->sec->data + o->offset,
					      p->sec->data + p->offset, p->size,
					      is_line_call, &lc)) {
			s->line_only = true;
			return;
		}
	}
	s->change_off = first_diff(o, p);
	si(p)->status = CHANGED;
	debugf("compare: %s: bytes differ at offset 0x%lx", p->name,
	       (unsigned long)s->change_off);
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
}
