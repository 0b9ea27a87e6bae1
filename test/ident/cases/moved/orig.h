/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

static inline int first(void)
{
	return 1;
}

static inline int second(void)
{
	return 2;
}

#endif
