/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the architectures' own code (arch/<arch>/) shares: the two ways of
 * recognising a __LINE__-only change, for fixed 4-byte instruction words
 * and for variable-length instructions, and the lookup of an ftrace entry
 * a section records. Generic code never calls these; it calls the ops
 * (arch.h), which call these (common.c).
 */
#ifndef KP_ARCH_COMMON_H
#define KP_ARCH_COMMON_H

#include "arch/arch.h"

/*
 * line_only_change for 4-byte little-endian instruction words (aarch64,
 * ppc64le): every word that differs must be one that @imm_values decodes
 * as the same load of an immediate with another value (both values to
 * @va and @vb), a line by @is_line.
 */
bool arch_line_only_words(bool (*imm_values)(uint32_t a, uint32_t b,
					     uint64_t *va, uint64_t *vb),
			  const unsigned char *a, const unsigned char *b,
			  size_t len, line_imm_fn is_line, void *ctx);

/*
 * Does a section named @secname (every one: -ffunction-sections makes one
 * per function) record an address of @func's section between
 * @max_before bytes before @at and @at (its ftrace entry)?
 */
bool arch_entry_recorded(const struct symbol *func, const char *secname,
			 uint64_t at, uint64_t max_before);

/*
 * line_only_change for a variable-length instruction set (x86_64, s390x):
 * every run of bytes that differ must lie in the immediate of an
 * instruction that starts between @back_max and @back_min bytes before its
 * first differing byte, which @decode (given that start) reads as a load
 * of an immediate and @is_line takes for a line.
 */
struct line_imm_insn {
	unsigned int back_max, back_min;
	/*
	 * Fill @imm (place and both values) if the instruction at @start may
	 * load a __LINE__ and differs only in its immediate, else false.
	 */
	bool (*decode)(const unsigned char *a, const unsigned char *b,
		       size_t len, size_t start, struct line_imm *imm);
};
bool arch_line_only_bytes(const struct line_imm_insn *insn,
			  const unsigned char *a, const unsigned char *b,
			  size_t len, line_imm_fn is_line, void *ctx);

#endif
