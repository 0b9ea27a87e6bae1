/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

#define HDR_VERSION	3

#if HDR_VERSION > 2
int new_api(void);
#endif

#endif
