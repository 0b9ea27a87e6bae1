// SPDX-License-Identifier: GPL-2.0
/*
 * A unit's normalized text cut into top-level declarations (the chunks that
 * main.c compares one by one), with what the rules about unreferenced
 * functions need of the whole unit: how often each identifier occurs, and the
 * contents of its string literals (adjacent ones joined, escapes decoded: a
 * name in asm text or an alias counts as a use).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "pp-compare.h"

/* the parser's place in the text and the declaration it is in */
struct parser {
	struct unit *u;
	const char *t;
	size_t n, i;
	size_t start;		/* where the pending declaration starts */
	size_t sstart;		/* where its literals start, in u->strs */
	size_t body;		/* a function definition's '{' */
	size_t capch, capstr;
	int paren, brace, func;
	int joined;		/* right after a string literal: "a" "b" is "ab" */
};

static void word_add(struct unit *u, const char *s, size_t len)
{
	size_t mask = u->nwords - 1, i = hash_bytes(s, len) & mask;

	while (u->words[i].s) {
		if (u->words[i].len == len && !memcmp(u->words[i].s, s, len)) {
			u->words[i].count++;
			return;
		}
		i = (i + 1) & mask;
	}
	u->words[i].s = s;
	u->words[i].len = len;
	u->words[i].count = 1;
}

size_t word_count(const struct unit *u, const char *s, size_t len)
{
	size_t mask = u->nwords - 1, i = hash_bytes(s, len) & mask;

	while (u->words[i].s) {
		if (u->words[i].len == len && !memcmp(u->words[i].s, s, len))
			return u->words[i].count;
		i = (i + 1) & mask;
	}
	return 0;
}

static int hex_value(char c)
{
	return isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
}

/* the escape after the backslash at s[*i] (moved to its last character) */
static unsigned escape_value(const char *s, size_t *i, size_t n)
{
	unsigned v = 0;
	int k;

	switch (s[*i]) {
	case 'n': return '\n';
	case 't': return '\t';
	case 'r': return '\r';
	case 'a': return '\a';
	case 'b': return '\b';
	case 'f': return '\f';
	case 'v': return '\v';
	case 'x':
		while (*i + 1 < n && isxdigit((unsigned char)s[*i + 1])) {
			(*i)++;
			v = v * 16 + hex_value(s[*i]);
		}
		return v;
	}
	if (s[*i] < '0' || s[*i] > '7')
		return (unsigned char)s[*i];
	for (k = 0; k < 3 && *i < n && s[*i] >= '0' && s[*i] <= '7'; k++, (*i)++)
		v = v * 8 + (s[*i] - '0');
	(*i)--;
	return v;
}

/* a literal's contents, escapes decoded, appended to u->strs */
static void add_literal(struct unit *u, size_t *cap, const char *s, size_t n)
{
	size_t i;

	if (u->slen + n + 2 > *cap) {
		*cap = (*cap + n + 2) * 2;
		u->strs = xrealloc(u->strs, *cap);
	}
	for (i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 >= n) {
			u->strs[u->slen++] = s[i];
			continue;
		}
		i++;
		u->strs[u->slen++] = (char)escape_value(s, &i, n);
	}
}

/* the literal whose opening quote is t[i] and that ends at e, then a NUL */
static void take_literal(struct parser *ps, size_t i, size_t e)
{
	const char *t = ps->t;

	add_literal(ps->u, &ps->capstr, t + i + 1,
		    e - i - (e > i + 1 && t[e - 1] == t[i] ? 2 : 1));
	ps->u->strs[ps->u->slen++] = '\0';
}

/* the pending declaration ends at end (blanks trimmed; none if empty) */
static void end_chunk(struct parser *ps, size_t end)
{
	struct unit *u = ps->u;
	const char *t = ps->t;
	size_t s = ps->start, e = end;
	struct chunk *c;

	while (s < e && (t[s] == ' ' || t[s] == '\n'))
		s++;
	while (e > s && (t[e - 1] == ' ' || t[e - 1] == '\n'))
		e--;
	if (e > s) {
		if (u->nch == ps->capch) {
			ps->capch = ps->capch ? ps->capch * 2 : 4096;
			u->ch = xrealloc(u->ch, ps->capch * sizeof(*u->ch));
		}
		c = &u->ch[u->nch++];
		memset(c, 0, sizeof(*c));
		c->off = s;
		c->len = e - s;
		c->soff = ps->sstart;
		c->slen = u->slen - ps->sstart;
		c->func = ps->func;
		c->body = ps->body;
		c->cmp = t + s;
		c->cmplen = e - s;
	}
	ps->start = end;
	ps->sstart = u->slen;
	ps->func = 0;
	ps->body = 0;
}

/* a directive line's words and literals count too (#pragma weak, redefine_extname) */
static void directive_words(struct parser *ps, size_t e)
{
	const char *t = ps->t;
	size_t k, b, le;

	for (k = ps->i + 1; k < e; k++) {
		if (is_ident((unsigned char)t[k]) && !is_ident((unsigned char)t[k - 1])) {
			b = k;
			while (k < e && is_ident((unsigned char)t[k]))
				k++;
			word_add(ps->u, t + b, k - b);
			k--;
		} else if (t[k] == '"' || t[k] == '\'') {
			le = literal_end(t, k, e);
			take_literal(ps, k, le);
			k = le - 1;
		}
	}
}

/* "\n#...": a directive line, a declaration of its own when nothing is pending */
static void parse_directive(struct parser *ps)
{
	const char *t = ps->t;
	size_t e = ps->i + 1, s;

	while (e < ps->n && t[e] != '\n')
		e++;
	directive_words(ps, e);
	if (!ps->paren && !ps->brace) {
		s = ps->start;
		while (s < ps->i && (t[s] == ' ' || t[s] == '\n'))
			s++;
		if (s == ps->i) {
			ps->start = ps->i + 1;
			end_chunk(ps, e);
		}
	}
	ps->i = e;
	ps->joined = 0;
}

static void parse_literal(struct parser *ps)
{
	char c = ps->t[ps->i];
	size_t e = literal_end(ps->t, ps->i, ps->n);

	if (ps->joined && ps->u->slen)
		ps->u->slen--;	/* "a" "b" is "ab" */
	take_literal(ps, ps->i, e);
	ps->joined = c == '"';
	ps->i = e;
}

static void parse_ident(struct parser *ps)
{
	const char *t = ps->t;
	size_t b = ps->i;

	while (ps->i < ps->n && is_ident((unsigned char)t[ps->i]))
		ps->i++;
	/* a literal's prefix (L"", u8"") is part of the literal */
	if (ps->i < ps->n && (t[ps->i] == '"' || t[ps->i] == '\'') && ps->i - b <= 2)
		return;
	word_add(ps->u, t + b, ps->i - b);
}

/* a top-level '{' right after a ')' opens a function definition's body */
static void open_brace(struct parser *ps)
{
	const char *t = ps->t;
	size_t k = ps->i;

	if (ps->brace || ps->paren)
		return;
	while (k > ps->start && (t[k - 1] == ' ' || t[k - 1] == '\n'))
		k--;
	if (k > ps->start && t[k - 1] == ')') {
		ps->func = 1;
		ps->body = ps->i;
	}
}

/* brackets, and the ends of declarations: ';' and a definition's '}' */
static void parse_punct(struct parser *ps, char c)
{
	switch (c) {
	case '(':
	case '[':
		ps->paren++;
		break;
	case ')':
	case ']':
		ps->paren--;
		break;
	case '{':
		open_brace(ps);
		ps->brace++;
		break;
	case '}':
		ps->brace--;
		if (!ps->brace && !ps->paren && ps->func)
			end_chunk(ps, ps->i + 1);
		break;
	case ';':
		if (!ps->brace && !ps->paren)
			end_chunk(ps, ps->i + 1);
		break;
	}
	ps->i++;
}

/* a table for the unit's identifiers: at least a quarter of its length */
static void words_init(struct unit *u)
{
	u->nwords = 1 << 16;
	while (u->nwords < u->len / 4)
		u->nwords <<= 1;
	u->words = xcalloc(u->nwords, sizeof(*u->words));
}

/*
 * Top-level declarations: each ends at a ';' outside any bracket, a function
 * definition (a '{' right after a ')') at the '}' that closes its body; a
 * directive line between them is one of its own. Identifiers are counted, and
 * the contents of literals collected (adjacent ones joined, as C joins them).
 */
void parse(struct unit *u)
{
	struct parser ps = { .u = u, .t = u->text, .n = u->len };
	const char *t = u->text;
	char c;

	words_init(u);
	while (ps.i < ps.n) {
		c = t[ps.i];
		if (c == '\n' && ps.i + 1 < ps.n && t[ps.i + 1] == '#') {
			parse_directive(&ps);
		} else if (c == '"' || c == '\'') {
			parse_literal(&ps);
		} else if (c == ' ' || c == '\n') {
			ps.i++;
		} else {
			ps.joined = 0;
			if (is_ident((unsigned char)c))
				parse_ident(&ps);
			else
				parse_punct(&ps, c);
		}
	}
	end_chunk(&ps, ps.n);
}
