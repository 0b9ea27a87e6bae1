/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

extern int base_count;

static inline int base_get(void)
{
	return base_count;
}

#endif
