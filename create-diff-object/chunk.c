// SPDX-License-Identifier: GPL-2.0
/*
 * Anonymous code: sections of code without symbols (.altinstr_replacement,
 * .altinstr_aux) are rows of chunks, each reached from one place: an
 * alternative entry, a static_cpu_has() jump. A chunk starts where
 * something refers to it and ends where the next one starts. Chunks are
 * what such code is made of, both for comparing (a reference that lands
 * at another offset of the section because a new chunk came before it
 * still reaches the same code) and for including (only the chunks that
 * included code reaches come along).
 */
#include <stdlib.h>
#include "cdo.h"
#include "reloc-target.h"
#include "lib/util.h"

bool is_anonymous_code(const struct section *sec)
{
	return is_text_section(sec) && sci(sec)->anonymous && !sci(sec)->special;
}

static void add_ref(struct section *sec, uint64_t off)
{
	struct secinfo *s = sci(sec);

	if (s->nrefs == s->refcap) {
		s->refcap = s->refcap ? s->refcap * 2 : 16;
		s->refs = xrealloc(s->refs, s->refcap * sizeof(*s->refs));
	}
	s->refs[s->nrefs++] = off;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Where every chunk of anonymous code of @elf starts: the places referenced. */
static void find_chunks_of(struct cdo *c, struct elf *elf)
{
	struct section *rela, *sec;
	struct reloc *r;

	for_each_sec(elf, rela) {
		if (!is_rela_section(rela) || is_debug_section(rela->base))
			continue;
		for_each_reloc(rela, r) {
			struct target t;

			reloc_target(c, rela->base, r, &t);
			if (t.sec && is_anonymous_code(t.sec) && t.off >= 0 &&
			    (uint64_t)t.off <= t.sec->size)
				add_ref(t.sec, t.off);
		}
	}
	for_each_sec(elf, sec)
		if (sci(sec)->nrefs)
			qsort(sci(sec)->refs, sci(sec)->nrefs,
			      sizeof(*sci(sec)->refs), cmp_u64);
}

void find_chunks(struct cdo *c)
{
	find_chunks_of(c, c->orig);
	find_chunks_of(c, c->patched);
}

/* The chunk of anonymous code @sec that @off lies in. */
struct span chunk_at(const struct section *sec, uint64_t off)
{
	const struct secinfo *s = sci(sec);
	uint64_t start = 0, end = sec->size;
	size_t lo = 0, hi = s->nrefs;

	while (lo < hi) {	/* the first reference past @off */
		size_t mid = (lo + hi) / 2;

		if (s->refs[mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0)
		start = s->refs[lo - 1];
	if (lo < s->nrefs)
		end = s->refs[lo];
	return (struct span){ start, end - start };
}
