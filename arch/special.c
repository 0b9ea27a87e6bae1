// SPDX-License-Identifier: GPL-2.0
/*
 * The special-section table: everything the tools know about a section of
 * a kernel object by its name. Rows every architecture shares are here;
 * arch/<arch>/special.c adds its own (and may override a shared row by
 * listing the same name, since an arch's rows are looked at first).
 *
 * The differ's classify pass looks each section up once and keeps the row;
 * verify refuses changes in sections without a row (or with a refusing
 * one), klp-convert refuses late klp relocations in rows marked early, and
 * kpatch-struct-sizes prints the rows' struct sizes.
 */
#include <stdlib.h>
#include <string.h>
#include "arch/arch.h"
#include "lib/util.h"

#define KNOWN(n)	{ .name = n, .prefix = true, .role = SEC_KNOWN }
#define DEBUG(n)	{ .name = n, .prefix = true, .role = SEC_DEBUG }
#define INIT(n)		{ .name = n, .prefix = true, .role = SEC_INIT }

const struct special_section special_shared[] = {
	/*
	 * struct bug_entry with relative pointers: addr disp, file disp, line,
	 * flags. The line (2 bytes at 8) may differ for the same code.
	 */
	{ .name = "__bug_table", .role = SEC_ENTRIES,
	  .size_env = "BUG_STRUCT_SIZE", .size_struct = "bug_entry",
	  .ignore_off = 8, .ignore_len = 2, .early = true },
	/* struct jump_entry: code, target, key (+ branch flags) */
	{ .name = "__jump_table", .role = SEC_ENTRIES,
	  .size_env = "JUMP_STRUCT_SIZE", .size_struct = "jump_entry",
	  .early = true, .tracepoint_key_optional = true, .key_off = 8 },
	{ .name = "__ex_table", .role = SEC_ENTRIES,
	  .size_env = "EX_STRUCT_SIZE", .size_struct = "exception_table_entry",
	  .early = true },
	/* static_call_site: call site, key; the call goes to __SCT__ anyway */
	{ .name = ".static_call_sites", .role = SEC_ENTRIES,
	  .size_env = "STATIC_CALL_STRUCT_SIZE",
	  .size_struct = "static_call_site", .early = true,
	  .key_optional = true, .key_off = 4 },
	/* one address per ftrace call site */
	{ .name = "__mcount_loc", .role = SEC_ENTRIES, .size = 8 },
	{ .name = "__patchable_function_entries", .role = SEC_ENTRIES,
	  .size = 8 },
	/* pointers to pi_entry objects, which point at the format strings */
	{ .name = ".printk_index", .role = SEC_ENTRIES, .size = 8,
	  .data_owner = true },

	/* per-call-site data: entries come along with the code using them */
	{ .name = "__dyndbg", .role = SEC_CALLSITE, .infer_size = true },
	{ .name = "__verbose", .role = SEC_CALLSITE, .infer_size = true },
	{ .name = ".data..Lubsan", .prefix = true, .role = SEC_CALLSITE },

	/* gone once the kernel or the module has booted */
	INIT(".init."), INIT(".exit."), INIT(".meminit."), INIT(".initcall"),

	/* never loaded */
	DEBUG(".debug_"), DEBUG(".rela.debug_"), DEBUG(".note"),
	DEBUG(".discard"), DEBUG(".gnu."),
	{ .name = ".comment", .role = SEC_DEBUG },
	{ .name = ".llvm_addrsig", .role = SEC_DEBUG },
	{ .name = ".eh_frame", .role = SEC_DEBUG },
	/*
	 * CONFIG_FTRACE_SYSCALLS (distribution kernels): a pointer to each
	 * SYSCALL_DEFINE's metadata. Loaded, but only vmlinux's table is ever
	 * read (the syscall trace events, at boot); a module's is dead weight,
	 * and a patched syscall keeps the running kernel's metadata.
	 */
	{ .name = "__syscalls_metadata", .role = SEC_DEBUG },

	/* kernel mechanisms a patch module cannot take part in */
	{ .name = "__param", .role = SEC_REFUSED,
	  .why = "module parameters are registered when their module loads; a live patch cannot add or change one" },

	/* code, data and tables the differ handles by symbol or by name */
	KNOWN(".text"), KNOWN(".data"), KNOWN(".bss"), KNOWN(".rodata"),
	KNOWN(".tdata"), KNOWN(".tbss"), KNOWN(".ref."), KNOWN(".meminit"),
	KNOWN("__ksymtab"), KNOWN("__dyndbg"), KNOWN("__verbose"),
	KNOWN("___ksymtab"), KNOWN("__kstrtab"), KNOWN("__tracepoints"),
	KNOWN(".modinfo"), KNOWN(".kpatch."), KNOWN(".klp."),
	KNOWN("__bpf_raw_tp_map"), KNOWN("_ftrace_events"),
	KNOWN("_ftrace_eval_map"), KNOWN("__trace_printk_fmt"),
	KNOWN("__tracepoint_str"), KNOWN(".export_symbol"), KNOWN(".comment"),
	KNOWN(".llvm_addrsig"), KNOWN(".eh_frame"), KNOWN(".symtab"),
	KNOWN(".strtab"), KNOWN(".shstrtab"),
	{ .name = NULL },
};

/* Does @r name @name: the whole of it, or its start for a prefix row? */
static bool row_matches(const struct special_section *r, const char *name)
{
	const char *a = r->name, *b = name;

	while (*a && *a == *b) {
		a++;
		b++;
	}
	return !*a && (r->prefix || !*b);
}

/*
 * An exact row wins over a prefix, a longer prefix over a shorter one, an
 * arch's row over a shared one (rows are offered in that order).
 */
static void offer(const struct special_section *r, const char *name,
		  const struct special_section **best)
{
	if (!row_matches(r, name))
		return;
	if (!*best || ((*best)->prefix &&
		       (!r->prefix || strlen(r->name) > strlen((*best)->name))))
		*best = r;
}

const struct special_section *arch_section(const struct arch *arch,
					   const char *name)
{
	const struct special_section *best = NULL, *r;
	size_t i;

	for (i = 0; (r = arch_row(arch, i)); i++)
		offer(r, name, &best);
	return best;
}

const struct special_section *arch_special(const struct arch *arch,
					   const char *name)
{
	const struct special_section *r = arch_section(arch, name);

	return r && r->role == SEC_ENTRIES ? r : NULL;
}

/* Rows are bucketed by their first two bytes, which every name has. */
static unsigned int bucket_of(const char *name)
{
	return ((unsigned char)name[0] * 31u +
		(unsigned char)(name[0] ? name[1] : 0)) % SECTION_BUCKETS;
}

struct section_index *section_index_new(const struct arch *arch)
{
	struct section_index *x = xcalloc(1, sizeof(*x));
	const struct special_section *r;
	size_t i;

	for (i = 0; (r = arch_row(arch, i)); i++) {
		struct section_bucket *b = &x->bucket[bucket_of(r->name)];

		b->rows = xrealloc(b->rows, (b->n + 1) * sizeof(*b->rows));
		b->rows[b->n++] = r;
	}
	return x;
}

const struct special_section *section_index_find(const struct section_index *x,
						 const char *name)
{
	const struct section_bucket *b = &x->bucket[bucket_of(name)];
	const struct special_section *best = NULL;
	size_t i;

	for (i = 0; i < b->n; i++)
		offer(b->rows[i], name, &best);
	return best;
}

void section_index_free(struct section_index *x)
{
	size_t i;

	if (!x)
		return;
	for (i = 0; i < SECTION_BUCKETS; i++)
		free(x->bucket[i].rows);
	free(x);
}

const struct special_section *arch_row(const struct arch *arch, size_t i)
{
	size_t n = 0;

	while (arch->special && arch->special[n].name)
		n++;
	if (i < n)
		return &arch->special[i];
	i -= n;
	for (n = 0; special_shared[n].name; n++)
		if (n == i)
			return &special_shared[n];
	return NULL;
}
