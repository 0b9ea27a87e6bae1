// SPDX-License-Identifier: GPL-2.0
/* SYSCALL_DEFINE* as the kernel writes them; syscall-kpatch.c must give the same code. */
#include <linux/syscalls.h>

SYSCALL_DEFINE0(kp_zero)
{
	return 0;
}

SYSCALL_DEFINE3(kp_three, int, a, unsigned long, b, const char __user *, c)
{
	return a + b + (c != NULL);
}

SYSCALL_DEFINE6(kp_six, int, a, int, b, int, c, int, d, int, e, long, f)
{
	return a + b + c + d + e + f;
}
