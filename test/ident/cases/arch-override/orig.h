/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

/* an arch may define its own: the #ifndef reads a macro, not the function */
#ifndef vcpu_is_preempted
static inline int vcpu_is_preempted(int cpu)
{
	return 0;
}
#endif

/* a function in capitals, with a body: no macro's invocation */
static inline struct inode *SOCK_INODE(struct socket *socket)
{
	return socket->inode;
}

#endif
