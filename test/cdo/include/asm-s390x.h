/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm-s390x.h - the s390x inline asm of kernel-stubs.h, as Linux 6.1's
 * arch/s390/include/asm writes it: BUG/WARN (mc 0,0 with a relative 12-byte
 * __bug_table entry, the file name in .rodata.str), jump labels (brcl 0 /
 * brcl 15 with a 16-byte __jump_table entry), the 12-byte exception table
 * and alternatives (11-byte packed struct alt_instr + .altinstr_replacement).
 */
#ifndef _CDO_ASM_S390X_H
#define _CDO_ASM_S390X_H

/* ---- BUG / WARN (arch/s390/include/asm/bug.h, DEBUG_BUGVERBOSE) ----------- */
#define __EMIT_BUG(x) do {						\
	asm_inline volatile(						\
		"0:	mc	0,0\n"					\
		".section .rodata.str,\"aMS\",@progbits,1\n"		\
		"1:	.asciz	\""__FILE__"\"\n"			\
		".previous\n"						\
		".section __bug_table,\"awM\",@progbits,%2\n"		\
		"2:	.long	0b-.\n"					\
		"	.long	1b-.\n"					\
		"	.short	%0,%1\n"				\
		"	.org	2b+%2\n"				\
		".previous\n"						\
		: : "i" (__LINE__),					\
		    "i" (x),						\
		    "i" (BUG_ENTRY_SIZE));				\
} while (0)

#define BUG() do {							\
	__EMIT_BUG(0);							\
	__builtin_unreachable();					\
} while (0)

#define __WARN_FLAGS(flags) do {					\
	__EMIT_BUG(BUGFLAG_WARNING|(flags));				\
} while (0)

/* ---- jump labels (arch/s390/include/asm/jump_label.h, GCC >= 9) ----------- */
#define JUMP_TABLE_ENTRY				\
	".pushsection __jump_table,\"aw\"\n"		\
	".balign	8\n"				\
	".long	1b-.,%l[l_yes]-.\n"			\
	".quad	%0+%1-.\n"				\
	".popsection\n"

#define ARCH_JUMP_KEY	"jdd" (key), "i" (branch)
KP_STATIC_BRANCH(arch_static_branch, "1:	brcl 0,%l[l_yes]\n")
KP_STATIC_BRANCH(arch_static_branch_jump, "1:	brcl 15,%l[l_yes]\n")

/* ---- exception table (arch/s390/include/asm/asm-extable.h) ---------------- */
#define EX_TYPE_FIXUP		1
#define EX_TYPE_UA_LOAD_REG	5
#define __EX_TABLE(_fault, _target, _type)				\
	".pushsection __ex_table,\"a\"\n"				\
	".balign 4\n"							\
	".long (" #_fault ") - .\n"					\
	".long (" #_target ") - .\n"					\
	".short " __stringify(_type) "\n"				\
	".short 0\n"							\
	".popsection\n"
#define EX_TABLE(_fault, _target) __EX_TABLE(_fault, _target, EX_TYPE_FIXUP)

/* a faulting load whose __ex_table fixup is a label of the caller */
#define get_user_goto(x, ptr, label)					\
	asm goto("0:	l %0,%1\n"					\
		 EX_TABLE(0b, %l2)					\
		 : "=d" (x) : "R" (*(ptr)) : : label)

/* ---- alternatives (arch/s390/include/asm/alternative.h) ------------------- */
#define b_altinstr(num)	"664"#num
#define e_altinstr(num)	"665"#num
#define oldinstr_len	"662b-661b"
#define altinstr_len(num)	e_altinstr(num)"b-"b_altinstr(num)"b"

#define OLDINSTR(oldinstr)	"661:\n\t" oldinstr "\n662:\n"

#define ALTINSTR_ENTRY(facility, num)					\
	"\t.long 661b - .\n"			/* old instruction */	\
	"\t.long " b_altinstr(num)"b - .\n"	/* alt instruction */	\
	"\t.word " __stringify(facility) "\n"	/* facility bit    */	\
	"\t.byte " oldinstr_len "\n"		/* instruction len */	\
	"\t.org . - (" oldinstr_len ") + (" altinstr_len(num) ")\n"	\
	"\t.org . - (" altinstr_len(num) ") + (" oldinstr_len ")\n"

#define ALTINSTR_REPLACEMENT(altinstr, num)	/* replacement */	\
	b_altinstr(num)":\n\t" altinstr "\n" e_altinstr(num) ":\n"

#define ALTERNATIVE(oldinstr, altinstr, facility)			\
	".pushsection .altinstr_replacement, \"ax\"\n"			\
	ALTINSTR_REPLACEMENT(altinstr, 1)				\
	".popsection\n"							\
	OLDINSTR(oldinstr)						\
	".pushsection .altinstructions,\"a\"\n"				\
	ALTINSTR_ENTRY(facility, 1)					\
	".popsection\n"

#define alternative(oldinstr, altinstr, facility)			\
	asm_inline volatile(ALTERNATIVE(oldinstr, altinstr, facility) : : : "memory")

/* arch/s390/include/asm/barrier.h: fast-BCR serialization (facility 45) */
#define mb_stub()	alternative("bcr 15,0", "bcr 14,0", 45)

#endif /* _CDO_ASM_S390X_H */
