/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

int old_api(int x);

#endif
