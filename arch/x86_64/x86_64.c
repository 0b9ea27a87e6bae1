// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64: relocation types, the fentry prologue, the special sections of a
 * 6.1 kernel and just enough instruction decoding to find where a
 * RIP-relative operand ends and to recognise "mov $imm32, %reg" feeding a
 * __LINE__ argument.
 */
#include <string.h>
#include "arch/arch.h"

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

static long x86_ftrace_call_offset(const struct symbol *func)
{
	static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	const struct section *sec = func->sec;
	uint64_t at = func->offset;
	struct reloc *r;

	if (!sec || !sec->data)
		return -1;
	if (func->size >= 9 && !memcmp(sec->data + at, endbr64, 4))
		at += 4;
	/* "call __fentry__", or the 5-byte nop it is turned into */
	if (at + 5 > func->offset + func->size)
		return -1;
	r = find_reloc_at(sec, at + 1);
	if (!r || !r->sym || strcmp(r->sym->name, "__fentry__"))
		return -1;
	return (long)(at - func->offset);
}

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

static bool small_imm_pair(const unsigned char *a, const unsigned char *b,
			   size_t start)
{
	uint32_t va = target_get(false, a + start, 4);
	uint32_t vb = target_get(false, b + start, 4);

	/* line numbers are small; addresses and masks are not */
	return va != vb && va <= 0x100000 && vb <= 0x100000;
}

static bool x86_line_only_change(const unsigned char *a, const unsigned char *b,
				 size_t len,
				 bool (*is_line_call)(void *ctx, size_t off),
				 void *ctx)
{
	size_t i = 0, found = 0;

	while (i < len) {
		size_t start, end = 0;

		if (a[i] == b[i]) {
			i++;
			continue;
		}
		/* the differing byte must sit inside one mov's imm32 */
		for (start = i >= 3 ? i - 3 : 0; start <= i; start++) {
			end = mov_imm32_end(a, b, len, start);
			if (end && small_imm_pair(a, b, start) &&
			    is_line_call(ctx, end))
				break;
			end = 0;
		}
		if (!end)
			return false;
		found++;
		i = end;
	}
	return found > 0;
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

/* Entry sizes come from the kernel's structs, via the environment. */
#define SIZED(n, env)	{ .name = n, .size_env = env }
#define FIXED(n, sz)	{ .name = n, .size = sz }

static const struct special_section x86_special[] = {
	/* bug_entry: addr disp, file disp, line (ignored), flags */
	{ .name = "__bug_table", .size_env = "BUG_STRUCT_SIZE",
	  .ignore_off = 8, .ignore_len = 2 },
	SIZED("__jump_table", "JUMP_STRUCT_SIZE"),
	SIZED("__ex_table", "EX_STRUCT_SIZE"),
	SIZED(".altinstructions", "ALT_STRUCT_SIZE"),
	SIZED(".parainstructions", "PARA_STRUCT_SIZE"),
	SIZED(".static_call_sites", "STATIC_CALL_STRUCT_SIZE"),
	FIXED(".orc_unwind_ip", 4),
	/* no relocations: entry i describes .orc_unwind_ip's entry i */
	{ .name = ".orc_unwind", .size_env = "ORC_STRUCT_SIZE",
	  .companion = ".orc_unwind_ip" },
	FIXED(".smp_locks", 4),
	FIXED("__mcount_loc", 8),
	FIXED("__patchable_function_entries", 8),
	FIXED(".retpoline_sites", 4),
	FIXED(".return_sites", 4),
	FIXED(".call_sites", 4),
	FIXED(".ibt_endbr_seal", 4),
	/* pointers to pi_entry objects, which point at the format strings */
	{ .name = ".printk_index", .size = 8, .data_owner = true },
	{ .name = NULL },
};

const struct arch arch_x86_64 = {
	.name = "x86_64",
	.machine = EM_X86_64,
	.r_abs64 = R_X86_64_64,
	.r_pc32 = R_X86_64_PC32,
	.r_none = R_X86_64_NONE,
	.fentry = "__fentry__",
	.special = x86_special,
	.reloc_size = x86_reloc_size,
	.reloc_is_pcrel = x86_reloc_is_pcrel,
	.reloc_target = x86_reloc_target,
	.ftrace_call_offset = x86_ftrace_call_offset,
	.klp_reloc_ok = x86_klp_reloc_ok,
	.line_only_change = x86_line_only_change,
};
