// SPDX-License-Identifier: GPL-2.0
/*
 * kpatch-pp-compare: can a header patch change this object?
 *
 *   kpatch-pp-compare [--strict] ORIG.i PATCHED.i
 *
 * ORIG.i and PATCHED.i are one compilation unit preprocessed (the object's own
 * compile command with -E) from the original and from the patched source.
 * A patch to a header reaches an object only through the text the preprocessor
 * hands the compiler, so:
 *
 *  - when the two texts are the same apart from line markers and the amount of
 *    white space between tokens, the compiler is given the same program and the
 *    object cannot change (its debug line table aside, which the differ does
 *    not compare: __LINE__ and __FILE__ are in the text, expanded);
 *  - when the only top-level declarations that differ are definitions of
 *    static functions that nothing else in the unit names, the object cannot
 *    change either: GCC (-O2) emits no code for a static function nothing
 *    refers to. "Names" is read widely: any occurrence of the identifier
 *    outside the function's own definition (a call, its address taken, a
 *    prototype, a member of that name, a macro-made initializer), and any
 *    string literal that has it as a word (asm text, alias, section names;
 *    adjacent literals joined, escapes decoded). A
 *    function whose definition asks for its emission anyway (used, retain,
 *    constructor, destructor, externally_visible, symver, an alias or ifunc,
 *    an asm label) or whose name GCC itself may call (memcpy, memset, libgcc's
 *    __*di3 and the like, instrumentation hooks) is never set aside.
 *    The same holds for a prototype (a function declaration without a
 *    body) that nothing else in the unit names: it makes no code and no
 *    symbol (a header patch that turns an inline into an extern function,
 *    or back, changes only that line in the units that do not call it);
 *    one that is weak, has an alias or asm label, or declares more than one
 *    name is never set aside.
 *
 * Names made with __COUNTER__ (__UNIQUE_ID_*N, __compiletime_assert_N), which
 * a hunk that adds or removes one renumbers in the rest of the unit, compare
 * equal in a function definition whose body defines no static, when each
 * occurs in no other declaration: renumbered consistently, they are the same
 * locals (and never-called error functions) under other names.
 *
 * Anything else (a structure, a global, a function or prototype the unit
 * uses, a change this reading cannot classify) may change the object.
 * --strict: only the first rule (for compile flags that keep unused functions).
 *
 * Prints one line: "same: identical", "same: only unreferenced static
 * functions or prototypes differ: NAME...", "same: identical but for the
 * numbers of __COUNTER__ names", or "may change: WHAT"; exit 0 for same, 1
 * for may change, 2 on bad input.
 * Out of memory it exits 1 with nothing on stdout (lib/util.c's allocators
 * exit EXIT_BADINPUT, which is 1): read as "may change", the object is built,
 * which is the harmless direction; no failure ever prints "same" or exits 0
 * (pp-compare.h). kpatch-build/lib/targeted.sh sets an object aside only on
 * exit 0 with a "same:" line.
 *
 * The sources, one job each, are listed in pp-compare.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp-compare.h"

/* the differing declarations of one side left once the unreferenced ones are set aside */
struct side {
	size_t *keep;
	size_t nkeep;
};

/* the names of the functions set aside, for the "same:" line (eight at most) */
struct aside {
	char msg[4096];
	size_t names;
};

/* a short, one-line excerpt of chunk c */
static void excerpt(const struct unit *u, const struct chunk *c, char *buf, size_t size)
{
	size_t i, o = 0;

	for (i = 0; i < c->len && o + 4 < size; i++)
		buf[o++] = u->text[c->off + i] == '\n' ? ' ' : u->text[c->off + i];
	if (i < c->len) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
}

static int chunk_eq(const struct chunk *x, const struct chunk *y)
{
	return x->hash == y->hash && x->cmplen == y->cmplen && !memcmp(x->cmp, y->cmp, x->cmplen);
}

/* each declaration's compared text (counter names renumbered) and its hash */
static void hash_chunks(struct unit *u)
{
	size_t i;

	for (i = 0; i < u->nch; i++) {
		canonical(u, &u->ch[i]);
		u->ch[i].hash = hash_bytes(u->ch[i].cmp, u->ch[i].cmplen);
	}
}

/* the numbers of equal declarations at the start (*pre) and the end (*suf) */
static void common_ends(const struct unit *a, const struct unit *b, size_t *pre, size_t *suf)
{
	*pre = 0;
	*suf = 0;
	while (*pre < a->nch && *pre < b->nch && chunk_eq(&a->ch[*pre], &b->ch[*pre]))
		(*pre)++;
	while (*suf < a->nch - *pre && *suf < b->nch - *pre &&
	       chunk_eq(&a->ch[a->nch - 1 - *suf], &b->ch[b->nch - 1 - *suf]))
		(*suf)++;
}

/* the name of u's set-aside chunk c, unless the other side o has the same one */
static void note_aside(const struct chunk *c, const struct unit *o, size_t pre, size_t suf,
		       const struct tok *name, struct aside *as)
{
	char w[256];
	size_t j;
	int both = 0;

	for (j = pre; j < o->nch - suf && !both; j++)
		both = chunk_eq(c, &o->ch[j]);
	if (both || as->names >= 8)
		return;
	snprintf(w, sizeof(w), " %.*s", (int)(name->len < 200 ? name->len : 200), name->s);
	if (!strstr(as->msg, w) && strlen(as->msg) + strlen(w) < sizeof(as->msg)) {
		strcat(as->msg, w);
		as->names++;
	}
}

/* u's differing declarations (o is the other side), unreferenced static functions and prototypes aside */
static void set_aside(const struct unit *u, const struct unit *o, size_t pre, size_t suf,
		      int strict, struct side *d, struct aside *as)
{
	struct tok name;
	const char *why;
	size_t i;

	d->keep = xmalloc((u->nch - pre - suf + 1) * sizeof(size_t));
	for (i = pre; i < u->nch - suf; i++) {
		if (!strict && (unreferenced_static(u, &u->ch[i], &name, &why) ||
				unreferenced_prototype(u, &u->ch[i], &name))) {
			note_aside(&u->ch[i], o, pre, suf, &name, as);
			continue;
		}
		d->keep[d->nkeep++] = i;
	}
}

/* what differs first: the patched side's declaration k, else the original's */
static void report_change(const struct unit *a, const struct unit *b, const struct side *sa,
			  const struct side *sb, size_t k, int strict)
{
	const struct unit *u = k < sb->nkeep ? b : a;
	const struct chunk *c = k < sb->nkeep ? &b->ch[sb->keep[k]] : &a->ch[sa->keep[k]];
	struct tok name;
	const char *why;
	char ex[160];

	if (!strict && c->func && (unreferenced_static(u, c, &name, &why), name.s)) {
		printf("may change: function %.*s (%s)\n", (int)name.len, name.s, why);
	} else {
		excerpt(u, c, ex, sizeof(ex));
		printf("may change: %s%s\n", u == a ? "(removed) " : "", ex);
	}
}

/* two units whose texts differ, declaration by declaration: the exit code */
static int compare(struct unit *a, struct unit *b, int strict)
{
	struct side sa = { 0 }, sb = { 0 };
	struct aside as = { .msg = "" };
	size_t pre, suf, i;
	int ret = PP_SAME;

	parse(a);
	parse(b);
	hash_chunks(a);
	hash_chunks(b);
	common_ends(a, b, &pre, &suf);
	set_aside(a, b, pre, suf, strict, &sa, &as);
	set_aside(b, a, pre, suf, strict, &sb, &as);
	for (i = 0; i < sa.nkeep && i < sb.nkeep; i++)
		if (!chunk_eq(&a->ch[sa.keep[i]], &b->ch[sb.keep[i]]))
			break;
	if (i == sa.nkeep && i == sb.nkeep) {
		if (as.names)
			printf("same: only unreferenced static functions or prototypes differ:%s\n", as.msg);
		else
			printf("same: identical but for the numbers of __COUNTER__ names\n");
	} else {
		report_change(a, b, &sa, &sb, i, strict);
		ret = PP_MAY_CHANGE;
	}
	free(sa.keep);
	free(sb.keep);
	return ret;
}

int main(int argc, char **argv)
{
	struct unit a, b;
	int strict = 0, arg = 1, ret;

	progname = "kpatch-pp-compare";
	if (argc > 1 && !strcmp(argv[1], "--strict")) {
		strict = 1;
		arg++;
	}
	if (argc - arg != 2) {
		fprintf(stderr, "usage: kpatch-pp-compare [--strict] ORIG.i PATCHED.i\n");
		return PP_BAD_INPUT;
	}
	load(&a, argv[arg]);
	load(&b, argv[arg + 1]);
	if (a.len == b.len && !memcmp(a.text, b.text, a.len)) {
		printf("same: identical\n");
		ret = PP_SAME;
	} else {
		ret = compare(&a, &b, strict);
	}
	unit_free(&a);
	unit_free(&b);
	return ret;
}
