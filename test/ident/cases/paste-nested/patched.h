/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

static inline int foo_widget(void)
{
	return 3;
}

#endif
