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
#define notrace			__attribute__((__no_instrument_function__))
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

/* ---- BUG / WARN (arch/x86/include/asm/bug.h, asm-generic/bug.h) --------- */
#define ASM_UD2			".byte 0x0f, 0x0b"
#define BUGFLAG_WARNING		(1 << 0)
#define BUGFLAG_ONCE		(1 << 1)
#define BUGFLAG_DONE		(1 << 2)
#define BUGFLAG_NO_CUT_HERE	(1 << 3)
#define BUGFLAG_TAINT(taint)	((taint) << 8)
#define TAINT_WARN		9
#define BUG_ENTRY_SIZE		12	/* sizeof(struct bug_entry) */

#define _BUG_FLAGS(ins, flags, extra)					\
do {									\
	asm_inline volatile("1:\t" ins "\n"				\
		     ".pushsection __bug_table,\"aw\"\n"		\
		     "2:\t.long 1b - .\t# bug_entry::bug_addr\n"	\
		     "\t.long %c0 - .\t# bug_entry::file\n"		\
		     "\t.word %c1\t# bug_entry::line\n"			\
		     "\t.word %c2\t# bug_entry::flags\n"		\
		     "\t.org 2b+%c3\n"					\
		     ".popsection\n"					\
		     extra						\
		     : : "i" (__FILE__), "i" (__LINE__),		\
			 "i" (flags), "i" (BUG_ENTRY_SIZE));		\
} while (0)

#define BUG()								\
do {									\
	_BUG_FLAGS(ASM_UD2, 0, "");					\
	__builtin_unreachable();					\
} while (0)

#define __WARN_FLAGS(flags)						\
do {									\
	__auto_type __flags = BUGFLAG_WARNING | (flags);		\
	_BUG_FLAGS(ASM_UD2, __flags, ASM_REACHABLE);			\
} while (0)

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

/* ---- jump labels (arch/x86/include/asm/jump_label.h) --------------------- */
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

#define BYTES_NOP5	0x0f,0x1f,0x44,0x00,0x00
#define JUMP_TABLE_ENTRY				\
	".pushsection __jump_table,  \"aw\" \n\t"	\
	".balign 8\n\t"					\
	".long 1b - . \n\t"				\
	".long %l[l_yes] - . \n\t"			\
	".quad %c0 + %c1 - .\n\t"			\
	".popsection \n\t"

static __always_inline bool arch_static_branch(struct static_key * const key, const bool branch)
{
	asm goto("1:"
		".byte " __stringify(BYTES_NOP5) "\n\t"
		JUMP_TABLE_ENTRY
		: :  "i" (key), "i" (branch) : : l_yes);
	return false;
l_yes:
	return true;
}

static __always_inline bool arch_static_branch_jump(struct static_key * const key, const bool branch)
{
	asm goto("1:"
		"jmp %l[l_yes]\n\t"
		JUMP_TABLE_ENTRY
		: :  "i" (key), "i" (branch) : : l_yes);
	return false;
l_yes:
	return true;
}

#define static_branch_unlikely(x)	unlikely(arch_static_branch(&(x)->key, false))
#define static_branch_likely(x)		likely(!arch_static_branch_jump(&(x)->key, false))
#define static_key_enabled(x)		(READ_ONCE((x)->key.enabled) > 0)

/* ---- exception table (arch/x86/include/asm/asm.h, extable.h) ------------- */
#define EX_TYPE_DEFAULT		1
#define EX_TYPE_UACCESS		3
#define _ASM_EXTABLE_TYPE(from, to, type)			\
	" .pushsection \"__ex_table\",\"a\"\n"			\
	" .balign 4\n"						\
	" .long (" #from ") - .\n"				\
	" .long (" #to ") - .\n"				\
	" .long " __stringify(type) " \n"			\
	" .popsection\n"
#define _ASM_EXTABLE_UA(from, to) _ASM_EXTABLE_TYPE(from, to, EX_TYPE_UACCESS)
#define _ASM_EXTABLE(from, to)    _ASM_EXTABLE_TYPE(from, to, EX_TYPE_DEFAULT)

/* a get_user()-like load: a faulting read with a fixup that returns -14 */
#define get_user_stub(x, ptr) ({					\
	int __gu_err = 0;						\
	asm volatile("1:	movl %2, %1\n"				\
		     "2:\n"						\
		     ".pushsection .fixup,\"ax\"\n"			\
		     "3:	movl $-14, %0\n"			\
		     "	xorl %1, %1\n"					\
		     "	jmp 2b\n"					\
		     ".popsection\n"					\
		     _ASM_EXTABLE_UA(1b, 3b)				\
		     : "+r" (__gu_err), "=r" (x)			\
		     : "m" (*(ptr)));					\
	__gu_err;							\
})

/* the 6.1 style: no .fixup, the handler type does the work */
#define load_unaligned_stub(x, ptr) do {				\
	asm volatile("1:	movq %1, %0\n"				\
		     "2:\n"						\
		     _ASM_EXTABLE(1b, 2b)				\
		     : "=r" (x) : "m" (*(ptr)));			\
} while (0)

/* ---- alternatives and lock prefixes (arch/x86/include/asm/alternative.h) */
#define b_replacement(num)	"664"#num
#define e_replacement(num)	"665"#num
#define alt_end_marker		"663"
#define alt_slen		"662b-661b"
#define alt_total_slen		alt_end_marker"b-661b"
#define alt_rlen(num)		e_replacement(num)"f-"b_replacement(num)"f"

#define OLDINSTR(oldinstr, num)						\
	"# ALT: oldnstr\n"						\
	"661:\n\t" oldinstr "\n662:\n"					\
	"# ALT: padding\n"						\
	".skip -(((" alt_rlen(num) ")-(" alt_slen ")) > 0) * "		\
		"((" alt_rlen(num) ")-(" alt_slen ")),0x90\n"		\
	alt_end_marker ":\n"

#define ALTINSTR_ENTRY(feature, num)					      \
	" .long 661b - .\n"				/* label           */ \
	" .long " b_replacement(num)"f - .\n"		/* new instruction */ \
	" .word " __stringify(feature) "\n"		/* feature bit     */ \
	" .byte " alt_total_slen "\n"			/* source len      */ \
	" .byte " alt_rlen(num) "\n"			/* replacement len */

#define ALTINSTR_REPLACEMENT(newinstr, num)		/* replacement */	\
	"# ALT: replacement " #num "\n"						\
	b_replacement(num)":\n\t" newinstr "\n" e_replacement(num) ":\n"

#define ALTERNATIVE(oldinstr, newinstr, feature)			\
	OLDINSTR(oldinstr, 1)						\
	".pushsection .altinstructions,\"a\"\n"				\
	ALTINSTR_ENTRY(feature, 1)					\
	".popsection\n"							\
	".pushsection .altinstr_replacement, \"ax\"\n"			\
	ALTINSTR_REPLACEMENT(newinstr, 1)				\
	".popsection\n"

#define alternative(oldinstr, newinstr, feature)			\
	asm_inline volatile (ALTERNATIVE(oldinstr, newinstr, feature) : : : "memory")

#define X86_FEATURE_XMM2	(0*32+26)
#define X86_FEATURE_CLFLUSHOPT	(9*32+23)
#define mb_stub()	alternative("lock; addl $0,-4(%%rsp)", "mfence", X86_FEATURE_XMM2)

#define LOCK_PREFIX_HERE \
		".pushsection .smp_locks,\"a\"\n"	\
		".balign 4\n"				\
		".long 671f - .\n" /* offset */		\
		".popsection\n"				\
		"671:"
#define LOCK_PREFIX LOCK_PREFIX_HERE "\n\tlock; "

typedef struct { int counter; } atomic_t;
static __always_inline void atomic_inc(atomic_t *v)
{
	asm volatile(LOCK_PREFIX "incl %0" : "+m" (v->counter) :: "memory");
}
static __always_inline void atomic_add(int i, atomic_t *v)
{
	asm volatile(LOCK_PREFIX "addl %1,%0" : "+m" (v->counter) : "ir" (i) : "memory");
}

/* ---- paravirt patch sites (arch/x86/include/asm/paravirt_types.h) -------- */
#define _paravirt_alt(insn_string, type, clobber)	\
	"771:\n\t" insn_string "\n" "772:\n"		\
	".pushsection .parainstructions,\"a\"\n"	\
	".balign 8\n"					\
	".quad 771b\n"					\
	"  .byte " type "\n"				\
	"  .byte 772b-771b\n"				\
	"  .short " clobber "\n"			\
	".balign 8\n"					\
	".popsection\n"
/* an irq-disable-like paravirt op: an indirect call through pv_ops */
extern void *pv_ops_stub[];
#define PV_IRQ_DISABLE 42
static __always_inline void arch_local_irq_disable_stub(void)
{
	asm volatile(_paravirt_alt("call *%c[op]", "%c[type]", "1")
		     : : [op] "i" (&pv_ops_stub[PV_IRQ_DISABLE]), [type] "i" (PV_IRQ_DISABLE)
		     : "memory", "cc", "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11");
}

/* ---- static calls (include/linux/static_call.h; sites made by objtool) --- */
#define STATIC_CALL_KEY(name)	__SCK__##name
#define STATIC_CALL_TRAMP(name)	__SCT__##name
#define STATIC_CALL_TRAMP_STR(name) __stringify(STATIC_CALL_TRAMP(name))
#define STATIC_CALL_KEY_STR(name)   __stringify(STATIC_CALL_KEY(name))
#define DECLARE_STATIC_CALL(name, func) \
	extern struct static_call_key { void *func; } STATIC_CALL_KEY(name); \
	extern __typeof__(func) STATIC_CALL_TRAMP(name)
/*
 * static_call_void(name): a call to the trampoline plus the
 * .static_call_sites entry objtool would add for it
 * (struct static_call_site { s32 addr; s32 key; }).
 */
#define static_call_void(name)						\
	asm volatile("1: call " STATIC_CALL_TRAMP_STR(name) "\n"	\
		     ".pushsection .static_call_sites, \"aw\"\n"	\
		     ".balign 4\n"					\
		     ".long 1b - .\n"					\
		     ".long " STATIC_CALL_KEY_STR(name) " - .\n"	\
		     ".popsection\n"					\
		     : : : "memory", "cc", "rax", "rcx", "rdx", "rsi",	\
		       "rdi", "r8", "r9", "r10", "r11")

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
