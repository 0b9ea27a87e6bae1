// SPDX-License-Identifier: GPL-2.0
/*
 * What a file gives the index: the identifiers it names, and its paste
 * fragments (macro.c says why): the literal operands of "##" in its macro
 * bodies, and the identifiers written in the pasted arguments of an
 * invocation of a paste macro (DEFINE_GETTER(counter) gives "counter"; in a
 * macro body, "#define DEFINE_FOO(n) __PASTE(foo_, n)" gives "foo_", not the
 * parameter n, which its own invocations give).
 */
#include <stdlib.h>
#include <string.h>
#include "ident.h"

/* fn for each identifier token of the file, but a directive's name ("define") */
void file_words(const struct lexed *lx, word_fn fn, void *ctx)
{
	size_t i;

	for (i = 0; i < lx->n; i++)
		if (lx->t[i].kind == T_IDENT && !(lx->t[i].flags & TF_DIRNAME))
			fn(ctx, tok_text(lx, i), lx->t[i].len);
}

/* the fragments of every #define of the file: literal "##" operands */
void define_fragments(const struct lexed *lx, word_fn fn, void *ctx)
{
	struct macro m;
	size_t i;

	for (i = 0; i < lx->n; i++)
		if (lx->t[i].kind == T_HASH && !macro_read(lx, i, &m))
			macro_literal_operands(lx, &m, fn, ctx);
}

struct frag {
	const struct lexed *lx;
	const struct macro *m;	/* the #define around the invocation, or NULL */
	uint32_t mask;		/* the invoked macro's pasted positions */
	word_fn fn;
	void *ctx;
};

static void frag_tok(void *ctx, size_t i, unsigned int k)
{
	struct frag *f = ctx;
	const struct lexed *lx = f->lx;

	if (!mask_has(f->mask, k) || lx->t[i].kind != T_IDENT)
		return;
	if (f->m && macro_param(lx, f->m, i) >= 0)
		return;
	f->fn(f->ctx, tok_text(lx, i), lx->t[i].len);
}

/* an invocation of a paste macro at lx->t[i] (before end): its fragments */
static void invocation_at(struct frag *f, size_t i, size_t end, mask_fn mask, void *mctx)
{
	const struct lexed *lx = f->lx;

	if (lx->t[i].kind != T_IDENT || i + 1 >= end || !tok_is(lx, i + 1, "("))
		return;
	if (f->m && macro_param(lx, f->m, i) >= 0)
		return;		/* a macro the #define's invocation picks */
	f->mask = mask(mctx, tok_text(lx, i), lx->t[i].len);
	if (f->mask)
		invocation_walk(lx, i + 1, end, frag_tok, f);
}

/*
 * The fragments of the file's invocations of paste macros (mask() their
 * pasted positions, 0 for any other name), in code (an argument list may
 * hold directives) and in macro bodies.
 */
void invocation_fragments(const struct lexed *lx, mask_fn mask, void *mctx, word_fn fn, void *ctx)
{
	struct frag f = { .lx = lx, .fn = fn, .ctx = ctx };
	struct macro m;
	size_t i, j;

	for (i = 0; i < lx->n; i++) {
		if (lx->t[i].kind != T_HASH) {
			f.m = NULL;
			invocation_at(&f, i, lx->n, mask, mctx);
			continue;
		}
		if (!macro_read(lx, i, &m)) {
			f.m = &m;
			for (j = m.body; j < m.end; j++)
				invocation_at(&f, j, m.end, mask, mctx);
		}
		while (i < lx->n && lx->t[i].kind != T_EOD)
			i++;
	}
}

/*
 * A file's paste scope: the paste macros of the tree (global()) and its own,
 * to a fixpoint with them. A .c file's macros are its own (index.c), and
 * an --extra file's are new to the index.
 */
struct scope_edges {
	struct paste_scope *ps;
	struct pass_edge *e;
	size_t n, cap;
};

static void scope_edge(void *ctx, const struct lexed *lx, const struct macro *m,
		       size_t callee, unsigned int arg, int spread, uint32_t pmask)
{
	struct scope_edges *se = ctx;
	struct pass_edge *e;

	if (se->n == se->cap) {
		se->cap = se->cap ? se->cap * 2 : 64;
		se->e = xrealloc(se->e, se->cap * sizeof(*se->e));
	}
	e = &se->e[se->n++];
	e->macro = sset_add(&se->ps->local, tok_text(lx, m->name), lx->t[m->name].len)->id;
	e->callee = sset_add(&se->ps->local, tok_text(lx, callee), lx->t[callee].len)->id;
	e->arg = arg;
	e->spread = spread;
	e->pmask = pmask;
}

uint32_t paste_scope_mask(void *ctx, const char *s, size_t len)
{
	struct paste_scope *ps = ctx;
	struct sname *e = sset_find(&ps->local, s, len);

	return ps->global(ps->gctx, s, len) | (e ? (uint32_t)(uintptr_t)e->data : 0);
}

/* the edges of the file's macros run to a fixpoint */
static void scope_fixpoint(struct paste_scope *ps, const struct scope_edges *se)
{
	const struct sname *callee;
	struct sname *e;
	uint32_t at, old;
	size_t i;
	int more;

	do {
		more = 0;
		for (i = 0; i < se->n; i++) {
			callee = ps->local.by_id[se->e[i].callee];
			e = ps->local.by_id[se->e[i].macro];
			at = se->e[i].spread ? PASTE_ALL_FROM(se->e[i].arg) : 1u << se->e[i].arg;
			old = (uintptr_t)e->data;
			if (!(paste_scope_mask(ps, callee->s, callee->len) & at) ||
			    (old | se->e[i].pmask) == old)
				continue;
			e->data = (void *)(uintptr_t)(old | se->e[i].pmask);
			more = 1;
		}
	} while (more);
}

void paste_scope_init(struct paste_scope *ps, const struct lexed *lx, mask_fn global, void *gctx)
{
	struct scope_edges se = { .ps = ps };
	struct sname *e;
	struct macro m;
	size_t i;

	ps->global = global;
	ps->gctx = gctx;
	sset_init(&ps->local);
	for (i = 0; i < lx->n; i++) {
		if (lx->t[i].kind != T_HASH || macro_read(lx, i, &m))
			continue;
		e = sset_add(&ps->local, tok_text(lx, m.name), lx->t[m.name].len);
		e->data = (void *)((uintptr_t)e->data | macro_direct_mask(lx, &m));
		if (m.funclike)
			macro_edges(lx, &m, scope_edge, &se);
	}
	scope_fixpoint(ps, &se);
	free(se.e);
}

void paste_scope_free(struct paste_scope *ps)
{
	sset_free(&ps->local);
}

static uint32_t no_mask(void *ctx, const char *s, size_t len)
{
	return 0;
}

static void add_frag(void *ctx, const char *s, size_t len)
{
	sset_add(ctx, s, len);
}

/*
 * A file's paste fragments with its own paste macros only (changed.c has no
 * index: a paste through a macro of another header, __PASTE, is in the
 * index's fragments of the file).
 */
void own_fragments(const struct lexed *lx, struct sset *frags)
{
	struct paste_scope ps;

	sset_init(frags);
	paste_scope_init(&ps, lx, no_mask, NULL);
	define_fragments(lx, add_frag, frags);
	invocation_fragments(lx, paste_scope_mask, &ps, add_frag, frags);
	paste_scope_free(&ps);
}

/*
 * fn for each fragment of frags that can build name s (len) with "##": the
 * pieces of a cut of s into two or more fragments ("op_" and "read" of
 * op_read, when the file pastes "op_##n" and passes "read" to that macro).
 * Forward, the cuts reach a position from the start; backward, the end
 * from it: a piece between two such positions is in a whole cut.
 */
void paste_pieces(const struct sset *frags, const char *s, size_t len, word_fn fn, void *ctx)
{
	uint8_t *fwd, *bwd;
	size_t i, j;

	if (!frags->n || len > 1024)
		return;		/* (no identifier is that long: nothing to cut) */
	fwd = xcalloc(len + 1, 1);
	bwd = xcalloc(len + 1, 1);
	fwd[0] = bwd[len] = 1;
	for (j = 1; j <= len; j++)
		for (i = 0; i < j && !fwd[j]; i++)
			fwd[j] = fwd[i] && j - i < len && sset_find(frags, s + i, j - i);
	for (i = len; i-- > 0;)
		for (j = len; j > i && !bwd[i]; j--)
			bwd[i] = bwd[j] && j - i < len && sset_find(frags, s + i, j - i);
	for (i = 0; i < len; i++)
		for (j = i + 1; j <= len && fwd[i]; j++)
			if (bwd[j] && j - i < len && sset_find(frags, s + i, j - i))
				fn(ctx, s + i, j - i);
	free(fwd);
	free(bwd);
}
