/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm-ppc64le.h - the ppc64le inline asm of kernel-stubs.h, as Linux 6.1's
 * arch/powerpc/include/asm writes it: BUG/WARN (twi 31,0,0 with a relative
 * 12-byte __bug_table entry; WARN adds an __ex_table entry to resume after
 * the trap), jump labels (nop / b with a 16-byte __jump_table entry), the
 * 8-byte exception table, and the feature fixup sections (__ftr_fixup).
 */
#ifndef _CDO_ASM_PPC64LE_H
#define _CDO_ASM_PPC64LE_H

/* ---- exception table (arch/powerpc/include/asm/ppc_asm.h) ----------------- */
#define EX_TABLE(_fault, _target)					\
	".section __ex_table,\"a\"\n"					\
	".balign 4\n"							\
	".long (" #_fault ") - .\n"					\
	".long (" #_target ") - .\n"					\
	".previous\n"

/* a faulting load whose __ex_table fixup is a label of the caller */
#define get_user_goto(x, ptr, label)					\
	asm goto("1:	lwz%U1%X1 %0, %1\n"				\
		 EX_TABLE(1b, %l2)					\
		 : "=r" (x) : "m<>" (*(ptr)) : : label)

/* ---- BUG / WARN (arch/powerpc/include/asm/bug.h, DEBUG_BUGVERBOSE) -------- */
#define _EMIT_BUG_ENTRY							\
	".section __bug_table,\"aw\"\n"					\
	"2:	.4byte 1b - .\n"					\
	"	.4byte %0 - .\n"					\
	"	.short %1, %2\n"					\
	".org 2b+%3\n"							\
	".previous\n"

#define BUG_ENTRY(insn, flags, ...)					\
	__asm__ __volatile__(						\
		"1:	" insn "\n"					\
		_EMIT_BUG_ENTRY						\
		: : "i" (__FILE__), "i" (__LINE__),			\
		  "i" (flags),						\
		  "i" (BUG_ENTRY_SIZE), ##__VA_ARGS__)

#define WARN_ENTRY(insn, flags, label, ...)				\
	asm goto(							\
		"1:	" insn "\n"					\
		EX_TABLE(1b, %l[label])					\
		_EMIT_BUG_ENTRY						\
		: : "i" (__FILE__), "i" (__LINE__),			\
		  "i" (flags),						\
		  "i" (BUG_ENTRY_SIZE), ##__VA_ARGS__ : : label)

#define BUG()								\
do {									\
	BUG_ENTRY("twi 31, 0, 0", 0);					\
	__builtin_unreachable();					\
} while (0)

#define __WARN_FLAGS(flags)						\
do {									\
	__label__ __label_warn_on;					\
									\
	WARN_ENTRY("twi 31, 0, 0", BUGFLAG_WARNING | (flags), __label_warn_on); \
	__builtin_unreachable();					\
__label_warn_on:							\
	break;								\
} while (0)

/* ---- jump labels (arch/powerpc/include/asm/jump_label.h) ------------------ */
#define JUMP_TABLE_ENTRY				\
	".pushsection __jump_table,  \"aw\"\n\t"	\
	".long 1b - ., %l[l_yes] - .\n\t"		\
	".8byte %c0 - .\n\t"				\
	".popsection \n\t"

#define ARCH_JUMP_KEY	"i" (&((char *)key)[branch])
KP_STATIC_BRANCH(arch_static_branch, "1:\n\tnop # arch_static_branch\n\t")
KP_STATIC_BRANCH(arch_static_branch_jump, "1:\n\tb %l[l_yes] # arch_static_branch_jump\n\t")

/* ---- CPU feature fixups (arch/powerpc/include/asm/feature-fixups.h) ------- */
/*
 * struct fixup_entry { unsigned long mask, value; long start_off, end_off,
 * alt_start_off, alt_end_off; } (48 bytes): the offsets are relative to the
 * entry itself, the alternative code sits in the section after the entry's.
 */
#define CPU_FTR_ARCH_300	0x0000800000000000ul
#define ftr_alt_stub(old, new, feature)					\
	asm volatile("97:\n\t" old "\n98:\n"				\
		     ".pushsection __ftr_alt_97,\"a\"\n"		\
		     "99:\n\t" new "\n100:\n"				\
		     ".popsection\n"					\
		     ".pushsection __ftr_fixup,\"a\"\n"			\
		     ".balign 8\n"					\
		     "101:\n"						\
		     ".8byte %c0\n"					\
		     ".8byte %c0\n"					\
		     ".8byte 97b - 101b\n"				\
		     ".8byte 98b - 101b\n"				\
		     ".8byte 99b - 101b\n"				\
		     ".8byte 100b - 101b\n"				\
		     ".popsection\n"					\
		     : : "i" (feature) : "memory")
#define mb_stub()	ftr_alt_stub("sync", "lwsync", CPU_FTR_ARCH_300)

#endif /* _CDO_ASM_PPC64LE_H */
