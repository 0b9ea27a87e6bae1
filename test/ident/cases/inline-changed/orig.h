/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

struct widget {
	int size;
	int count;
};

/* the value kept in [0, limit] */
static inline int clamp_val(int v, int limit)
{
	if (v < 0)
		return 0;
	return v;
}

static inline int widget_size(const struct widget *w)
{
	return w->size;
}

#endif
