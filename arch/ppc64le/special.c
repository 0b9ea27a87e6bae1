// SPDX-License-Identifier: GPL-2.0
/*
 * ppc64le's rows of the special-section table (arch/special.c has the shared
 * ones): the TOC, the exception table's fixed entries, the CPU/MMU/firmware
 * feature fixups and the barrier and flush fixup lists of a 6.1 kernel.
 * __mcount_loc is recordmcount's here, not the compiler's: the differ
 * writes it (differ_writes_mcount_loc).
 */
#include "arch/arch.h"

/*
 * Feature fixups: struct fixup_entry { mask, value, start_off, end_off,
 * alt_start_off, alt_end_off } (six longs); the offsets are relative to
 * the entry, the owner is the code at start_off. Applied while the module
 * loads.
 */
#define FIXUP(n)	{ .name = n, .role = SEC_ENTRIES, \
			  .size_env = "FIXUP_STRUCT_SIZE", \
			  .size_struct = "fixup_entry", .owner_off = 16, \
			  .early = true }
/* one 8-byte offset per patched site */
#define SITE_LIST(n)	{ .name = n, .role = SEC_ENTRIES, .size = 8, \
			  .early = true }

const struct special_section ppc_special[] = {
	/*
	 * exception_table_entry: s32 insn, s32 fixup, fixed by the arch; two
	 * PC-relative words look alike, so the size cannot be inferred
	 */
	{ .name = "__ex_table", .role = SEC_ENTRIES, .size = 8, .early = true },
	FIXUP("__ftr_fixup"),
	FIXUP("__mmu_ftr_fixup"),
	FIXUP("__fw_ftr_fixup"),
	SITE_LIST("__lwsync_fixup"),
	SITE_LIST("__stf_entry_barrier_fixup"),
	SITE_LIST("__stf_exit_barrier_fixup"),
	SITE_LIST("__rfi_flush_fixup"),
	SITE_LIST("__barrier_nospec_fixup"),
	SITE_LIST("__entry_flush_fixup"),
	SITE_LIST("__uaccess_flush_fixup"),
	SITE_LIST("__scv_entry_flush_fixup"),
	/*
	 * TOC slots: 8-byte pointers that code loads by offset. A slot is
	 * what it points to (offsets move when a patch adds one); each use
	 * carries its own slot into the output.
	 */
	{ .name = ".toc", .role = SEC_CALLSITE, .size = 8,
	  .pointer_slots = true },
	{ .name = NULL },
};
