#include "kernel-stubs.h"

/*
 * like SYSCALL_DEFINE0: __x64_sys_getnum is an alias of __do_sys_getnum,
 * one body with two names (one local, one global) in the running kernel
 */
static long __do_sys_getnum(void)
{
	return 41;
}

long __x64_sys_getnum(void) __attribute__((alias("__do_sys_getnum")));
