// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include "hash.h"
#include "util.h"

void htable_init(struct htable *t)
{
	t->bits = 6;
	t->count = 0;
	t->buckets = xcalloc(1u << t->bits, sizeof(*t->buckets));
}

void htable_free(struct htable *t)
{
	free(t->buckets);
	t->buckets = NULL;
	t->count = 0;
}

static void htable_grow(struct htable *t)
{
	unsigned int bits = t->bits + 1, i;
	struct hnode **nb = xcalloc(1u << bits, sizeof(*nb));

	for (i = 0; i < (1u << t->bits); i++) {
		struct hnode *n = t->buckets[i], *next;

		for (; n; n = next) {
			unsigned int b = n->key & ((1u << bits) - 1);

			next = n->next;
			n->next = nb[b];
			nb[b] = n;
		}
	}
	free(t->buckets);
	t->buckets = nb;
	t->bits = bits;
}

void htable_add(struct htable *t, struct hnode *n, uint32_t key)
{
	unsigned int b;

	if (!t->buckets)
		htable_init(t);
	if (t->count >= (2u << t->bits))
		htable_grow(t);
	n->key = key;
	b = key & ((1u << t->bits) - 1);
	n->next = t->buckets[b];
	t->buckets[b] = n;
	t->count++;
}

void htable_del(struct htable *t, struct hnode *n)
{
	struct hnode **pp;

	if (!t->buckets)
		return;
	for (pp = &t->buckets[n->key & ((1u << t->bits) - 1)]; *pp;
	     pp = &(*pp)->next) {
		if (*pp == n) {
			*pp = n->next;
			n->next = NULL;
			t->count--;
			return;
		}
	}
}

/* FNV-1a: cheap and good enough for symbol names. */
uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

uint32_t hash_u64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	v *= 0xc4ceb9fe1a85ec53ULL;
	v ^= v >> 33;
	return (uint32_t)v;
}
