// SPDX-License-Identifier: GPL-2.0
/*
 * Special sections: tables the kernel walks at load time (__bug_table,
 * __jump_table, __ex_table, .altinstructions, __mcount_loc, ORC, ...).
 * Each entry describes a place in some function; the output keeps the
 * entries whose function is in it, and what those entries reference
 * (alternative replacement code, file-name strings) joins the output.
 * Entry sizes are the kernel's struct sizes, given in the environment by
 * kpatch-build (read from vmlinux's DWARF); sections that pair entry for
 * entry (.orc_unwind with .orc_unwind_ip) keep the same entries.
 */
#include <stdlib.h>
#include <string.h>
#include "cdo.h"
#include "include-work.h"
#include "reloc-target.h"
#include "lib/util.h"

static uint64_t entry_size(struct cdo *c, struct section *sec,
			   const struct special_section *d)
{
	const char *v;
	char *end;
	unsigned long n;

	if (!d->size_env)
		return d->size;
	v = getenv(d->size_env);
	if (!v || !*v)
		die(EXIT_BADINPUT, "%s: section %s is present but %s is not set in the environment",
		    c->objname, sec->name, d->size_env);
	n = strtoul(v, &end, 0);
	if (*end || !n || n > 4096)
		die(EXIT_BADINPUT, "%s: bad %s=%s", c->objname, d->size_env, v);
	return n;
}

/* The relocation types at each offset of the entry at @off, as a key. */
static void entry_pattern(struct section *sec, uint64_t off, uint64_t size,
			  uint64_t *key)
{
	struct reloc **rs;
	size_t n, i;

	*key = 0;
	n = relocs_in(sec, off, size, &rs);
	for (i = 0; i < n; i++)
		*key = *key * 1000003 + (rs[i]->offset - off) * 131 + rs[i]->type + 1;
}

/*
 * Do entries of @size bytes explain the section: each has its owner
 * relocation and all carry the same relocation pattern?
 */
static bool size_fits(struct section *sec, unsigned int owner_off,
		      bool code_owner, uint64_t size, bool strict)
{
	uint64_t off, first = 0, key;

	if (sec->size % size && size - sec->size % size >= sec->sh.sh_addralign)
		return false;
	for (off = 0; off < sec->size; off += size) {
		struct reloc *r = find_reloc_at(sec, off + owner_off);

		if (!r)
			return false;
		if (!strict)
			continue;
		/* an entry describes a place in code: its owner points there */
		if (code_owner && (!r->sym || !r->sym->sec ||
				   !is_text_section(r->sym->sec)))
			return false;
		entry_pattern(sec, off, size, &key);
		if (off && key != first)
			return false;
		first = key;
	}
	return true;
}

/*
 * The environment gives the running kernel's struct size. An object that
 * disagrees (built for another kernel) gets the smallest size under which
 * all its entries look alike, with a warning.
 */
static uint64_t checked_size(struct cdo *c, struct section *sec,
			     const struct special_section *d, uint64_t size)
{
	bool code = !d->data_owner;
	uint64_t s;

	/* a size the architecture fixes is not the environment's to get wrong */
	if (!d->size_env)
		return size;
	s = infer_entry_size(sec, d->owner_off, code);

	/*
	 * Entries that align under a divisor of the given size (two entries
	 * taken for one), or only under another size: the environment is for
	 * another kernel.
	 */
	if (s && s < size && size % s == 0)
		goto other;
	if (size_fits(sec, d->owner_off, code, size, true))
		return size;
	if (size_fits(sec, d->owner_off, code, size, false) && (!s || size % s))
		return size;
other:
	if (!s)
		die(EXIT_BADINPUT, "%s: section %s: size %lu does not fit entries of %lu bytes (check %s)",
		    c->objname, sec->name, (unsigned long)sec->size,
		    (unsigned long)size, d->size_env ? d->size_env : "arch");
	warnx_("%s: section %s: entries are %lu bytes, not %lu as %s says; using %lu",
	       c->objname, sec->name, (unsigned long)s, (unsigned long)size,
	       d->size_env ? d->size_env : "arch", (unsigned long)s);
	return s;
}

/* The smallest entry size under which all entries look alike, or 0. */
uint64_t infer_entry_size(struct section *sec, unsigned int owner_off,
			  bool code_owner)
{
	uint64_t s;

	for (s = 4; s <= 256; s++)
		if (size_fits(sec, owner_off, code_owner, s, true))
			return s;
	return 0;
}

/*
 * Data the compiler or a macro makes for one call site: dynamic debug
 * descriptors (entries of __dyndbg) and ubsan's source locations. They
 * hold line numbers; what identifies them is what they point to. An entry
 * used by included code is copied into the patch module, which registers
 * its own descriptors.
 */
static void callsite_sections_of(struct cdo *c, struct elf *elf)
{
	struct section *sec;

	for_each_sec(elf, sec) {
		struct secinfo *s = sci(sec);

		if (!s->row || s->row->role != SEC_CALLSITE)
			continue;
		s->callsite = true;
		if (s->row->size) {
			/* fixed pointer slots: a slot is what it points to */
			if (!s->anonymous || !sec->size)
				continue;
			s->entsize = s->row->size;
			s->nent = (sec->size + s->entsize - 1) / s->entsize;
			s->keep = xcalloc(s->nent + 1, sizeof(bool));
		} else if (s->row->infer_size) {
			if (!s->anonymous || !sec->size)
				continue;
			s->entsize = infer_entry_size(sec, 0, false);
			if (!s->entsize)
				die(EXIT_BADINPUT, "%s: section %s: cannot tell its entries apart",
				    elf->path, sec->name);
			s->nent = (sec->size + s->entsize - 1) / s->entsize;
			s->keep = xcalloc(s->nent + 1, sizeof(bool));
		}
	}
}

void callsite_sections(struct cdo *c)
{
	callsite_sections_of(c, c->orig);
	callsite_sections_of(c, c->patched);
}

/* Places in string sections that included functions refer to. */
struct strref {
	struct hnode node;
	const struct section *sec;
	int64_t off;
};

static uint32_t strref_key(const struct section *sec, int64_t off)
{
	return hash_u64((uintptr_t)sec * 31 + (uint64_t)off);
}

/* Index (when @out) and count the string targets of included functions. */
static size_t for_each_strref(struct cdo *c, struct strref *out)
{
	struct symbol *sym;
	size_t count = 0;

	for_each_sym(c->patched, sym) {
		struct reloc **rs;
		size_t n, i;

		if (!si(sym)->include || !is_func(sym))
			continue;
		n = relocs_in(sym->sec, sym->offset, sym->size, &rs);
		for (i = 0; i < n; i++) {
			struct target t;

			reloc_target(c, sym->sec, rs[i], &t);
			follow_slot(c, &t);
			if (!t.sec || !is_string_section(t.sec))
				continue;
			if (out) {
				out[count].sec = t.sec;
				out[count].off = t.off;
				htable_add(&c->strrefs.index, &out[count].node,
					   strref_key(t.sec, t.off));
			}
			count++;
		}
	}
	return count;
}

static void collect_strrefs(struct cdo *c)
{
	htable_init(&c->strrefs.index);
	c->strrefs.pool = xcalloc(for_each_strref(c, NULL) + 1,
				  sizeof(*c->strrefs.pool));
	for_each_strref(c, c->strrefs.pool);
}

static bool string_used(struct cdo *c, const struct target *t)
{
	struct strref *e;

	htable_for_each(&c->strrefs.index, e, node, strref_key(t->sec, t->off))
		if (e->sec == t->sec && e->off == t->off)
			return true;
	return false;
}

/*
 * A data owner (a printk index entry's pi_entry) belongs to included code
 * when the format string it records is one that code prints.
 */
static bool data_owner_used(struct cdo *c, struct symbol *obj)
{
	struct reloc *r;
	struct target t;

	if (!obj || !obj->sec)
		return false;
	r = find_reloc_at(obj->sec, obj->offset);
	if (!r)
		return false;
	reloc_target(c, obj->sec, r, &t);
	return t.sec && is_string_section(t.sec) && string_used(c, &t);
}

static bool owner_included(struct cdo *c, struct section *sec, uint64_t off,
			   const struct special_section *d)
{
	struct reloc *r = find_reloc_at(sec, off);
	struct target t;

	if (!r)
		return false;
	reloc_target(c, sec, r, &t);
	if (t.sym && d->data_owner && !si(t.sym)->include)
		return data_owner_used(c, t.sym);
	if (t.sym)
		return si(t.sym)->include;
	return t.sec && sci(t.sec)->include;
}

/*
 * A static call whose key lives in the patched module: livepatch resolves
 * the key only when that module loads, after the loader has registered
 * the patch's call sites. Without its entry the call still goes to the
 * module's trampoline, which always jumps to the current target (what
 * KPATCH_STATIC_CALL() does by hand).
 */
static bool optional_module_entry(struct cdo *c, struct section *sec,
				  uint64_t off, const struct special_section *d)
{
	struct reloc *site = find_reloc_at(sec, off + d->owner_off);
	struct reloc *key = find_reloc_at(sec, off + d->key_off);
	struct target ts, tk;

	if (!d->key_optional || !key || !site)
		return false;
	reloc_target(c, sec, key, &tk);
	if (!tk.sym || !klp_module_reference(c, tk.sym))
		return false;
	reloc_target(c, sec, site, &ts);
	debugf("static call: %s+0x%lx: %s entry for key %s of module %s left out; the call goes through its trampoline",
	       ts.sym ? ts.sym->name : sec->name, (long)ts.off, sec->name,
	       tk.sym->name, c->parent);
	return true;
}

/*
 * A jump label of a tracepoint whose key lives in the patched module (the
 * module's own trace events): livepatch resolves the key only when that
 * module loads, after the loader has read __jump_table. Without its entry
 * the site stays the NOP it was compiled as, and the patched function runs
 * without that tracepoint: said in one warning line per tracepoint.
 */
static bool dropped_module_tracepoint(struct cdo *c, struct section *sec,
				      uint64_t off,
				      const struct special_section *d)
{
	static const char prefix[] = "__tracepoint_";
	struct reloc *site = find_reloc_at(sec, off + d->owner_off);
	struct reloc *key = find_reloc_at(sec, off + d->key_off);
	struct target ts, tk;
	struct syminfo *ki;

	if (!d->tracepoint_key_optional || !key || !site)
		return false;
	reloc_target(c, sec, key, &tk);
	if (!tk.sym || strncmp(tk.sym->name, prefix, strlen(prefix)) ||
	    !klp_module_reference(c, tk.sym))
		return false;
	reloc_target(c, sec, site, &ts);
	ki = si(tk.sym);
	if (!ki->tracepoint_dropped)
		warnx_("%s: %s: tracepoint %s of module %s disabled in the patched code (its key is resolved only once %s loads, after the loader has read %s)",
		       c->objname, ts.sym ? ts.sym->name : sec->name,
		       tk.sym->name + strlen(prefix), c->parent, c->parent,
		       sec->name);
	ki->tracepoint_dropped = true;
	return true;
}

static void select_entries(struct cdo *c, struct section *sec,
			   const struct special_section *d)
{
	struct secinfo *s = sci(sec);
	size_t i;

	/*
	 * The last entry may lack its tail padding (the section size is not
	 * rounded up to the alignment), but no more than that.
	 */
	s->entsize = entry_size(c, sec, d);
	if (!d->companion)
		s->entsize = checked_size(c, sec, d, s->entsize);
	else if (sec->size % s->entsize)
		die(EXIT_BADINPUT, "%s: section %s: size %lu is not a multiple of the entry size %lu (check %s)",
		    c->objname, sec->name, (unsigned long)sec->size,
		    (unsigned long)s->entsize, d->size_env ? d->size_env : "arch");
	s->nent = (sec->size + s->entsize - 1) / s->entsize;
	s->keep = xcalloc(s->nent + 1, sizeof(bool));
	if (d->companion)
		return;
	for (i = 0; i < s->nent; i++) {
		uint64_t off = i * s->entsize;
		struct reloc **rs;
		size_t n, k;

		if (!owner_included(c, sec, off + d->owner_off, d) ||
		    optional_module_entry(c, sec, off, d) ||
		    dropped_module_tracepoint(c, sec, off, d))
			continue;
		s->keep[i] = true;
		n = relocs_in(sec, off, s->entsize, &rs);
		for (k = 0; k < n; k++) {
			struct target t;

			reloc_target(c, sec, rs[k], &t);
			include_target(c, &t, sec->name);
		}
	}
}

static void follow_companion(struct cdo *c, struct section *sec,
			     const struct special_section *d)
{
	struct section *lead = find_section_by_name(c->patched, d->companion);
	struct secinfo *s = sci(sec);

	if (!lead || sci(lead)->nent != s->nent)
		die(EXIT_BADINPUT, "%s: section %s does not pair with %s entry for entry",
		    c->objname, sec->name, d->companion);
	memcpy(s->keep, sci(lead)->keep, s->nent * sizeof(bool));
}

void special_sections(struct cdo *c)
{
	struct section *sec;

	collect_strrefs(c);
	for_each_sec(c->patched, sec) {
		const struct special_section *d;

		if (!sci(sec)->special || !sec->size)
			continue;
		d = sci(sec)->row;
		select_entries(c, sec, d);
	}
	for_each_sec(c->patched, sec) {
		const struct special_section *d;

		if (!sci(sec)->special || !sec->size)
			continue;
		d = sci(sec)->row;
		if (d->companion)
			follow_companion(c, sec, d);
	}
	/* what the kept entries need is drained by the next pass */
	htable_free(&c->strrefs.index);
	free(c->strrefs.pool);
	memset(&c->strrefs, 0, sizeof(c->strrefs));
}
