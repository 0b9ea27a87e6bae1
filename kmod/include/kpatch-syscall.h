/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kpatch-syscall.h: patch the body of a system call.
 *
 * A patch cannot simply edit a SYSCALL_DEFINEx() body: next to the
 * functions, SYSCALL_DEFINEx() emits syscall trace metadata (with
 * CONFIG_FTRACE_SYSCALLS) and an error-injection list entry, both tables of
 * the running kernel that a live patch cannot extend. Replace
 *
 *	SYSCALL_DEFINE3(foo, int, a, ...)
 * by
 *	KPATCH_SYSCALL_DEFINE3(foo, int, a, ...)
 *
 * in the patched source: it produces the same functions with the same names
 * and signatures as the x86_64 syscall wrapper of Linux 6.1
 * (arch/x86/include/asm/syscall_wrapper.h) -- __x64_sys_foo(const struct
 * pt_regs *), with __ia32_sys_foo() under CONFIG_IA32_EMULATION, calling
 * static __se_sys_foo(long...) and static inline __kpatch_do_sys_foo(typed
 * args) -- and nothing else, so the differ sees only the changed body.
 *
 * The body gets a name of its own: the kernel's __do_sys_foo is inline,
 * hence notrace, and when GCC keeps it out of line a changed copy of it
 * could not be patched; under a new name it is a new function and the
 * traceable __x64_sys_foo that calls it is what gets patched.
 */
#ifndef _KPATCH_SYSCALL_H
#define _KPATCH_SYSCALL_H

#include <linux/syscalls.h>

#if !defined(CONFIG_X86_64) || !defined(CONFIG_ARCH_HAS_SYSCALL_WRAPPER)
#error "kpatch-syscall.h: only the x86_64 syscall wrapper ABI is supported"
#endif

/* The pt_regs entry point of one ABI: __<abi>_sys<name>(regs). */
#define __KPATCH_SYS_ENTRYx(abi, name, ...)				\
	long __##abi##_sys##name(const struct pt_regs *regs);		\
	long __##abi##_sys##name(const struct pt_regs *regs)		\
	{								\
		return __se_sys##name(__VA_ARGS__);			\
	}

#define __KPATCH_SYS_ENTRY0(abi, name)					\
	long __##abi##_sys_##name(const struct pt_regs *regs);		\
	long __##abi##_sys_##name(const struct pt_regs *regs)		\
		__alias(__kpatch_do_sys_##name);

#ifdef CONFIG_IA32_EMULATION
#define __KPATCH_IA32_ENTRYx(x, name, ...)				\
	__KPATCH_SYS_ENTRYx(ia32, name,					\
			    SC_IA32_REGS_TO_ARGS(x, __VA_ARGS__))
#define __KPATCH_IA32_ENTRY0(name)	__KPATCH_SYS_ENTRY0(ia32, name)
#else
#define __KPATCH_IA32_ENTRYx(x, name, ...)
#define __KPATCH_IA32_ENTRY0(name)
#endif

#define KPATCH_SYSCALL_DEFINE0(sname)					\
	static long __kpatch_do_sys_##sname(const struct pt_regs *__unused);	\
	__KPATCH_SYS_ENTRY0(x64, sname)					\
	__KPATCH_IA32_ENTRY0(sname)					\
	static long __kpatch_do_sys_##sname(const struct pt_regs *__unused)

#define __KPATCH_SYSCALL_DEFINEx(x, name, ...)				\
	static long __se_sys##name(__MAP(x, __SC_LONG, __VA_ARGS__));	\
	static inline long __kpatch_do_sys##name(__MAP(x, __SC_DECL, __VA_ARGS__)); \
	__KPATCH_SYS_ENTRYx(x64, name,					\
			    SC_X86_64_REGS_TO_ARGS(x, __VA_ARGS__))	\
	__KPATCH_IA32_ENTRYx(x, name, __VA_ARGS__)			\
	static long __se_sys##name(__MAP(x, __SC_LONG, __VA_ARGS__))	\
	{								\
		long ret = __kpatch_do_sys##name(__MAP(x, __SC_CAST, __VA_ARGS__)); \
									\
		__MAP(x, __SC_TEST, __VA_ARGS__);			\
		__PROTECT(x, ret, __MAP(x, __SC_ARGS, __VA_ARGS__));	\
		return ret;						\
	}								\
	static inline long __kpatch_do_sys##name(__MAP(x, __SC_DECL, __VA_ARGS__))

#define KPATCH_SYSCALL_DEFINE1(name, ...)				\
	__KPATCH_SYSCALL_DEFINEx(1, _##name, __VA_ARGS__)
#define KPATCH_SYSCALL_DEFINE2(name, ...)				\
	__KPATCH_SYSCALL_DEFINEx(2, _##name, __VA_ARGS__)
#define KPATCH_SYSCALL_DEFINE3(name, ...)				\
	__KPATCH_SYSCALL_DEFINEx(3, _##name, __VA_ARGS__)
#define KPATCH_SYSCALL_DEFINE4(name, ...)				\
	__KPATCH_SYSCALL_DEFINEx(4, _##name, __VA_ARGS__)
#define KPATCH_SYSCALL_DEFINE5(name, ...)				\
	__KPATCH_SYSCALL_DEFINEx(5, _##name, __VA_ARGS__)
#define KPATCH_SYSCALL_DEFINE6(name, ...)				\
	__KPATCH_SYSCALL_DEFINEx(6, _##name, __VA_ARGS__)

#endif /* _KPATCH_SYSCALL_H */
