// SPDX-License-Identifier: GPL-2.0
#include "include/hdr.h"

unsigned int route_mtu(unsigned int mtu)
{
	return mtu_forward(mtu);
}
