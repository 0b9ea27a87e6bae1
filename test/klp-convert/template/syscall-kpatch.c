// SPDX-License-Identifier: GPL-2.0
/* The same syscalls with KPATCH_SYSCALL_DEFINE*: same functions, same code. */
#include "kpatch-syscall.h"

KPATCH_SYSCALL_DEFINE0(kp_zero)
{
	return 0;
}

KPATCH_SYSCALL_DEFINE3(kp_three, int, a, unsigned long, b, const char __user *, c)
{
	return a + b + (c != NULL);
}

KPATCH_SYSCALL_DEFINE6(kp_six, int, a, int, b, int, c, int, d, int, e, long, f)
{
	return a + b + c + d + e + f;
}
