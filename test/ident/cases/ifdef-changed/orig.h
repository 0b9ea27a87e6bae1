/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

#ifdef CONFIG_FAST
static inline int speed(void)
{
	return 2;
}
#else
static inline int speed(void)
{
	return 1;
}
#endif

#endif
