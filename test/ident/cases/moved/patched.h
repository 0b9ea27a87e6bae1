/* SPDX-License-Identifier: GPL-2.0 */
#  ifndef   _HDR_H	/* the guard, spaced differently */
#define _HDR_H

static inline int second(void)
{
	return 2;
}



static inline int first(void)
{
	return 1;
}

#endif
