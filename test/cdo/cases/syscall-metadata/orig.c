#include "kernel-stubs.h"

/*
 * like SYSCALL_DEFINE with CONFIG_FTRACE_SYSCALLS (Debian's kernels): each
 * syscall's metadata, and a pointer to it in __syscalls_metadata, which only
 * vmlinux's table is read from (the syscall trace events, at boot)
 */
struct syscall_metadata {
	const char *name;
	int nb_args;
};

static struct syscall_metadata __syscall_meta__getnum = { "sys_getnum", 0 };
static struct syscall_metadata __attribute__((used, section("__syscalls_metadata")))
	*__p_syscall_meta__getnum = &__syscall_meta__getnum;

long __x64_sys_getnum(void)
{
	return 41;
}
