// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "arch/arch.h"
#include "lib/util.h"

extern const struct arch arch_x86_64;
extern const struct arch arch_aarch64;
extern const struct arch arch_ppc64le;
extern const struct arch arch_s390x;

static const struct arch *const arches[] = {
	&arch_x86_64,
	&arch_aarch64,
	&arch_ppc64le,
	&arch_s390x,
};

const struct arch *arch_nth(size_t i)
{
	return i < ARRAY_SIZE(arches) ? arches[i] : NULL;
}

const struct arch *arch_for_machine(uint16_t machine)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(arches); i++)
		if (arches[i]->machine == machine)
			return arches[i];
	return NULL;
}

const struct arch *arch_get(const struct elf *elf)
{
	const struct arch *arch = arch_for_machine(elf->ehdr.e_machine);

	if (!arch)
		errorf("%s: unsupported machine %u (supported: x86_64, aarch64, ppc64le, s390x)",
		       elf->path, elf->ehdr.e_machine);
	return arch;
}

static const struct ftrace_prologue no_prologue = { NULL, 0 };

/* A call to @p->call right after @pro at the start of @func? */
static long call_after(const struct ftrace_pattern *p,
		       const struct ftrace_prologue *pro,
		       const struct symbol *func)
{
	uint64_t at = func->offset + pro->len;
	struct reloc *r;

	if (at + p->call_len > func->offset + func->size)
		return -1;
	r = find_reloc_at(func->sec, at + p->reloc_off);
	if (!r || !r->sym || strcmp(r->sym->name, p->call))
		return -1;
	return (long)pro->len;
}

/* An entry of __patchable_function_entries points at @func's NOPs? */
static bool has_patchable_entry(const struct ftrace_pattern *p,
				const struct symbol *func)
{
	const struct section *pfe =
		find_section_by_name(func->elf, "__patchable_function_entries");
	struct reloc *r;

	if (!pfe || !pfe->rela)
		return false;
	for_each_reloc(pfe->rela, r)
		if (r->sym && r->sym->sec == func->sec &&
		    r->sym->offset + (uint64_t)r->addend + p->patchable_before ==
		    func->offset)
			return true;
	return false;
}

bool arch_insn_bounds(const struct arch *arch, const unsigned char *code,
		      size_t len, size_t at, struct insn_info *in)
{
	size_t n;

	if (arch->decode)
		return arch->decode(code, len, at, in);
	n = arch->insn_length ? arch->insn_length(code, len, at) : 0;
	if (!n)
		return false;
	*in = (struct insn_info){ .start = at, .end = at + n };
	return true;
}

long arch_ftrace_site(const struct arch *arch, const struct symbol *func)
{
	const struct ftrace_pattern *p = arch->ftrace;
	const struct ftrace_prologue *pro;
	const struct section *sec = func->sec;

	if (!sec || !sec->data)
		return -1;
	if (arch->ftrace_site)
		return arch->ftrace_site(func);
	if (p->patchable_entries && has_patchable_entry(p, func))
		return 0;
	if (!p->call)
		return -1;
	if (!p->prologues)
		return call_after(p, &no_prologue, func);
	for (pro = p->prologues;; pro++) {
		if (pro->len && (func->size < pro->len + p->call_len ||
				 memcmp(sec->data + func->offset, pro->bytes,
					pro->len)))
			continue;
		return call_after(p, pro, func);
	}
	return -1;
}

bool arch_is_prefix_symbol(const struct arch *arch, const char *name,
			   const char **parent)
{
	size_t n;

	if (!arch->prefix_symbol)
		return false;
	n = strlen(arch->prefix_symbol);
	if (strncmp(name, arch->prefix_symbol, n))
		return false;
	if (parent)
		*parent = name + n;
	return true;
}
