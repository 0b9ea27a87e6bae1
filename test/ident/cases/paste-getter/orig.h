/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

extern int counter_value;

static inline int get_counter(void)
{
	return counter_value;
}

#endif
