// SPDX-License-Identifier: GPL-2.0
/* What the architectures' own code shares (common.h). */
#include <string.h>
#include "arch/common.h"
#include "lib/target-order.h"

bool arch_line_only_words(bool (*imm_values)(uint32_t a, uint32_t b,
					     uint64_t *va, uint64_t *vb),
			  const unsigned char *a, const unsigned char *b,
			  size_t len, line_imm_fn is_line, void *ctx)
{
	size_t i, found = 0;

	if (len % 4)
		return false;
	for (i = 0; i < len; i += 4) {
		uint32_t ia = (uint32_t)target_get(false, a + i, 4);
		uint32_t ib = (uint32_t)target_get(false, b + i, 4);
		struct line_imm imm = { .at = i, .end = i + 4 };

		if (ia == ib)
			continue;
		if (!imm_values(ia, ib, &imm.a, &imm.b) || !is_line(ctx, &imm))
			return false;
		found++;
	}
	return found > 0;
}

bool arch_entry_recorded(const struct symbol *func, const char *secname,
			 uint64_t at, uint64_t max_before)
{
	const struct section *s;

	list_for_each_entry(s, &func->elf->sections, list) {
		const struct reloc *r;

		if (!s->base || strcmp(s->base->name, secname))
			continue;
		for_each_reloc(s, r) {
			uint64_t t;

			if (!r->sym || r->sym->sec != func->sec)
				continue;
			t = r->sym->offset + (uint64_t)r->addend;
			if (t <= at && at - t <= max_before)
				return true;
		}
	}
	return false;
}

bool arch_line_only_bytes(const struct line_imm_insn *insn,
			  const unsigned char *a, const unsigned char *b,
			  size_t len, line_imm_fn is_line, void *ctx)
{
	size_t i = 0, found = 0;

	while (i < len) {
		struct line_imm imm;
		size_t start;
		bool ok = false;

		if (a[i] == b[i]) {
			i++;
			continue;
		}
		for (start = i >= insn->back_max ? i - insn->back_max : 0;
		     !ok && start + insn->back_min <= i; start++)
			/* (an immediate that ends before @i explains nothing,
			 * and going back to it would never end) */
			ok = insn->decode(a, b, len, start, &imm) &&
			     imm.at <= i && i < imm.end && is_line(ctx, &imm);
		if (!ok)
			return false;
		found++;
		i = imm.end;
	}
	return found > 0;
}
