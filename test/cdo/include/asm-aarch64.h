/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm-aarch64.h - the aarch64 inline asm of kernel-stubs.h, as Linux 6.1's
 * arch/arm64/include/asm writes it: BUG/WARN (brk 0x800 with a relative
 * 12-byte __bug_table entry, the file name in .rodata.str), jump labels (nop /
 * b with a 16-byte __jump_table entry), the 12-byte exception table and
 * alternatives (12-byte struct alt_instr + .altinstr_replacement).
 */
#ifndef _CDO_ASM_AARCH64_H
#define _CDO_ASM_AARCH64_H

/* ---- BUG / WARN (arch/arm64/include/asm/asm-bug.h, bug.h) ----------------- */
#define BUG_BRK_IMM	0x800
#define __BUGVERBOSE_LOCATION(file, line)				\
		.pushsection .rodata.str,"aMS",@progbits,1;		\
	14472:	.string file;						\
		.popsection;						\
									\
		.long 14472b - .;					\
		.short line;
#define _BUGVERBOSE_LOCATION(file, line) __BUGVERBOSE_LOCATION(file, line)
#define __BUG_ENTRY(flags)						\
		.pushsection __bug_table,"aw";				\
		.align 2;						\
	14470:	.long 14471f - .;					\
_BUGVERBOSE_LOCATION(__FILE__, __LINE__)				\
		.short flags;						\
		.align 2;						\
		.popsection;						\
	14471:
#define ASM_BUG_FLAGS(flags)						\
	__BUG_ENTRY(flags)						\
	brk	BUG_BRK_IMM

#define __BUG_FLAGS(flags)						\
	asm volatile (__stringify(ASM_BUG_FLAGS(flags)));

#define BUG() do {							\
	__BUG_FLAGS(0);							\
	__builtin_unreachable();					\
} while (0)

#define __WARN_FLAGS(flags) __BUG_FLAGS(BUGFLAG_WARNING|(flags))

/* ---- jump labels (arch/arm64/include/asm/jump_label.h) -------------------- */
#define JUMP_TABLE_ENTRY					\
	"	.pushsection	__jump_table, \"aw\"	\n\t"	\
	"	.align		3			\n\t"	\
	"	.long		1b - ., %l[l_yes] - .	\n\t"	\
	"	.quad		%c0 - .			\n\t"	\
	"	.popsection				\n\t"

#define ARCH_JUMP_KEY	"i" (&((char *)key)[branch])
KP_STATIC_BRANCH(arch_static_branch, "1:	nop\n\t")
KP_STATIC_BRANCH(arch_static_branch_jump, "1:	b %l[l_yes]\n\t")

/* ---- exception table (arch/arm64/include/asm/asm-extable.h) --------------- */
#define EX_TYPE_UACCESS_ERR_ZERO	3
#define __ASM_EXTABLE_RAW(insn, fixup, type, data)			\
	".pushsection __ex_table, \"a\"\n"				\
	".align 2\n"							\
	".long ((" insn ") - .)\n"					\
	".long ((" fixup ") - .)\n"					\
	".short (" type ")\n"						\
	".short (" data ")\n"						\
	".popsection\n"
#define _ASM_EXTABLE_UACCESS(insn, fixup)				\
	__ASM_EXTABLE_RAW(#insn, #fixup,				\
			  __stringify(EX_TYPE_UACCESS_ERR_ZERO), "0")

/* a faulting load whose __ex_table fixup is a label of the caller */
#define get_user_goto(x, ptr, label)					\
	asm goto("1:	ldtr %w0, %1\n"					\
		 _ASM_EXTABLE_UACCESS(1b, %l2)				\
		 : "=r" (x) : "Q" (*(ptr)) : : label)

/* ---- alternatives (arch/arm64/include/asm/alternative-macros.h) ----------- */
#define ALTINSTR_ENTRY(feature)						\
	" .word 661b - .\n"				/* label           */ \
	" .word 663f - .\n"				/* new instruction */ \
	" .hword " __stringify(feature) "\n"		/* feature bit     */ \
	" .byte 662b-661b\n"				/* source len      */ \
	" .byte 664f-663f\n"				/* replacement len */

#define __ALTERNATIVE_CFG(oldinstr, newinstr, feature)			\
	"661:\n\t"							\
	oldinstr "\n"							\
	"662:\n"							\
	".pushsection .altinstructions,\"a\"\n"				\
	ALTINSTR_ENTRY(feature)						\
	".popsection\n"							\
	".subsection 1\n"						\
	"663:\n\t"							\
	newinstr "\n"							\
	"664:\n\t"							\
	".org	. - (664b-663b) + (662b-661b)\n\t"			\
	".org	. - (662b-661b) + (664b-663b)\n\t"			\
	".previous\n"

#define alternative(oldinstr, newinstr, feature)			\
	asm volatile(__ALTERNATIVE_CFG(oldinstr, newinstr, feature) : : : "memory")

#define ARM64_HAS_LDAPR		5	/* some cpufeature number */
#define mb_stub()	alternative("dmb ish", "dsb ish", ARM64_HAS_LDAPR)

#endif /* _CDO_ASM_AARCH64_H */
