// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64: relocation types, the fentry prologue, and just enough
 * instruction decoding to find where a RIP-relative operand ends, to
 * recognise "mov $imm32, %reg" feeding a __LINE__ argument and to read a
 * jump's displacement for the inline report. Its special sections:
 * special.c.
 */
#include <string.h>
#include "arch/common.h"
#include "arch/x86_64/insn.h"

#define R_X86_64_NONE		0
#define R_X86_64_64		1
#define R_X86_64_PC32		2
#define R_X86_64_PLT32		4
#define R_X86_64_GOTPCREL	9
#define R_X86_64_32		10
#define R_X86_64_32S		11
#define R_X86_64_16		12
#define R_X86_64_PC16		13
#define R_X86_64_8		14
#define R_X86_64_PC8		15
#define R_X86_64_PC64		24
#define R_X86_64_GOTPCRELX	41
#define R_X86_64_REX_GOTPCRELX	42

static unsigned int x86_reloc_size(unsigned int type)
{
	switch (type) {
	case R_X86_64_64:
	case R_X86_64_PC64:
		return 8;
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
	case R_X86_64_32:
	case R_X86_64_32S:
	case R_X86_64_GOTPCREL:
	case R_X86_64_GOTPCRELX:
	case R_X86_64_REX_GOTPCRELX:
		return 4;
	case R_X86_64_16:
	case R_X86_64_PC16:
		return 2;
	case R_X86_64_8:
	case R_X86_64_PC8:
		return 1;
	default:
		return 0;
	}
}

static bool x86_reloc_is_pcrel(unsigned int type)
{
	switch (type) {
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
	case R_X86_64_PC64:
	case R_X86_64_PC16:
	case R_X86_64_PC8:
	case R_X86_64_GOTPCREL:
	case R_X86_64_GOTPCRELX:
	case R_X86_64_REX_GOTPCRELX:
		return true;
	default:
		return false;
	}
}

/*
 * Bytes of immediate that follow a RIP-relative disp32 at @off: the
 * instruction ends that much after the displacement. Only the group-1,
 * mov and test forms with an immediate are distinguished; everything else
 * ends right after the displacement.
 */
static unsigned int rip_imm_after(const unsigned char *code, uint64_t off)
{
	unsigned char op, modrm, reg;
	bool opsize16;

	if (off < 2)
		return 0;
	modrm = code[off - 1];
	op = code[off - 2];
	if ((modrm & 0xc7) != 0x05)
		return 0;
	if (off >= 3 && code[off - 3] == 0x0f)
		return op == 0xba ? 1 : 0;	/* bt* $imm8 */
	reg = (modrm >> 3) & 7;
	opsize16 = off >= 3 && (code[off - 3] == 0x66 ||
				(off >= 4 && code[off - 4] == 0x66));
	switch (op) {
	case 0x80: case 0x83: case 0xc6: case 0xc0: case 0xc1:
		return 1;
	case 0xf6:
		return reg <= 1 ? 1 : 0;
	case 0x81: case 0xc7:
		return opsize16 ? 2 : 4;
	case 0xf7:
		return reg <= 1 ? (opsize16 ? 2 : 4) : 0;
	default:
		return 0;
	}
}

static int64_t x86_reloc_target(const struct section *sec,
				const struct reloc *r)
{
	unsigned int size = x86_reloc_size(r->type);

	if (!x86_reloc_is_pcrel(r->type) || !is_text_section(sec) || !sec->data)
		return r->addend;
	/* addend = target - (end of insn - field start) */
	/* wrapping arithmetic: a corrupt addend must not overflow */
	if (size == 4 && r->offset + 4 <= sec->size)
		return (int64_t)((uint64_t)r->addend + 4 +
				 rip_imm_after(sec->data, r->offset));
	return (int64_t)((uint64_t)r->addend + size);
}

/* "call __fentry__" (or the 5-byte nop it becomes), after endbr64 with IBT */
static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };

static const struct ftrace_prologue x86_prologues[] = {
	{ endbr64, sizeof(endbr64) },
	{ NULL, 0 },
};

static const struct ftrace_pattern x86_ftrace = {
	.call = "__fentry__",
	.call_len = 5,
	.reloc_off = 1,
	.prologues = x86_prologues,
};

/*
 * Is [i, i+4) the imm32 of a "mov $imm32, %reg" (b8+r, REX.B b8+r, or
 * c7 /0 with a register operand) whose opcode bytes are equal in @a and
 * @b? Returns the instruction's end, or 0.
 */
static size_t mov_imm32_end(const unsigned char *a, const unsigned char *b,
			    size_t len, size_t imm)
{
	if (imm + 4 > len)
		return 0;
	if (imm >= 1 && a[imm - 1] >= 0xb8 && a[imm - 1] <= 0xbf &&
	    a[imm - 1] == b[imm - 1])
		return imm + 4;
	if (imm >= 2 && a[imm - 2] == 0xc7 && (a[imm - 1] & 0xf8) == 0xc0 &&
	    a[imm - 2] == b[imm - 2] && a[imm - 1] == b[imm - 1])
		return imm + 4;
	return 0;
}

/*
 * Is [i, i+@size) the immediate of a push whose opcode is equal in @a and
 * @b: "push $imm32" (68 id) or "push $imm8" (6a ib), how a seventh or later
 * argument (ext4's __ext4_new_inode() line) goes on the stack? Its end, or 0.
 */
static size_t push_imm_end(const unsigned char *a, const unsigned char *b,
			   size_t len, size_t imm, size_t *size)
{
	if (imm < 1 || a[imm - 1] != b[imm - 1])
		return 0;
	*size = a[imm - 1] == 0x68 ? 4 : a[imm - 1] == 0x6a ? 1 : 0;
	if (!*size || imm + *size > len)
		return 0;
	return imm + *size;
}

/*
 * A mov or push whose immediate (at @start) changed: line numbers are
 * small, addresses and masks are not (a push's imm8 is sign-extended: a
 * line only up to 127).
 */
static bool x86_line_mov(const unsigned char *a, const unsigned char *b,
			 size_t len, size_t start, struct line_imm *imm)
{
	size_t size = 4, end = mov_imm32_end(a, b, len, start);

	if (!end)
		end = push_imm_end(a, b, len, start, &size);
	if (!end)
		return false;
	imm->at = start;
	imm->end = end;
	imm->a = target_get(false, a + start, size);
	imm->b = target_get(false, b + start, size);
	if (size == 1 && (imm->a > 127 || imm->b > 127))
		return false;
	return imm->a != imm->b && imm->a <= SOURCE_LINE_MAX &&
	       imm->b <= SOURCE_LINE_MAX;
}

/* the differing byte must sit inside one mov's or push's immediate */
static const struct line_imm_insn x86_line_movs = {
	.back_max = 3, .back_min = 0, .decode = x86_line_mov,
};

static bool x86_line_only_change(const unsigned char *a, const unsigned char *b,
				 size_t len, line_imm_fn is_line, void *ctx)
{
	return arch_line_only_bytes(&x86_line_movs, a, b, len, is_line, ctx);
}

/* arch/x86/kernel/module.c, 6.1 and 6.12 alike */
static bool x86_klp_reloc_ok(unsigned int type)
{
	switch (type) {
	case R_X86_64_NONE: case R_X86_64_64: case R_X86_64_32:
	case R_X86_64_32S: case R_X86_64_PC32: case R_X86_64_PLT32:
	case R_X86_64_PC64:
		return true;
	default:
		return false;
	}
}

static int64_t disp(const unsigned char *c, unsigned int size)
{
	return size == 1 ? (int8_t)c[0] : (int32_t)target_get(false, c, 4);
}

/*
 * A forward jump over the changed code has a new displacement without
 * being changed itself. When the difference at @i lies in the rel8/rel32
 * field of such a jump (jcc, jmp) in both (the bytes before @i are equal,
 * so one opcode check serves both), return the end of that field, else 0.
 * A heuristic without an instruction decoder: the report only.
 */
static uint64_t x86_branch_field_end(const unsigned char *a, uint64_t alen,
				     const unsigned char *b, uint64_t blen,
				     uint64_t i, uint64_t len)
{
	uint64_t s, end;
	unsigned int size;

	for (s = i; s + 3 >= i && s >= 1; s--) {
		if (s == i && ((a[s - 1] & 0xf0) == 0x70 || a[s - 1] == 0xeb))
			size = 1;
		else if (a[s - 1] == 0xe9 ||
			 (s >= 2 && a[s - 2] == 0x0f && (a[s - 1] & 0xf0) == 0x80))
			size = 4;
		else
			continue;
		end = s + size;
		if (end > len || disp(a + s, size) <= 0 || disp(b + s, size) <= 0 ||
		    end + disp(a + s, size) > alen ||
		    end + disp(b + s, size) > blen)
			continue;
		return end;
	}
	return 0;
}

extern const struct special_section x86_special[];

const struct arch arch_x86_64 = {
	.name = "x86_64",
	.jump_site_len = 5,
	.machine = EM_X86_64,
	.r_abs64 = R_X86_64_64,
	.r_pc32 = R_X86_64_PC32,
	.r_pc8 = R_X86_64_PC8,
	.special = x86_special,
	.ftrace = &x86_ftrace,
	.prefix_symbol = "__pfx_",
	.reloc_size = x86_reloc_size,
	.reloc_is_pcrel = x86_reloc_is_pcrel,
	.reloc_target = x86_reloc_target,
	.klp_reloc_ok = x86_klp_reloc_ok,
	.line_only_change = x86_line_only_change,
	.branch_field_end = x86_branch_field_end,
	.decode = x86_decode,
};
