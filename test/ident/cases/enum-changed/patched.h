/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

enum color {
	RED,
	YELLOW,
	GREEN,
	BLUE,
};

enum shape { ROUND, SQUARE };

#endif
