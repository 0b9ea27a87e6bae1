/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading and writing an integer in the byte order of the object it lives
 * in. Section contents stay in file order in the model (only the symbol and
 * relocation tables are translated by libelf); every place that interprets
 * data bytes — records, immediates, displacements, DWARF headers — goes
 * through these two, so the same code serves little- and big-endian
 * objects whatever the host is.
 */
#ifndef KP_TARGET_ORDER_H
#define KP_TARGET_ORDER_H

#include <stdbool.h>
#include <stdint.h>

/* The @size-byte (1..8) unsigned integer at @p. */
static inline uint64_t target_get(bool big_endian, const void *p,
				  unsigned int size)
{
	const unsigned char *b = p;
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)b[big_endian ? size - 1 - i : i] << (8 * i);
	return v;
}

/* Store the low @size bytes of @v at @p. */
static inline void target_put(bool big_endian, void *p, unsigned int size,
			      uint64_t v)
{
	unsigned char *b = p;
	unsigned int i;

	for (i = 0; i < size; i++)
		b[big_endian ? size - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

#endif
