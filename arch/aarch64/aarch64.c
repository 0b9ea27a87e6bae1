// SPDX-License-Identifier: GPL-2.0
/*
 * aarch64: relocation types (AAELF64), the -fpatchable-function-entry=2
 * ftrace entry (two NOPs at the start, after a BTI landing pad when the
 * kernel is built with BTI, recorded in __patchable_function_entries), the
 * arm64 special sections of a 6.1 kernel and the "mov wN, #imm" (movz)
 * that feeds a __LINE__ argument.
 *
 * AArch64 addends are exact: S + A - P with P the field itself, so a
 * relocation's target is its addend, PC-relative or not.
 */
#include <string.h>
#include "arch/common.h"

/* R_AARCH64_* and EM_AARCH64 come from <elf.h> (through lib/elf.h) */

static unsigned int a64_reloc_size(unsigned int type)
{
	switch (type) {
	case R_AARCH64_ABS64:
	case R_AARCH64_PREL64:
		return 8;
	case R_AARCH64_ABS32:
	case R_AARCH64_PREL32:
		return 4;
	case R_AARCH64_ABS16:
	case R_AARCH64_PREL16:
		return 2;
	default:
		/* every other type patches one 4-byte instruction */
		if ((type >= R_AARCH64_MOVW_UABS_G0 &&
		     type <= R_AARCH64_LDST128_ABS_LO12_NC) ||
		    type == R_AARCH64_ADR_GOT_PAGE ||
		    type == R_AARCH64_LD64_GOT_LO12_NC)
			return 4;
		return 0;
	}
}

static bool a64_reloc_is_pcrel(unsigned int type)
{
	switch (type) {
	case R_AARCH64_PREL64: case R_AARCH64_PREL32: case R_AARCH64_PREL16:
	case R_AARCH64_LD_PREL_LO19: case R_AARCH64_ADR_PREL_LO21:
	case R_AARCH64_ADR_PREL_PG_HI21: case R_AARCH64_ADR_PREL_PG_HI21_NC:
	case R_AARCH64_TSTBR14: case R_AARCH64_CONDBR19:
	case R_AARCH64_JUMP26: case R_AARCH64_CALL26:
	case R_AARCH64_ADR_GOT_PAGE:
		return true;
	default:
		return type >= R_AARCH64_MOVW_PREL_G0 &&
		       type <= R_AARCH64_MOVW_PREL_G3;
	}
}

static int64_t a64_reloc_target(const struct section *sec,
				const struct reloc *r)
{
	(void)sec;
	return r->addend;
}

#define A64_NOP		0xd503201fu
/* BTI c / j / jc, and PACIASP / PACIBSP (implicit BTI c landing pads) */
static bool a64_landing_pad(uint32_t insn)
{
	return insn == 0xd503245fu || insn == 0xd503249fu ||
	       insn == 0xd50324dfu || insn == 0xd503233fu ||
	       insn == 0xd503237fu;
}

static uint32_t a64_insn(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/*
 * The patchable entry: NOP, NOP at the start, after a landing pad when
 * there is one (-fpatchable-function-entry=2). Kernels with
 * DYNAMIC_FTRACE_WITH_CALL_OPS (6.3+) build with =4,2: two more NOPs
 * before the symbol, and the record points at the first of those. It is
 * the ftrace site only when __patchable_function_entries records it: a
 * notrace function that happens to start with two NOPs is not traceable.
 */
#define A64_MAX_PREFIX	16	/* bytes of NOPs before the symbol */

static bool a64_entry_recorded(const struct symbol *func, uint64_t at)
{
	return arch_entry_recorded(func, "__patchable_function_entries", at,
				   A64_MAX_PREFIX);
}

static long a64_ftrace_site(const struct symbol *func)
{
	const struct section *sec = func->sec;
	uint64_t at = func->offset;

	if (!sec || !sec->data || func->size < 8 ||
	    func->offset + func->size > sec->size)
		return -1;
	if (func->size >= 12 && a64_landing_pad(a64_insn(sec->data + at)))
		at += 4;
	if (a64_insn(sec->data + at) != A64_NOP ||
	    a64_insn(sec->data + at + 4) != A64_NOP)
		return -1;
	if (!a64_entry_recorded(func, at))
		return -1;
	return (long)(at - func->offset);
}

/* movz wN/xN, #imm16 (hw 0): the immediate, or -1 */
static long a64_movz_imm(uint32_t insn)
{
	if ((insn & 0x7fe00000u) != 0x52800000u)
		return -1;
	return (insn >> 5) & 0xffff;
}

/* same register and width, only the immediate moved: both values */
static bool a64_movz_imm_values(uint32_t ia, uint32_t ib, uint64_t *va,
				uint64_t *vb)
{
	if (a64_movz_imm(ia) < 0 || a64_movz_imm(ib) < 0 ||
	    (ia & 0xff00001fu) != (ib & 0xff00001fu))
		return false;
	*va = (uint64_t)a64_movz_imm(ia);
	*vb = (uint64_t)a64_movz_imm(ib);
	return true;
}

static bool a64_line_only_change(const unsigned char *a, const unsigned char *b,
				 size_t len, line_imm_fn is_line, void *ctx)
{
	return arch_line_only_words(a64_movz_imm_values, a, b, len, is_line,
				    ctx);
}

/*
 * arch/arm64/kernel/module.c (6.1, 6.12): every data and instruction type
 * the tools meet. No GOT types: the loader has none.
 */
static bool a64_klp_reloc_ok(unsigned int type)
{
	switch (type) {
	case R_AARCH64_NONE:
	case R_AARCH64_ADR_GOT_PAGE: case R_AARCH64_LD64_GOT_LO12_NC:
		return type == R_AARCH64_NONE;
	default:
		return a64_reloc_size(type) != 0;
	}
}

/* Every instruction is 4 bytes. */
static size_t a64_insn_length(const unsigned char *code, size_t len, size_t at)
{
	return at + 4 <= len ? 4 : 0;
}

extern const struct special_section a64_special[];

const struct arch arch_aarch64 = {
	.name = "aarch64",
	.jump_site_len = 4,
	.machine = EM_AARCH64,
	.r_abs64 = R_AARCH64_ABS64,
	.special = a64_special,
	.reloc_size = a64_reloc_size,
	.reloc_is_pcrel = a64_reloc_is_pcrel,
	.reloc_target = a64_reloc_target,
	.ftrace_site = a64_ftrace_site,
	.klp_reloc_ok = a64_klp_reloc_ok,
	.line_only_change = a64_line_only_change,
	.insn_length = a64_insn_length,
};
