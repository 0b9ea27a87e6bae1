/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything the tools need to know about one architecture, behind one
 * small ops table: relocation types and widths, the ftrace call every
 * patchable function starts with, the layouts of the kernel's special
 * sections, and the instruction knowledge used to recognise a change that
 * is only a shifted __LINE__. Generic code asks arch_get() and never looks
 * at e_machine itself.
 */
#ifndef KP_ARCH_H
#define KP_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/elf.h"

/* How the entries of a special section are tied to the code they describe. */
struct special_section {
	const char *name;
	const char *size_env;	/* env var holding the entry size, or NULL */
	unsigned int size;	/* fixed entry size when size_env is NULL */
	unsigned int owner_off;	/* entry offset of the relocation to code */
	/*
	 * Entries of a section without relocations that parallels another
	 * one entry for entry (.orc_unwind follows .orc_unwind_ip).
	 */
	const char *companion;
	/* range in an entry that may differ without meaning a change */
	unsigned int ignore_off, ignore_len;
	/* the owner relocation points at data, not code (.printk_index) */
	bool data_owner;
};

/* What the module loader can make of a call that leaves the patch module. */
enum call_site {
	CALL_PLAIN = 0,		/* not a call, or one the loader can route */
	CALL_NO_SLOT,		/* ppc64 bl with no nop after it for the TOC restore */
	CALL_SIBLING,		/* ppc64 tail call (b): no way back to our TOC */
};

struct arch {
	const char *name;
	uint16_t machine;
	unsigned int r_abs64;		/* absolute 64-bit reference */
	unsigned int r_pc32;		/* 32-bit PC-relative reference */
	unsigned int r_none;
	const char *fentry;		/* the ftrace entry symbol */
	const struct special_section *special;	/* NULL-name terminated */
	/* bytes the relocated field covers; 0 for an unknown type */
	unsigned int (*reloc_size)(unsigned int type);
	bool (*reloc_is_pcrel)(unsigned int type);
	/*
	 * Offset inside the target that relocation @r in section @sec points
	 * at, given its addend (PC-relative code references are biased by
	 * the distance to the end of the instruction).
	 */
	int64_t (*reloc_target)(const struct section *sec,
				const struct reloc *r);
	/* Offset of the ftrace call relocation in @func, or -1 if none. */
	long (*ftrace_call_offset)(const struct symbol *func);
	/*
	 * True when code @a and @b (same length) differ only in immediates
	 * that feed a call to one of @line_funcs (a __LINE__ argument).
	 * @is_line_call(ctx, offset) says whether a call at offset of @b
	 * targets such a function.
	 */
	/*
	 * For a call relocation @r in code @sec: can it reach a callee
	 * outside the patch module (NULL: always)?
	 */
	enum call_site (*call_site)(const struct section *sec,
				    const struct reloc *r);
	/*
	 * May a klp relocation (.klp.rela.*) carry @type? Only what the
	 * arch's apply_relocate_add() handles in both 6.1 and 6.12, and can
	 * reach the running kernel from a module with.
	 */
	bool (*klp_reloc_ok)(unsigned int type);
	/*
	 * The compiler leaves __mcount_loc to a post-pass (recordmcount):
	 * the differ writes it for the functions of its output.
	 */
	bool differ_writes_mcount_loc;
	bool (*line_only_change)(const unsigned char *a, const unsigned char *b,
				 size_t len,
				 bool (*is_line_call)(void *ctx, size_t off),
				 void *ctx);
};

/* The ops for @elf's machine; exits with a clear error for others. */
const struct arch *arch_get(const struct elf *elf);

/* Look up a special section description by section name. */
const struct special_section *arch_special(const struct arch *arch,
					   const char *name);

#endif
