/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

struct stats {
	unsigned long packets;
};

/* unchanged, but it declares with the changed type names we cannot see */
DECLARE_PER_CPU(struct stats, cpu_stats);

#endif
