/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

static inline int scale(int x)
{
	return x * 3;
}

/* wrappers: each changes with what it calls */
static inline int scale_twice(int x)
{
	return scale(scale(x));
}

#define SCALE_ALL(a, b) (scale_twice(a) + scale_twice(b))

static inline int untouched(int x)
{
	return x;
}

#endif
