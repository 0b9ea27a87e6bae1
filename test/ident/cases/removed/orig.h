/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

void keep_api(void);

static inline void old_prepare(int *p)
{
	*p = 0;
}

#endif
