/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

#define LIMIT(x)	((x) > 10 ? 10 : (x))

static inline int limited(int x)
{
	return LIMIT(x);
}

#endif
