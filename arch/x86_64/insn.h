/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KP_X86_64_INSN_H
#define KP_X86_64_INSN_H

#include "arch/arch.h"

bool x86_decode(const unsigned char *code, size_t len, size_t at,
		struct insn_info *in);

#endif
