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
 * in the patched source: it produces the same functions with the same names,
 * bindings and signatures as the architecture's syscall wrapper of Linux 6.1
 * (arch/<arch>/include/asm/syscall_wrapper.h), and nothing else, so the
 * differ sees only the changed body:
 *
 *   x86_64   __x64_sys_foo(const struct pt_regs *) (and __ia32_sys_foo() under
 *            CONFIG_IA32_EMULATION) -> static __se_sys_foo(long...) -> body
 *   ppc64le  sys_foo(const struct pt_regs *) -> static __se_sys_foo(long...) -> body
 *   s390x    __s390x_sys_foo(struct pt_regs *), an alias of the global
 *            __se_sys_foo(struct pt_regs *) -> body (and the __s390_sys_foo()
 *            compat stub under CONFIG_COMPAT)
 *
 * For x > 0 the body gets a name of its own, static inline
 * __kpatch_do_sys_foo(typed args), where the kernel has __do_sys_foo: the
 * kernel's is inline, hence notrace, and when GCC keeps it out of line a
 * changed copy of it could not be patched; under a new name it is a new
 * function and the traceable entry point that calls it is what gets patched.
 * SYSCALL_DEFINE0 bodies are the entry point itself on ppc64le and s390x (on
 * x86_64 the static __do_sys_foo the entry aliases, renamed likewise).
 */
#ifndef _KPATCH_SYSCALL_H
#define _KPATCH_SYSCALL_H

#include <linux/syscalls.h>

#ifndef CONFIG_ARCH_HAS_SYSCALL_WRAPPER
#error "kpatch-syscall.h: needs the pt_regs syscall wrapper (CONFIG_ARCH_HAS_SYSCALL_WRAPPER)"
#endif

/*
 * __se_sys<name>: the syscall's arguments as longs, cast to their types for
 * the body and checked as the kernel's own __se_sys does (x86_64, ppc64le;
 * s390x takes pt_regs there).
 */
#define __KPATCH_SE_SYS_LONG(x, name, ...)				\
	static long __se_sys##name(__MAP(x, __SC_LONG, __VA_ARGS__))	\
	{								\
		long ret = __kpatch_do_sys##name(__MAP(x, __SC_CAST, __VA_ARGS__)); \
									\
		__MAP(x, __SC_TEST, __VA_ARGS__);			\
		__PROTECT(x, ret, __MAP(x, __SC_ARGS, __VA_ARGS__));	\
		return ret;						\
	}

#if defined(CONFIG_X86_64)

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
	__KPATCH_SE_SYS_LONG(x, name, __VA_ARGS__)			\
	static inline long __kpatch_do_sys##name(__MAP(x, __SC_DECL, __VA_ARGS__))

#elif defined(CONFIG_PPC64) && defined(CONFIG_CPU_LITTLE_ENDIAN)

#define KPATCH_SYSCALL_DEFINE0(sname)					\
	long sys_##sname(const struct pt_regs *__unused);		\
	long sys_##sname(const struct pt_regs *__unused)

#define __KPATCH_SYSCALL_DEFINEx(x, name, ...)				\
	long sys##name(const struct pt_regs *regs);			\
	static long __se_sys##name(__MAP(x, __SC_LONG, __VA_ARGS__));	\
	static inline long __kpatch_do_sys##name(__MAP(x, __SC_DECL, __VA_ARGS__)); \
	long sys##name(const struct pt_regs *regs)			\
	{								\
		return __se_sys##name(SC_POWERPC_REGS_TO_ARGS(x, __VA_ARGS__)); \
	}								\
	__KPATCH_SE_SYS_LONG(x, name, __VA_ARGS__)			\
	static inline long __kpatch_do_sys##name(__MAP(x, __SC_DECL, __VA_ARGS__))

#elif defined(CONFIG_S390)

#ifdef CONFIG_COMPAT
/* the 31-bit entry: the same body, arguments cast as the compat ABI wants */
#define __KPATCH_S390_SYS_STUBx(x, name, ...)				\
	long __s390_sys##name(struct pt_regs *regs);			\
	long __s390_sys##name(struct pt_regs *regs)			\
	{								\
		long ret = __kpatch_do_sys##name(SYSCALL_PT_ARGS(x, regs, \
			__SC_COMPAT_CAST, __MAP(x, __SC_TYPE, __VA_ARGS__))); \
		__MAP(x, __SC_TEST, __VA_ARGS__);			\
		return ret;						\
	}
#define __KPATCH_S390_SYS_ALIAS0(sname)					\
	long __s390_sys_##sname(void)					\
		__attribute__((alias(__stringify(__s390x_sys_##sname))));
#else
#define __KPATCH_S390_SYS_STUBx(x, name, ...)
#define __KPATCH_S390_SYS_ALIAS0(sname)
#endif

#define KPATCH_SYSCALL_DEFINE0(sname)					\
	long __s390x_sys_##sname(void);					\
	__KPATCH_S390_SYS_ALIAS0(sname)					\
	long __s390x_sys_##sname(void)

#define __KPATCH_SYSCALL_DEFINEx(x, name, ...)				\
	__diag_push();							\
	__diag_ignore(GCC, 8, "-Wattribute-alias",			\
		      "Type aliasing is used to sanitize syscall arguments"); \
	long __s390x_sys##name(struct pt_regs *regs)			\
		__attribute__((alias(__stringify(__se_sys##name))));	\
	static inline long __kpatch_do_sys##name(__MAP(x, __SC_DECL, __VA_ARGS__)); \
	long __se_sys##name(struct pt_regs *regs);			\
	__KPATCH_S390_SYS_STUBx(x, name, __VA_ARGS__)			\
	long __se_sys##name(struct pt_regs *regs)			\
	{								\
		long ret = __kpatch_do_sys##name(SYSCALL_PT_ARGS(x, regs, \
			__SC_CAST, __MAP(x, __SC_TYPE, __VA_ARGS__)));	\
		__MAP(x, __SC_TEST, __VA_ARGS__);			\
		return ret;						\
	}								\
	__diag_pop();							\
	static inline long __kpatch_do_sys##name(__MAP(x, __SC_DECL, __VA_ARGS__))

#else
#error "kpatch-syscall.h: no syscall wrapper for this architecture (x86_64, ppc64le and s390x are supported)"
#endif

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
