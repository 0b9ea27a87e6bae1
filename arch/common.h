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
 * ppc64le): every word that differs must be one whose change
 * @imm_only_change accepts (the same load of an immediate, another
 * immediate), followed by a __LINE__ call (@is_line_call).
 */
bool arch_line_only_words(bool (*imm_only_change)(uint32_t a, uint32_t b),
			  const unsigned char *a, const unsigned char *b,
			  size_t len, bool (*is_line_call)(void *ctx, size_t off),
			  void *ctx);

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
 * first differing byte, which @insn_end (given that start) accepts and ends
 * where a __LINE__ call follows (@is_line_call).
 */
struct line_imm_insn {
	unsigned int back_max, back_min;
	/* end of the instruction at @start if it may load a __LINE__, else 0 */
	size_t (*insn_end)(const unsigned char *a, const unsigned char *b,
			   size_t len, size_t start);
};
bool arch_line_only_bytes(const struct line_imm_insn *insn,
			  const unsigned char *a, const unsigned char *b,
			  size_t len, bool (*is_line_call)(void *ctx, size_t off),
			  void *ctx);

#endif
