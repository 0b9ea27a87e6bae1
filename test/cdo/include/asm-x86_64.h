/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm-x86_64.h - the x86_64 inline asm of kernel-stubs.h: BUG/WARN, jump
 * labels, the exception table, alternatives, lock prefixes, paravirt sites
 * and static calls, as arch/x86/include/asm of Linux 6.1 writes them.
 * Included by kernel-stubs.h; each architecture has its asm-<arch>.h.
 */
#ifndef _CDO_ASM_X86_64_H
#define _CDO_ASM_X86_64_H

/* ---- BUG / WARN (arch/x86/include/asm/bug.h) ---------------------------- */
#define ASM_UD2			".byte 0x0f, 0x0b"

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

/* ---- jump labels (arch/x86/include/asm/jump_label.h) --------------------- */

#define BYTES_NOP5	0x0f,0x1f,0x44,0x00,0x00
#define JUMP_TABLE_ENTRY				\
	".pushsection __jump_table,  \"aw\" \n\t"	\
	".balign 8\n\t"					\
	".long 1b - . \n\t"				\
	".long %l[l_yes] - . \n\t"			\
	".quad %c0 + %c1 - .\n\t"			\
	".popsection \n\t"

#define ARCH_JUMP_KEY	"i" (key), "i" (branch)
KP_STATIC_BRANCH(arch_static_branch, "1:.byte " __stringify(BYTES_NOP5) "\n\t")
KP_STATIC_BRANCH(arch_static_branch_jump, "1:jmp %l[l_yes]\n\t")

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

/* a faulting load whose __ex_table fixup is a label of the caller */
#define get_user_goto(x, ptr, label)					\
	asm goto("1:	movl %1, %0\n"					\
		 _ASM_EXTABLE_UA(1b, %l2)				\
		 : "=r" (x) : "m" (*(ptr)) : : label)

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

#endif /* _CDO_ASM_X86_64_H */
