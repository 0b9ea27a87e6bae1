/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

#define MAX_ITEMS	32
#define MIN_ITEMS	1

#endif
