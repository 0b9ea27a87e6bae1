// SPDX-License-Identifier: GPL-2.0
/*
 * Propagate: some changes reach beyond the function they are in. A .cold
 * piece cannot be patched alone, so its parent changes. Some things the
 * patch must carry as a new copy, and then whoever uses them must be
 * patched to use the copy: a changed local read-only object, and a changed
 * local function without an ftrace call site (GCC's out-of-line copy of a
 * static inline is notrace) as long as only functions refer to it — a
 * function pointer stored in data would keep reaching the old code.
 */
#include <stdlib.h>
#include <string.h>
#include "cdo.h"
#include "reloc-target.h"
#include "lib/util.h"

static void propagate_children(struct cdo *c)
{
	struct symbol *p;

	for_each_sym(c->patched, p) {
		struct symbol *parent = si(p)->parent;

		if (!parent || si(p)->status == SAME ||
		    si(parent)->status != SAME || !is_func(parent) ||
		    arch_is_prefix_symbol(c->arch, p->name, NULL))
			continue;
		si(parent)->status = CHANGED;
		si(parent)->change_off = 0;
		si(parent)->why = xasprintf("its part %s changed", p->name);
	}
}

static bool is_copied(const struct symbol *sym)
{
	if (si(sym)->status != CHANGED || !is_local_sym(sym))
		return false;
	if (is_func(sym))
		return si(sym)->copied;
	return sym->type == STT_OBJECT && !si(sym)->special_static &&
	       !(sym->sec->sh.sh_flags & SHF_WRITE);
}

static bool notrace_candidate(struct cdo *c, struct symbol *f)
{
	return is_func(f) && si(f)->status == CHANGED && is_local_sym(f) &&
	       !si(f)->parent && !si(f)->copied && !si(f)->forced &&
	       !si(f)->ignored && !is_init_section(f->sec) &&
	       arch_ftrace_site(c->arch, f) < 0;
}

/* Candidates referred to from data (not from code or kernel tables). */
static void find_data_refs(struct cdo *c)
{
	struct section *sec;
	struct reloc *r;

	for_each_sec(c->patched, sec) {
		struct section *base = sec->base;

		/* a pointer slot is loaded by code: its uses are code's */
		if (!is_rela_section(sec) || sci(base)->special ||
		    sci(base)->callsite ||
		    is_debug_section(base) || !(base->sh.sh_flags & SHF_ALLOC))
			continue;
		for_each_reloc(sec, r) {
			struct symbol *from = entity_at(base, r->offset);
			struct target t;

			reloc_target(c, base, r, &t);
			if (!t.sym || !notrace_candidate(c, t.sym) ||
			    (from && is_func(from)))
				continue;
			/*
			 * read-only anonymous data (its own switch table) is
			 * reached only through code, and comes along with it
			 */
			if (!from && !(base->sh.sh_flags & SHF_WRITE))
				continue;
			si(t.sym)->data_ref = true;
		}
	}
}

static bool mark_notrace_copies(struct cdo *c)
{
	struct symbol *f;
	bool more = false;

	find_data_refs(c);
	for_each_sym(c->patched, f) {
		if (!notrace_candidate(c, f) || si(f)->data_ref)
			continue;
		si(f)->copied = true;
		free(si(f)->why);
		si(f)->why = xasprintf("changed at offset 0x%lx; notrace, so copied and its callers patched",
				       si(f)->change_off < 0 ? 0 : si(f)->change_off);
		more = true;
	}
	return more;
}

/* Functions and objects using a copy must change to use it. */
static bool patch_users(struct cdo *c)
{
	struct symbol *p;
	bool more = false;

	for_each_sym(c->patched, p) {
		struct reloc **rs;
		size_t n, i;

		if (!is_entity(p) || si(p)->status != SAME || !si(p)->twin)
			continue;
		n = relocs_in(p->sec, p->offset, p->size, &rs);
		for (i = 0; i < n; i++) {
			struct target t;

			reloc_target(c, p->sec, rs[i], &t);
			follow_slot(c, &t);
			if (!t.sym || !t.sym->sec || t.sym == p || !is_copied(t.sym))
				continue;
			si(p)->status = CHANGED;
			si(p)->change_off = rs[i]->offset - p->offset;
			free(si(p)->why);
			si(p)->why = xasprintf("uses changed %s %s, which the patch carries",
					       is_func(t.sym) ? "notrace function" :
					       "read-only data", t.sym->name);
			more = true;
			break;
		}
	}
	return more;
}

void propagate(struct cdo *c)
{
	struct symbol *p;

	propagate_children(c);
	do {
		while (patch_users(c))
			;
	} while (mark_notrace_copies(c));
	/* the final status, for ORIG's side too */
	for_each_sym(c->patched, p) {
		struct symbol *twin = si(p)->twin;

		if (twin)
			si(twin)->status = si(p)->status;
	}
}
