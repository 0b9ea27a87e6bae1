// SPDX-License-Identifier: GPL-2.0
/*
 * Correlate: pair every symbol and section of PATCHED with its ORIG twin.
 * Plain names pair by name. GCC's numbered names (foo.isra.3, count.7,
 * foo.cold) may be renumbered between the builds, so they pair by their
 * normalized name when that is unique, and otherwise by the function that
 * uses them (a static local belongs to the function that references it; a
 * .cold piece to its parent). Special statics are never paired: compare
 * looks at their contents instead. Sections follow their symbols;
 * anonymous sections pair by name.
 */
#include <stdlib.h>
#include <string.h>
#include "cdo.h"
#include "lib/util.h"

struct norm_node {
	struct hnode node;
	struct symbol *sym;
};

struct norm_index {
	struct htable table;
	struct norm_node *nodes;
};

static void find_users(const struct cdo *c, struct elf *elf)
{
	struct section *sec;
	struct reloc *r;

	for_each_sec(elf, sec) {
		if (!is_rela_section(sec) || !is_text_section(sec->base))
			continue;
		for_each_reloc(sec, r) {
			struct symbol *from = entity_at(sec->base, r->offset);
			struct target t;

			if (!from || !is_func(from))
				continue;
			reloc_target(c, sec->base, r, &t);
			if (t.sym && t.sym != from && !si(t.sym)->user) {
				si(t.sym)->user = from;
				si(t.sym)->user_off = r->offset - from->offset;
			}
		}
	}
}

static void normalize_all(struct elf *elf, struct norm_index *idx)
{
	struct symbol *sym;
	unsigned int n = 0;

	htable_init(&idx->table);
	idx->nodes = xcalloc(elf->nr_symbols + 1, sizeof(*idx->nodes));
	for_each_sym(elf, sym) {
		si(sym)->norm = normalized_name(sym->name);
		if (!is_entity(sym))
			continue;
		idx->nodes[n].sym = sym;
		htable_add(&idx->table, &idx->nodes[n].node,
			   hash_str(si(sym)->norm));
		n++;
	}
}

static void free_index(struct norm_index *idx)
{
	htable_free(&idx->table);
	free(idx->nodes);
}

static void pair(struct symbol *p, struct symbol *o)
{
	p->twin = o;
	o->twin = p;
}

static bool same_kind(const struct symbol *a, const struct symbol *b)
{
	return a->type == b->type && is_entity(a) && is_entity(b) &&
	       !si(a)->special_static && !si(b)->special_static;
}

static void pair_by_name(struct cdo *c)
{
	struct symbol *p, *o;

	for_each_sym(c->patched, p) {
		if (!is_entity(p) || si(p)->special_static ||
		    strcmp(si(p)->norm, p->name))
			continue;
		for_each_sym_named(c->orig, o, p->name) {
			if (!o->twin && same_kind(p, o)) {
				pair(p, o);
				break;
			}
		}
	}
}

static unsigned int count_norm(struct norm_index *idx, const char *norm,
			       const struct symbol *like)
{
	struct norm_node *n;
	unsigned int count = 0;

	htable_for_each(&idx->table, n, node, hash_str(norm))
		if (!strcmp(si(n->sym)->norm, norm) && same_kind(n->sym, like))
			count++;
	return count;
}

/* Does ORIG candidate @o belong where PATCHED @p belongs? */
static bool same_owner(const struct symbol *p, const struct symbol *o)
{
	if (p->parent || o->parent)
		return p->parent && o->parent && p->parent->twin == o->parent;
	if (si(p)->user && si(o)->user)
		return si(p)->user->twin == si(o)->user;
	return false;
}

static bool pair_numbered_one(struct norm_index *oidx, struct norm_index *pidx,
			      struct symbol *p)
{
	const char *norm = si(p)->norm;
	struct symbol *only = NULL, *owner = NULL, *named = NULL, *placed = NULL;
	unsigned int cands = 0, owners = 0, nplaced = 0;
	struct norm_node *n;

	htable_for_each(&oidx->table, n, node, hash_str(norm)) {
		struct symbol *o = n->sym;

		if (o->twin || strcmp(si(o)->norm, norm) || !same_kind(p, o))
			continue;
		cands++;
		only = o;
		if (same_owner(p, o)) {
			owners++;
			owner = o;
			if (!strcmp(o->name, p->name))
				named = o;
			if (si(o)->user_off == si(p)->user_off) {
				nplaced++;
				placed = o;
			}
		}
	}
	/*
	 * One function may own several statics of one name (trace events'
	 * "symbols.N"): the same number, else the same place of first use.
	 */
	if (owners > 1 && named)
		owner = named, owners = 1;
	else if (owners > 1 && nplaced == 1)
		owner = placed, owners = 1;
	if (owners == 1) {
		pair(p, owner);
		return true;
	}
	if (cands == 1 && count_norm(pidx, norm, p) == 1) {
		pair(p, only);
		return true;
	}
	return false;
}

static void pair_numbered(struct cdo *c)
{
	struct norm_index oidx, pidx;
	bool progress = true;
	int round;

	normalize_all(c->orig, &oidx);
	normalize_all(c->patched, &pidx);
	pair_by_name(c);
	find_users(c, c->orig);
	find_users(c, c->patched);
	/* functions first: their pairing decides their statics' */
	for (round = 0; progress && round < 4; round++) {
		struct symbol *p;

		progress = false;
		for_each_sym(c->patched, p) {
			if (p->twin || !is_entity(p) || si(p)->special_static ||
			    !strcmp(si(p)->norm, p->name))
				continue;
			if (round == 0 && !is_func(p))
				continue;
			if (pair_numbered_one(&oidx, &pidx, p))
				progress = true;
		}
		if (round == 0)
			progress = true;
	}
	free_index(&oidx);
	free_index(&pidx);
}

static void pair_sections(struct cdo *c)
{
	struct section *p;
	struct symbol *sym;

	for_each_sec(c->patched, p) {
		struct section *o = NULL;

		list_for_each_entry(sym, &p->symbols, sec_list) {
			if (is_entity(sym) && sym->twin) {
				o = sym->twin->sec;
				break;
			}
		}
		if (!o && sci(p)->anonymous)
			o = find_section_by_name(c->orig, p->name);
		if (o && !o->twin && !is_rela_section(p)) {
			p->twin = o;
			o->twin = p;
		}
	}
	for_each_sec(c->patched, p)
		if (is_rela_section(p) && p->base->twin && p->base->twin->rela) {
			p->twin = p->base->twin->rela;
			p->twin->twin = p;
		}
}

void correlate(struct cdo *c)
{
	pair_numbered(c);
	pair_sections(c);
}
