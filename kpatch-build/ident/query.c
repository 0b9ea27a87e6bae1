// SPDX-License-Identifier: GPL-2.0
/*
 * kpatch-ident query INDEX [--extra REL=PATH]... [--exclude REL]... IDENT...
 *
 * For each IDENT, the files of the index that can reach it:
 *
 *   "<file> <ident> names"            the file has IDENT as a token;
 *   "<file> <ident> paste:<frag>"     the file has a paste fragment that is
 *                                     a proper prefix or suffix of IDENT
 *                                     whose rest some file can supply
 *                                     (it may build IDENT with "##");
 *   "<file> <ident> paste-rest:<rest>" for such a fragment, the file has the
 *                                     rest of IDENT as a token (the other
 *                                     half of the paste may be written
 *                                     there: DEFINE_GETTER(counter)).
 *
 * --extra REL=PATH: REL's text is PATH's (the patched version of a changed
 * file), lexed now in place of REL's entry (or as a new one); its paste
 * fragments use the index's paste macros and its own. --exclude REL: REL
 * is left out (the changed header itself), also when it is an --extra (it
 * still supplies pieces of pastes). Lines sorted, each once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ident.h"

/* a file read now: its names and fragments */
struct extra {
	const char *rel, *path;
	int excluded;		/* also named by --exclude: read, never listed */
	struct sset words, frags;
};

struct query {
	struct index_map im;
	uint8_t *masked;		/* index files left out (excluded or replaced) */
	struct extra *ex;
	size_t nex;
	const char **exclude;		/* the --exclude arguments */
	size_t nexclude;
	char **lines;
	size_t nlines, cap;
};

static void line(struct query *q, const char *file, const char *ident, const char *why,
		 const char *arg)
{
	if (q->nlines == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 256;
		q->lines = xrealloc(q->lines, q->cap * sizeof(*q->lines));
	}
	q->lines[q->nlines++] = xasprintf("%s %s %s%s", file, ident, why, arg);
}

/* the index's entries of file REL left out (a list may name a file twice) */
static void mask_file(struct query *q, const char *rel)
{
	uint32_t i;

	for (i = 0; i < q->im.nfiles; i++)
		if (!strcmp(store_file(&q->im, i), rel))
			q->masked[i] = 1;
}

/* the index's paste macros (the extra file's own are its paste scope's) */
static uint32_t index_mask(void *ctx, const char *s, size_t len)
{
	struct query *q = ctx;
	size_t pos;

	return store_lookup(&q->im, TAB_PASTE, s, len, &pos) ? store_mask(&q->im, pos) : 0;
}

static void add_word(void *ctx, const char *s, size_t len)
{
	sset_add(ctx, s, len);
}

/* the extra file lexed: its names and fragments */
static void read_extra(struct query *q, struct extra *x)
{
	struct paste_scope ps;
	struct lexed lx;

	memset(&lx, 0, sizeof(lx));
	lex_file(&lx, x->path, 0);
	sset_init(&x->words);
	sset_init(&x->frags);
	file_words(&lx, add_word, &x->words);
	paste_scope_init(&ps, &lx, index_mask, q);
	define_fragments(&lx, add_word, &x->frags);
	invocation_fragments(&lx, paste_scope_mask, &ps, add_word, &x->frags);
	paste_scope_free(&ps);
	lexed_free(&lx);
}

/* a line for each file of table tab's entry for s (index and extras): any? */
static int files_of(struct query *q, int tab, const char *s, size_t len, const char *ident,
		    const char *why, const char *arg)
{
	uint32_t *files = NULL, i;
	size_t n = 0, k, pos;
	int found = 0;

	if (store_lookup(&q->im, tab, s, len, &pos))
		n = store_postings(&q->im, tab, pos, &files);
	for (i = 0; i < n; i++) {
		if (q->masked[files[i]])
			continue;
		line(q, store_file(&q->im, files[i]), ident, why, arg);
		found = 1;
	}
	free(files);
	for (k = 0; k < q->nex; k++) {
		if (q->ex[k].excluded ||
		    !sset_find(tab == TAB_NAMES ? &q->ex[k].words : &q->ex[k].frags, s, len))
			continue;
		line(q, q->ex[k].rel, ident, why, arg);
		found = 1;
	}
	return found;
}

/* does the index (or an extra file) hold s in table tab, in any file? */
static int in_table(struct query *q, int tab, const char *s, size_t len)
{
	size_t pos, k;

	if (store_lookup(&q->im, tab, s, len, &pos))
		return 1;
	for (k = 0; k < q->nex; k++)
		if (sset_find(tab == TAB_NAMES ? &q->ex[k].words : &q->ex[k].frags, s, len))
			return 1;
	return 0;
}

/*
 * Can a paste supply s, the rest of an identifier beside a fragment? Only if
 * some file writes it: as a token (an argument), as a fragment, or as a
 * number (the index keeps no numbers: any run of digits, as __COUNTER__ and
 * __LINE__ give, and any short number, 64, 0x1f, 32UL, is taken as written);
 * two pieces in all (deeper, the fragments, every argument of every
 * pasting macro, spell almost anything: "uts" + "nam" + "e" reaches every
 * unit; kpatch-build/README.md says what this leaves out). A
 * fragment whose rest nothing can supply builds nothing: "e" of
 * arch/x86's "e##reg" (included by every unit) is a suffix of every name
 * that ends in e, and would make every includer a candidate.
 */
#define FORM_DEPTH 0
#define SHORT_NUMBER 4
static int number(const char *s, size_t len)
{
	size_t i;

	if (s[0] < '0' || s[0] > '9')
		return 0;
	if (len <= SHORT_NUMBER)
		return 1;
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static int suppliable(struct query *q, const char *s, size_t len, int depth)
{
	size_t k;

	if (!len || number(s, len) || in_table(q, TAB_NAMES, s, len) ||
	    in_table(q, TAB_FRAGS, s, len))
		return 1;
	if (!depth)
		return 0;
	for (k = 1; k < len; k++) {
		if (in_table(q, TAB_FRAGS, s, k) && suppliable(q, s + k, len - k, depth - 1))
			return 1;
		if (in_table(q, TAB_FRAGS, s + len - k, k) && suppliable(q, s, len - k, depth - 1))
			return 1;
	}
	return 0;
}

/* the lines of one identifier */
static void query_one(struct query *q, const char *id)
{
	size_t len = strlen(id), k;
	char *frag, *rest;

	files_of(q, TAB_NAMES, id, len, id, "names", "");
	for (k = 1; k < len; k++) {
		/* a prefix of k characters, then a suffix of k */
		frag = xasprintf("%.*s", (int)k, id);
		rest = xstrdup(id + k);
		if (suppliable(q, rest, len - k, FORM_DEPTH) &&
		    files_of(q, TAB_FRAGS, frag, k, id, "paste:", frag))
			files_of(q, TAB_NAMES, rest, len - k, id, "paste-rest:", rest);
		free(frag);
		free(rest);
		frag = xstrdup(id + len - k);
		rest = xasprintf("%.*s", (int)(len - k), id);
		if (suppliable(q, rest, len - k, FORM_DEPTH) &&
		    files_of(q, TAB_FRAGS, frag, k, id, "paste:", frag))
			files_of(q, TAB_NAMES, rest, len - k, id, "paste-rest:", rest);
		free(frag);
		free(rest);
	}
}

static int is_identifier(const char *s)
{
	const char *p;

	if (!*s || (*s >= '0' && *s <= '9'))
		return 0;
	for (p = s; *p; p++)
		if (!(*p == '_' || *p == '$' || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return 0;
	return 1;
}

/* an --extra or --exclude: the index file it names left out */
static void option(struct query *q, const char *opt, const char *arg)
{
	struct extra *x;
	size_t k;
	const char *eq = strchr(arg, '=');
	char *rel;

	if (!strcmp(opt, "--exclude")) {
		mask_file(q, arg);
		q->exclude = xrealloc(q->exclude, (q->nexclude + 1) * sizeof(*q->exclude));
		q->exclude[q->nexclude++] = arg;
		for (k = 0; k < q->nex; k++)
			if (!strcmp(q->ex[k].rel, arg))
				q->ex[k].excluded = 1;
		return;
	}
	if (!eq || eq == arg || !eq[1])
		die(ID_BAD_INPUT, "--extra wants REL=PATH, not \"%s\"", arg);
	q->ex = xrealloc(q->ex, (q->nex + 1) * sizeof(*q->ex));
	x = &q->ex[q->nex++];
	memset(x, 0, sizeof(*x));
	rel = xasprintf("%.*s", (int)(eq - arg), arg);
	x->rel = rel;
	x->path = eq + 1;
	for (k = 0; k < q->nexclude; k++)
		if (!strcmp(q->exclude[k], rel))
			x->excluded = 1;
	mask_file(q, rel);
	read_extra(q, x);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void query_free(struct query *q)
{
	size_t i;

	for (i = 0; i < q->nlines; i++)
		free(q->lines[i]);
	for (i = 0; i < q->nex; i++) {
		free((char *)q->ex[i].rel);
		sset_free(&q->ex[i].words);
		sset_free(&q->ex[i].frags);
	}
	free(q->ex);
	free(q->exclude);
	free(q->lines);
	free(q->masked);
	store_close(&q->im);
}

/* argv[0]: the index; then options and identifiers */
int cmd_query(int argc, char **argv)
{
	struct query q;
	int i, opts = 1;
	size_t k;

	memset(&q, 0, sizeof(q));
	store_open(&q.im, argv[0]);
	q.masked = xcalloc(q.im.nfiles + 1, 1);
	for (i = 1; i < argc; i++) {
		if (opts && !strcmp(argv[i], "--")) {
			opts = 0;
		} else if (opts && (!strcmp(argv[i], "--extra") || !strcmp(argv[i], "--exclude"))) {
			if (i + 1 >= argc)
				die(ID_BAD_INPUT, "%s wants an argument", argv[i]);
			option(&q, argv[i], argv[i + 1]);
			i++;
		} else if (!is_identifier(argv[i])) {
			die(ID_BAD_INPUT, "not an identifier: \"%s\"", argv[i]);
		}
	}
	for (i = 1, opts = 1; i < argc; i++) {
		if (opts && !strcmp(argv[i], "--"))
			opts = 0;
		else if (opts && (!strcmp(argv[i], "--extra") || !strcmp(argv[i], "--exclude")))
			i++;
		else
			query_one(&q, argv[i]);
	}
	if (q.nlines)
		qsort(q.lines, q.nlines, sizeof(*q.lines), cmp_str);
	for (k = 0; k < q.nlines; k++)
		if (!k || strcmp(q.lines[k], q.lines[k - 1]))
			puts(q.lines[k]);
	query_free(&q);
	return ID_OK;
}
