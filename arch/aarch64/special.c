// SPDX-License-Identifier: GPL-2.0
/*
 * aarch64's rows of the special-section table (arch/special.c has the
 * shared ones, __patchable_function_entries among them): alternatives.
 */
#include "arch/arch.h"

const struct special_section a64_special[] = {
	{ .name = ".altinstructions", .role = SEC_ENTRIES,
	  .size_env = "ALT_STRUCT_SIZE", .size_struct = "alt_instr",
	  .early = true },
	/* replacement code (anonymous chunks) */
	{ .name = ".altinstr", .prefix = true, .role = SEC_KNOWN },
	{ .name = NULL },
};
