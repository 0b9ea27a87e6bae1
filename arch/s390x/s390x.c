// SPDX-License-Identifier: GPL-2.0
/*
 * s390x (big-endian): relocation types, the -mfentry -mnop-mcount
 * -mrecord-mcount ftrace entry (a 6-byte "brcl 0,0" at the start, recorded
 * in __mcount_loc; "brasl %r0,__fentry__" before the kernel nops it), the
 * s390 special sections of a 6.1 kernel (bug, exception and jump tables,
 * alternatives, the expoline branch tables) and "lghi/lhi rN, imm" feeding
 * a __LINE__ argument.
 *
 * Code and data are read big-endian through target_get(), whatever the
 * host. The PC-relative halfword-scaled relocations (*DBL, GOTENT) sit 2
 * bytes into their instruction and are relative to the field, so their
 * addend is 2 more than the target's offset.
 */
#include <string.h>
#include "arch/common.h"

/* R_390_* and EM_S390 come from <elf.h> (through lib/elf.h) */

static unsigned int s390_reloc_size(unsigned int type)
{
	switch (type) {
	case R_390_64: case R_390_PC64: case R_390_GOT64: case R_390_PLT64:
	case R_390_GOTOFF64:
		return 8;
	case R_390_32: case R_390_PC32: case R_390_PC32DBL: case R_390_PLT32DBL:
	case R_390_GOTENT: case R_390_GOTPCDBL: case R_390_GOT32:
	case R_390_PLT32: case R_390_GOTOFF32: case R_390_GOTPLTENT:
		return 4;
	case R_390_16: case R_390_PC16: case R_390_PC16DBL:
	case R_390_PLT16DBL: case R_390_GOT16: case R_390_GOTOFF16:
		return 2;
	case R_390_8:
		return 1;
	default:
		return 0;
	}
}

static bool s390_reloc_is_pcrel(unsigned int type)
{
	switch (type) {
	case R_390_PC64: case R_390_PC32: case R_390_PC32DBL:
	case R_390_PLT32DBL: case R_390_GOTENT: case R_390_GOTPCDBL:
	case R_390_PC16: case R_390_PC16DBL: case R_390_PLT16DBL:
	case R_390_PLT32: case R_390_PLT64: case R_390_GOTPLTENT:
		return true;
	default:
		return false;
	}
}

static bool s390_halfword_scaled(unsigned int type)
{
	return type == R_390_PC32DBL || type == R_390_PLT32DBL ||
	       type == R_390_PC16DBL || type == R_390_PLT16DBL ||
	       type == R_390_GOTENT || type == R_390_GOTPCDBL ||
	       type == R_390_GOTPLTENT;
}

static int64_t s390_reloc_target(const struct section *sec,
				 const struct reloc *r)
{
	if (s390_halfword_scaled(r->type) && is_text_section(sec))
		return (int64_t)((uint64_t)r->addend - 2);
	return r->addend;
}

/* brcl 0,0: what -mnop-mcount leaves at the start of a traced function */
static const unsigned char s390_brcl_nop[6] = { 0xc0, 0x04, 0, 0, 0, 0 };

/* Is the entry at @at of @func recorded in __mcount_loc? */
static bool s390_entry_recorded(const struct symbol *func, uint64_t at)
{
	return arch_entry_recorded(func, "__mcount_loc", at, 0);
}

static long s390_ftrace_site(const struct symbol *func)
{
	const struct section *sec = func->sec;
	uint64_t at = func->offset;
	struct reloc *r;

	if (!sec || !sec->data || func->size < 6 || at + 6 > sec->size)
		return -1;
	/* brasl %r0,__fentry__ (before -mnop-mcount, or a hotpatched one) */
	r = find_reloc_at(sec, at + 2);
	if (sec->data[at] == 0xc0 && sec->data[at + 1] == 0x05 && r &&
	    r->sym && !strcmp(r->sym->name, "__fentry__"))
		return 0;
	if (memcmp(sec->data + at, s390_brcl_nop, 6) ||
	    !s390_entry_recorded(func, at))
		return -1;
	return 0;
}

/*
 * lhi/lghi rN,imm16 (a7 N8 / a7 N9) at @i: the instruction's length, or 0.
 * The opcode and register must agree in @a and @b.
 */
static size_t s390_li_at(const unsigned char *a, const unsigned char *b,
			 size_t len, size_t i)
{
	if (i + 4 > len || a[i] != 0xa7 || a[i] != b[i] || a[i + 1] != b[i + 1])
		return 0;
	if ((a[i + 1] & 0x0f) != 0x08 && (a[i + 1] & 0x0f) != 0x09)
		return 0;
	return 4;
}

/* lhi/lghi take a signed imm16, in the instruction's last two bytes */
static bool s390_line_li(const unsigned char *a, const unsigned char *b,
			 size_t len, size_t start, struct line_imm *imm)
{
	if (!s390_li_at(a, b, len, start))
		return false;
	imm->at = start + 2;
	imm->end = start + 4;
	imm->a = (uint64_t)(int64_t)(int16_t)((a[start + 2] << 8) | a[start + 3]);
	imm->b = (uint64_t)(int64_t)(int16_t)((b[start + 2] << 8) | b[start + 3]);
	return true;
}

/*
 * mvhi/mvghi d(b),imm16 (e5 4c / e5 48) at @i, how a sixth or later argument
 * (ext4's __ext4_new_inode() line) is stored to the stack: a signed imm16 in
 * the instruction's last two of six bytes.
 */
static bool s390_line_mvhi(const unsigned char *a, const unsigned char *b,
			   size_t len, size_t start, struct line_imm *imm)
{
	if (start + 6 > len || a[start] != 0xe5 ||
	    (a[start + 1] != 0x48 && a[start + 1] != 0x4c) ||
	    memcmp(a + start, b + start, 4))
		return false;
	imm->at = start + 4;
	imm->end = start + 6;
	imm->a = (uint64_t)(int64_t)(int16_t)((a[start + 4] << 8) | a[start + 5]);
	imm->b = (uint64_t)(int64_t)(int16_t)((b[start + 4] << 8) | b[start + 5]);
	return true;
}

static bool s390_line_imm(const unsigned char *a, const unsigned char *b,
			  size_t len, size_t start, struct line_imm *imm)
{
	return s390_line_li(a, b, len, start, imm) ||
	       s390_line_mvhi(a, b, len, start, imm);
}

/* the differing byte must be one of an lhi/lghi's or mvhi/mvghi's imm16 */
static const struct line_imm_insn s390_line_lis = {
	.back_max = 5, .back_min = 2, .decode = s390_line_imm,
};

static bool s390_line_only_change(const unsigned char *a, const unsigned char *b,
				  size_t len, line_imm_fn is_line, void *ctx)
{
	return arch_line_only_bytes(&s390_line_lis, a, b, len, is_line, ctx);
}

/*
 * arch/s390/kernel/module.c (6.1, 6.12) applies these; a klp symbol is in
 * the kernel, and 32-bit PC-relative fields reach it (the kernel and
 * modules share the low 4 GB on s390). GOT and PLT types get their slots
 * from module_frob_arch_sections(), which counts .klp.rela.* too.
 */
static bool s390_klp_reloc_ok(unsigned int type)
{
	switch (type) {
	case R_390_NONE: case R_390_64: case R_390_32: case R_390_PC32:
	case R_390_PC64: case R_390_PC32DBL: case R_390_PLT32DBL:
	case R_390_PC16DBL: case R_390_PLT16DBL: case R_390_GOTENT:
		return true;
	default:
		return false;
	}
}

/* the module loader's GOT slots hold st_value only (apply_rela) */
static bool s390_reloc_slot_of_symbol(unsigned int type)
{
	switch (type) {
	case R_390_GOT12: case R_390_GOT16: case R_390_GOT20:
	case R_390_GOT32: case R_390_GOT64: case R_390_GOTENT:
	case R_390_GOTPLT12: case R_390_GOTPLT16: case R_390_GOTPLT20:
	case R_390_GOTPLT32: case R_390_GOTPLT64: case R_390_GOTPLTENT:
		return true;
	default:
		return false;
	}
}

/*
 * The RIL-b/RIL-c instruction whose 32-bit field @r relocates starts two
 * bytes before it: opcode byte, then R1 (or M1) and a 4-bit extension.
 * larl (c0 r0) turns into lgrl (c4 r8), both 6 bytes, the same register:
 * the address comes from a GOT slot (R_390_GOTENT) instead of the PLT
 * entry or the PC-relative offset the loader cannot reach the kernel with.
 */
static unsigned int s390_far_reference(unsigned char *code, uint64_t size,
				       const struct reloc *r)
{
	unsigned char *insn;

	if (r->type != R_390_PC32DBL && r->type != R_390_PLT32DBL)
		return r->type;
	if (r->offset < 2 || r->offset + 4 > size)
		return 0;
	insn = code + r->offset - 2;
	if (insn[0] == 0xc0 && (insn[1] & 0x0f) == 0x05)
		return r->type;		/* brasl: a call, through the PLT */
	if (insn[0] == 0xc0 && (insn[1] & 0x0f) == 0x04)
		return r->type;		/* brcl: a tail call, through the PLT */
	if (insn[0] == 0xc0 && (insn[1] & 0x0f) == 0x00) {	/* larl */
		insn[0] = 0xc4;
		insn[1] = (unsigned char)((insn[1] & 0xf0) | 0x08);	/* lgrl */
		return R_390_GOTENT;
	}
	return 0;
}

/* The two top bits of the first opcode byte: 2, 4, 4 or 6 bytes. */
static size_t s390_insn_length(const unsigned char *code, size_t len, size_t at)
{
	static const size_t by_top_bits[] = { 2, 4, 4, 6 };
	size_t n;

	if (at >= len)
		return 0;
	n = by_top_bits[code[at] >> 6];
	return at + n <= len ? n : 0;
}

extern const struct special_section s390_special[];

const struct arch arch_s390x = {
	.name = "s390x",
	.jump_site_len = 6,
	.machine = EM_S390,
	.r_abs64 = R_390_64,
	.special = s390_special,
	.reloc_size = s390_reloc_size,
	.reloc_is_pcrel = s390_reloc_is_pcrel,
	.reloc_target = s390_reloc_target,
	.ftrace_site = s390_ftrace_site,
	.klp_reloc_ok = s390_klp_reloc_ok,
	.reloc_slot_of_symbol = s390_reloc_slot_of_symbol,
	.far_reference = s390_far_reference,
	.line_only_change = s390_line_only_change,
	.insn_length = s390_insn_length,
};
