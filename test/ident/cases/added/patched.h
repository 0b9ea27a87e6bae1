/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

int old_api(int x);

#define NEW_LIMIT	64

static inline bool new_api_hold(int *ref)
{
	return ++*ref < NEW_LIMIT;
}

#endif
