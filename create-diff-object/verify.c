// SPDX-License-Identifier: GPL-2.0
/*
 * Verify: what a live patch cannot do, refused with one line each that
 * names the symbol or section and the reason (exit status 2). Changing the
 * initial value of existing data would never reach the running kernel's
 * copy; changed __init code has already run; a function without an ftrace
 * call site cannot be redirected; exports are the module ABI; and a
 * changed section the differ does not understand could carry anything.
 * KPATCH_FORCE_UNSAFE turns a function's refusal into a warning, and
 * KPATCH_IGNORE_* mark changes the patch author vouches for.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdo.h"
#include "reloc-target.h"
#include "lib/util.h"

void refuse(struct cdo *c, const char *what, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: %s: ", progname, c->objname, what);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	c->nr_refusals++;
}

static void refuse_func(struct cdo *c, struct symbol *sym, const char *why)
{
	if (si(sym)->forced) {
		warnx_("%s: %s: %s (forced by KPATCH_FORCE_UNSAFE)", c->objname,
		       sym->name, why);
		return;
	}
	refuse(c, sym->name, "%s", why);
}

static bool is_directive_section(const struct section *sec)
{
	return !strcmp(sec->name, KPATCH_IGNORE_FUNCTIONS_SECTION) ||
	       !strcmp(sec->name, KPATCH_IGNORE_SECTIONS_SECTION) ||
	       !strcmp(sec->name, KPATCH_FORCE_SECTION);
}

/* Read KPATCH_IGNORE_FUNCTION / _SECTION / KPATCH_FORCE_UNSAFE. */
void read_directives(struct cdo *c)
{
	struct section *sec;
	struct reloc *r;

	for_each_sec(c->patched, sec) {
		if (!is_directive_section(sec) || !sec->rela)
			continue;
		for_each_reloc(sec->rela, r) {
			struct target t;

			reloc_target(c, sec, r, &t);
			if (!strcmp(sec->name, KPATCH_IGNORE_SECTIONS_SECTION)) {
				struct section *ign = NULL;

				if (t.sec && is_string_section(t.sec) && t.off >= 0 &&
				    (uint64_t)t.off < t.sec->size &&
				    memchr(t.sec->data + t.off, 0, t.sec->size - t.off))
					ign = find_section_by_name(c->patched,
						(char *)t.sec->data + t.off);
				if (ign)
					sci(ign)->ignored = true;
				continue;
			}
			if (!t.sym || !is_func(t.sym))
				continue;
			if (!strcmp(sec->name, KPATCH_FORCE_SECTION))
				si(t.sym)->forced = true;
			else
				si(t.sym)->ignored = true;
		}
	}
}

static void verify_data(struct cdo *c, struct symbol *sym)
{
	const struct symbol *twin = si(sym)->twin;

	if (si(sym)->status != CHANGED || si(sym)->special_static ||
	    sci(sym->sec)->ignored || is_patch_source_section(sym->sec))
		return;
	/*
	 * Read-only and local: the patch carries a new copy for its readers.
	 * Read-only and global: other objects keep reading the old value.
	 */
	if (!(sym->sec->sh.sh_flags & SHF_WRITE) &&
	    !is_init_section(sym->sec) && is_local_sym(sym))
		return;
	if (is_init_section(sym->sec))
		return;	/* __initdata is gone after boot */
	if (!strncmp(sym->name, "__ksymtab", 9) ||
	    !strncmp(sym->name, "__kstrtab", 9) ||
	    !strncmp(sym->name, "__kstrtabns", 11))
		return;	/* exports are checked by name */
	if (twin && sym->size != twin->size)
		refuse(c, sym->name, "size of existing data changed (%lu -> %lu bytes); use a shadow variable",
		       (unsigned long)twin->size, (unsigned long)sym->size);
	else
		refuse(c, sym->name, "changed initializer of existing data cannot be live-patched; use a callback or shadow variable");
}

static void verify_func(struct cdo *c, struct symbol *sym)
{
	const struct syminfo *s = si(sym);

	if (s->status == SAME || s->ignored || sci(sym->sec)->ignored)
		return;
	if (is_init_section(sym->sec)) {
		if (s->status == CHANGED)
			refuse_func(c, sym, "changed __init code cannot be live-patched (it already ran)");
		else if (s->include)
			refuse_func(c, sym, "new __init code cannot be part of a live patch");
		return;
	}
	if (s->status == CHANGED && !s->parent && !s->copied &&
	    arch_ftrace_site(c->arch, sym) < 0)
		refuse_func(c, sym, s->data_ref ?
			    "no ftrace call site at its start (notrace), and data refers to it, so its callers cannot all be patched instead" :
			    "no ftrace call site at its start (notrace or no -pg?), it cannot be patched");
}

/*
 * Without an instruction decoder (split.c cuts only where the arch has
 * one), the calls of a function to the unchanged static functions of its
 * section were resolved by the assembler and carry no relocation: it
 * cannot be carried without them.
 */
static void verify_shared_undecoded(struct cdo *c, struct symbol *sym)
{
	struct symbol *o;
	char *why;

	/* the arch can tell whether it branches out with no relocation */
	if (c->arch->unrelocated_branch_out &&
	    !c->arch->unrelocated_branch_out(sym->sec, sym->offset,
					      sym->offset + sym->size))
		return;
	list_for_each_entry(o, &sym->sec->symbols, sec_list) {
		if (o == sym || !is_func(o) || si(o)->include ||
		    !is_local_sym(o) || si(o)->parent == sym)
			continue;
		why = xasprintf("shares section %s with unchanged static functions such as %s; its calls to them carry no relocations and %s code cannot be cut apart",
				sym->sec->name, o->name, c->arch->name);
		refuse_func(c, sym, why);
		free(why);
		return;
	}
}

/* A function carried out of a section it shares with others (split.c). */
static void verify_shared(struct cdo *c, struct symbol *sym)
{
	char *why;

	if (!si(sym)->include || !is_func(sym))
		return;
	if (!c->arch->decode) {
		verify_shared_undecoded(c, sym);
		return;
	}
	if (!si(sym)->unsplit)
		return;
	why = xasprintf("shares section %s with other functions and cannot be split from them: %s",
			sym->sec->name, si(sym)->unsplit);
	refuse_func(c, sym, why);
	free(why);
}

static bool has_sym_named(struct elf *elf, const char *name)
{
	return find_symbol_by_name(elf, name) != NULL;
}

static void verify_exports(struct cdo *c)
{
	struct symbol *sym;

	for_each_sym(c->patched, sym)
		if (!strncmp(sym->name, "__ksymtab_", 10) &&
		    !has_sym_named(c->orig, sym->name))
			refuse(c, sym->name + 10, "export added (EXPORT_SYMBOL changes the module ABI and cannot be live-patched)");
	for_each_sym(c->orig, sym)
		if (!strncmp(sym->name, "__ksymtab_", 10) &&
		    !has_sym_named(c->patched, sym->name))
			refuse(c, sym->name + 10, "export removed (cannot be live-patched)");
}

/*
 * Sections holding code, data and the tables the differ knows: a row of
 * the arch's special-section table. Anything else (a new __param entry, a
 * test-suite table, ...) is a kernel mechanism the differ cannot carry into
 * a patch module.
 */
static bool section_understood(const struct section *sec)
{
	const struct special_section *row = sci(sec)->row;

	if (sci(sec)->special || sci(sec)->ignored || sci(sec)->callsite ||
	    is_rela_section(sec) ||
	    is_text_section(sec) || !(sec->sh.sh_flags & SHF_ALLOC))
		return true;
	return row && row->role != SEC_REFUSED;
}

static bool section_changed(const struct section *p, const struct section *o)
{
	struct reloc *r;
	size_t np = 0, no = 0;

	if (p->size != o->size || p->sh.sh_type != o->sh.sh_type)
		return true;
	if (p->data && o->data && memcmp(p->data, o->data, p->size))
		return true;
	if (p->rela)
		for_each_reloc(p->rela, r)
			np++;
	if (o->rela)
		for_each_reloc(o->rela, r)
			no++;
	return np != no;
}

static void verify_sections(struct cdo *c)
{
	struct section *sec;

	for_each_sec(c->patched, sec) {
		struct section *twin;
		const char *why;

		if (section_understood(sec))
			continue;
		why = sci(sec)->row ? sci(sec)->row->why :
		      "of a kind the differ does not understand";
		twin = sci(sec)->twin;
		if (!twin)
			twin = find_section_by_name(c->orig, sec->name);
		sci(sec)->twin = twin;
		if (!twin && sec->size)
			refuse(c, sec->name, "new section %s%s",
			       sci(sec)->row ? "refused: " : "", why);
		else if (twin && section_changed(sec, twin))
			refuse(c, sec->name, "changed section %s%s",
			       sci(sec)->row ? "refused: " : "", why);
	}
}

void verify(struct cdo *c)
{
	struct symbol *sym;

	for_each_sym(c->patched, sym) {
		if (!is_entity(sym))
			continue;
		if (is_func(sym)) {
			verify_func(c, sym);
			verify_shared(c, sym);
		} else {
			verify_data(c, sym);
		}
	}
	verify_exports(c);
	verify_sections(c);
}
