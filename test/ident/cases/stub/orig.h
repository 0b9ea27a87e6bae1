/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

/* a prototype, and its stub under #else: the same name twice */
#ifdef CONFIG_TRACE
void trace_update(int *map, int len);
#else
static inline void trace_update(int *map, int len) { }
#endif

#endif
