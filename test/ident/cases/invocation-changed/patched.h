/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

/* a macro that defines names we cannot see */
DECLARE_PER_CPU(int, hits);

PAGEFLAG(Locked, locked, PF_NO_TAIL)
	__CLEARPAGEFLAG(Locked, locked, PF_ANY)

int api(int x);

#endif
