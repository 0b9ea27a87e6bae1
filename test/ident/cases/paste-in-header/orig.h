/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

static inline int op_read(void)
{
	return 1;
}

static inline int op_write(void)
{
	return 2;
}

/* the header's own paste: call_op(read) calls op_read */
#define call_op(name) op_##name()

static inline int read_twice(void)
{
	return call_op(read) + call_op(read);
}

#endif
