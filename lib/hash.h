/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intrusive chained hash table that grows with its content, so that every
 * lookup in the ELF model stays O(1) however many sections an object has.
 * Nodes keep their 32-bit key so the table can rehash without callbacks.
 */
#ifndef KP_HASH_H
#define KP_HASH_H

#include <stddef.h>
#include <stdint.h>
#include "list.h"

struct hnode {
	struct hnode *next;
	uint32_t key;
};

struct htable {
	struct hnode **buckets;
	unsigned int bits;
	size_t count;
};

void htable_init(struct htable *t);
void htable_free(struct htable *t);
void htable_add(struct htable *t, struct hnode *n, uint32_t key);
void htable_del(struct htable *t, struct hnode *n);

static inline struct hnode *htable_first(const struct htable *t, uint32_t key)
{
	struct hnode *n;

	if (!t->buckets)
		return NULL;
	for (n = t->buckets[key & ((1u << t->bits) - 1)]; n; n = n->next)
		if (n->key == key)
			return n;
	return NULL;
}

static inline struct hnode *htable_next(const struct hnode *n, uint32_t key)
{
	for (n = n->next; n; n = n->next)
		if (n->key == key)
			return (struct hnode *)n;
	return NULL;
}

/* Iterate over the entries whose key equals @key (callers compare fully). */
#define htable_for_each(t, pos, member, k)				      \
	for (struct hnode *__n = htable_first(t, k);			      \
	     __n && ((pos = container_of(__n, __typeof__(*pos), member)), 1); \
	     __n = htable_next(__n, k))

uint32_t hash_str(const char *s);
uint32_t hash_u64(uint64_t v);

#endif
