// SPDX-License-Identifier: GPL-2.0
/*
 * The output's relocations (emit's second step, after emit.c has copied
 * the sections): each copied range's relocations, retargeted. A target the
 * output carries becomes a reference to its copy (the copied symbol, or the
 * copy's section symbol and offset; a local label where an arch's slot
 * relocation needs a symbol of its own); any other becomes a reference to
 * the external symbol klp.c names (exported, or a klp symbol, which the
 * .klp.module_relocs records of records.c list). What the module loader
 * cannot make of such a reference is refused here, where it is made: a
 * far access, a call through its stub, a klp relocation of the wrong type
 * or read before livepatch resolves it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emit.h"
#include "reloc-target.h"
#include "lib/util.h"

/* The output's undefined symbol for a reference to @sym outside it. */
static struct symbol *external(struct emitter *em, struct symbol *sym)
{
	struct cdo *c = em->c;
	unsigned long sympos;
	struct symbol *o;
	char *name;
	bool klp;

	name = klp_external_name(c, sym, &klp, &sympos);
	for_each_sym_named(em->out, o, name)
		if (!o->sec)
			goto out;
	o = elf_create_symbol(em->out, name, NULL, 0, 0, STB_GLOBAL,
			      sym->type == STT_SECTION ? STT_NOTYPE : sym->type);
	if (klp) {
		em->klp = xrealloc(em->klp, (em->nklp + 1) * sizeof(*em->klp));
		em->klp[em->nklp++] = (struct klpsym){ o, sympos };
		debugf("klp: %s -> %s",
		       si(sym)->twin ? si(sym)->twin->name : sym->name, name);
	} else {
		debugf("exported: %s", name);
	}
out:
	free(name);
	return o;
}

/* The copied range of @sec that holds @off (entries: binary search). */
static struct piece *find_piece(struct emitter *em, struct section *sec,
				int64_t off)
{
	struct secinfo *s = sci(sec);
	size_t lo = 0, hi = s->npieces;

	if (s->whole)
		return &em->pieces[s->piece0];
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		struct piece *p = &em->pieces[s->piece0 + mid];

		if (off < (int64_t)p->off)
			hi = mid;
		else if (off >= (int64_t)(p->off + p->len))
			lo = mid + 1;
		else
			return p;
	}
	/*
	 * Just past the end of a piece: an empty alternative replacement
	 * points where the previous one ends.
	 */
	if (lo > 0 && off == (int64_t)(em->pieces[s->piece0 + lo - 1].off +
				       em->pieces[s->piece0 + lo - 1].len))
		return &em->pieces[s->piece0 + lo - 1];
	return NULL;
}

/*
 * The module loader reads jump labels, static calls, alternatives... while
 * loading the patch, but livepatch resolves klp relocations to a module
 * only later (vmlinux ones are applied at load in 6.1): such a reference
 * in a special section would be read unresolved.
 */
static void check_load_time_klp(struct emitter *em, struct section *in,
				struct symbol *sym, struct symbol *to)
{
	struct cdo *c = em->c;

	if (!sci(in)->special ||
	    strncmp(to->name, KLP_SYM_PREFIX, strlen(KLP_SYM_PREFIX)) ||
	    !strcmp(c->parent, KLP_VMLINUX))
		return;
	refuse(c, sym->name, "%s entry refers to it in module %s, which livepatch resolves only after the loader has read %s (use static_key_enabled() or a plain call)",
	       in->name, c->parent, in->name);
}

/*
 * A call that leaves the patch module goes through the loader's stub,
 * which may need more of the call than the compiler gave it, or be unable
 * to come back from a tail call: the arch's call_site() says, in its own
 * words (carry_callee() of include-work.c keeps the file's own callees
 * inside).
 */
static void check_call_site(struct emitter *em, struct section *in,
			    const struct reloc *r, const struct symbol *sym)
{
	struct cdo *c = em->c;
	const struct call_site_words *words = c->arch->call_site_words;
	const struct symbol *from;
	enum call_site kind;

	if (!c->arch->call_site || !is_text_section(in))
		return;
	kind = c->arch->call_site(in, r);
	if (kind == CALL_PLAIN)
		return;
	from = find_symbol_containing(in, r->offset);
	if (kind == CALL_SIBLING)
		refuse(c, from ? from->name : in->name, "tail call to %s, outside the patch module: %s",
		       sym->name, words->sibling);
	else
		refuse(c, from ? from->name : in->name, "call to %s, outside the patch module, has %s (the module loader would reject it)",
		       sym->name, words->no_slot);
}

/* klp-convert would refuse it later; say so where the reference is made */
static void check_klp_reloc_type(struct emitter *em, struct section *in,
				 const struct reloc *r, const struct symbol *to)
{
	const struct arch *arch = em->c->arch;
	const char *hint = arch->klp_reloc_hint;
	const struct symbol *from;

	if (!arch->klp_reloc_ok || arch->klp_reloc_ok(r->type) ||
	    strncmp(to->name, KLP_SYM_PREFIX, strlen(KLP_SYM_PREFIX)))
		return;
	if (!hint)
		hint = "the module loader does not apply it, or not as far as the running kernel";
	from = find_symbol_containing(in, r->offset);
	refuse(em->c, from ? from->name : in->name, "relocation type %u to %s cannot be a klp relocation on %s (%s)",
	       r->type, to->name, arch->name, hint);
}

/*
 * A slot relocation (arch.h: reloc_slot_of_symbol) gets the symbol's value
 * alone: a target inside @to (at @pos of its section, or inside the
 * symbol) gets a local label of its own at that spot; *addend keeps only
 * the bias.
 */
static struct symbol *slot_label(struct emitter *em, struct section *in,
				 const struct reloc *r, struct symbol *to,
				 uint64_t pos, int64_t *addend)
{
	const struct arch *arch = em->c->arch;
	int64_t bias = (int64_t)((uint64_t)r->addend - (uint64_t)arch->reloc_target(in, r));
	const struct symbol *from;
	char name[64];

	if (!arch->reloc_slot_of_symbol || !arch->reloc_slot_of_symbol(r->type) ||
	    (to->type != STT_SECTION && pos == to->offset))
		return to;
	if (!to->sec) {
		from = find_symbol_containing(in, r->offset);
		refuse(em->c, from ? from->name : in->name, "slot relocation (type %u) to %s%+ld: the loader's slot holds a symbol's address only",
		       r->type, to->name, (long)(*addend - bias));
		return to;
	}
	snprintf(name, sizeof(name), "kpatch_slot.%s+0x%lx", to->sec->name,
		 (unsigned long)pos);
	*addend = bias;
	return elf_create_symbol(em->out, name, to->sec, pos, 0, STB_LOCAL,
				 STT_NOTYPE);
}

/*
 * A reference out of the module the loader could not make reach (arch.h:
 * far_reference): the arch rewrites the instruction of the output copy to
 * go through a slot, or it is refused.
 */
static unsigned int far_type(struct emitter *em, struct piece *p,
			     const struct reloc *r, const struct symbol *to)
{
	const struct arch *arch = em->c->arch;
	uint64_t out_off = r->offset - p->off + p->out_off;
	struct reloc at = *r;
	const struct symbol *from;
	unsigned int type;

	if (!arch->far_reference || !p->out->data || !is_text_section(p->in))
		return r->type;
	at.offset = out_off;
	type = arch->far_reference(p->out->data, p->out->size, &at);
	if (!type) {
		from = find_symbol_containing(p->in, r->offset);
		refuse(em->c, from ? from->name : p->in->name, "PC-relative access (relocation type %u) to %s in the running kernel, out of the patch module's reach",
		       r->type, to->name);
		return r->type;
	}
	if (type != r->type)
		debugf("far: %s+0x%lx: relocation type %u -> %u to reach %s",
		       p->in->name, (unsigned long)r->offset, r->type, type,
		       to->name);
	return type;
}

/* objtool's annotations (arch table rows) point at section symbols only */
static bool wants_section_symbols(const struct section *sec)
{
	const struct special_section *row = sci(sec)->row;

	return row && row->section_symbol_refs;
}

static void retarget(struct emitter *em, struct piece *p, struct reloc *r)
{
	struct cdo *c = em->c;
	struct target t;
	struct symbol *to;
	int64_t addend = 0;
	unsigned int type = r->type;

	reloc_target(c, p->in, r, &t);
	if (is_no_target(&t)) {
		to = NULL;
		addend = r->addend;
	} else if (t.sym && si(t.sym)->include && si(t.sym)->out) {
		to = si(t.sym)->out;
		addend = t.addend;
		if (t.off)
			to = slot_label(em, p->in, r, to,
					(uint64_t)((int64_t)to->offset + t.off), &addend);
	} else if (t.sym) {
		to = external(em, t.sym);
		addend = t.addend;
		type = far_type(em, p, r, to);
		if (t.off)
			to = slot_label(em, p->in, r, to, 0, &addend);
		check_load_time_klp(em, p->in, t.sym, to);
		check_call_site(em, p->in, r, t.sym);
		check_klp_reloc_type(em, p->in, r, to);
	} else {
		struct piece *tp = find_piece(em, t.sec, t.off);

		if (!tp)
			die(EXIT_BADINPUT, "%s: %s+0x%lx: reference to section %s, which the output does not carry",
			    c->objname, p->in->name, (unsigned long)r->offset,
			    t.sec->name);
		to = elf_section_symbol(em->out, tp->out);
		addend = (int64_t)((uint64_t)t.addend - tp->off + tp->out_off);
		to = slot_label(em, p->in, r, to,
				(uint64_t)t.off - tp->off + tp->out_off, &addend);
	}
	if (wants_section_symbols(p->in) && to->sec && to->type != STT_SECTION) {
		addend += (int64_t)to->offset;
		to = elf_section_symbol(em->out, to->sec);
	}
	elf_add_reloc(em->out, p->out, r->offset - p->off + p->out_off, to,
		      type, addend);
}

void copy_relocs(struct emitter *em)
{
	size_t i, n, k;

	for (i = 0; i < em->npieces; i++) {
		struct piece *p = &em->pieces[i];
		struct reloc **rs;

		n = relocs_in(p->in, p->off, p->len, &rs);
		for (k = 0; k < n; k++)
			retarget(em, p, rs[k]);
	}
}
