// SPDX-License-Identifier: GPL-2.0
/*
 * A unit's text as the compiler reads it: the file without line markers,
 * each run of white space one space. Two units whose texts are equal give
 * the compiler the same program (main.c's first rule).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp-compare.h"

/* the normalizer's place in the input and the output */
struct norm {
	struct unit *u;
	const char *in;
	size_t n, i, o;
	int space;	/* white space seen since the last character copied */
};

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, r;

	if (!f)
		die(PP_BAD_INPUT, "cannot open %s", path);
	do {
		if (cap - n < 65536) {
			cap = cap ? cap * 2 : 1 << 20;
			buf = xrealloc(buf, cap + 1);
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	if (ferror(f))
		die(PP_BAD_INPUT, "cannot read %s", path);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

int is_ident(int c)
{
	return isalnum(c) || c == '_' || c == '$';
}

/* the end of the literal that starts at s[i] (a quote), past its closing quote */
size_t literal_end(const char *s, size_t i, size_t n)
{
	char q = s[i++];

	while (i < n && s[i] != q && s[i] != '\n') {
		if (s[i] == '\\' && i + 1 < n)
			i++;
		i++;
	}
	return i < n && s[i] == q ? i + 1 : i;
}

/* FNV-1a: the chunks' hashes and the word table's slots */
uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	while (n--) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

/*
 * The line that starts with '#' at in[j] (after blanks): a line marker
 * ("# 12 \"file\" 2", "#line 12") is dropped; a directive the compiler reads
 * (#pragma, #ident) is kept whole, on a line of its own. Returns its end.
 */
static size_t directive_line(struct norm *nm, size_t j)
{
	const char *in = nm->in;
	struct unit *u = nm->u;
	size_t k = j + 1, e = j, t;

	while (e < nm->n && in[e] != '\n')
		e++;
	while (k < e && (in[k] == ' ' || in[k] == '\t'))
		k++;
	if ((k < e && isdigit((unsigned char)in[k])) || !strncmp(in + k, "line", 4))
		return e;
	t = e;
	while (t > j && isspace((unsigned char)in[t - 1]))
		t--;
	if (nm->o && u->text[nm->o - 1] != '\n')
		u->text[nm->o++] = '\n';
	memcpy(u->text + nm->o, in + j, t - j);
	nm->o += t - j;
	u->text[nm->o++] = '\n';
	nm->space = 0;
	return e;
}

/* a line of code from nm->i: white space folded, literals copied as they are */
static void code_line(struct norm *nm)
{
	const char *in = nm->in;
	struct unit *u = nm->u;
	size_t e;

	while (nm->i < nm->n && in[nm->i] != '\n') {
		char c = in[nm->i];

		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			nm->space = 1;
			nm->i++;
			continue;
		}
		if (nm->space && nm->o && u->text[nm->o - 1] != '\n')
			u->text[nm->o++] = ' ';
		nm->space = 0;
		if (c == '"' || c == '\'') {
			e = literal_end(in, nm->i, nm->n);
			memcpy(u->text + nm->o, in + nm->i, e - nm->i);
			nm->o += e - nm->i;
			nm->i = e;
			continue;
		}
		u->text[nm->o++] = c;
		nm->i++;
	}
}

/*
 * The text without line markers, each run of white space outside literals
 * one space, and directive lines kept whole between newlines.
 */
static void normalize(struct unit *u, const char *in, size_t n)
{
	struct norm nm = { .u = u, .in = in, .n = n };

	u->text = xmalloc(n + 2);
	while (nm.i < n) {
		/* at the start of a line */
		size_t j = nm.i, e;

		while (j < n && (in[j] == ' ' || in[j] == '\t'))
			j++;
		if (j < n && in[j] == '#') {
			e = directive_line(&nm, j);
			nm.i = e < n ? e + 1 : e;
			continue;
		}
		code_line(&nm);
		if (nm.i < n)
			nm.i++;	/* the newline */
		nm.space = 1;
	}
	u->text[nm.o] = '\0';
	u->len = nm.o;
}

/* the normalized text of a unit (parse() reads it only when the two differ) */
void load(struct unit *u, const char *path)
{
	size_t n;
	char *in = read_file(path, &n);

	memset(u, 0, sizeof(*u));
	u->path = path;
	normalize(u, in, n);
	free(in);
}

void unit_free(struct unit *u)
{
	size_t i;

	for (i = 0; i < u->nch; i++)
		if (u->ch[i].cmp != u->text + u->ch[i].off)
			free((char *)u->ch[i].cmp);
	free(u->ch);
	free(u->words);
	free(u->strs);
	free(u->text);
	memset(u, 0, sizeof(*u));
}
