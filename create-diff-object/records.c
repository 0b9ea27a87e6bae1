// SPDX-License-Identifier: GPL-2.0
/*
 * The records of the output (kmod/include/kpatch-formats.h), written once
 * emit.c has copied what is included: one .kpatch.funcs record per
 * patched function body, for the patch module template; the objname of
 * each callback entry; one .klp.module_relocs.<obj> record per klp symbol
 * the output references, for klp-convert; the names they carry in
 * .kpatch.strings; and a .modinfo import_ns= line per export namespace
 * the output uses.
 */
#include <stdlib.h>
#include <string.h>
#include "emit.h"
#include "lib/util.h"

static uint64_t add_string(struct emitter *em, const char *s)
{
	if (!em->strings)
		em->strings = elf_create_section(em->out, KPATCH_STRINGS_SECTION,
						 SHT_PROGBITS, SHF_ALLOC, 0, 1, 0);
	return elf_section_append(em->strings, s, strlen(s) + 1, 1);
}

static void string_reloc(struct emitter *em, struct section *sec,
			 uint64_t off, const char *s)
{
	uint64_t soff = add_string(em, s);

	elf_add_reloc(em->out, sec, off,
		      elf_section_symbol(em->out, em->strings),
		      em->c->arch->r_abs64, soff);
}

/*
 * One record per function body: aliases (SYSCALL_DEFINE0's __x64_sys_foo
 * is an alias of __do_sys_foo) share one address in the running kernel,
 * and two klp_funcs for one address corrupt the livepatch ops stack. The
 * first alias in symbol-table order names it; globals come after locals
 * there, so prefer the global by looking at them first.
 */
static bool is_recorded_alias(struct symbol *sym, bool global_pass)
{
	struct symbol *o;

	if (!is_local_sym(sym) == !global_pass)
		return true;	/* handled in the other pass */
	list_for_each_entry(o, &sym->sec->symbols, sec_list)
		if (o != sym && si(o)->recorded && o->offset == sym->offset)
			return true;
	return false;
}

static void emit_func_record(struct emitter *em, struct section **funcs,
			     const char *obj, struct symbol *sym)
{
	struct cdo *c = em->c;
	unsigned char rec[KPATCH_FUNC_SIZE] = { 0 };
	unsigned long sympos;
	uint64_t off;

	si(sym)->recorded = true;
	if (!*funcs)
		*funcs = elf_create_section(em->out, KPATCH_FUNCS_SECTION,
					    SHT_PROGBITS, SHF_ALLOC,
					    KPATCH_FUNC_SIZE, KPATCH_FUNC_ALIGN,
					    0);
	sympos = klp_func_sympos(c, si(sym)->twin ? si(sym)->twin : sym);
	target_put(em->out->big_endian, rec + KPATCH_FUNC_SYMPOS, 8, sympos);
	off = elf_section_append(*funcs, rec, sizeof(rec), KPATCH_FUNC_ALIGN);
	elf_add_reloc(em->out, *funcs, off + KPATCH_FUNC_NEW_FUNC, si(sym)->out,
		      c->arch->r_abs64, 0);
	/* the running kernel's name: foo.constprop.0, not .1 */
	string_reloc(em, *funcs, off + KPATCH_FUNC_OLD_NAME,
		     si(sym)->twin ? si(sym)->twin->name : sym->name);
	string_reloc(em, *funcs, off + KPATCH_FUNC_OBJNAME, obj);
	c->nr_changed++;
	debugf("patched: %s (%s) sympos %lu", sym->name,
	       si(sym)->inlined ? si(sym)->inlined : si(sym)->why, sympos);
}

/* struct kpatch_func_record (kpatch-formats.h) */
void emit_func_records(struct emitter *em)
{
	struct section *funcs = NULL;
	char *obj = klp_objname(em->c);
	struct symbol *sym;
	int global;

	for (global = 1; global >= 0; global--) {
		for_each_sym(em->c->patched, sym) {
			if (!is_func(sym) || !si(sym)->include ||
			    si(sym)->status != CHANGED || si(sym)->parent ||
			    si(sym)->copied || is_recorded_alias(sym, global))
				continue;
			emit_func_record(em, &funcs, obj, sym);
		}
	}
	free(obj);
}

/* struct klp_module_reloc (kpatch-formats.h) */
void emit_klp_records(struct emitter *em)
{
	char *obj = klp_objname(em->c), *name;
	struct section *sec;
	size_t i;

	if (!em->nklp)
		goto out;
	name = xasprintf(KLP_MODULE_RELOCS_PREFIX "%s", obj);
	sec = elf_create_section(em->out, name, SHT_PROGBITS, SHF_ALLOC, 0, 1, 0);
	free(name);
	for (i = 0; i < em->nklp; i++) {
		unsigned char rec[KLP_MODULE_RELOC_SIZE] = { 0 };
		uint64_t off;

		target_put(em->out->big_endian, rec + KLP_MODULE_RELOC_SYMPOS, 4,
			   em->klp[i].sympos);
		off = elf_section_append(sec, rec, sizeof(rec), 1);
		elf_add_reloc(em->out, sec, off + KLP_MODULE_RELOC_SYM,
			      em->klp[i].sym,
			      em->c->arch->r_abs64, 0);
	}
out:
	free(obj);
}

/* Callback entries { fn, objname }: the objname is the parent's. */
void fill_callbacks(struct emitter *em)
{
	char *obj = klp_objname(em->c);
	struct section *sec;

	for_each_sec(em->out, sec) {
		uint64_t off;

		if (strncmp(sec->name, KPATCH_CALLBACKS_PREFIX,
			    strlen(KPATCH_CALLBACKS_PREFIX)))
			continue;
		for (off = 0; off + KPATCH_CALLBACK_SIZE <= sec->size;
		     off += KPATCH_CALLBACK_SIZE)
			if (!find_reloc_at(sec, off + KPATCH_CALLBACK_OBJNAME))
				string_reloc(em, sec,
					     off + KPATCH_CALLBACK_OBJNAME, obj);
	}
	free(obj);
}

/* MODULE_IMPORT_NS for namespaced exports the output uses. */
void emit_import_ns(struct emitter *em)
{
	struct section *modinfo = NULL;
	struct symbol *sym;

	for_each_sym(em->out, sym) {
		const char *ns;
		char *line;

		if (sym->sec || sym->type == STT_FILE ||
		    !(ns = klp_export_namespace(em->c, sym->name)))
			continue;
		if (!modinfo)
			modinfo = elf_create_section(em->out, ".modinfo",
						     SHT_PROGBITS, SHF_ALLOC, 0, 1, 0);
		line = xasprintf("import_ns=%s", ns);
		if (!memmem(modinfo->data, modinfo->size, line, strlen(line) + 1))
			elf_section_append(modinfo, line, strlen(line) + 1, 1);
		free(line);
	}
}
