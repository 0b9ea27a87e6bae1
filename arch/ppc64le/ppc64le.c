// SPDX-License-Identifier: GPL-2.0
/*
 * ppc64le (ELFv2): relocation types, the -mprofile-kernel ftrace entry
 * ("mflr r0; [std r0,16(r1);] bl _mcount" at the local entry point, which
 * st_other gives), the powerpc special sections of a 6.1 kernel (bug and
 * exception tables, jump labels, the CPU/MMU/firmware feature fixups and
 * the barrier fixup lists) and "li/lis rN, imm" feeding a __LINE__
 * argument.
 *
 * ELFv2 addends are exact (S + A - P, P the field itself), so a
 * relocation's target is its addend. Code is read little-endian.
 */
#include <string.h>
#include "arch/arch.h"

/* R_PPC64_* and EM_PPC64 come from <elf.h> (through lib/elf.h) */
#ifndef R_PPC64_REL24_NOTOC
#define R_PPC64_REL24_NOTOC	116	/* glibc < 2.32 lacks it */
#endif

static unsigned int ppc_reloc_size(unsigned int type)
{
	switch (type) {
	case R_PPC64_ADDR64: case R_PPC64_UADDR64: case R_PPC64_REL64:
	case R_PPC64_TOC:
		return 8;
	case R_PPC64_ADDR32: case R_PPC64_UADDR32: case R_PPC64_REL32:
	case R_PPC64_REL24: case R_PPC64_REL24_NOTOC: case R_PPC64_REL14:
	case R_PPC64_REL14_BRTAKEN: case R_PPC64_REL14_BRNTAKEN:
	case R_PPC64_ADDR24: case R_PPC64_ADDR14:
		return 4;
	case R_PPC64_ADDR16: case R_PPC64_ADDR16_LO: case R_PPC64_ADDR16_HI:
	case R_PPC64_ADDR16_HA: case R_PPC64_ADDR16_DS:
	case R_PPC64_ADDR16_LO_DS: case R_PPC64_ADDR16_HIGHER:
	case R_PPC64_ADDR16_HIGHEST: case R_PPC64_ADDR16_HIGHERA:
	case R_PPC64_ADDR16_HIGHESTA:
	case R_PPC64_TOC16: case R_PPC64_TOC16_LO: case R_PPC64_TOC16_HI:
	case R_PPC64_TOC16_HA: case R_PPC64_TOC16_DS: case R_PPC64_TOC16_LO_DS:
	case R_PPC64_REL16: case R_PPC64_REL16_LO: case R_PPC64_REL16_HI:
	case R_PPC64_REL16_HA:
		return 2;
	default:
		return 0;	/* markers: ENTRY, TOCSAVE, NONE */
	}
}

static bool ppc_reloc_is_pcrel(unsigned int type)
{
	switch (type) {
	case R_PPC64_REL64: case R_PPC64_REL32: case R_PPC64_REL24:
	case R_PPC64_REL24_NOTOC: case R_PPC64_REL14:
	case R_PPC64_REL14_BRTAKEN: case R_PPC64_REL14_BRNTAKEN:
	case R_PPC64_REL16: case R_PPC64_REL16_LO: case R_PPC64_REL16_HI:
	case R_PPC64_REL16_HA:
		return true;
	default:
		return false;
	}
}

static int64_t ppc_reloc_target(const struct section *sec,
				const struct reloc *r)
{
	(void)sec;
	return r->addend;
}

static uint32_t ppc_insn(const unsigned char *p)
{
	return (uint32_t)target_get(false, p, 4);
}

#define PPC_MFLR_R0	0x7c0802a6u
#define PPC_STD_R0_16	0xf8010010u	/* std r0,16(r1) */

/* The local entry point: what a call from the same TOC enters at. */
static uint64_t ppc_local_entry(const struct symbol *func)
{
	unsigned int v = (func->other >> 5) & 7;

	return v < 2 ? 0 : (uint64_t)((1u << v) >> 2) << 2;
}

static long ppc_ftrace_call_offset(const struct symbol *func)
{
	const struct section *sec = func->sec;
	uint64_t at = func->offset + ppc_local_entry(func);
	uint64_t end = func->offset + func->size;
	struct reloc *r;

	if (!sec || !sec->data || end > sec->size || at + 8 > end)
		return -1;
	if (ppc_insn(sec->data + at) != PPC_MFLR_R0)
		return -1;
	at += 4;
	if (at + 8 <= end && ppc_insn(sec->data + at) == PPC_STD_R0_16)
		at += 4;
	r = find_reloc_at(sec, at);
	if (!r || !r->sym || r->type != R_PPC64_REL24 ||
	    strcmp(r->sym->name, "_mcount"))
		return -1;
	return (long)(at - func->offset);
}

#define PPC_NOP		0x60000000u

/*
 * A call out of the patch module goes through a stub the loader makes,
 * which switches to the kernel's TOC; the loader then rewrites the nop
 * after the bl into the TOC restore, and refuses the module without one.
 * GCC leaves no nop after a bl to a function of the same file, and a tail
 * call (b) never comes back to restore anything.
 */
static enum call_site ppc_call_site(const struct section *sec,
				    const struct reloc *r)
{
	uint32_t insn;

	if ((r->type != R_PPC64_REL24 && r->type != R_PPC64_REL24_NOTOC) ||
	    !sec->data || r->offset + 4 > sec->size)
		return CALL_PLAIN;
	/* the loader knows the -mprofile-kernel call needs no restore */
	if (r->sym && !strcmp(r->sym->name, "_mcount"))
		return CALL_PLAIN;
	insn = ppc_insn(sec->data + r->offset);
	if ((insn >> 26) != 18)
		return CALL_PLAIN;
	if (!(insn & 1))
		return CALL_SIBLING;
	if (r->offset + 8 > sec->size ||
	    ppc_insn(sec->data + r->offset + 4) != PPC_NOP)
		return CALL_NO_SLOT;
	return CALL_PLAIN;
}

/* li rN,imm / lis rN,imm (addi/addis with RA = 0): the register, or -1 */
static long ppc_li_reg(uint32_t insn)
{
	uint32_t op = insn >> 26;

	if ((op != 14 && op != 15) || ((insn >> 16) & 31))
		return -1;
	return (insn >> 21) & 31;
}

static bool ppc_line_only_change(const unsigned char *a, const unsigned char *b,
				 size_t len,
				 bool (*is_line_call)(void *ctx, size_t off),
				 void *ctx)
{
	size_t i, found = 0;

	if (len % 4)
		return false;
	for (i = 0; i < len; i += 4) {
		uint32_t ia = ppc_insn(a + i), ib = ppc_insn(b + i);

		if (ia == ib)
			continue;
		/* same li/lis and register, only the immediate moved */
		if (ppc_li_reg(ia) < 0 || (ia >> 16) != (ib >> 16) ||
		    !is_line_call(ctx, i + 4))
			return false;
		found++;
	}
	return found > 0;
}

/*
 * arch/powerpc/kernel/module_64.c accepts ADDR32/64, TOC, TOC16*, REL24,
 * REL64, REL32, REL16_HA/LO, ENTRY, TOCSAVE in 6.1 (6.12 adds REL24_NOTOC
 * and the prefixed PCREL34 forms). A klp symbol lives in the kernel, far
 * from the patch module: TOC-relative (TOC16*), REL16 and REL32 fields
 * cannot reach it (the loader reports an overflow), so only the full
 * pointers and the stubbed call are left.
 */
static bool ppc_klp_reloc_ok(unsigned int type)
{
	return type == R_PPC64_ADDR64 || type == R_PPC64_REL64 ||
	       type == R_PPC64_REL24 || type == R_PPC64_NONE;
}

/*
 * Feature fixups: struct fixup_entry { mask, value, start_off, end_off,
 * alt_start_off, alt_end_off } (six longs); the offsets are relative to
 * the entry, the owner is the code at start_off. The barrier and flush
 * fixup lists hold one 8-byte offset per patched site.
 */
#define FIXUP(n)	{ .name = n, .size_env = "FIXUP_STRUCT_SIZE", .owner_off = 16 }
#define SITE_LIST(n)	{ .name = n, .size = 8 }

static const struct special_section ppc_special[] = {
	/* bug_entry: addr disp, file disp, line (ignored), flags */
	{ .name = "__bug_table", .size_env = "BUG_STRUCT_SIZE",
	  .ignore_off = 8, .ignore_len = 2 },
	{ .name = "__jump_table", .size_env = "JUMP_STRUCT_SIZE" },
	/*
	 * exception_table_entry: s32 insn, s32 fixup, fixed by the arch; two
	 * PC-relative words look alike, so the size cannot be inferred
	 */
	{ .name = "__ex_table", .size = 8 },
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
	/* __mcount_loc: recordmcount's, not the compiler's; the differ writes it */
	{ .name = ".printk_index", .size = 8, .data_owner = true },
	{ .name = NULL },
};

const struct arch arch_ppc64le = {
	.name = "ppc64le",
	.machine = EM_PPC64,
	.r_abs64 = R_PPC64_ADDR64,
	.r_pc32 = R_PPC64_REL32,
	.r_none = R_PPC64_NONE,
	.fentry = "_mcount",
	.special = ppc_special,
	.reloc_size = ppc_reloc_size,
	.reloc_is_pcrel = ppc_reloc_is_pcrel,
	.reloc_target = ppc_reloc_target,
	.ftrace_call_offset = ppc_ftrace_call_offset,
	.klp_reloc_ok = ppc_klp_reloc_ok,
	.call_site = ppc_call_site,
	.differ_writes_mcount_loc = true,
	.line_only_change = ppc_line_only_change,
};
