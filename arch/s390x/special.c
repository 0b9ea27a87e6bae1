// SPDX-License-Identifier: GPL-2.0
/*
 * s390x's rows of the special-section table (arch/special.c has the shared
 * ones): alternatives and the expoline tables.
 */
#include "arch/arch.h"

/* expolines: one s32 offset to each branch GCC routed through a thunk */
#define EXPOLINE(n)	{ .name = n, .role = SEC_ENTRIES, .size = 4, \
			  .early = true }

const struct special_section s390_special[] = {
	/* alt_instr (packed): s32 instr, s32 repl, u16 facility, u8 len */
	{ .name = ".altinstructions", .role = SEC_ENTRIES,
	  .size_env = "ALT_STRUCT_SIZE", .size_struct = "alt_instr",
	  .early = true },
	/* replacement code (anonymous chunks) */
	{ .name = ".altinstr", .prefix = true, .role = SEC_KNOWN },
	EXPOLINE(".s390_indirect_jump"),
	EXPOLINE(".s390_indirect_call"),
	EXPOLINE(".s390_indirect_branches"),
	EXPOLINE(".s390_return_reg"),
	EXPOLINE(".s390_return_mem"),
	{ .name = NULL },
};
