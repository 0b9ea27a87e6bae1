#include "kernel-stubs.h"

/*
 * like SYSCALL_DEFINE with CONFIG_FTRACE_SYSCALLS (Debian's kernels): each
 * syscall's metadata, and a pointer to it in __syscalls_metadata, which only
 * vmlinux's table is read from (the syscall trace events, at boot). The
 * patch adds a syscall: its metadata pointer changes the section.
 */
struct syscall_metadata {
	const char *name;
	int nb_args;
};

static struct syscall_metadata __syscall_meta__getnum = { "sys_getnum", 0 };
static struct syscall_metadata __attribute__((used, section("__syscalls_metadata")))
	*__p_syscall_meta__getnum = &__syscall_meta__getnum;
static struct syscall_metadata __syscall_meta__getmore = { "sys_getmore", 0 };
static struct syscall_metadata __attribute__((used, section("__syscalls_metadata")))
	*__p_syscall_meta__getmore = &__syscall_meta__getmore;

long __x64_sys_getmore(void)
{
	return 43;
}

long __x64_sys_getnum(void)
{
	return 42 + (__x64_sys_getmore() & 0);
}
