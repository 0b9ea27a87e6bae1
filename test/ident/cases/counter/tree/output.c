// SPDX-License-Identifier: GPL-2.0
/* names nothing the hunk changes; its min_t()'s __UNIQUE_ID numbers shift */
#include "include/hdr.h"

unsigned int output_room(unsigned int mtu)
{
	return mtu_headroom(mtu) + min_t(unsigned int, mtu, 64);
}
