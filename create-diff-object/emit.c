// SPDX-License-Identifier: GPL-2.0
/*
 * Emit: build the output object from scratch. Every input section with
 * something included becomes one output section of the same name: copied
 * whole when all of it is included, otherwise as the concatenation of its
 * included functions/objects (or of its kept special-section entries).
 * Each copied range carries its relocations, retargeted (emit-relocs.c):
 * to the copy when the target is in the output, otherwise to an external
 * symbol named by klp.c. Then the records the template and klp-convert read
 * (records.c): .kpatch.funcs, .kpatch.strings, .klp.module_relocs.<obj>.
 */
#include <stdlib.h>
#include "emit.h"
#include "lib/util.h"

static void add_piece(struct emitter *em, struct section *in, uint64_t off,
		      uint64_t len, struct section *out, uint64_t out_off)
{
	if (em->npieces == em->cap) {
		em->cap = em->cap ? em->cap * 2 : 64;
		em->pieces = xrealloc(em->pieces, em->cap * sizeof(*em->pieces));
	}
	em->pieces[em->npieces++] = (struct piece){ in, off, len, out, out_off };
}

/*
 * No group. SHF_LINK_ORDER stays (link_ordered_sections() names the link):
 * ld refuses to put an unordered __patchable_function_entries next to the
 * ordered ones of the template's objects.
 */
static struct section *new_out_section(struct emitter *em, struct section *in)
{
	struct section *s = elf_create_section(em->out, in->name, in->sh.sh_type,
					       in->sh.sh_flags & ~(uint64_t)SHF_GROUP,
					       in->sh.sh_entsize,
					       in->sh.sh_addralign, 0);

	sci(in)->out = s;
	return s;
}

static uint64_t append_range(struct section *out, struct section *in,
			     uint64_t off, uint64_t len)
{
	const void *data = in->data ? in->data + off : NULL;

	return elf_section_append(out, data, len, in->sh.sh_addralign);
}

/*
 * What the output defines is local: a global copy of a patched "foo" would
 * be a second global "foo" in kallsyms (ftrace filters, kprobes and
 * kallsyms_lookup_name() by name then see two), and two outputs that both
 * carry it (vmlinux and a module patched together) collide at ld -r. The
 * template reaches everything through relocations. Only what the running
 * kernel does not have stays global: a new global may be used by another
 * object of the same patch.
 */
static unsigned char out_binding(const struct symbol *sym)
{
	if (sym->bind == STB_LOCAL || si(sym)->status == NEW)
		return sym->bind;
	return STB_LOCAL;
}

static void emit_symbol(struct emitter *em, struct symbol *sym,
			struct section *out, uint64_t off)
{
	struct symbol *o = elf_create_symbol(em->out, sym->name, out, off,
					     sym->size, out_binding(sym),
					     sym->type);

	o->other = sym->other;
	si(sym)->out = o;
}

static bool all_entities_included(struct section *sec)
{
	struct symbol *sym;

	list_for_each_entry(sym, &sec->symbols, sec_list)
		if (is_entity(sym) && !si(sym)->include)
			return false;
	return true;
}

static bool has_included_entity(struct section *sec)
{
	struct symbol *sym;

	list_for_each_entry(sym, &sec->symbols, sec_list)
		if (is_entity(sym) && si(sym)->include)
			return true;
	return false;
}

static void copy_whole(struct emitter *em, struct section *sec)
{
	struct section *out = new_out_section(em, sec);
	struct symbol *sym;

	append_range(out, sec, 0, sec->size);
	sci(sec)->piece0 = em->npieces;
	sci(sec)->npieces = 1;
	add_piece(em, sec, 0, sec->size, out, 0);
	sci(sec)->whole = true;
	list_for_each_entry(sym, &sec->symbols, sec_list) {
		if (!is_entity(sym))
			continue;
		si(sym)->include = true;
		emit_symbol(em, sym, out, sym->offset);
	}
}

/* An alias of @sym (same place, same size) already copied, or NULL. */
static struct symbol *copied_alias(struct symbol *sym)
{
	struct symbol *o;

	list_for_each_entry(o, &sym->sec->symbols, sec_list)
		if (o != sym && si(o)->out && o->offset == sym->offset &&
		    o->size == sym->size && is_entity(o))
			return o;
	return NULL;
}

static void copy_entities(struct emitter *em, struct section *sec)
{
	struct section *out = new_out_section(em, sec);
	struct symbol *sym, *alias;

	list_for_each_entry(sym, &sec->symbols, sec_list) {
		uint64_t off;

		if (!is_entity(sym) || !si(sym)->include)
			continue;
		alias = copied_alias(sym);
		if (alias) {
			emit_symbol(em, sym, out, si(alias)->out->offset);
			continue;
		}
		off = append_range(out, sec, sym->offset, sym->size);
		add_piece(em, sec, sym->offset, sym->size, out, off);
		emit_symbol(em, sym, out, off);
	}
}

static void copy_special(struct emitter *em, struct section *sec)
{
	struct secinfo *s = sci(sec);
	struct section *out = NULL;
	size_t i;

	s->piece0 = em->npieces;
	for (i = 0; i < s->nent; i++) {
		uint64_t off, len;

		if (!s->keep[i])
			continue;
		if (!out)
			out = new_out_section(em, sec);
		len = sec->size - i * s->entsize;
		if (len > s->entsize)
			len = s->entsize;
		off = elf_section_append(out, sec->data + i * s->entsize, len, 1);
		add_piece(em, sec, i * s->entsize, len, out, off);
		s->npieces++;
	}
	if (out) {
		out->sh.sh_addralign = sec->sh.sh_addralign;
		/* libelf checks sizes against sh_entsize; a short last entry */
		if (out->sh.sh_entsize != s->entsize ||
		    out->size % s->entsize)
			out->sh.sh_entsize = 0;
	}
}

static int cmp_range(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* The needed ranges of @sec, sorted and merged, one piece each. */
static void copy_ranges(struct emitter *em, struct section *sec)
{
	struct secinfo *s = sci(sec);
	struct section *out = new_out_section(em, sec);
	size_t i = 0;

	qsort(s->ranges, s->nranges, sizeof(*s->ranges), cmp_range);
	s->piece0 = em->npieces;
	while (i < s->nranges) {
		uint64_t start = s->ranges[i].off;
		uint64_t end = start + s->ranges[i].len, off;

		for (i++; i < s->nranges && s->ranges[i].off <= end; i++)
			if (s->ranges[i].off + s->ranges[i].len > end)
				end = s->ranges[i].off + s->ranges[i].len;
		off = append_range(out, sec, start, end - start);
		add_piece(em, sec, start, end - start, out, off);
		s->npieces++;
	}
}

static void copy_sections(struct emitter *em)
{
	struct section *sec;

	for_each_sec(em->c->patched, sec) {
		/* (objtool's annotations are special sections) */
		if (is_rela_section(sec) ||
		    (is_debug_section(sec) && !sci(sec)->special))
			continue;
		if (sci(sec)->special || sci(sec)->entsize) {
			if (sci(sec)->keep)
				copy_special(em, sec);
		} else if (sci(sec)->include) {
			copy_whole(em, sec);
		} else if (sci(sec)->nranges) {
			copy_ranges(em, sec);
		} else if (has_included_entity(sec)) {
			if (all_entities_included(sec))
				copy_whole(em, sec);
			else
				copy_entities(em, sec);
		}
	}
}

/*
 * An SHF_LINK_ORDER section (__patchable_function_entries with CALL_PADDING)
 * must name a section in sh_link, or ld refuses to mix it with the ordered
 * ones of other objects; name the code its first entry points into.
 */
static void link_ordered_sections(struct emitter *em)
{
	struct section *sec;
	struct reloc *r;

	for_each_sec(em->out, sec) {
		if (!(sec->sh.sh_flags & SHF_LINK_ORDER) || sec->link)
			continue;
		if (!sec->rela) {
			sec->sh.sh_flags &= ~(uint64_t)SHF_LINK_ORDER;
			continue;
		}
		for_each_reloc(sec->rela, r) {
			if (r->sym && r->sym->sec) {
				sec->link = r->sym->sec;
				break;
			}
		}
		if (!sec->link)
			sec->sh.sh_flags &= ~(uint64_t)SHF_LINK_ORDER;
	}
}

/*
 * __mcount_loc for the output's functions, where the compiler leaves it
 * to recordmcount (arch.h: differ_writes_mcount_loc): one pointer per
 * ftrace call site.
 */
static void emit_mcount_loc(struct emitter *em)
{
	struct cdo *c = em->c;
	struct section *loc = NULL;
	struct symbol *sym;

	if (!c->arch->differ_writes_mcount_loc)
		return;
	for_each_sym(c->patched, sym) {
		long at;
		uint64_t off;

		if (!is_func(sym) || !si(sym)->include || !si(sym)->out)
			continue;
		at = arch_ftrace_site(c->arch, sym);
		if (at < 0)
			continue;
		if (!loc)
			loc = elf_create_section(em->out, "__mcount_loc",
						 SHT_PROGBITS, SHF_ALLOC, 8, 8, 0);
		off = elf_section_append(loc, NULL, 8, 8);
		elf_add_reloc(em->out, loc, off, si(sym)->out, c->arch->r_abs64,
			      at);
	}
}

static void report_included(struct cdo *c)
{
	struct symbol *sym;

	for_each_sym(c->patched, sym) {
		const struct syminfo *s = si(sym);

		if (!s->include || !is_entity(sym))
			continue;
		if (s->status == NEW && is_func(sym))
			debugf("new: %s", sym->name);
		else if (s->status != CHANGED || !is_func(sym) || s->parent ||
			 s->copied)
			debugf("included: %s (%s)", sym->name,
			       s->why ? s->why : "whole section");
	}
}

int emit(struct cdo *c)
{
	struct emitter em = { .c = c };
	int ret = 0;

	em.out = elf_new(c->patched, c->out_path);
	if (c->srcfile) {
		struct symbol *f = elf_create_symbol(em.out, c->srcfile, NULL, 0,
						     0, STB_LOCAL, STT_FILE);
		f->shndx = SHN_ABS;
	}
	copy_sections(&em);
	copy_relocs(&em);
	link_ordered_sections(&em);
	emit_mcount_loc(&em);
	emit_func_records(&em);
	fill_callbacks(&em);
	emit_klp_records(&em);
	emit_import_ns(&em);
	report_included(c);
	if (!c->nr_refusals)
		ret = elf_write(em.out, c->out_path);
	elf_close(em.out);
	free(em.pieces);
	free(em.klp);
	return ret;
}
