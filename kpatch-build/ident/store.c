// SPDX-License-Identifier: GPL-2.0
/*
 * The index file: made to be mapped and asked about a few names, not read
 * whole (a query reads a few pages of a file of tens of MB).
 *
 *   header      magic, byte order, counts, each section's offset
 *   files       a u32 per file: its path's offset in paths
 *   paths       NUL-terminated
 *   3 tables    the identifiers (each with the files naming it), the paste
 *               fragments (each with the files that have it), the paste
 *               macros (each with its pasted positions, macro.c); each
 *               sorted by name, front-coded in blocks of BLOCK entries:
 *               per entry a varint of the bytes it shares with the one
 *               before (0 at a block's start), the rest of its name and a
 *               NUL, then its value: a file list (a count, then ascending
 *               file numbers as deltas) or a mask, LEB128 varints. A block
 *               index (u32 offsets) is searched by halves, then one block
 *               is read. A kernel tree's 4 million names, long register
 *               names sharing most of their bytes, take a third of their
 *               size so.
 *
 * Every offset read is checked against the file: a corrupt index is bad
 * input (exit 2, one line), never a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ident.h"

#define MAGIC		"KPIDENT2"
#define ENDIAN		0x01020304u
#define BLOCK		16

struct itab {
	uint64_t count, nblocks;
	uint64_t off_index, off_data, len_data;
};

struct ihdr {
	char magic[8];
	uint32_t endian;
	uint32_t nfiles;
	uint64_t off_files;
	uint64_t off_paths, len_paths;
	struct itab tab[3];
	uint64_t size;
};

/* a growing byte buffer */
struct buf {
	uint8_t *p;
	size_t n, cap;
};

static void buf_put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 4096;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void put_varint(struct buf *b, uint32_t v)
{
	uint8_t out[5];
	size_t n = 0;

	do {
		out[n] = v & 0x7f;
		v >>= 7;
		out[n++] |= v ? 0x80 : 0;
	} while (v);
	buf_put(b, out, n);
}

static uint32_t offset32(size_t off)
{
	if (off >= UINT32_MAX)
		die(ID_BAD_INPUT, "an index table over 4 GB");
	return off;
}

static void put_list(struct buf *b, const uint32_t *files, uint32_t n)
{
	uint32_t i;

	put_varint(b, n);
	for (i = 0; i < n; i++)
		put_varint(b, i ? files[i] - files[i - 1] : files[0]);
}

/* a name with its first 8 bytes as a number: most comparisons end there */
struct skey {
	uint64_t key;
	const struct sname *e;
};

static int cmp_skey(const void *a, const void *b)
{
	const struct skey *x = a, *y = b;
	size_t n;
	int r;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	/* (no NUL in a name: equal keys and one of them short are one string) */
	if (x->e->len > 8 && y->e->len > 8) {
		n = (x->e->len < y->e->len ? x->e->len : y->e->len) - 8;
		if ((r = memcmp(x->e->s + 8, y->e->s + 8, n)))
			return r;
	}
	return (x->e->len > y->e->len) - (x->e->len < y->e->len);
}

/* the names of io's tables, sorted */
static struct skey *sorted_names(const struct index_out *io, size_t *n)
{
	struct skey *k = xmalloc((io->names->n + 1) * sizeof(*k));
	size_t i, j;
	int b;

	for (i = *n = 0; i < io->names->n; i++) {
		const struct sname *e = io->names->by_id[i];

		if (!io->nnamed[i] && !io->nfrag[i] && !io->mask[i])
			continue;
		k[*n].e = e;
		k[*n].key = 0;
		for (j = 0, b = 56; j < 8; j++, b -= 8)
			k[*n].key |= (uint64_t)(j < e->len ? (uint8_t)e->s[j] : 0) << b;
		(*n)++;
	}
	qsort(k, *n, sizeof(*k), cmp_skey);
	return k;
}

static int in_table(const struct index_out *io, int tab, uint32_t id)
{
	return tab == TAB_NAMES ? io->nnamed[id] > 0 : tab == TAB_FRAGS ? io->nfrag[id] > 0 :
	       io->mask[id] != 0;
}

/* table tab of io, front-coded in blocks: its index and data */
static void put_table(const struct index_out *io, const struct skey *k, size_t n, int tab,
		      struct buf *index, struct buf *data, struct itab *it)
{
	const struct sname *prev = NULL, *e;
	size_t i, lcp;
	uint32_t off;

	for (i = 0; i < n; i++) {
		e = k[i].e;
		if (!in_table(io, tab, e->id))
			continue;
		lcp = 0;
		if (it->count % BLOCK == 0) {
			off = offset32(data->n);
			buf_put(index, &off, sizeof(off));
		} else {
			while (lcp < prev->len && lcp < e->len && prev->s[lcp] == e->s[lcp])
				lcp++;
		}
		put_varint(data, lcp);
		buf_put(data, e->s + lcp, e->len - lcp + 1);
		if (tab == TAB_NAMES)
			put_list(data, io->named[e->id], io->nnamed[e->id]);
		else if (tab == TAB_FRAGS)
			put_list(data, io->frag[e->id], io->nfrag[e->id]);
		else
			put_varint(data, io->mask[e->id]);
		it->count++;
		prev = e;
	}
	it->nblocks = (it->count + BLOCK - 1) / BLOCK;
}

/* n bytes at p to f, at offset *pos (padded to 8 first when align) */
static uint64_t out(FILE *f, const void *p, size_t n, uint64_t *pos, int align)
{
	static const uint8_t zero[8];
	size_t pad = align ? (8 - *pos % 8) % 8 : 0;
	uint64_t at;

	if (pad && fwrite(zero, 1, pad, f) != pad)
		return UINT64_MAX;
	at = *pos + pad;
	if (n && fwrite(p, 1, n, f) != n)
		return UINT64_MAX;
	*pos = at + n;
	return at;
}

/* the paths and their offsets, then the three tables, after a header written last */
static int write_sections(FILE *f, const struct index_out *io, struct ihdr *h)
{
	struct buf paths = { 0 }, index = { 0 }, data = { 0 };
	uint32_t *offs = xmalloc((io->nfiles + 1) * sizeof(*offs)), i;
	uint64_t pos = 0;
	struct skey *k;
	size_t n;
	int t, bad = 0;

	for (i = 0; i < io->nfiles; i++) {
		offs[i] = offset32(paths.n);
		buf_put(&paths, io->files[i], strlen(io->files[i]) + 1);
	}
	bad |= out(f, h, sizeof(*h), &pos, 0) == UINT64_MAX;
	bad |= (h->off_files = out(f, offs, io->nfiles * sizeof(*offs), &pos, 1)) == UINT64_MAX;
	h->len_paths = paths.n;
	bad |= (h->off_paths = out(f, paths.p, paths.n, &pos, 0)) == UINT64_MAX;
	k = sorted_names(io, &n);
	for (t = 0; t < 3; t++) {
		index.n = data.n = 0;
		put_table(io, k, n, t, &index, &data, &h->tab[t]);
		bad |= (h->tab[t].off_index = out(f, index.p, index.n, &pos, 1)) == UINT64_MAX;
		h->tab[t].len_data = data.n;
		bad |= (h->tab[t].off_data = out(f, data.p, data.n, &pos, 0)) == UINT64_MAX;
	}
	h->size = pos;
	free(k);
	free(offs);
	free(paths.p);
	free(index.p);
	free(data.p);
	return bad ? -1 : 0;
}

/* the index of io written to OUT (OUT.tmp, renamed): its size in bytes */
size_t store_write(const char *out, const struct index_out *io)
{
	char *tmp = xasprintf("%s.tmp", out);
	FILE *f = fopen(tmp, "wb");
	struct ihdr h;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, MAGIC, 8);
	h.endian = ENDIAN;
	h.nfiles = io->nfiles;
	if (!f || write_sections(f, io, &h) || fseek(f, 0, SEEK_SET) ||
	    fwrite(&h, sizeof(h), 1, f) != 1 || fclose(f))
		die(ID_BAD_INPUT, "cannot write %s: %s", tmp, strerror(errno));
	if (rename(tmp, out))
		die(ID_BAD_INPUT, "cannot rename %s to %s: %s", tmp, out, strerror(errno));
	free(tmp);
	return h.size;
}

static void __attribute__((noreturn)) corrupt(const char *path, const char *why)
{
	die(ID_BAD_INPUT, "%s: not a kpatch-ident index, or a corrupt one (%s)", path, why);
}

/* [off, off + len) inside the file, aligned to 4 bytes when align */
static int inside(const struct index_map *im, uint64_t off, uint64_t len, int align)
{
	return off <= im->size && len <= im->size - off && (!align || off % 4 == 0);
}

static void check_table(struct index_map *im, const struct itab *it, int t)
{
	if (it->nblocks != (it->count + BLOCK - 1) / BLOCK || it->nblocks > UINT32_MAX ||
	    !inside(im, it->off_index, it->nblocks * 4, 1) ||
	    !inside(im, it->off_data, it->len_data, 0))
		corrupt(im->path, "a table out of the file");
	im->tab[t].index = (const uint32_t *)(im->base + it->off_index);
	im->tab[t].nblocks = it->nblocks;
	im->tab[t].count = it->count;
	im->tab[t].data = im->base + it->off_data;
	im->tab[t].len = it->len_data;
}

static void check_header(struct index_map *im)
{
	struct ihdr h;
	int t;

	memcpy(&h, im->base, sizeof(h));
	if (memcmp(h.magic, MAGIC, 8) || h.endian != ENDIAN)
		corrupt(im->path, "no magic");
	if (h.size != im->size)
		corrupt(im->path, "truncated");
	if (!inside(im, h.off_files, (uint64_t)h.nfiles * 4, 1) ||
	    !inside(im, h.off_paths, h.len_paths, 0) || (h.nfiles && !h.len_paths))
		corrupt(im->path, "a section out of the file");
	for (t = 0; t < 3; t++)
		check_table(im, &h.tab[t], t);
	im->nfiles = h.nfiles;
	im->file_off = (const uint32_t *)(im->base + h.off_files);
	im->paths = (const char *)im->base + h.off_paths;
	im->paths_len = h.len_paths;
	if (im->paths_len && im->paths[im->paths_len - 1])
		corrupt(im->path, "paths not terminated");
}

/* the index at path mapped and its header checked: exit 2 if it cannot be */
void store_open(struct index_map *im, const char *path)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	void *p;

	memset(im, 0, sizeof(*im));
	im->path = path;
	if (fd < 0 || fstat(fd, &st))
		die(ID_BAD_INPUT, "cannot read %s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		corrupt(path, "not a regular file");
	im->size = st.st_size;
	if (im->size < sizeof(struct ihdr))
		corrupt(path, "too short");
	p = mmap(NULL, im->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		die(ID_BAD_INPUT, "cannot map %s: %s", path, strerror(errno));
	im->base = p;
	check_header(im);
}

void store_close(struct index_map *im)
{
	if (im->base)
		munmap((void *)im->base, im->size);
	memset(im, 0, sizeof(*im));
}

const char *store_file(const struct index_map *im, uint32_t i)
{
	if (i >= im->nfiles || im->file_off[i] >= im->paths_len)
		corrupt(im->path, "a path out of the file");
	return im->paths + im->file_off[i];
}

static uint32_t get_varint(const struct index_map *im, int t, size_t *pos)
{
	const uint8_t *d = im->tab[t].data;
	uint32_t v = 0;
	int shift;

	for (shift = 0; shift < 35; shift += 7) {
		if (*pos >= im->tab[t].len)
			corrupt(im->path, "an entry out of its table");
		v |= (uint32_t)(d[*pos] & 0x7f) << shift;
		if (!(d[(*pos)++] & 0x80))
			return v;
	}
	corrupt(im->path, "a bad number");
}

/* the NUL-terminated bytes at *pos of table t (their length in *len), *pos past them */
static const char *get_bytes(const struct index_map *im, int t, size_t *pos, size_t *len)
{
	const char *s = (const char *)im->tab[t].data + *pos, *nul;

	if (*pos >= im->tab[t].len || !(nul = memchr(s, '\0', im->tab[t].len - *pos)))
		corrupt(im->path, "a name out of its table");
	*len = nul - s;
	*pos += *len + 1;
	return s;
}

static int cmp_name(const char *a, size_t alen, const char *b, size_t blen)
{
	int r = memcmp(a, b, alen < blen ? alen : blen);

	return r ? r : (alen > blen) - (alen < blen);
}

/* the first name of block b of table t (stored whole) */
static const char *block_first(const struct index_map *im, int t, uint64_t b, size_t *len)
{
	size_t pos = im->tab[t].index[b];

	if (get_varint(im, t, &pos))
		corrupt(im->path, "a block that does not start with a whole name");
	return get_bytes(im, t, &pos, len);
}

/* past the value at *pos of table t */
static void skip_value(const struct index_map *im, int t, size_t *pos)
{
	uint32_t n = get_varint(im, t, pos);

	if (t == TAB_PASTE)
		return;
	if (n > im->tab[t].len - *pos)
		corrupt(im->path, "a file list too long");
	while (n--)
		get_varint(im, t, pos);
}

/* block b of table t read for s: 1 and its value's position, or 0 */
static int block_find(const struct index_map *im, int t, uint64_t b, const char *s, size_t len,
		      size_t *val)
{
	uint64_t k, n = im->tab[t].count - b * BLOCK;
	size_t pos = im->tab[t].index[b], lcp, l, cur = 0, cap = 0;
	const char *suffix;
	char *name = NULL;
	int r = 0, c;

	for (k = 0; k < n && k < BLOCK; k++) {
		lcp = get_varint(im, t, &pos);
		if (lcp > cur)
			corrupt(im->path, "a name sharing more than the one before has");
		suffix = get_bytes(im, t, &pos, &l);
		if (lcp + l + 1 > cap)
			name = xrealloc(name, cap = lcp + l + 64);
		memcpy(name + lcp, suffix, l);
		cur = lcp + l;
		c = cmp_name(name, cur, s, len);
		if (c >= 0) {
			r = !c;
			*val = pos;
			break;
		}
		skip_value(im, t, &pos);
	}
	free(name);
	return r;
}

/* the value of s in table t: 1 and its position (store_postings, store_mask), or 0 */
int store_lookup(const struct index_map *im, int t, const char *s, size_t len, size_t *val)
{
	uint64_t lo = 0, hi = im->tab[t].nblocks, mid;
	const char *first;
	size_t flen;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (im->tab[t].index[mid] >= im->tab[t].len)
			corrupt(im->path, "a block out of its table");
		first = block_first(im, t, mid, &flen);
		if (cmp_name(first, flen, s, len) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && block_find(im, t, lo - 1, s, len, val);
}

uint32_t store_mask(const struct index_map *im, size_t pos)
{
	return get_varint(im, TAB_PASTE, &pos);
}

/* the file list at pos of table t: its length, *files allocated */
size_t store_postings(const struct index_map *im, int t, size_t pos, uint32_t **files)
{
	size_t n, i;
	uint32_t f = 0;

	n = get_varint(im, t, &pos);
	if (n > im->tab[t].len - pos || n > im->nfiles)
		corrupt(im->path, "a file list too long");
	*files = xmalloc((n + 1) * sizeof(**files));
	for (i = 0; i < n; i++) {
		f = i ? f + get_varint(im, t, &pos) : get_varint(im, t, &pos);
		if (f >= im->nfiles)
			corrupt(im->path, "a file number out of range");
		(*files)[i] = f;
	}
	return n;
}
