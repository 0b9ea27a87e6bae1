// SPDX-License-Identifier: GPL-2.0
/*
 * kpatch-ident index SRCDIR LIST OUT: every file of LIST lexed once (the
 * identifiers it names, its #defines read for pasting), the paste macros
 * found to a fixpoint over all of them (macro.c), then the files that name
 * a paste macro lexed again for the fragments of their invocations; the
 * file lists inverted per identifier and written (store.c).
 *
 * Memory: a file's distinct identifiers are kept as numbers (tens of
 * millions for a kernel tree, 4 bytes each); a stamp per identifier (the
 * last file that named it) keeps each file's list free of repeats without
 * a set per file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ident.h"

struct vec {
	uint32_t *p;
	size_t n, cap;
};

static void vec_push(struct vec *v, uint32_t x)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 1024;
		v->p = xrealloc(v->p, v->cap * sizeof(*v->p));
	}
	v->p[v->n++] = x;
}

/*
 * The names of the file being read, for its repeats: most identifier tokens
 * of a file are names it has used already, and this small table (reset per
 * file by its generation) stays in the cache where the big one would not.
 * A file with more names than it holds goes to the big table for the rest.
 */
#define LOCAL_BITS	13
#define LOCAL_MAX	((1u << LOCAL_BITS) * 3 / 4)
#define BATCH		512

struct local {
	uint64_t gen;
	const char *s;
	uint32_t len, hash;
};

struct ix {
	const char *srcdir;
	char **files;
	uint32_t nfiles;
	struct sset names;
	uint32_t *stamp, *fstamp, *mask;	/* per name */
	uint8_t *keyword;
	size_t cap;
	struct vec words;	/* each file's names, file after file */
	uint32_t *wstart;	/* per file: its first in words (nfiles + 1) */
	struct vec frags;	/* (file, name) pairs */
	struct pass_edge *edges;
	size_t nedges, ecap;
	struct vec direct;	/* (file, name, mask) of each #define that pastes */
	uint8_t *global;	/* per file: its macros reach other files */
	uint8_t *own;		/* per file: it has macros that may paste */
	struct sset included;	/* the names of the .c files some file includes */
	uint32_t cur;		/* the file being read */
	struct local *local;
	uint64_t gen;		/* the file's generation in local */
	uint32_t nlocal;
	const char *bs[BATCH];	/* new names of the file, numbered a batch at a time */
	uint32_t blen[BATCH], bkey[BATCH];
	struct sname *bout[BATCH];
	size_t nb;
	struct lexed lx;
};

/* a name's number, the per-name arrays grown to hold it */
static uint32_t numbered(struct ix *ix, struct sname *e)
{
	if (e->id >= ix->cap) {
		size_t cap = ix->cap ? ix->cap * 2 : 1 << 16;

		ix->stamp = xrealloc(ix->stamp, cap * sizeof(*ix->stamp));
		ix->fstamp = xrealloc(ix->fstamp, cap * sizeof(*ix->fstamp));
		ix->mask = xrealloc(ix->mask, cap * sizeof(*ix->mask));
		ix->keyword = xrealloc(ix->keyword, cap);
		memset(ix->stamp + ix->cap, 0, (cap - ix->cap) * sizeof(*ix->stamp));
		memset(ix->fstamp + ix->cap, 0, (cap - ix->cap) * sizeof(*ix->fstamp));
		memset(ix->mask + ix->cap, 0, (cap - ix->cap) * sizeof(*ix->mask));
		ix->cap = cap;
	}
	if (!e->data) {		/* new: is it a keyword? */
		ix->keyword[e->id] = is_keyword(e->s, e->len);
		e->data = ix;
	}
	return e->id;
}

static uint32_t intern(struct ix *ix, const char *s, size_t len)
{
	return numbered(ix, sset_add(&ix->names, s, len));
}

/* the file names name number id: in its list once */
static void named(struct ix *ix, uint32_t id)
{
	if (ix->keyword[id] || ix->stamp[id] == ix->cur + 1)
		return;
	ix->stamp[id] = ix->cur + 1;
	vec_push(&ix->words, id);
}

/* the batch of the file's new names numbered (sset_add_many) */
static void flush(struct ix *ix)
{
	size_t i;

	sset_add_many(&ix->names, ix->nb, ix->bs, ix->blen, ix->bkey, ix->bout);
	for (i = 0; i < ix->nb; i++)
		named(ix, numbered(ix, ix->bout[i]));
	ix->nb = 0;
}

/* s seen in the file before? 1; else 0 (remembered) or -1 (no room left) */
static int seen_here(struct ix *ix, const char *s, size_t len, uint32_t h)
{
	uint32_t mask = (1u << LOCAL_BITS) - 1, i = h & mask;
	struct local *l;

	for (; (l = &ix->local[i])->gen == ix->gen; i = (i + 1) & mask)
		if (l->hash == h && l->len == len && !memcmp(l->s, s, len))
			return 1;
	if (ix->nlocal >= LOCAL_MAX)
		return -1;
	ix->nlocal++;
	l->gen = ix->gen;
	l->s = s;
	l->len = len;
	l->hash = h;
	return 0;
}

static void add_word(void *ctx, const char *s, size_t len)
{
	struct ix *ix = ctx;
	uint32_t h = hash_mem(s, len);
	int seen = seen_here(ix, s, len, h);

	if (seen > 0)
		return;
	if (seen < 0) {
		named(ix, numbered(ix, sset_add_h(&ix->names, s, len, h)));
		return;
	}
	ix->bs[ix->nb] = s;
	ix->blen[ix->nb] = len;
	ix->bkey[ix->nb++] = h;
	if (ix->nb == BATCH)
		flush(ix);
}

static void add_frag(void *ctx, const char *s, size_t len)
{
	struct ix *ix = ctx;
	uint32_t id = intern(ix, s, len);

	if (ix->fstamp[id] == ix->cur + 1)
		return;
	ix->fstamp[id] = ix->cur + 1;
	vec_push(&ix->frags, ix->cur);
	vec_push(&ix->frags, id);
}

static void add_edge(void *ctx, const struct lexed *lx, const struct macro *m,
		     size_t callee, unsigned int arg, int spread, uint32_t pmask)
{
	struct ix *ix = ctx;
	struct pass_edge *e;
	uint32_t name = intern(ix, tok_text(lx, m->name), lx->t[m->name].len);
	uint32_t to = intern(ix, tok_text(lx, callee), lx->t[callee].len);

	if (ix->nedges == ix->ecap) {
		ix->ecap = ix->ecap ? ix->ecap * 2 : 4096;
		ix->edges = xrealloc(ix->edges, ix->ecap * sizeof(*ix->edges));
	}
	e = &ix->edges[ix->nedges++];
	e->file = ix->cur;
	e->macro = name;
	e->callee = to;
	e->pmask = pmask;
	e->arg = arg;
	e->spread = spread;
}

/* file f of the list read and lexed (no lines): exit 2 if it cannot be read */
static void read_one(struct ix *ix, uint32_t f)
{
	char *path = xasprintf("%s/%s", ix->srcdir, ix->files[f]);

	ix->cur = f;
	ix->lx.path = path;
	if (read_file(path, &ix->lx.buf, &ix->lx.len, &ix->lx.cap))
		die(ID_BAD_INPUT, "cannot read %s: %s", path, strerror(errno));
	lex_text(&ix->lx, 0);
	ix->lx.path = NULL;
	free(path);
}

/* "#include "foo.c"" at lx->t[h]: foo.c is included (its macros reach the includer) */
static void included_c(struct ix *ix, size_t h)
{
	const struct lexed *lx = &ix->lx;
	size_t i = h + 2, n = 0;
	const char *p, *base;
	char name[256];

	if (!tok_is(lx, h + 1, "include") && !tok_is(lx, h + 1, "include_next"))
		return;
	if (i < lx->n && lx->t[i].kind == T_STRING && lx->t[i].len >= 2) {
		n = lx->t[i].len - 2 < sizeof(name) ? lx->t[i].len - 2 : 0;
		memcpy(name, tok_text(lx, i) + 1, n);
	} else if (tok_is(lx, i, "<")) {
		for (i++; i < lx->n && lx->t[i].kind != T_EOD && !tok_is(lx, i, ">"); i++) {
			if (n + lx->t[i].len >= sizeof(name))
				return;
			memcpy(name + n, tok_text(lx, i), lx->t[i].len);
			n += lx->t[i].len;
		}
	}
	if (n < 2 || name[n - 2] != '.' || name[n - 1] != 'c')
		return;
	name[n] = '\0';
	p = strrchr(name, '/');
	base = p ? p + 1 : name;
	sset_add(&ix->included, base, strlen(base));
}

/* the first pass over file f: its names, its macros' pastes and edges */
static void first_pass(struct ix *ix, uint32_t f)
{
	struct lexed *lx = &ix->lx;
	size_t i, edges;
	struct macro m;
	uint32_t id, mask;

	read_one(ix, f);
	ix->gen++;
	ix->nlocal = 0;
	ix->wstart[f] = ix->words.n;
	file_words(lx, add_word, ix);
	flush(ix);
	for (i = 0; i < lx->n; i++) {
		if (lx->t[i].kind != T_HASH)
			continue;
		included_c(ix, i);
		if (macro_read(lx, i, &m))
			continue;
		id = intern(ix, tok_text(lx, m.name), lx->t[m.name].len);
		mask = macro_direct_mask(lx, &m);
		if (mask) {
			vec_push(&ix->direct, f);
			vec_push(&ix->direct, id);
			vec_push(&ix->direct, mask);
			ix->own[f] = 1;
		}
		macro_literal_operands(lx, &m, add_frag, ix);
		edges = ix->nedges;
		if (m.funclike)
			macro_edges(lx, &m, add_edge, ix);
		ix->own[f] |= ix->nedges > edges;
	}
}

/* the paste macros to a fixpoint: a parameter passed into a pasted position pastes */
static void fixpoint(struct ix *ix)
{
	size_t i;
	int more;

	do {
		more = 0;
		for (i = 0; i < ix->nedges; i++) {
			const struct pass_edge *e = &ix->edges[i];
			uint32_t at = e->spread ? PASTE_ALL_FROM(e->arg) : 1u << e->arg;
			uint32_t *m = &ix->mask[e->macro];

			if (!ix->global[e->file] || !(ix->mask[e->callee] & at) ||
			    (*m | e->pmask) == *m)
				continue;
			*m |= e->pmask;
			more = 1;
		}
	} while (more);
}

static uint32_t mask_of(void *ctx, const char *s, size_t len)
{
	struct ix *ix = ctx;
	struct sname *e = sset_find(&ix->names, s, len);

	return e ? ix->mask[e->id] : 0;
}

/*
 * Whose macros reach other files: a header's, and a .c file's that some
 * file includes (by its name: "#include "foo.c"" anywhere makes every
 * foo.c global). Any other .c file's macros are its own: a tool's
 * "#define BIT(name) (1ULL << KPF_##name)" would make every BIT(i) of the
 * kernel a paste.
 */
static void scopes(struct ix *ix)
{
	const char *p, *base;
	uint32_t f;
	size_t i;

	for (f = 0; f < ix->nfiles; f++) {
		p = ix->files[f] + strlen(ix->files[f]);
		base = strrchr(ix->files[f], '/');
		base = base ? base + 1 : ix->files[f];
		ix->global[f] = p - ix->files[f] < 2 || strcmp(p - 2, ".c") ||
				sset_find(&ix->included, base, strlen(base));
	}
	for (i = 0; i + 2 < ix->direct.n; i += 3)
		if (ix->global[ix->direct.p[i]])
			ix->mask[ix->direct.p[i + 1]] |= ix->direct.p[i + 2];
}

/* the second pass: the fragments of the invocations of paste macros in file f */
static void second_pass(struct ix *ix, uint32_t f)
{
	struct paste_scope ps;
	size_t k;

	for (k = ix->wstart[f]; k < ix->wstart[f + 1]; k++)
		if (ix->mask[ix->words.p[k]])
			break;
	if (k == ix->wstart[f + 1] && (ix->global[f] || !ix->own[f]))
		return;		/* it names no paste macro, and has none of its own */
	read_one(ix, f);
	if (ix->global[f]) {
		invocation_fragments(&ix->lx, mask_of, ix, add_frag, ix);
		return;
	}
	paste_scope_init(&ps, &ix->lx, mask_of, ix);
	invocation_fragments(&ix->lx, paste_scope_mask, &ps, add_frag, ix);
	paste_scope_free(&ps);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Pairs (file, name) inverted: per name, its files ascending without
 * repeats; lists[i] points into one block (*block, to free).
 */
static void invert(const uint32_t *pairs, size_t npairs, size_t nnames,
		   uint32_t ***lists, uint32_t **counts, uint32_t **block)
{
	size_t i, off = 0;
	uint32_t *fill, n, k, o;

	*counts = xcalloc(nnames + 1, sizeof(**counts));
	*lists = xcalloc(nnames + 1, sizeof(**lists));
	*block = xmalloc((npairs + 1) * sizeof(**block));
	fill = xcalloc(nnames + 1, sizeof(*fill));
	for (i = 0; i < npairs; i++)
		(*counts)[pairs[2 * i + 1]]++;
	for (i = 0; i < nnames; i++) {
		(*lists)[i] = *block + off;
		off += (*counts)[i];
	}
	for (i = 0; i < npairs; i++)
		(*lists)[pairs[2 * i + 1]][fill[pairs[2 * i + 1]]++] = pairs[2 * i];
	for (i = 0; i < nnames; i++) {
		n = (*counts)[i];
		qsort((*lists)[i], n, sizeof(uint32_t), cmp_u32);
		for (k = o = 0; k < n; k++)
			if (!o || (*lists)[i][k] != (*lists)[i][o - 1])
				(*lists)[i][o++] = (*lists)[i][k];
		(*counts)[i] = o;
	}
	free(fill);
}

/* the files' name lists inverted: per name, the files naming it (ascending) */
static void invert_words(const struct ix *ix, uint32_t ***lists, uint32_t **counts,
			 uint32_t **block)
{
	size_t nnames = ix->names.n, i, off = 0;
	uint32_t f, *fill;

	*counts = xcalloc(nnames + 1, sizeof(**counts));
	*lists = xcalloc(nnames + 1, sizeof(**lists));
	*block = xmalloc((ix->words.n + 1) * sizeof(**block));
	fill = xcalloc(nnames + 1, sizeof(*fill));
	for (i = 0; i < ix->words.n; i++)
		(*counts)[ix->words.p[i]]++;
	for (i = 0; i < nnames; i++) {
		(*lists)[i] = *block + off;
		off += (*counts)[i];
	}
	for (f = 0; f < ix->nfiles; f++)
		for (i = ix->wstart[f]; i < ix->wstart[f + 1]; i++)
			(*lists)[ix->words.p[i]][fill[ix->words.p[i]]++] = f;
	free(fill);
}

static size_t count_named(const struct index_out *io)
{
	size_t i, n = 0;

	for (i = 0; i < io->names->n; i++)
		n += io->nnamed[i] > 0;
	return n;
}

/* LIST's paths, one a line (empty lines skipped) */
static void read_list(struct ix *ix, const char *list)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len, cap = 0, n = 0;

	if (read_file(list, &buf, &len, &cap))
		die(ID_BAD_INPUT, "cannot read %s: %s", list, strerror(errno));
	if (memchr(buf, '\0', len))
		die(ID_BAD_INPUT, "%s: a NUL byte in a list of paths", list);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t l = strlen(line);

		if (l && line[l - 1] == '\r')
			line[--l] = '\0';
		if (!l)
			continue;
		if (n == ix->nfiles) {
			n = n ? n * 2 : 1024;
			ix->files = xrealloc(ix->files, n * sizeof(*ix->files));
		}
		if (ix->nfiles >= UINT32_MAX - 1)
			die(ID_BAD_INPUT, "%s: too many files", list);
		ix->files[ix->nfiles++] = xstrdup(line);
	}
	free(buf);
}

static void ix_free(struct ix *ix)
{
	uint32_t i;

	for (i = 0; i < ix->nfiles; i++)
		free(ix->files[i]);
	free(ix->files);
	free(ix->stamp);
	free(ix->fstamp);
	free(ix->mask);
	free(ix->keyword);
	free(ix->words.p);
	free(ix->wstart);
	free(ix->frags.p);
	free(ix->edges);
	free(ix->local);
	free(ix->direct.p);
	free(ix->global);
	free(ix->own);
	sset_free(&ix->included);
	lexed_free(&ix->lx);
	sset_free(&ix->names);
}

int cmd_index(const char *srcdir, const char *list, const char *out)
{
	struct ix ix = { .srcdir = srcdir };
	struct index_out io;
	uint32_t f, *wblock, *fblock;
	size_t size;

	sset_init(&ix.names);
	sset_init(&ix.included);
	ix.local = xcalloc(1u << LOCAL_BITS, sizeof(*ix.local));
	read_list(&ix, list);
	ix.wstart = xmalloc((ix.nfiles + 1) * sizeof(*ix.wstart));
	ix.global = xcalloc(ix.nfiles + 1, 1);
	ix.own = xcalloc(ix.nfiles + 1, 1);
	for (f = 0; f < ix.nfiles; f++)
		first_pass(&ix, f);
	ix.wstart[ix.nfiles] = ix.words.n;
	scopes(&ix);
	fixpoint(&ix);
	for (f = 0; f < ix.nfiles; f++)
		second_pass(&ix, f);
	memset(&io, 0, sizeof(io));
	io.files = (const char *const *)ix.files;
	io.nfiles = ix.nfiles;
	io.names = &ix.names;
	io.mask = ix.mask;
	invert_words(&ix, &io.named, &io.nnamed, &wblock);
	invert(ix.frags.p, ix.frags.n / 2, ix.names.n, &io.frag, &io.nfrag, &fblock);
	size = store_write(out, &io);
	printf("%u files, %zu identifiers, %zu bytes\n", ix.nfiles, count_named(&io), size);
	free(io.named);
	free(io.nnamed);
	free(io.frag);
	free(io.nfrag);
	free(wblock);
	free(fblock);
	ix_free(&ix);
	return ID_OK;
}
