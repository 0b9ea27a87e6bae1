/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal intrusive doubly linked list, kernel style. */
#ifndef KP_LIST_H
#define KP_LIST_H

#include <stddef.h>

struct list_head {
	struct list_head *next, *prev;
};

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	n->prev = h->prev;
	n->next = h;
	h->prev->next = n;
	h->prev = n;
}

static inline void list_del(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->next = n->prev = n;
}

static inline int list_empty(const struct list_head *h)
{
	return h->next == h;
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)

#define list_for_each_entry(pos, head, member)				      \
	for (pos = list_entry((head)->next, __typeof__(*pos), member);	      \
	     &pos->member != (head);					      \
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

#define list_for_each_entry_safe(pos, tmp, head, member)		      \
	for (pos = list_entry((head)->next, __typeof__(*pos), member),	      \
	     tmp = list_entry(pos->member.next, __typeof__(*pos), member);    \
	     &pos->member != (head);					      \
	     pos = tmp,							      \
	     tmp = list_entry(tmp->member.next, __typeof__(*pos), member))

#endif
