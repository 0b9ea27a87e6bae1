// SPDX-License-Identifier: GPL-2.0
/*
 * Correlate: pair every symbol and section of PATCHED with its ORIG twin.
 * Plain names pair by name. GCC's numbered names (foo.isra.3, count.7,
 * foo.cold) may be renumbered between the builds, so they pair by their
 * normalized name when that is unique, and otherwise by the function that
 * uses them (a static local belongs to the function that references it; a
 * .cold piece to its parent), and what is left of a name, when ORIG and
 * PATCHED have as many, in order. Special statics are never paired: compare
 * looks at their contents instead. Sections follow their symbols;
 * anonymous sections pair by name.
 */
#include <stdlib.h>
#include <string.h>
#include "cdo.h"
#include "reloc-target.h"
#include "lib/util.h"

/*
 * Numbered names indexed two ways: by normalized name (with a count of
 * each) and by normalized name + owner, so that pairing 20,000 "calls.N"
 * statics is a hash lookup each, not a scan.
 */
struct norm_node {
	struct hnode by_norm, by_owner;
	struct symbol *sym;
};

struct norm_count {
	struct hnode node;
	const char *norm;
	unsigned int n;
	bool ordered;		/* pair_by_order has looked at this name */
};

struct norm_index {
	struct htable by_norm, by_owner, counts;
	struct norm_node *nodes;
	struct norm_count *cnt;
	size_t n;
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
			follow_slot(c, &t);
			if (t.sym && t.sym != from && !si(t.sym)->user) {
				si(t.sym)->user = from;
				si(t.sym)->user_off = r->offset - from->offset;
			}
		}
	}
}

static void normalize_all(struct elf *elf)
{
	struct symbol *sym;

	for_each_sym(elf, sym)
		si(sym)->norm = normalized_name(sym->name);
}

/* The function a numbered symbol belongs to: its parent, or first user. */
static struct symbol *owner_of(const struct symbol *sym)
{
	return si(sym)->parent ? si(sym)->parent : si(sym)->user;
}

static uint32_t owner_key(const char *norm, const struct symbol *owner)
{
	return hash_str(norm) ^ hash_u64((uintptr_t)owner);
}

static struct norm_count *find_count(struct norm_index *idx, const char *norm)
{
	struct norm_count *nc;

	htable_for_each(&idx->counts, nc, node, hash_str(norm))
		if (!strcmp(nc->norm, norm))
			return nc;
	return NULL;
}

static void build_index(struct elf *elf, struct norm_index *idx)
{
	struct symbol *sym;
	size_t nc = 0;

	memset(idx, 0, sizeof(*idx));
	htable_init(&idx->by_norm);
	htable_init(&idx->by_owner);
	htable_init(&idx->counts);
	idx->nodes = xcalloc(elf->nr_symbols + 1, sizeof(*idx->nodes));
	idx->cnt = xcalloc(elf->nr_symbols + 1, sizeof(*idx->cnt));
	for_each_sym(elf, sym) {
		const char *norm = si(sym)->norm;
		struct norm_node *n = &idx->nodes[idx->n];
		struct norm_count *c;

		if (!is_entity(sym) || !strcmp(norm, sym->name))
			continue;
		n->sym = sym;
		htable_add(&idx->by_norm, &n->by_norm, hash_str(norm));
		htable_add(&idx->by_owner, &n->by_owner,
			   owner_key(norm, owner_of(sym)));
		idx->n++;
		c = find_count(idx, norm);
		if (!c) {
			c = &idx->cnt[nc++];
			c->norm = norm;
			htable_add(&idx->counts, &c->node, hash_str(norm));
		}
		c->n++;
	}
}

static void free_index(struct norm_index *idx)
{
	htable_free(&idx->by_norm);
	htable_free(&idx->by_owner);
	htable_free(&idx->counts);
	free(idx->nodes);
	free(idx->cnt);
}

static void pair(struct symbol *p, struct symbol *o)
{
	si(p)->twin = o;
	si(o)->twin = p;
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
			if (!si(o)->twin && same_kind(p, o)) {
				pair(p, o);
				break;
			}
		}
	}
}

static unsigned int count_norm(struct norm_index *idx, const char *norm)
{
	struct norm_count *c = find_count(idx, norm);

	return c ? c->n : 0;
}

/* The only unpaired ORIG symbol named like @p, when the name is unique. */
static struct symbol *unique_by_norm(struct norm_index *oidx,
				     struct norm_index *pidx, struct symbol *p)
{
	const char *norm = si(p)->norm;
	struct norm_node *n;

	if (count_norm(oidx, norm) != 1 || count_norm(pidx, norm) != 1)
		return NULL;
	htable_for_each(&oidx->by_norm, n, by_norm, hash_str(norm))
		if (!si(n->sym)->twin && !strcmp(si(n->sym)->norm, norm) &&
		    same_kind(p, n->sym))
			return n->sym;
	return NULL;
}

static bool pair_numbered_one(struct norm_index *oidx, struct norm_index *pidx,
			      struct symbol *p)
{
	const char *norm = si(p)->norm;
	struct symbol *owner = owner_of(p) ? si(owner_of(p))->twin : NULL;
	struct symbol *pick = NULL, *named = NULL, *placed = NULL;
	unsigned int owners = 0, nplaced = 0;
	struct norm_node *n;

	if (owner) {
		htable_for_each(&oidx->by_owner, n, by_owner,
				owner_key(norm, owner)) {
			struct symbol *o = n->sym;

			if (si(o)->twin || owner_of(o) != owner ||
			    strcmp(si(o)->norm, norm) || !same_kind(p, o))
				continue;
			owners++;
			pick = o;
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
	if (owners > 1)
		pick = named ? named : nplaced == 1 ? placed : NULL;
	if (!pick)
		pick = unique_by_norm(oidx, pidx, p);
	if (!pick)
		return false;
	pair(p, pick);
	return true;
}

/* The unpaired entities of @idx named like @p, in symbol table order. */
static size_t unpaired_like(struct norm_index *idx, const struct symbol *p,
			    struct symbol **out)
{
	const char *norm = si(p)->norm;
	struct norm_node *n;
	size_t k = 0, i;

	htable_for_each(&idx->by_norm, n, by_norm, hash_str(norm)) {
		struct symbol *s = n->sym;

		if (si(s)->twin || !same_kind(p, s) ||
		    strcmp(si(s)->norm, norm))
			continue;
		for (i = k++; i > 0 && out[i - 1]->index > s->index; i--)
			out[i] = out[i - 1];
		out[i] = s;
	}
	return k;
}

/*
 * What neither the name, an owner nor uniqueness pairs: several functions of
 * one numbered name that nothing calls, as those that assembly inside a C
 * file names with __UNIQUE_ID() (kvm's emulator: the stubs its opcode tables
 * point to), and the slots of BTF id sets that name one type twice (only data
 * points to them). __COUNTER__ renumbers them all when anything before them
 * changes. When both sides have as many left, in sections of the same name,
 * they pair in the order they are defined; compare checks each pair.
 */
static void pair_by_order(struct norm_index *oidx, struct norm_index *pidx,
			  struct symbol *p)
{
	struct norm_count *pc = find_count(pidx, si(p)->norm);
	struct norm_count *oc = find_count(oidx, si(p)->norm);
	struct symbol **ps, **os;
	size_t np, no, i;

	if (!pc || !oc || pc->ordered)
		return;
	pc->ordered = true;
	ps = xcalloc(pc->n, sizeof(*ps));
	os = xcalloc(oc->n, sizeof(*os));
	np = unpaired_like(pidx, p, ps);
	no = unpaired_like(oidx, p, os);
	for (i = 0; np == no && i < np; i++)
		if (!ps[i]->sec || !os[i]->sec ||
		    !similar_section_names(ps[i]->sec->name, os[i]->sec->name))
			break;
	if (np == no && i == np)
		for (i = 0; i < np; i++)
			pair(ps[i], os[i]);
	free(ps);
	free(os);
}

static void pair_numbered(struct cdo *c)
{
	struct norm_index oidx, pidx;
	bool progress = true;
	struct symbol *p;
	int round;

	normalize_all(c->orig);
	normalize_all(c->patched);
	pair_by_name(c);
	find_users(c, c->orig);
	find_users(c, c->patched);
	build_index(c->orig, &oidx);
	build_index(c->patched, &pidx);
	/* functions first: their pairing decides their statics' */
	for (round = 0; progress && round < 4; round++) {
		progress = false;
		for_each_sym(c->patched, p) {
			if (si(p)->twin || !is_entity(p) ||
			    si(p)->special_static ||
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
	for_each_sym(c->patched, p)
		if (!si(p)->twin && (is_func(p) || is_btf_id_name(p->name)) &&
		    !si(p)->special_static && strcmp(si(p)->norm, p->name))
			pair_by_order(&oidx, &pidx, p);
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
			if (is_entity(sym) && si(sym)->twin) {
				o = si(sym)->twin->sec;
				break;
			}
		}
		if (!o && sci(p)->anonymous)
			o = find_section_by_name(c->orig, p->name);
		if (o && !sci(o)->twin && !is_rela_section(p)) {
			sci(p)->twin = o;
			sci(o)->twin = p;
		}
	}
	for_each_sec(c->patched, p) {
		struct section *base_twin;

		if (!is_rela_section(p))
			continue;
		base_twin = sci(p->base)->twin;
		if (base_twin && base_twin->rela) {
			sci(p)->twin = base_twin->rela;
			sci(base_twin->rela)->twin = p;
		}
	}
}

void correlate(struct cdo *c)
{
	pair_numbered(c);
	pair_sections(c);
}
