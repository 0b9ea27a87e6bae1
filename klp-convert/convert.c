// SPDX-License-Identifier: GPL-2.0
/*
 * Rewriting the module: annotation tables go, each annotated symbol is
 * renamed ".klp.sym.<obj>.<name>,<sympos>" with st_shndx SHN_LIVEPATCH, and
 * each relocation against one moves from ".rela<sec>" to
 * ".klp.rela.<obj>.<sec>" (SHT_RELA, sh_info = <sec>, flags
 * SHF_ALLOC | SHF_INFO_LINK | SHF_RELA_LIVEPATCH). What the 6.1 kernel
 * requires of that:
 *  - kernel/module/main.c apply_relocations(): a section with
 *    SHF_RELA_LIVEPATCH goes to klp_apply_section_relocs() instead of
 *    apply_relocate_add(), and only when its target section is SHF_ALLOC;
 *    simplify_symbols() leaves SHN_LIVEPATCH symbols alone.
 *  - kernel/livepatch/core.c klp_apply_section_relocs(): the object is read
 *    with ".klp.rela.%55[^.]"; relocations for vmlinux are applied while the
 *    patch module loads, the others when the target module is there, from
 *    the copy of the section headers kept for livepatch modules -- so the
 *    relocation section itself must be SHF_ALLOC to still be in memory
 *    (module-elf-format.rst, 3.1).
 *  - klp_resolve_symbols(): every symbol of such a section must be
 *    SHN_LIVEPATCH and named ".klp.sym.%55[^.].%511[^,],%lu".
 *  - kernel/module/kallsyms.c keeps the whole symbol table only for a
 *    module with MODULE_INFO(livepatch, "Y"), and klp relocations index it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arch/arch.h"
#include "klpc.h"
#include "lib/util.h"

#define KLP_RELA_FLAGS	(SHF_ALLOC | SHF_INFO_LINK | SHF_RELA_LIVEPATCH)

static bool is_annotation(const struct section *sec)
{
	return !strncmp(sec->name, KLP_MODULE_RELOCS_PREFIX, strlen(KLP_MODULE_RELOCS_PREFIX));
}

static bool is_klp_rela(const struct section *sec)
{
	return !strncmp(sec->name, KLP_RELA_PREFIX, strlen(KLP_RELA_PREFIX));
}

static bool has_livepatch_modinfo(struct klpc *k)
{
	struct section *sec = find_section_by_name(k->elf, ".modinfo");
	size_t i = 0;

	if (!sec || !sec->data)
		return false;
	while (i < sec->size) {
		const char *s = (const char *)sec->data + i;
		size_t len = strnlen(s, sec->size - i);

		if (!strncmp(s, "livepatch=Y", len) && len == 11)
			return true;
		i += len + 1;
	}
	return false;
}

static struct section *first_annotation(struct klpc *k)
{
	struct section *sec;

	for_each_sec(k->elf, sec)
		if (is_annotation(sec))
			return sec;
	return NULL;
}

/* Annotation tables are for klp-convert only: nothing may point into them. */
static void remove_annotations(struct klpc *k)
{
	struct section *sec;
	struct reloc *r, *t;

	for_each_sec(k->elf, sec) {
		if (!is_rela_section(sec) || is_annotation(sec->base))
			continue;
		for_each_reloc_safe(sec, r, t) {
			if (!r->sym || !r->sym->sec || !is_annotation(r->sym->sec))
				continue;
			/* debug info describing the table: let it point nowhere */
			if (!(sec->base->sh.sh_flags & SHF_ALLOC)) {
				elf_remove_reloc(r);
				continue;
			}
			klpc_fail(k->path, r->sym->name,
				  "annotation table referenced from %s+0x%lx (tables are removed)",
				  sec->base->name, (unsigned long)r->offset);
		}
	}
	/* removing a section also removes its .rela: restart each time */
	while ((sec = first_annotation(k))) {
		while (!list_empty(&sec->symbols))
			elf_remove_symbol(list_entry(sec->symbols.next,
						     struct symbol, sec_list));
		sec->secsym = NULL;
		elf_remove_section(sec);
	}
}

static void rename_symbols(struct klpc *k)
{
	struct symbol *sym;

	for_each_sym(k->elf, sym) {
		struct klp_conv *c = klpc_conv_of(k, sym);
		char *name;

		if (!c)
			continue;
		name = xasprintf(KLP_SYM_PREFIX "%s.%s,%lu", c->obj->name,
				 c->name, c->sympos);
		elf_rename_symbol(sym, name);
		free(name);
		sym->shndx = SHN_LIVEPATCH;
	}
}

/*
 * A module's relocations are written when it loads, after the patch
 * module's init sections are gone, and special sections are consumed by the
 * patch module's own load: neither can wait for another module.
 */
static void check_late_target(struct klpc *k, const struct klp_conv *c,
			      const struct section *base)
{
	const struct special_section *row;

	if (!strcmp(c->obj->name, KLP_VMLINUX))
		return;
	if (!strncmp(base->name, ".init", 5) ||
	    !strncmp(base->name, ".exit", 5))
		klpc_fail(k->path, c->sym->name,
			  "referenced from %s, which is gone when module %s loads and the relocation is written",
			  base->name, c->obj->name);
	row = arch_section(klpc_arch(k), base->name);
	if (row && row->early)
		klpc_fail(k->path, c->sym->name,
			  "referenced from special section %s, which the patch module's load consumes before module %s's relocations are written",
			  base->name, c->obj->name);
}

/* The loader applies klp relocations with apply_relocate_add(): its types. */
static void check_reloc_type(struct klpc *k, const struct klp_conv *c,
			     const struct section *base, const struct reloc *r)
{
	const struct arch *arch = klpc_arch(k);

	if (arch->klp_reloc_ok && !arch->klp_reloc_ok(r->type))
		klpc_fail(k->path, c->sym->name,
			  "relocation type %u at %s+0x%lx cannot be a klp relocation on %s (the module loader does not apply it, or not as far as the running kernel)",
			  r->type, base->name, (unsigned long)r->offset,
			  arch->name);
}

static struct section *klp_rela(struct klpc *k, const struct klp_obj *obj,
				struct section *base)
{
	char *name = xasprintf(KLP_RELA_PREFIX "%s.%s", obj->name, base->name);
	struct section *sec = find_section_by_name(k->elf, name);

	if (!sec) {
		sec = elf_create_section(k->elf, name, SHT_RELA,
					 KLP_RELA_FLAGS, sizeof(Elf64_Rela),
					 8, 0);
		sec->base = base;
		sec->link = k->elf->symtab;
		elf_move_section_after(sec, base->rela ? base->rela : base);
		k->nr_sections++;
	}
	free(name);
	return sec;
}

static void move_relocs(struct klpc *k, struct section *rela)
{
	struct reloc *r, *tmp;

	for_each_reloc_safe(rela, r, tmp) {
		struct klp_conv *c = r->sym ? klpc_conv_of(k, r->sym) : NULL;

		if (!c)
			continue;
		/* never applied by the kernel: leave it where it is */
		if (!(rela->base->sh.sh_flags & SHF_ALLOC))
			continue;
		check_late_target(k, c, rela->base);
		check_reloc_type(k, c, rela->base, r);
		elf_move_reloc(r, klp_rela(k, c->obj, rela->base));
		k->nr_moved++;
	}
}

void klpc_convert(struct klpc *k)
{
	struct section *sec, *tmp;

	if (k->nr_convs && !has_livepatch_modinfo(k))
		klpc_fail(k->path, ".modinfo",
			  "no livepatch=Y (MODULE_INFO(livepatch, \"Y\")): the kernel would not keep the symbol table klp relocations index");
	remove_annotations(k);
	rename_symbols(k);
	list_for_each_entry_safe(sec, tmp, &k->elf->sections, list) {
		if (!is_rela_section(sec) || is_klp_rela(sec))
			continue;
		move_relocs(k, sec);
		if (list_empty(&sec->relocs))
			elf_remove_section(sec);
	}
}
