// SPDX-License-Identifier: GPL-2.0
/*
 * kpatch-ident changed ORIG NEW: the identifiers a hunk of a header changes.
 *
 * Both versions are cut into items (items.c), and each item of one is paired
 * with an identical item of the other: the same kind of item, the same
 * tokens (white space and comments aside; a #define's '(' right after its
 * name counts), the same conditional directives around it. Pairing ignores
 * order, so an item that only moved (and every line number) is unchanged;
 * repeated names (a prototype under #ifdef, its stub under #else) pair each
 * with its own twin. An item left without a twin differs:
 *
 *   - its names are changed (in both versions), added or removed; an enum
 *     body that differs changes its tag and all its enumerators (their
 *     values shift), which is what its names are;
 *   - an item without a name we can know (a conditional directive,
 *     #include, #pragma, #undef, top-level asm, a macro invocation that
 *     defines what we cannot see) cannot be classified: exit 3.
 *
 * Then the change spreads inside the file: a named item of either version
 * whose tokens mention a changed name is changed too ("uses:NAME"), to a
 * fixpoint, so an inline wrapper of a changed function is named and the
 * driver need not look at the header's own mentions. A paste fragment of
 * the file (paste.c, with the file's own paste macros) that is a proper
 * prefix or suffix of a changed name counts as a mention of it: the
 * header's "#define call_op(n) op_##n()" and "call_op(read)" reach op_read. An item without a name
 * that mentions one (an #ifdef of a changed macro, its #undef, an invocation
 * with a changed type) cannot be classified either.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ident.h"

static const char *const kind_str[] = {
	[K_FUNCTION] = "function", [K_MACRO] = "macro", [K_VARIABLE] = "variable",
	[K_TYPE] = "type", [K_ENUMERATOR] = "enumerator",
};

struct cmp {
	struct file_items v[2];		/* ORIG, NEW */
	struct sset present[2];		/* "<kind><name>" of each version's items */
	struct sset result;		/* "<kind><name>", data: why */
	struct sset changed;		/* the changed names */
	struct sset macros;		/* the changed names of macros */
	struct sset frags[2];		/* each version's paste fragments (paste.c) */
	struct sset pieces[2];		/* fragments that can build a changed name (data) */
};

static void __attribute__((noreturn, format(printf, 3, 4)))
unclassified(const struct file_items *f, uint32_t line, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	die(ID_UNCLASSIFIED, "%s:%u: %s", f->lx.path, line, msg ? msg : "out of memory");
}

/* the '(' of a function-like #define, which white space before it would undo */
static int space_matters(const struct lexed *lx, size_t i)
{
	return i >= 3 && tok_is(lx, i, "(") && lx->t[i - 3].kind == T_HASH &&
	       tok_is(lx, i - 2, "define") && lx->t[i - 1].kind == T_IDENT;
}

static int same_token(const struct lexed *a, size_t i, const struct lexed *b, size_t j)
{
	if (!tok_eq(a, i, b, j))
		return 0;
	return !space_matters(a, i) ||
	       (a->t[i].flags & TF_SPACE) == (b->t[j].flags & TF_SPACE);
}

/* the two files' tokens the same: nothing changed */
static int same_text(const struct lexed *a, const struct lexed *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (!same_token(a, i, b, i))
			return 0;
	return 1;
}

static uint64_t item_hash(const struct lexed *lx, const struct item *it)
{
	uint64_t h = 1469598103934665603ULL ^ it->type;
	size_t k;

	h = (h ^ hash_mem(it->ctx, strlen(it->ctx))) * 1099511628211ULL;
	for (k = 0; k < it->ntok; k++) {
		const struct token *t = &lx->t[it->tok[k]];
		int sp = space_matters(lx, it->tok[k]) && (t->flags & TF_SPACE);

		h = (h ^ hash_mem(lx->buf + t->off, t->len)) * 1099511628211ULL;
		h = (h ^ (t->kind << 1 | sp)) * 1099511628211ULL;
	}
	return h;
}

static int same_item(const struct lexed *la, const struct item *a,
		     const struct lexed *lb, const struct item *b)
{
	size_t k;

	if (a->type != b->type || a->hash != b->hash || a->ntok != b->ntok ||
	    strcmp(a->ctx, b->ctx))
		return 0;
	for (k = 0; k < a->ntok; k++)
		if (!same_token(la, a->tok[k], lb, b->tok[k]))
			return 0;
	return 1;
}

struct hitem {
	struct hnode node;
	struct item *it;
};

/* each item of ORIG paired with an identical one of NEW, if any: it->same */
static void pair(struct cmp *c)
{
	struct file_items *a = &c->v[0], *b = &c->v[1];
	struct hitem *hs = xcalloc(b->n + 1, sizeof(*hs)), *h;
	struct htable tab;
	size_t i;

	htable_init(&tab);
	for (i = 0; i < a->n; i++)
		a->it[i].hash = item_hash(&a->lx, &a->it[i]);
	for (i = 0; i < b->n; i++) {
		b->it[i].hash = item_hash(&b->lx, &b->it[i]);
		hs[i].it = &b->it[i];
		htable_add(&tab, &hs[i].node, hash_u64(b->it[i].hash));
	}
	for (i = 0; i < a->n; i++) {
		struct item *x = &a->it[i];

		htable_for_each(&tab, h, node, hash_u64(x->hash)) {
			if (h->it->same || !same_item(&a->lx, x, &b->lx, h->it))
				continue;
			h->it->same = x->same = 1;
			break;
		}
	}
	htable_free(&tab);
	free(hs);
}

/* "<kind><name>": the key of a name in the tables */
static char *name_key(const struct name *nm, size_t *len)
{
	char *k = xmalloc(nm->len + 2);

	k[0] = '0' + nm->kind;
	memcpy(k + 1, nm->s, nm->len);
	k[nm->len + 1] = '\0';
	*len = nm->len + 1;
	return k;
}

/* a name in a set of names ("<kind><name>"): 1 if it is new */
static int put_name(struct sset *ss, const struct name *nm, const char *why)
{
	size_t len;
	char *k = name_key(nm, &len);
	struct sname *e = sset_find(ss, k, len);
	int fresh = !e;

	if (fresh) {
		e = sset_add(ss, k, len);
		e->data = (void *)why;
	}
	free(k);
	return fresh;
}

static void pieces(struct cmp *c, int side, const struct sname *n);

/* a changed name, why it is (the first reason found stays) */
static void changed_name(struct cmp *c, const struct name *nm, const char *why)
{
	const struct sname *e;

	if (!put_name(&c->result, nm, why))
		return;
	e = sset_add(&c->changed, nm->s, nm->len);
	if (nm->kind == K_MACRO)
		sset_add(&c->macros, nm->s, nm->len);
	pieces(c, 0, e);
	pieces(c, 1, e);
}

static int present(const struct sset *ss, const struct name *nm)
{
	size_t len;
	char *k = name_key(nm, &len);
	int r = sset_find(ss, k, len) != NULL;

	free(k);
	return r;
}

static int unnamed(const struct item *it)
{
	return !it->empty && (!it->nnames || it->opaque);
}

/* "changed" when the other version has a differing item of its kind too */
static const char *verb(const struct cmp *c, int side, const struct item *it)
{
	const struct file_items *o = &c->v[!side];
	size_t i;

	if (side == 0)
		return "removed";
	for (i = 0; i < o->n; i++)
		if (!o->it[i].same && o->it[i].type == it->type && unnamed(&o->it[i]))
			return "changed";
	return "added";
}

/* what an item without a name is, for its message */
static const char *subject(const struct item *it, const char **defines)
{
	static const char *const dirs[] = {
		[IT_DEFINE] = "a #define without a name", [IT_UNDEF] = "an #undef",
		[IT_COND] = "a conditional directive", [IT_INCLUDE] = "an #include",
		[IT_PRAGMA] = "a #pragma", [IT_DIRECTIVE] = "a directive",
	};

	*defines = "changes";
	if (it->type != IT_C)
		return dirs[it->type];
	if (it->what && !strcmp(it->what, "asm"))
		return "a top-level asm statement";
	if (it->opaque == OPAQUE_CROSSES)
		return "a declaration across a conditional's branches";
	if (it->opaque == OPAQUE_UNTERMINATED)
		return "a declaration without its end (no ';' before the end of the file)";
	if (!it->opaque)
		return "an unnamed declaration";
	*defines = "defines";
	if (it->opaque == OPAQUE_INVOCATION)
		return "a top-level macro invocation";
	return "a declaration made by a macro";
}

/*
 * Exit 3 for an item without a name that differs (used: NULL) or mentions
 * the changed name used: one line, "FILE:LINE: what, how (excerpt)".
 */
static void refuse(const struct cmp *c, int side, const struct item *it, const char *used)
{
	const struct file_items *f = &c->v[side];
	const char *defines, *what = subject(it, &defines), *detail = item_excerpt(f, it);
	char *how = used ? xasprintf("uses changed %s", used) : xstrdup(verb(c, side, it));

	/* (a macro invocation is told by its macro's name) */
	if (it->opaque == OPAQUE_INVOCATION || it->opaque == OPAQUE_MACRO)
		detail = it->what;
	unclassified(f, it->line, "%s %s (%s): cannot name what it %s", what, how, detail, defines);
}

/* the names of the items without a twin; exit 3 for an unnamed one */
static void differing(struct cmp *c)
{
	int side, s;
	size_t i, k;

	for (side = 1; side >= 0; side--)
		for (i = 0; i < c->v[side].n; i++)
			if (!c->v[side].it[i].same && unnamed(&c->v[side].it[i]))
				refuse(c, side, &c->v[side].it[i], NULL);
	for (side = 0; side < 2; side++) {
		sset_init(&c->present[side]);
		for (i = 0; i < c->v[side].n; i++) {
			const struct item *it = &c->v[side].it[i];

			for (k = 0; k < it->nnames; k++)
				put_name(&c->present[side], &it->names[k], "");
		}
	}
	for (side = 0; side < 2; side++) {
		for (i = 0; i < c->v[side].n; i++) {
			const struct item *it = &c->v[side].it[i];

			for (k = 0; k < it->nnames && !it->same; k++) {
				const struct name *nm = &it->names[k];

				s = present(&c->present[!side], nm);
				changed_name(c, nm, s ? "changed" : side ? "added" : "removed");
			}
		}
	}
}

struct piece_ctx {
	struct sset *pieces;
	const char *name;
};

static void add_piece(void *ctx, const char *s, size_t len)
{
	struct piece_ctx *pc = ctx;
	struct sname *e = sset_add(pc->pieces, s, len);

	if (!e->data || strcmp(pc->name, e->data) < 0)
		e->data = (void *)pc->name;
}

/* the fragments of file side that can build changed name n, each with the smallest such name */
static void pieces(struct cmp *c, int side, const struct sname *n)
{
	struct piece_ctx pc = { .pieces = &c->pieces[side], .name = n->s };

	paste_pieces(&c->frags[side], n->s, n->len, add_piece, &pc);
}

/*
 * The smallest changed name the item's tokens mention, or NULL: a changed
 * name, or a paste fragment of the file (side) that can build one
 * ("#define CALL(n) foo_##n()" and "CALL(bar)" both build foo_bar). A
 * directive the preprocessor reads (#if, #undef, #include) only sees the
 * changed macros: a function's change is no change to "#ifndef name".
 */
static const char *mentions(const struct cmp *c, int side, const struct item *it)
{
	int macros = it->type == IT_COND || it->type == IT_UNDEF || it->type == IT_INCLUDE;
	const struct lexed *lx = &c->v[side].lx;
	const char *best = NULL, *m;
	struct sname *e;
	size_t k;

	for (k = 0; k < it->ntok; k++) {
		const struct token *t = &lx->t[it->tok[k]];
		const char *s = lx->buf + t->off;

		if (t->kind != T_IDENT)
			continue;
		e = sset_find(macros ? &c->macros : &c->changed, s, t->len);
		if (!e && !macros && (e = sset_find(&c->pieces[side], s, t->len)))
			m = e->data;
		else
			m = e ? e->s : NULL;
		if (m && (!best || strcmp(m, best) < 0))
			best = m;
	}
	return best;
}

static int all_changed(const struct cmp *c, const struct item *it)
{
	size_t k;

	for (k = 0; k < it->nnames; k++)
		if (!present(&c->result, &it->names[k]))
			return 0;
	return 1;
}

struct pending {
	const struct name *nm;
	const char *why;
};

/* a named item that mentions a changed name is changed: rounds to a fixpoint */
static void spread(struct cmp *c, struct sset *whys)
{
	struct pending *p = NULL;
	size_t np, cap = 0, i, k;
	const char *m;
	char *why;
	int side;

	do {
		np = 0;
		for (side = 0; side < 2; side++) {
			for (i = 0; i < c->v[side].n; i++) {
				const struct item *it = &c->v[side].it[i];

				if (it->empty || unnamed(it) || all_changed(c, it))
					continue;
				m = mentions(c, side, it);
				if (!m)
					continue;
				why = xasprintf("uses:%s", m);
				m = sset_add(whys, why, strlen(why))->s;
				free(why);
				for (k = 0; k < it->nnames; k++) {
					if (np == cap) {
						cap = cap ? cap * 2 : 64;
						p = xrealloc(p, cap * sizeof(*p));
					}
					p[np].nm = &it->names[k];
					p[np++].why = m;
				}
			}
		}
		/* (a round's findings count from the next round: each "uses" is one step) */
		for (i = 0; i < np; i++)
			changed_name(c, p[i].nm, p[i].why);
	} while (np);
	free(p);
}

/* an item without a name that mentions a changed one: exit 3 */
static void unnamed_uses(const struct cmp *c)
{
	const char *m;
	size_t i;
	int side;

	for (side = 1; side >= 0; side--) {
		for (i = 0; i < c->v[side].n; i++) {
			const struct item *it = &c->v[side].it[i];

			if (unnamed(it) && (m = mentions(c, side, it)))
				refuse(c, side, it, m);
		}
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "<kind> <name> <why>", sorted */
static void print(const struct cmp *c)
{
	size_t n = c->result.n, i;
	char **lines = xcalloc(n + 1, sizeof(*lines));

	for (i = 0; i < n; i++) {
		const struct sname *e = c->result.by_id[i];

		lines[i] = xasprintf("%s %s %s", kind_str[e->s[0] - '0'], e->s + 1,
				     (const char *)e->data);
	}
	qsort(lines, n, sizeof(*lines), cmp_str);
	for (i = 0; i < n; i++) {
		if (!i || strcmp(lines[i], lines[i - 1]))
			puts(lines[i]);
	}
	for (i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

int cmd_changed(const char *orig, const char *new)
{
	struct cmp c;
	struct sset whys;
	int side;

	memset(&c, 0, sizeof(c));
	lex_file(&c.v[0].lx, orig, 1);
	lex_file(&c.v[1].lx, new, 1);
	if (same_text(&c.v[0].lx, &c.v[1].lx))
		goto out;
	for (side = 0; side < 2; side++) {
		items_cut(&c.v[side]);
		if (c.v[side].err)
			unclassified(&c.v[side], c.v[side].errline, "%s", c.v[side].err);
	}
	pair(&c);
	for (side = 0; side < 2; side++) {
		own_fragments(&c.v[side].lx, &c.frags[side]);
		sset_init(&c.pieces[side]);
	}
	sset_init(&c.result);
	sset_init(&c.changed);
	sset_init(&c.macros);
	sset_init(&whys);
	differing(&c);
	spread(&c, &whys);
	unnamed_uses(&c);
	print(&c);
	sset_free(&whys);
	sset_free(&c.result);
	sset_free(&c.changed);
	sset_free(&c.macros);
	for (side = 0; side < 2; side++) {
		sset_free(&c.present[side]);
		sset_free(&c.frags[side]);
		sset_free(&c.pieces[side]);
	}
out:
	items_free(&c.v[0]);
	items_free(&c.v[1]);
	return ID_OK;
}
