// SPDX-License-Identifier: GPL-2.0
/*
 * Split: a text section holding several functions (.sched.text of the
 * __sched functions, .spinlock.text, .cpuidle.text, .noinstr.text,
 * .entry.text: the sections a section attribute names, which
 * -ffunction-sections does not split) is cut along its symbols, so that
 * each function compares and travels alone like one in its own section.
 * The assembler resolved the calls and jumps between local functions of
 * one section itself, leaving no relocation behind: each such operand
 * becomes a relocation to the function it reaches, its bytes zeroed, as
 * the assembler would have written it for two sections. Then a function
 * that moved because a neighbour grew is not a change, and a carried
 * function reaches its unchanged neighbours in the running kernel.
 *
 * A function whose instructions cannot all be decoded, or that reaches
 * into its section other than at a function's start, keeps its bytes and
 * is marked, as is one that jumps to a neighbour with a 1-byte
 * displacement (split for comparing, but no module relocation has 8
 * bits); verify.c refuses such a function if the patch must carry it.
 */
#include <stdlib.h>
#include <string.h>
#include "cdo.h"
#include "lib/util.h"

struct fixup {
	uint64_t field;
	unsigned int size;
	struct symbol *to;
	int64_t addend;
};

struct funcs {
	struct symbol **v;
	size_t n;
};

static int cmp_offset(const void *a, const void *b)
{
	const struct symbol *x = *(struct symbol *const *)a;
	const struct symbol *y = *(struct symbol *const *)b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The functions of @sec by offset; true when there are two or more bodies. */
static bool shared_functions(struct section *sec, struct funcs *fs)
{
	struct symbol *sym;
	size_t i, bodies = 0;

	fs->n = 0;
	list_for_each_entry(sym, &sec->symbols, sec_list)
		if (is_func(sym) && sym->size)
			fs->n++;
	if (fs->n < 2)
		return false;
	fs->v = xcalloc(fs->n, sizeof(*fs->v));
	fs->n = 0;
	list_for_each_entry(sym, &sec->symbols, sec_list)
		if (is_func(sym) && sym->size)
			fs->v[fs->n++] = sym;
	qsort(fs->v, fs->n, sizeof(*fs->v), cmp_offset);
	for (i = 0; i < fs->n; i++)
		if (!i || fs->v[i]->offset != fs->v[i - 1]->offset)
			bodies++;
	return bodies > 1;
}

static struct symbol *function_at(const struct funcs *fs, int64_t off)
{
	size_t lo = 0, hi = fs->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if ((int64_t)fs->v[mid]->offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < fs->n && (int64_t)fs->v[lo]->offset == off ? fs->v[lo] : NULL;
}

/*
 * Find the operands of @f that reach out of it into its own section
 * without a relocation. NULL when all are understood (fixups in @fx),
 * else the reason it cannot be split.
 */
static char *find_fixups(struct cdo *c, struct section *sec, struct symbol *f,
			 const struct funcs *fs, struct fixup **fx, size_t *nfx,
			 char **short_jump)
{
	uint64_t at = f->offset, end = f->offset + f->size;
	struct insn_info in;

	while (at < end) {
		struct symbol *to;

		if (!c->arch->decode(sec->data, end, at, &in))
			return xasprintf("cannot decode its instruction at offset 0x%lx",
					 (unsigned long)(at - f->offset));
		at = in.end;
		if (!in.size || (in.target >= (int64_t)f->offset &&
				 in.target < (int64_t)end) ||
		    find_reloc_in_range(sec, in.field, in.size))
			continue;
		to = function_at(fs, in.target);
		if (!to || (in.size != 4 && in.size != 1))
			return xasprintf("its instruction at offset 0x%lx reaches offset 0x%lx of the section, where no function starts",
					 (unsigned long)(in.start - f->offset),
					 (unsigned long)in.target);
		*fx = xrealloc(*fx, (*nfx + 1) * sizeof(**fx));
		(*fx)[(*nfx)++] = (struct fixup){
			in.field, in.size, to,
			(in.target - (int64_t)to->offset) -
			(int64_t)(in.end - in.field) };
		/*
		 * A short jump to a neighbour compares like any reference,
		 * but no module relocation can reach the kernel with 8 bits.
		 */
		if (in.size == 1 && !*short_jump)
			*short_jump = xasprintf("its instruction at offset 0x%lx jumps to %s with a 1-byte displacement",
						(unsigned long)(in.start - f->offset),
						to->name);
	}
	return NULL;
}

static void mark_unsplit(const struct funcs *fs, size_t i, const char *why)
{
	size_t k;

	/* @i is the first of its aliases, which follow it (sorted) */
	for (k = i; k < fs->n && fs->v[k]->offset == fs->v[i]->offset; k++)
		si(fs->v[k])->unsplit = xstrdup(why);
}

static void split_section(struct cdo *c, struct elf *elf, struct section *sec,
			  const struct funcs *fs)
{
	struct section *rela;
	size_t i, k;

	for (i = 0; i < fs->n; i++) {
		struct fixup *fx = NULL;
		char *why, *short_jump = NULL;
		size_t nfx = 0;

		if (i && fs->v[i]->offset == fs->v[i - 1]->offset)
			continue;	/* an alias: one body */
		why = find_fixups(c, sec, fs->v[i], fs, &fx, &nfx, &short_jump);
		if (why || short_jump) {
			mark_unsplit(fs, i, why ? why : short_jump);
			debugf("split: %s: %s: %s", sec->name, fs->v[i]->name,
			       why ? why : short_jump);
		}
		for (k = 0; !why && k < nfx; k++) {
			memset(sec->data + fx[k].field, 0, fx[k].size);
			elf_add_reloc(elf, sec, fx[k].field, fx[k].to,
				      fx[k].size == 1 ? c->arch->r_pc8 :
				      c->arch->r_pc32, fx[k].addend);
		}
		free(why);
		free(short_jump);
		free(fx);
	}
	rela = sec->rela;
	if (rela && !rela->priv)
		classify_section(c, rela);
}

static void split_object(struct cdo *c, struct elf *elf)
{
	struct section *sec;

	for_each_sec(elf, sec) {
		struct funcs fs = { 0 };

		if (!is_text_section(sec) || !sec->data || is_rela_section(sec))
			continue;
		if (shared_functions(sec, &fs))
			split_section(c, elf, sec, &fs);
		free(fs.v);
	}
}

void split_shared_sections(struct cdo *c)
{
	/* only an arch with an instruction decoder can cut them (verify.c) */
	if (!c->arch->decode)
		return;
	split_object(c, c->orig);
	split_object(c, c->patched);
}
