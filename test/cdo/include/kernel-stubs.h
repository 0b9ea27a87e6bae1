/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel-stubs.h - a tiny, self-contained stand-in for the Linux 6.1 x86_64
 * headers, for the create-diff-object test cases in test/cdo/cases/.
 *
 * Only what changes the code or the sections GCC emits is mimicked, and it is
 * mimicked the way the 6.1 headers do it (same inline asm, same section names,
 * same entry layouts), so the objects look like real kernel objects:
 *
 *   __bug_table        struct bug_entry, 12 bytes  (relative pointers, BUGVERBOSE)
 *   __ex_table         struct exception_table_entry, 12 bytes
 *   __jump_table       struct jump_entry, 16 bytes (s32 code, s32 target, long key)
 *   .altinstructions   struct alt_instr, 13 bytes, + .altinstr_replacement
 *   .smp_locks         s32 per LOCK prefix
 *   .parainstructions  struct paravirt_patch_site, 16 bytes
 *   .static_call_sites struct static_call_site, 8 bytes (objtool makes these in a
 *                      real build; here the same bytes come from inline asm)
 *   .printk_index      pointer to a static struct pi_entry (44 bytes, packed)
 *   ___ksymtab+NAME    struct kernel_symbol, 12 bytes, + __ksymtab_strings
 *   .discard.*         objtool annotations (ASM_REACHABLE) and __ADDRESSABLE
 *   .data.once         the __already_done flags of WARN_ONCE/printk_once
 *   __mcount_loc       made by GCC itself (-pg -mfentry -mrecord-mcount)
 */
#ifndef _CDO_KERNEL_STUBS_H
#define _CDO_KERNEL_STUBS_H

/* ---- types ------------------------------------------------------------ */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;
typedef unsigned long size_t;
typedef long ssize_t;
typedef _Bool bool;
#define true 1
#define false 0
#define NULL ((void *)0)

#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)
#define ___PASTE(a, b)		a##b
#define __PASTE(a, b)		___PASTE(a, b)
#define __UNIQUE_ID(prefix)	__PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)

/* ---- compiler attributes (include/linux/compiler_attributes.h, _types.h) */
#define __section(s)		__attribute__((__section__(s)))
#define __used			__attribute__((__used__))
#define __maybe_unused		__attribute__((__unused__))
#define __cold			__attribute__((__cold__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __packed		__attribute__((__packed__))
#define __noreturn		__attribute__((__noreturn__))
#define __gnu_inline		__attribute__((__gnu_inline__))
#define noinline		__attribute__((__noinline__))
#define __always_inline		inline __attribute__((__always_inline__))
#ifdef CC_USING_PATCHABLE_FUNCTION_ENTRY
#define notrace			__attribute__((__no_instrument_function__, patchable_function_entry(0, 0)))
#else
#define notrace			__attribute__((__no_instrument_function__))
#endif
/* the kernel's "inline" implies notrace (compiler_types.h) */
#define inline			inline __gnu_inline __maybe_unused notrace
#define asm_inline		asm __inline
#define __read_mostly		__section(".data..read_mostly")

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define barrier()		__asm__ __volatile__("" : : : "memory")
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))

/* ---- include/linux/init.h ------------------------------------------------ */
#define __init			__section(".init.text") __cold
#define __initdata		__section(".init.data")
#define __exit			__section(".exit.text") __cold
#define __ref			__section(".ref.text") noinline

/* ---- objtool annotations (include/linux/objtool.h) ----------------------- */
#define ASM_REACHABLE							\
	"998:\n\t"							\
	".pushsection .discard.reachable\n\t"				\
	".long 998b - .\n\t"						\
	".popsection\n\t"

#define ___ADDRESSABLE(sym, __attrs)					\
	static void * __used __attrs					\
		__UNIQUE_ID(__PASTE(__addressable_, sym)) = (void *)&sym;
#define __ADDRESSABLE(sym) ___ADDRESSABLE(sym, __section(".discard.addressable"))

/* ---- BUG / WARN (asm-generic/bug.h; the asm is in asm-<arch>.h) -------- */
#define BUGFLAG_WARNING		(1 << 0)
#define BUGFLAG_ONCE		(1 << 1)
#define BUGFLAG_DONE		(1 << 2)
#define BUGFLAG_NO_CUT_HERE	(1 << 3)
#define BUGFLAG_TAINT(taint)	((taint) << 8)
#define TAINT_WARN		9
#define BUG_ENTRY_SIZE		12	/* sizeof(struct bug_entry) */

/* ---- jump labels (include/linux/jump_label.h) ---------------------------- */
struct static_key { int enabled; void *entries; };
struct static_key_true  { struct static_key key; };
struct static_key_false { struct static_key key; };
#define STATIC_KEY_INIT_TRUE	{ .enabled = 1, .entries = (void *)1 }
#define STATIC_KEY_INIT_FALSE	{ .enabled = 0, .entries = (void *)0 }
#define DEFINE_STATIC_KEY_FALSE(name) \
	struct static_key_false name = { .key = STATIC_KEY_INIT_FALSE }
#define DEFINE_STATIC_KEY_TRUE(name) \
	struct static_key_true name = { .key = STATIC_KEY_INIT_TRUE }
#define DECLARE_STATIC_KEY_FALSE(name) extern struct static_key_false name
/*
 * arch_static_branch() and arch_static_branch_jump() (asm/jump_label.h):
 * each arch's pair differs only in the instruction at the site (a nop, a
 * jump to l_yes), given with its label 1:; the arch's JUMP_TABLE_ENTRY
 * records it, with the key operands ARCH_JUMP_KEY.
 */
#define KP_STATIC_BRANCH(name, site)					\
static __always_inline bool name(struct static_key *key, bool branch)	\
{									\
	asm goto(site JUMP_TABLE_ENTRY : : ARCH_JUMP_KEY : : l_yes);	\
	return false;							\
l_yes:									\
	return true;							\
}

/*
 * The architecture's inline asm: _BUG_FLAGS/BUG/__WARN_FLAGS,
 * arch_static_branch{,_jump}, get_user_goto and whatever else only that
 * architecture has (alternatives, lock prefixes, paravirt, static calls).
 */
#if defined(__x86_64__) || defined(__i386__)	/* i386: bad-wrong-machine */
#include "asm-x86_64.h"
#elif defined(__powerpc64__)
#include "asm-ppc64le.h"
#elif defined(__s390x__)
#include "asm-s390x.h"
#elif defined(__aarch64__)
#include "asm-aarch64.h"
#else
#error "kernel-stubs.h: no asm-<arch>.h for this architecture"
#endif


#define BUG_ON(condition) do { if (unlikely(condition)) BUG(); } while (0)

#define WARN_ON(condition) ({						\
	int __ret_warn_on = !!(condition);				\
	if (unlikely(__ret_warn_on))					\
		__WARN_FLAGS(BUGFLAG_TAINT(TAINT_WARN));		\
	unlikely(__ret_warn_on);					\
})

#define WARN_ON_ONCE(condition) ({					\
	int __ret_warn_on = !!(condition);				\
	if (unlikely(__ret_warn_on))					\
		__WARN_FLAGS(BUGFLAG_ONCE | BUGFLAG_TAINT(TAINT_WARN));	\
	unlikely(__ret_warn_on);					\
})

extern __cold void __warn_printk(const char *fmt, ...);
#define WARN(condition, format...) ({					\
	int __ret_warn_on = !!(condition);				\
	if (unlikely(__ret_warn_on)) {					\
		__warn_printk(format);					\
		__WARN_FLAGS(BUGFLAG_NO_CUT_HERE | BUGFLAG_TAINT(TAINT_WARN)); \
	}								\
	unlikely(__ret_warn_on);					\
})

/* ---- once-only helpers (include/linux/once_lite.h): .data.once statics - */
#define DO_ONCE_LITE_IF(condition, func, ...)				\
	({								\
		static bool __section(".data.once") __already_done;	\
		bool __ret_do_once = !!(condition);			\
									\
		if (unlikely(__ret_do_once && !__already_done)) {	\
			__already_done = true;				\
			func(__VA_ARGS__);				\
		}							\
		unlikely(__ret_do_once);				\
	})
#define WARN_ONCE(condition, format...) DO_ONCE_LITE_IF(condition, WARN, 1, format)

/* ---- printk with the printk index (include/linux/printk.h) -------------- */
struct pi_entry {
	const char *fmt;
	const char *func;
	const char *file;
	unsigned int line;
	const char *level;
	const char *subsys_fmt_prefix;
} __packed;	/* 44 bytes; .printk_index holds pointers to these */

#define __printk_index_emit(_fmt, _level, _subsys_fmt_prefix)		\
	do {								\
		if (__builtin_constant_p(_fmt) && __builtin_constant_p(_level)) { \
			static const struct pi_entry _entry		\
			__used = {					\
				.fmt = __builtin_constant_p(_fmt) ? (_fmt) : NULL, \
				.func = __func__,			\
				.file = __FILE__,			\
				.line = __LINE__,			\
				.level = __builtin_constant_p(_level) ? (_level) : NULL, \
				.subsys_fmt_prefix = _subsys_fmt_prefix,\
			};						\
			static const struct pi_entry *_entry_ptr	\
			__used __section(".printk_index") = &_entry;	\
		}							\
	} while (0)

#define printk_index_wrap(_p_func, _fmt, ...)				\
	({								\
		__printk_index_emit(_fmt, NULL, NULL);			\
		_p_func(_fmt, ##__VA_ARGS__);				\
	})

#define KERN_SOH	"\001"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_INFO	KERN_SOH "6"

extern int _printk(const char *fmt, ...);
#define printk(fmt, ...) printk_index_wrap(_printk, fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)  printk(KERN_ERR fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO fmt, ##__VA_ARGS__)
#define printk_once(fmt, ...) DO_ONCE_LITE(printk, fmt, ##__VA_ARGS__)
#define DO_ONCE_LITE(func, ...) DO_ONCE_LITE_IF(true, func, ##__VA_ARGS__)
#define pr_warn_once(fmt, ...) printk_once(KERN_WARNING fmt, ##__VA_ARGS__)

/* ---- might_sleep (include/linux/kernel.h, CONFIG_DEBUG_ATOMIC_SLEEP) ----- */
extern void __might_sleep(const char *file, int line);
extern void __might_fault(const char *file, int line);
extern int __cond_resched(void);
#define might_resched() __cond_resched()
#define might_sleep() do { __might_sleep(__FILE__, __LINE__); might_resched(); } while (0)
#define might_fault() __might_fault(__FILE__, __LINE__)

/* ---- jump label users (include/linux/jump_label.h) ----------------------- */
#define static_branch_unlikely(x)	unlikely(arch_static_branch(&(x)->key, false))
#define static_branch_likely(x)		likely(!arch_static_branch_jump(&(x)->key, false))
#define static_key_enabled(x)		(READ_ONCE((x)->key.enabled) > 0)

/* ---- exports (include/linux/export.h, PREL32 relocations) ---------------- */
#define __KSYMTAB_ENTRY(sym, sec)					\
	__ADDRESSABLE(sym)						\
	asm("	.section \"___ksymtab" sec "+" #sym "\", \"a\"	\n"	\
	    "	.balign	4					\n"	\
	    "__ksymtab_" #sym ":				\n"	\
	    "	.long	" #sym "- .				\n"	\
	    "	.long	__kstrtab_" #sym "- .			\n"	\
	    "	.long	__kstrtabns_" #sym "- .			\n"	\
	    "	.previous					\n")

#define ___EXPORT_SYMBOL(sym, sec, ns)					\
	extern __typeof__(sym) sym;					\
	extern const char __kstrtab_##sym[];				\
	extern const char __kstrtabns_##sym[];				\
	asm("	.section \"__ksymtab_strings\",\"aMS\",%progbits,1	\n" \
	    "__kstrtab_" #sym ":					\n" \
	    "	.asciz 	\"" #sym "\"					\n" \
	    "__kstrtabns_" #sym ":					\n" \
	    "	.asciz 	\"" ns "\"					\n" \
	    "	.previous						\n"); \
	__KSYMTAB_ENTRY(sym, sec)

#define EXPORT_SYMBOL(sym)	___EXPORT_SYMBOL(sym, "", "")
#define EXPORT_SYMBOL_GPL(sym)	___EXPORT_SYMBOL(sym, "_gpl", "")

/* ---- a few library functions the running kernel exports ----------------- */
extern void *memcpy(void *dst, const void *src, size_t n);
extern void *memset(void *s, int c, size_t n);
extern size_t strlen(const char *s);
extern int sprintf(char *buf, const char *fmt, ...);
extern void *kmalloc(size_t size, unsigned int flags);
extern void kfree(const void *p);
extern void msleep(unsigned int msecs);
extern void schedule(void);
#define GFP_KERNEL 0xcc0u

#endif /* _CDO_KERNEL_STUBS_H */
