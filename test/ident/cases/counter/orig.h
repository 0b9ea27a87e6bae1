/* SPDX-License-Identifier: GPL-2.0 */
/* a hunk that only drops a min_t(): __COUNTER__ is renumbered in every includer */
#ifndef _MTU_H
#define _MTU_H

#define __PASTE(a, b) a##b
#define __UNIQUE_ID(p) __PASTE(__PASTE(__UNIQUE_ID_, p), __COUNTER__)
#define min_t(t, x, y) ({ t __UNIQUE_ID(a) = (x); t __UNIQUE_ID(b) = (y); \
	__UNIQUE_ID(a) < __UNIQUE_ID(b) ? __UNIQUE_ID(a) : __UNIQUE_ID(b); })

#define MAX_MTU 65535

static inline unsigned int mtu_forward(unsigned int mtu)
{
	return mtu;
}

static inline unsigned int mtu_headroom(unsigned int mtu)
{
	return min_t(unsigned int, mtu, 128);
}

#endif
