// SPDX-License-Identifier: GPL-2.0
/*
 * ppc64le (ELFv2): relocation types, the -mprofile-kernel ftrace entry
 * ("mflr r0; [std r0,16(r1);] bl _mcount" at the local entry point), the
 * call sites the module loader cannot route, the klp relocation types and
 * "li/lis rN, imm" feeding a __LINE__ argument. Its special sections (the
 * TOC, feature and barrier fixups): special.c.
 *
 * ELFv2 addends are exact (S + A - P, P the field itself), so a
 * relocation's target is its addend. Code is read little-endian.
 */
#include <string.h>
#include "arch/common.h"

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

/*
 * -mprofile-kernel: "mflr r0; [std r0,16(r1);] bl _mcount" at the local
 * entry point, after the global entry's TOC setup when the function has
 * one: "addis r2,r12,.TOC.@ha; addi r2,r2,.TOC.@l" (immediates 0 in the
 * object) or, with -mcmodel=large, "ld r2,-8(r12); add r2,r2,r12" (the
 * TOC offset stored before the function). Instructions in file
 * (little-endian) order; longest first.
 */
#define PPC_TOC_SETUP	0x00, 0x00, 0x4c, 0x3c, 0x00, 0x00, 0x42, 0x38
#define PPC_TOC_LOAD	0xf8, 0xff, 0x4c, 0xe8, 0x14, 0x62, 0x42, 0x7c
#define PPC_MFLR_R0	0xa6, 0x02, 0x08, 0x7c
#define PPC_STD_R0_16	0x10, 0x00, 0x01, 0xf8	/* std r0,16(r1) */

static const unsigned char load_mflr_std[] = { PPC_TOC_LOAD, PPC_MFLR_R0, PPC_STD_R0_16 };
static const unsigned char load_mflr[] = { PPC_TOC_LOAD, PPC_MFLR_R0 };
static const unsigned char toc_mflr_std[] = { PPC_TOC_SETUP, PPC_MFLR_R0, PPC_STD_R0_16 };
static const unsigned char toc_mflr[] = { PPC_TOC_SETUP, PPC_MFLR_R0 };
static const unsigned char mflr_std[] = { PPC_MFLR_R0, PPC_STD_R0_16 };
static const unsigned char mflr[] = { PPC_MFLR_R0 };

static const struct ftrace_prologue ppc_prologues[] = {
	{ load_mflr_std, sizeof(load_mflr_std) },
	{ load_mflr, sizeof(load_mflr) },
	{ toc_mflr_std, sizeof(toc_mflr_std) },
	{ toc_mflr, sizeof(toc_mflr) },
	{ mflr_std, sizeof(mflr_std) },
	{ mflr, sizeof(mflr) },
	{ NULL, 0 },
};

static const struct ftrace_pattern ppc_ftrace = {
	.call = "_mcount",
	.call_len = 4,
	.reloc_off = 0,
	.prologues = ppc_prologues,
};

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

static const struct call_site_words ppc_call_site_words = {
	.no_slot = "no nop after the bl for the TOC restore",
	.no_slot_carried = "no TOC-restore nop after the bl",
	.sibling = "the loader's stub cannot restore the TOC after it",
};

/*
 * b/bl (I-form, opcode 18) and bc (B-form, opcode 16), relative (AA = 0),
 * with no relocation, to an offset outside [start, end). Instructions are
 * 4 bytes, so every word is one.
 */
static bool ppc_unrelocated_branch_out(const struct section *sec,
				       uint64_t start, uint64_t end)
{
	uint64_t off;
	uint32_t insn;
	int64_t disp;

	if (!sec->data)
		return false;
	for (off = start; off + 4 <= end && off + 4 <= sec->size; off += 4) {
		insn = ppc_insn(sec->data + off);
		if (insn & 2)
			continue;	/* absolute */
		if ((insn >> 26) == 18)
			disp = (int64_t)((int32_t)((insn & 0x03fffffcu) << 6) >> 6);
		else if ((insn >> 26) == 16)
			disp = (int64_t)(int16_t)(insn & 0xfffcu);
		else
			continue;
		if (find_reloc_at(sec, off))
			continue;
		if ((int64_t)off + disp < (int64_t)start ||
		    (int64_t)off + disp >= (int64_t)end)
			return true;
	}
	return false;
}

/* li rN,imm / lis rN,imm (addi/addis with RA = 0): the register, or -1 */
static long ppc_li_reg(uint32_t insn)
{
	uint32_t op = insn >> 26;

	if ((op != 14 && op != 15) || ((insn >> 16) & 31))
		return -1;
	return (insn >> 21) & 31;
}

/* a signed imm16; lis puts it in the high half */
static uint64_t ppc_li_value(uint32_t insn)
{
	int64_t v = (int16_t)(insn & 0xffffu);

	return (uint64_t)((insn >> 26) == 15 ? v * 65536 : v);
}

/* same li/lis and register, only the immediate moved: both values */
static bool ppc_li_imm_values(uint32_t ia, uint32_t ib, uint64_t *va,
			      uint64_t *vb)
{
	if (ppc_li_reg(ia) < 0 || (ia >> 16) != (ib >> 16))
		return false;
	*va = ppc_li_value(ia);
	*vb = ppc_li_value(ib);
	return true;
}

static bool ppc_line_only_change(const unsigned char *a, const unsigned char *b,
				 size_t len, line_imm_fn is_line, void *ctx)
{
	return arch_line_only_words(ppc_li_imm_values, a, b, len, is_line, ctx);
}

/*
 * arch/powerpc/kernel/module_64.c accepts ADDR32/64, TOC, TOC16*, REL24,
 * REL64, REL32, REL16_HA/LO, ENTRY, TOCSAVE in 6.1 (6.12 adds REL24_NOTOC
 * and the prefixed PCREL34 forms). A klp symbol lives in the kernel, far
 * from the patch module: TOC-relative (TOC16*), REL16 and REL32 fields
 * cannot reach it (the loader reports an overflow), so only the full
 * pointers and the stubbed call are left.
 */
/* module_64.c turns an undefined ".TOC." into the module's TOC base */
static const char *const ppc_loader_symbols[] = { ".TOC.", NULL };

static bool ppc_klp_reloc_ok(unsigned int type)
{
	return type == R_PPC64_ADDR64 || type == R_PPC64_REL64 ||
	       type == R_PPC64_REL24 || type == R_PPC64_NONE;
}

/* Every instruction is 4 bytes. */
static size_t ppc_insn_length(const unsigned char *code, size_t len, size_t at)
{
	return at + 4 <= len ? 4 : 0;
}

extern const struct special_section ppc_special[];

const struct arch arch_ppc64le = {
	.name = "ppc64le",
	.jump_site_len = 4,
	.machine = EM_PPC64,
	.r_abs64 = R_PPC64_ADDR64,
	.special = ppc_special,
	.reloc_size = ppc_reloc_size,
	.reloc_is_pcrel = ppc_reloc_is_pcrel,
	.reloc_target = ppc_reloc_target,
	.ftrace = &ppc_ftrace,
	.klp_reloc_ok = ppc_klp_reloc_ok,
	.klp_reloc_hint = "TOC-relative on ppc64: build with -mcmodel=large, as kpatch-build does",
	.loader_symbols = ppc_loader_symbols,
	.call_site = ppc_call_site,
	.call_site_words = &ppc_call_site_words,
	.unrelocated_branch_out = ppc_unrelocated_branch_out,
	.differ_writes_mcount_loc = true,
	.line_only_change = ppc_line_only_change,
	.insn_length = ppc_insn_length,
};
