// SPDX-License-Identifier: GPL-2.0
/*
 * A set of strings: each one copied once into an arena and numbered in order
 * of insertion (the index numbers its identifiers so; the tables of
 * changed.c are sets of names). Strings are counted, not NUL-terminated, in
 * the lexer's buffer; the copies are NUL-terminated.
 *
 * Open addressing over (hash, entry) pairs rather than lib/hash.h's chains:
 * the index looks up tens of millions of names in a table of millions, and
 * a probe here is one cache line where a chain is a node each.
 */
#include <stdlib.h>
#include <string.h>
#include "ident.h"

#define ARENA_BLOCK	(1u << 20)

/*
 * A hash of a counted string, eight bytes at a time (lib/hash.c's hash_str
 * wants a NUL, and goes a byte at a time: the index hashes every identifier
 * of a tree). In memory only: nothing on disk depends on it.
 */
uint32_t hash_mem(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	while (len >= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
		s += 8;
		len -= 8;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 29;
	return (uint32_t)h;
}

void sset_init(struct sset *ss)
{
	memset(ss, 0, sizeof(*ss));
	ss->bits = 8;
	ss->slot = xcalloc((size_t)1 << ss->bits, sizeof(*ss->slot));
}

void sset_free(struct sset *ss)
{
	size_t i;

	for (i = 0; i < ss->narena; i++)
		free(ss->arena[i]);
	free(ss->arena);
	free(ss->by_id);
	free(ss->slot);
	memset(ss, 0, sizeof(*ss));
}

struct sname *sset_find(const struct sset *ss, const char *s, size_t len)
{
	return sset_find_h(ss, s, len, hash_mem(s, len));
}

/* (key: hash_mem(s, len), when the caller has it) */
struct sname *sset_find_h(const struct sset *ss, const char *s, size_t len, uint32_t key)
{
	size_t mask = ((size_t)1 << ss->bits) - 1, i = key & mask;
	const struct sslot *sl;

	if (!ss->slot)
		return NULL;
	for (; (sl = &ss->slot[i])->e; i = (i + 1) & mask)
		if (sl->key == key && sl->e->len == len && !memcmp(sl->e->s, s, len))
			return sl->e;
	return NULL;
}

static void slot_put(struct sslot *slot, size_t mask, uint32_t key, struct sname *e)
{
	size_t i = key & mask;

	while (slot[i].e)
		i = (i + 1) & mask;
	slot[i].key = key;
	slot[i].e = e;
}

/* room for n more names without growing (the table twice as big at two thirds) */
void sset_reserve(struct sset *ss, size_t n)
{
	size_t old = (size_t)1 << ss->bits, size = old, i;
	struct sslot *slot;

	while (3 * (ss->n + n + 1) >= 2 * size)
		size *= 2;
	if (size == old)
		return;
	slot = xcalloc(size, sizeof(*slot));
	for (i = 0; i < old; i++)
		if (ss->slot[i].e)
			slot_put(slot, size - 1, ss->slot[i].key, ss->slot[i].e);
	free(ss->slot);
	ss->slot = slot;
	for (ss->bits = 0; ((size_t)1 << ss->bits) < size; ss->bits++)
		;
}

/*
 * The entries of n names (keys: their hashes), added if new: the same as n
 * sset_add_h() but for the memory's latency, the table's lines fetched for
 * all of them first, then their entries (the index's names, a file's at a
 * time, in a table of millions).
 */
void sset_add_many(struct sset *ss, size_t n, const char *const *s, const uint32_t *len,
		   const uint32_t *key, struct sname **out)
{
	size_t mask, i, j;

	sset_reserve(ss, n);
	mask = ((size_t)1 << ss->bits) - 1;
	for (i = 0; i < n; i++)
		__builtin_prefetch(&ss->slot[key[i] & mask]);
	for (i = 0; i < n; i++) {
		j = key[i] & mask;
		while (ss->slot[j].e && ss->slot[j].key != key[i])
			j = (j + 1) & mask;
		if (ss->slot[j].e)
			__builtin_prefetch(ss->slot[j].e);
	}
	for (i = 0; i < n; i++)
		out[i] = sset_add_h(ss, s[i], len[i], key[i]);
}

/* n bytes of the arena, aligned for a struct (blocks of ARENA_BLOCK, or one of its own) */
static void *arena_alloc(struct sset *ss, size_t n)
{
	void *p;

	ss->aused = (ss->aused + 7) & ~(size_t)7;
	if (n > ss->asize - ss->aused || ss->aused > ss->asize) {
		size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;

		ss->arena = xrealloc(ss->arena, (ss->narena + 1) * sizeof(*ss->arena));
		ss->arena[ss->narena++] = xmalloc(size);
		ss->asize = size;
		ss->aused = 0;
	}
	p = ss->arena[ss->narena - 1] + ss->aused;
	ss->aused += n;
	return p;
}

/* the entry of s, added if new */
struct sname *sset_add(struct sset *ss, const char *s, size_t len)
{
	return sset_add_h(ss, s, len, hash_mem(s, len));
}

struct sname *sset_add_h(struct sset *ss, const char *s, size_t len, uint32_t key)
{
	struct sname *e = sset_find_h(ss, s, len, key);
	char *copy;

	if (e)
		return e;
	if (ss->n >= UINT32_MAX - 1)
		die(EXIT_BADINPUT, "more than 4 billion names");
	sset_reserve(ss, 1);
	e = arena_alloc(ss, sizeof(*e) + len + 1);
	memset(e, 0, sizeof(*e));
	copy = (char *)(e + 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	e->s = copy;
	e->len = len;
	e->id = ss->n;
	if (ss->n == ss->cap) {
		ss->cap = ss->cap ? ss->cap * 2 : 256;
		ss->by_id = xrealloc(ss->by_id, ss->cap * sizeof(*ss->by_id));
	}
	ss->by_id[ss->n++] = e;
	slot_put(ss->slot, ((size_t)1 << ss->bits) - 1, key, e);
	return e;
}
