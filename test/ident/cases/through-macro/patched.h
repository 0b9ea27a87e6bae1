/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

static inline void hook_fn(int *p)
{
	*p = 2;
}

/* the hook, called through a macro */
#define CALL_HOOK(x) hook_fn(&(x))

#endif
