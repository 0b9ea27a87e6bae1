// SPDX-License-Identifier: GPL-2.0
/*
 * Names made with __COUNTER__: __UNIQUE_ID_<prefix><N> (the locals of min(),
 * max(), ...) and __compiletime_assert_<N> (the never-called error function
 * READ_ONCE and BUILD_BUG_ON declare). A header hunk that adds or removes one
 * renumbers every later one in the unit; a function definition is compared
 * with its own numbered by their order of appearance instead, when that
 * cannot change its code.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp-compare.h"

#define MAX_NAMES 64

/* the counter-made names of one definition, in their order of appearance */
struct names {
	const char *s[MAX_NAMES];
	size_t len[MAX_NAMES];
	size_t n;
};

static int counter_name(const char *s, size_t n)
{
	size_t d = n;

	while (d > 0 && isdigit((unsigned char)s[d - 1]))
		d--;
	if (d == n)
		return 0;
	return (d >= 12 && !memcmp(s, "__UNIQUE_ID_", 12)) ||
	       (d == 21 && !memcmp(s, "__compiletime_assert_", 21));
}

/* does the text [t, end) have a prefix of a counter-made name anywhere? */
static int has_counter_prefix(const char *t, const char *end)
{
	const char *p;

	for (p = t; p < end; p++)
		if (*p == '_' && (!memcmp(p, "__UNIQUE_ID_", 12 < end - p ? 12 : end - p) ||
				  !memcmp(p, "__compiletime_assert_", 21 < end - p ? 21 : end - p)))
			return 1;
	return 0;
}

/* the index of name [b, b + n) in nm, or nm->n */
static size_t name_index(const struct names *nm, const char *b, size_t n)
{
	size_t k;

	for (k = 0; k < nm->n; k++)
		if (nm->len[k] == n && !memcmp(nm->s[k], b, n))
			break;
	return k;
}

/* the occurrences of [b, b + n) as a whole identifier in [t, end) */
static size_t own_count(const char *t, const char *end, const char *b, size_t n)
{
	const char *q;
	size_t own = 0;

	for (q = t; q + n <= end; q++)
		if (!memcmp(q, b, n) && (q == t || !is_ident((unsigned char)q[-1])) &&
		    (q + n == end || !is_ident((unsigned char)q[n])))
			own++;
	return own;
}

/*
 * The identifier [b, b + n) of the definition [t, end): 0 when the
 * definition must be compared as it is (a static in its body, a counter-made
 * name found elsewhere in the unit, too many names), else 1 (a new counter
 * name recorded in nm).
 */
static int note_name(const struct unit *u, const struct chunk *c, struct names *nm,
		     const char *b, size_t n)
{
	const char *t = u->text + c->off, *end = t + c->len;

	if (b >= u->text + c->body && n == 6 && !memcmp(b, "static", 6))
		return 0;
	if (!counter_name(b, n) || name_index(nm, b, n) < nm->n)
		return 1;
	if (nm->n == MAX_NAMES)
		return 0;
	if (word_count(u, b, n) != own_count(t, end, b, n))
		return 0;
	nm->s[nm->n] = b;
	nm->len[nm->n++] = n;
	return 1;
}

/* the definition's counter-made names, each counted in it against the unit */
static int collect_names(const struct unit *u, const struct chunk *c, struct names *nm)
{
	const char *t = u->text + c->off, *end = t + c->len, *p, *b;

	for (p = t; p < end;) {
		if (*p == '"' || *p == '\'') {
			p = u->text + literal_end(u->text, p - u->text, c->off + c->len);
			continue;
		}
		if (is_ident((unsigned char)*p) && (p == t || !is_ident((unsigned char)p[-1]))) {
			b = p;
			while (p < end && is_ident((unsigned char)*p))
				p++;
			if (!note_name(u, c, nm, b, p - b))
				return 0;
			continue;
		}
		p++;
	}
	return 1;
}

/* identifier [b, b + n) appended to out at *o: a counter name as __UNIQUE_ID___x#3 */
static char *put_ident(char *out, size_t *o, size_t len, const struct names *nm,
		       const char *b, size_t n)
{
	size_t k = name_index(nm, b, n), d = n;
	char num[24];

	if (k == nm->n) {
		memcpy(out + *o, b, n);
		*o += n;
		return out;
	}
	while (isdigit((unsigned char)b[d - 1]))
		d--;
	snprintf(num, sizeof(num), "#%zu", k);
	out = xrealloc(out, len + *o + strlen(num) + 1);
	memcpy(out + *o, b, d);
	*o += d;
	memcpy(out + *o, num, strlen(num));
	*o += strlen(num);
	return out;
}

/* the copy of the definition, each name's number replaced by its order */
static void renumber(struct unit *u, struct chunk *c, const struct names *nm)
{
	const char *t = u->text + c->off, *end = t + c->len, *p, *b, *e;
	size_t o = 0;
	char *out = xmalloc(c->len + 1);

	for (p = t; p < end;) {
		if (*p == '"' || *p == '\'') {
			e = u->text + literal_end(u->text, p - u->text, c->off + c->len);
			memcpy(out + o, p, e - p);
			o += e - p;
			p = e;
			continue;
		}
		if (is_ident((unsigned char)*p) && (p == t || !is_ident((unsigned char)p[-1]))) {
			b = p;
			while (p < end && is_ident((unsigned char)*p))
				p++;
			out = put_ident(out, &o, c->len, nm, b, p - b);
			continue;
		}
		out[o++] = *p++;
	}
	c->cmp = out;
	c->cmplen = o;
}

/*
 * A function definition compared with its counter-made names numbered in
 * their order of appearance, when that cannot change its code: each such name
 * occurs in no other declaration of the unit (a local of the body, or a
 * declaration the body alone uses), and the body defines no static (whose
 * symbol would carry the name). Otherwise it is compared as it is.
 */
void canonical(struct unit *u, struct chunk *c)
{
	const char *t = u->text + c->off;
	struct names nm;

	if (!c->func || !has_counter_prefix(t, t + c->len))
		return;
	nm.n = 0;
	if (!collect_names(u, c, &nm))
		return;
	renumber(u, c, &nm);
}
