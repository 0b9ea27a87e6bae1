// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64's rows of the special-section table (arch/special.c has the shared
 * ones): alternatives, paravirt patch sites, ORC unwind tables and the
 * per-call-site tables of retpolines, returns, lock prefixes and IBT.
 */
#include "arch/arch.h"

#define SITES(n)	{ .name = n, .role = SEC_ENTRIES, .size = 4, .early = true }
#define ANNOTATION(n, sz)	{ .name = n, .role = SEC_ENTRIES, .size = sz, \
				  .section_symbol_refs = true }

const struct special_section x86_special[] = {
	{ .name = ".altinstructions", .role = SEC_ENTRIES,
	  .size_env = "ALT_STRUCT_SIZE", .size_struct = "alt_instr",
	  .early = true },
	{ .name = ".parainstructions", .role = SEC_ENTRIES,
	  .size_env = "PARA_STRUCT_SIZE", .size_struct = "paravirt_patch_site",
	  .early = true },
	SITES(".orc_unwind_ip"),
	/* no relocations: entry i describes .orc_unwind_ip's entry i */
	{ .name = ".orc_unwind", .role = SEC_ENTRIES,
	  .size_env = "ORC_STRUCT_SIZE", .size_struct = "orc_entry",
	  .companion = ".orc_unwind_ip" },
	{ .name = ".smp_locks", .role = SEC_ENTRIES, .size = 4 },
	SITES(".retpoline_sites"),
	SITES(".return_sites"),
	SITES(".call_sites"),
	{ .name = ".ibt_endbr_seal", .role = SEC_ENTRIES, .size = 4 },
	/*
	 * objtool's annotations of instructions (never loaded): needed where
	 * objtool runs on the linked patch module (IBT kernels), e.g. the code
	 * after a WARN's ud2 is reachable
	 */
	ANNOTATION(".discard.reachable", 4),
	ANNOTATION(".discard.unreachable", 4),
	ANNOTATION(".discard.noendbr", 4),
	ANNOTATION(".discard.retpoline_safe", 4),
	ANNOTATION(".discard.intra_function_calls", 4),
	ANNOTATION(".discard.func_stack_frame_non_standard", 8),
	/* replacement code (anonymous chunks), ORC, static call trampolines */
	{ .name = ".altinstr", .prefix = true, .role = SEC_KNOWN },
	{ .name = ".orc_", .prefix = true, .role = SEC_KNOWN },
	{ .name = ".static_call", .prefix = true, .role = SEC_KNOWN },
	{ .name = NULL },
};
