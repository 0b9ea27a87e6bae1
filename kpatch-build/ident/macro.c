// SPDX-License-Identifier: GPL-2.0
/*
 * A #define read for token pasting. "##" builds an identifier no file
 * writes in full ("get_##n" makes get_counter of DEFINE_GETTER(counter)),
 * so the index keeps the pieces:
 *
 *   - the identifiers written as operands of "##" in a macro body that are
 *     no parameter ("get_" above, "foo_" of "foo_##bar");
 *   - a paste macro pastes an argument position: one of its parameters is
 *     an operand of "##" (a paste with a punctuator, GNU's ", ##
 *     __VA_ARGS__", makes no identifier and is no paste), or it passes the
 *     parameter into a pasted position of a paste macro (__PASTE(a, b) ->
 *     ___PASTE(a, b) -> a##b: both paste positions 0 and 1). That second
 *     rule needs every macro of the tree, so index.c runs it to a fixpoint
 *     over the edges read here: "this parameter goes into argument k of
 *     that macro". Positions, not whole macros: READ_ONCE(x) passes x to
 *     compiletime_assert(), whose condition is never pasted, only its
 *     __COUNTER__ suffix; a whole-macro rule would make every argument of
 *     every READ_ONCE a piece of a name.
 */
#include <string.h>
#include "ident.h"

/*
 * The #define whose T_HASH is lx->t[h]: 0 and *m filled, or -1 when it is
 * no #define with a name. "(" right after the name makes it function-like;
 * "..." or "name..." a variadic last parameter.
 */
int macro_read(const struct lexed *lx, size_t h, struct macro *m)
{
	size_t i = h + 3;

	memset(m, 0, sizeof(*m));
	if (!tok_is(lx, h + 1, "define") || h + 2 >= lx->n || lx->t[h + 2].kind != T_IDENT)
		return -1;
	m->name = h + 2;
	for (m->end = i; m->end < lx->n && lx->t[m->end].kind != T_EOD; m->end++)
		;
	m->body = i;
	if (!tok_is(lx, i, "(") || (lx->t[i].flags & TF_SPACE))
		return 0;
	m->funclike = 1;
	for (i++; i < m->end && !tok_is(lx, i, ")"); i++) {
		if (!tok_is(lx, i, "...") && lx->t[i].kind != T_IDENT)
			continue;
		/* ("...": __VA_ARGS__; "name...": a named variadic one) */
		m->variadic = tok_is(lx, i, "...") || tok_is(lx, i + 1, "...");
		if (m->nparam < (int)ARRAY_SIZE(m->param))
			m->param[m->nparam++] = i;
		else
			m->more = 1;
		if (tok_is(lx, i + 1, "..."))
			i++;
	}
	m->body = i < m->end ? i + 1 : m->end;
	return 0;
}

/* the position of the parameter lx->t[i] names, or -1 */
int macro_param(const struct lexed *lx, const struct macro *m, size_t i)
{
	const struct token *t = &lx->t[i];
	int k;

	if (t->kind != T_IDENT)
		return -1;
	for (k = 0; k < m->nparam; k++) {
		const struct token *p = &lx->t[m->param[k]];

		if (p->kind == T_PUNCT) {	/* "...": __VA_ARGS__ */
			if (t->len == 11 && !memcmp(tok_text(lx, i), "__VA_ARGS__", 11))
				return k;
		} else if (p->len == t->len &&
			   !memcmp(tok_text(lx, m->param[k]), tok_text(lx, i), t->len)) {
			return k;
		}
	}
	return -1;
}

/* the paste mask of parameter k: the variadic one covers every later position */
static uint32_t param_bit(const struct macro *m, int k)
{
	if (m->variadic && k == m->nparam - 1)
		return PASTE_ALL_FROM((unsigned int)k);
	return 1u << (k < 31 ? k : 31);
}

/* can an operand of "##" make an identifier with the other one? */
static int word_operand(const struct lexed *lx, const struct macro *m, size_t i)
{
	return i >= m->body && i < m->end &&
	       (lx->t[i].kind == T_IDENT || lx->t[i].kind == T_NUMBER);
}

/* "##" at lx->t[j], between two operands that can make an identifier */
static int word_paste(const struct lexed *lx, const struct macro *m, size_t j)
{
	return tok_is(lx, j, "##") && word_operand(lx, m, j - 1) && word_operand(lx, m, j + 1);
}

/* the positions the body pastes directly (a parameter next to "##") */
uint32_t macro_direct_mask(const struct lexed *lx, const struct macro *m)
{
	uint32_t mask = 0;
	size_t j;
	int k;

	for (j = m->body + 1; j + 1 < m->end; j++) {
		if (!word_paste(lx, m, j))
			continue;
		if (m->more)
			return ~0u;	/* (a parameter we did not keep may be it) */
		if ((k = macro_param(lx, m, j - 1)) >= 0)
			mask |= param_bit(m, k);
		if ((k = macro_param(lx, m, j + 1)) >= 0)
			mask |= param_bit(m, k);
	}
	return mask;
}

/* the identifiers written as operands of "##" that are no parameter */
void macro_literal_operands(const struct lexed *lx, const struct macro *m, word_fn fn, void *ctx)
{
	size_t j, o;

	for (j = m->body + 1; j + 1 < m->end; j++) {
		if (!word_paste(lx, m, j))
			continue;
		for (o = j - 1; o <= j + 1; o += 2)
			if (lx->t[o].kind == T_IDENT && macro_param(lx, m, o) < 0)
				fn(ctx, tok_text(lx, o), lx->t[o].len);
	}
}

/* the character of a one-character punctuator, else 0 */
static char punct1(const struct lexed *lx, size_t i)
{
	return lx->t[i].kind == T_PUNCT && lx->t[i].len == 1 ? tok_text(lx, i)[0] : 0;
}

/*
 * The invocation whose '(' is lx->t[open] (tokens before end): fn(ctx, i, k)
 * for each token i of its argument k (brackets nested inside, directives
 * skipped). Returns the index past its ')'.
 */
size_t invocation_walk(const struct lexed *lx, size_t open, size_t end, tok_fn fn, void *ctx)
{
	unsigned int k = 0;
	int depth = 0;
	size_t i;
	char c;

	for (i = open + 1; i < end; i++) {
		if (lx->t[i].kind == T_HASH) {
			while (i + 1 < end && lx->t[i].kind != T_EOD)
				i++;
			continue;
		}
		c = punct1(lx, i);
		if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if (c == ')' || c == ']' || c == '}') {
			if (!depth)
				return i + 1;
			depth--;
		} else if (c == ',' && !depth) {
			k++;
			continue;
		}
		fn(ctx, i, k);
	}
	return end;
}

/* what macro_edges gathers of one invocation: per argument, the parameters in it */
struct args {
	const struct lexed *lx;
	const struct macro *m;
	uint32_t pmask[32];
	uint8_t spread[32];
	unsigned int nargs;
};

static void arg_param(void *ctx, size_t i, unsigned int k)
{
	struct args *a = ctx;
	int p = macro_param(a->lx, a->m, i);

	if (k > 31)
		k = 31;
	if (k + 1 > a->nargs)
		a->nargs = k + 1;
	if (p < 0 && a->m->more && a->lx->t[i].kind == T_IDENT)
		a->pmask[k] |= PASTE_ALL_FROM(31);	/* maybe a parameter not kept */
	if (p < 0)
		return;
	a->pmask[k] |= param_bit(a->m, p);
	if (a->m->variadic && p == a->m->nparam - 1)
		a->spread[k] = 1;
}

/*
 * Each invocation "NAME(...)" in the body of m (NAME no parameter): fn for
 * each argument that holds parameters, with their positions. A variadic
 * parameter may fill several arguments: "spread", from that one on.
 */
void macro_edges(const struct lexed *lx, const struct macro *m, edge_fn fn, void *ctx)
{
	struct args a = { .lx = lx, .m = m };
	unsigned int k;
	size_t j;

	for (j = m->body; j + 1 < m->end; j++) {
		if (lx->t[j].kind != T_IDENT || punct1(lx, j + 1) != '(' ||
		    macro_param(lx, m, j) >= 0)
			continue;
		memset(a.pmask, 0, sizeof(a.pmask));
		memset(a.spread, 0, sizeof(a.spread));
		a.nargs = 0;
		invocation_walk(lx, j + 1, m->end, arg_param, &a);
		for (k = 0; k < a.nargs; k++)
			if (a.pmask[k])
				fn(ctx, lx, m, j, k, a.spread[k], a.pmask[k]);
	}
}
