// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 instruction lengths, for the code GCC emits for the kernel: enough
 * of the opcode maps to step from instruction to instruction and to find
 * the PC-relative operands (branch displacements, RIP-relative memory).
 * The assembler resolves a call or jump between two functions of one
 * section itself, leaving no relocation; the differ needs those operands
 * to carry one function out of a section it shares (.sched.text).
 * Anything not recognised stops the walk: the caller then treats the
 * function as not splittable, never as decoded.
 */
#include <stdint.h>
#include <string.h>
#include "arch/arch.h"
#include "arch/x86_64/insn.h"

enum {
	M = 1,		/* has a ModRM byte */
	I8 = 2,		/* imm8 */
	I32 = 4,	/* imm16/32 by operand size */
	R8 = 8,		/* rel8 */
	R32 = 16,	/* rel32 */
	BAD = 32,	/* invalid in 64-bit mode, or not handled */
	GRP3 = 64,	/* f6/f7: imm only for /0 and /1 */
	I16 = 128,	/* imm16 (ret, enter) */
	MOFFS = 256,	/* a0-a3: 8-byte address */
	I64 = 512,	/* b8-bf: imm64 with REX.W */
};

/* The one-byte opcodes below 0x60: the ALU block, REX, push/pop. */
static uint16_t one_byte_low(unsigned char op)
{
	if (op < 0x40) {
		unsigned int lo = op & 7;

		if (op == 0x0f || op == 0x26 || op == 0x2e || op == 0x36 ||
		    op == 0x3e)
			return BAD;	/* handled by the caller */
		if (lo < 4)
			return M;
		if (lo == 4)
			return I8;
		if (lo == 5)
			return I32;
		return BAD;	/* push/pop seg, daa & co */
	}
	if (op < 0x50)
		return BAD;	/* REX: handled by the caller */
	return 0;	/* push/pop reg */
}

static uint16_t one_byte(unsigned char op)
{
	if (op < 0x60)
		return one_byte_low(op);
	switch (op) {
	case 0x63: return M;
	case 0x68: return I32;
	case 0x69: return M | I32;
	case 0x6a: return I8;
	case 0x6b: return M | I8;
	case 0x6c: case 0x6d: case 0x6e: case 0x6f: return 0;
	case 0x80: case 0x82: case 0x83: return M | I8;
	case 0x81: return M | I32;
	case 0xa0: case 0xa1: case 0xa2: case 0xa3: return MOFFS;
	case 0xa8: return I8;
	case 0xa9: return I32;
	case 0xc0: case 0xc1: case 0xc6: return M | I8;
	case 0xc7: return M | I32;
	case 0xc2: case 0xca: return I16;
	case 0xc3: case 0xc9: case 0xcb: case 0xcc: case 0xcf: return 0;
	case 0xc8: return I16 | I8;
	case 0xcd: return I8;
	case 0xe8: case 0xe9: return R32;
	case 0xeb: return R8;
	case 0xe4: case 0xe5: case 0xe6: case 0xe7: return I8;
	case 0xf6: case 0xf7: return M | GRP3;
	case 0xfe: case 0xff: return M;
	}
	if (op >= 0x70 && op <= 0x7f)
		return R8;
	if (op >= 0x84 && op <= 0x8f)
		return M;
	if ((op >= 0x90 && op <= 0x99) || (op >= 0x9b && op <= 0x9f) ||
	    (op >= 0xa4 && op <= 0xa7) || (op >= 0xaa && op <= 0xaf) ||
	    (op >= 0xec && op <= 0xef) || op == 0xf1 || op == 0xf4 ||
	    op == 0xf5 || (op >= 0xf8 && op <= 0xfd))
		return 0;
	if (op >= 0xb0 && op <= 0xb7)
		return I8;
	if (op >= 0xb8 && op <= 0xbf)
		return I32 | I64;
	if (op >= 0xd0 && op <= 0xd3)
		return M;
	if (op >= 0xd8 && op <= 0xdf)
		return M;	/* x87 */
	if (op >= 0xe0 && op <= 0xe3)
		return R8;	/* loop*, jrcxz */
	return BAD;
}

static uint16_t two_byte(unsigned char op)
{
	switch (op) {
	case 0x05: case 0x06: case 0x07: case 0x08: case 0x09: case 0x0b:
	case 0x30: case 0x31: case 0x32: case 0x33: case 0x34: case 0x35:
	case 0x37: case 0x77: case 0xa0: case 0xa1: case 0xa2: case 0xa8:
	case 0xa9: case 0xaa:
		return 0;
	case 0x0f: case 0x70: case 0x71: case 0x72: case 0x73: case 0xa4:
	case 0xac: case 0xba: case 0xc2: case 0xc4: case 0xc5: case 0xc6:
		return M | I8;
	case 0x04: case 0x0a: case 0x0c: case 0x0e: case 0x24: case 0x25:
	case 0x26: case 0x27: case 0x36: case 0x38: case 0x39: case 0x3a:
	case 0x3b: case 0x3c: case 0x3d: case 0x3e: case 0x3f: case 0x7a:
	case 0x7b: case 0xff:
		return BAD;
	}
	if (op >= 0x80 && op <= 0x8f)
		return R32;
	if (op >= 0xc8 && op <= 0xcf)
		return 0;	/* bswap */
	return M;
}

struct decoder {
	const unsigned char *code;
	size_t len, at;
};

static bool take(struct decoder *d, size_t n)
{
	if (d->at + n > d->len)
		return false;
	d->at += n;
	return true;
}

/* ModRM, SIB and displacement; *rip is set to the disp32 offset, or 0. */
static bool modrm(struct decoder *d, size_t *rip, unsigned int *reg)
{
	unsigned char m, mod, rm;

	if (d->at >= d->len)
		return false;
	m = d->code[d->at++];
	mod = m >> 6;
	rm = m & 7;
	*reg = (m >> 3) & 7;
	*rip = 0;
	if (mod == 3)
		return true;
	if (rm == 4) {
		unsigned char sib;

		if (d->at >= d->len)
			return false;
		sib = d->code[d->at++];
		if (mod == 0 && (sib & 7) == 5)
			return take(d, 4);
	} else if (mod == 0 && rm == 5) {
		*rip = d->at;
		return take(d, 4);
	}
	if (mod == 1)
		return take(d, 1);
	if (mod == 2)
		return take(d, 4);
	return true;
}

/* VEX (c4/c5) and EVEX (62): the map they select and the prefix length. */
static bool vex(struct decoder *d, unsigned char *map)
{
	unsigned char op = d->code[d->at];

	if (op == 0xc5) {
		*map = 1;
		return take(d, 2);
	}
	if (d->at + 1 >= d->len)
		return false;
	*map = d->code[d->at + 1] & (op == 0x62 ? 3 : 0x1f);
	return take(d, op == 0x62 ? 4 : 3);
}

static bool is_prefix(unsigned char b)
{
	return b == 0x66 || b == 0x67 || b == 0xf0 || b == 0xf2 || b == 0xf3 ||
	       b == 0x2e || b == 0x36 || b == 0x3e || b == 0x26 || b == 0x64 ||
	       b == 0x65;
}

/*
 * The opcode (after the prefixes): its byte in *opp, its operand flags in *fp;
 * VEX/EVEX, 0f and 0f 38/0f 3a escapes taken.
 */
static bool opcode(struct decoder *d, unsigned char *opp, uint16_t *fp)
{
	unsigned char op = d->code[d->at], map = 0;
	uint16_t f;

	if (op == 0xc4 || op == 0xc5 || op == 0x62) {
		if (!vex(d, &map) || map < 1 || map > 3 || d->at >= d->len)
			return false;
		op = d->code[d->at++];
		f = map == 3 ? M | I8 : M;
	} else if (op == 0x0f) {
		if (!take(d, 1) || d->at >= d->len)
			return false;
		op = d->code[d->at++];
		if (op == 0x38 || op == 0x3a) {
			f = op == 0x3a ? M | I8 : M;
			if (!take(d, 1))
				return false;
		} else {
			f = two_byte(op);
		}
	} else {
		d->at++;
		f = one_byte(op);
	}
	*opp = op;
	*fp = f;
	return true;
}

/* The branch target or RIP-relative address of a decoded instruction. */
static void set_target(const struct decoder *d, struct insn_info *in)
{
	if (in->size == 1)
		in->target = (int64_t)in->end + (int8_t)d->code[in->field];
	else if (in->size == 4) {
		int32_t disp;

		memcpy(&disp, d->code + in->field, 4);
		in->target = (int64_t)in->end + disp;
	}
}

static bool decode_one(struct decoder *d, struct insn_info *in)
{
	bool opsize16 = false, rexw = false;
	unsigned char op;
	unsigned int reg = 0;
	uint16_t f;
	size_t rip = 0;

	memset(in, 0, sizeof(*in));
	in->start = d->at;
	while (d->at < d->len && is_prefix(d->code[d->at]))
		opsize16 |= d->code[d->at++] == 0x66;
	if (d->at < d->len && (d->code[d->at] & 0xf0) == 0x40)
		rexw = d->code[d->at++] & 8;
	if (d->at >= d->len)
		return false;
	if (!opcode(d, &op, &f))
		return false;
	if (f & BAD)
		return false;
	if ((f & M) && !modrm(d, &rip, &reg))
		return false;
	if ((f & GRP3) && reg <= 1 && !take(d, op == 0xf6 ? 1 : (opsize16 ? 2 : 4)))
		return false;
	if ((f & I16) && !take(d, 2))
		return false;
	if ((f & MOFFS) && !take(d, 8))
		return false;
	if (f & I32) {
		size_t n = (f & I64) && rexw ? 8 : opsize16 ? 2 : 4;

		if (!take(d, n))
			return false;
	}
	if ((f & I8) && !take(d, 1))
		return false;
	if (f & (R8 | R32)) {
		in->field = d->at;
		in->size = f & R8 ? 1 : 4;
		if (!take(d, in->size))
			return false;
	} else if (rip) {
		in->field = rip;
		in->size = 4;
	}
	in->end = d->at;
	set_target(d, in);
	return true;
}

bool x86_decode(const unsigned char *code, size_t len, size_t at,
		struct insn_info *in)
{
	struct decoder d = { code, len, at };

	return decode_one(&d, in);
}
