/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

#include <linux/types.h>

int api(int x);

#endif
