// SPDX-License-Identifier: GPL-2.0
/*
 * Include: the output holds the changed and new functions and exactly what
 * they need to run in the patch module. The include pass queues the
 * changed and new functions (and kpatch-macros.h's callbacks) on the
 * worklist of include-work.c, which walks out from them; the
 * include-special pass walks out from what the special pass queued there
 * (what the special-section entries of included code refer to).
 */
#include <string.h>
#include "cdo.h"
#include "include-work.h"

void include(struct cdo *c)
{
	struct symbol *sym;
	struct section *sec;

	for_each_sym(c->patched, sym) {
		if (!is_entity(sym) || si(sym)->status == SAME ||
		    si(sym)->ignored)
			continue;
		if (is_func(sym) && !is_init_section(sym->sec) &&
		    si(sym)->status == NEW)
			include_symbol(c, sym, "new");
		else if (is_func(sym) && !is_init_section(sym->sec))
			include_symbol(c, sym, "changed at offset 0x%lx",
				       (unsigned long)(si(sym)->change_off < 0 ?
						       0 : si(sym)->change_off));
		else if (si(sym)->status == NEW && !is_local_sym(sym) &&
			 !is_init_section(sym->sec))
			include_symbol(c, sym, "new global");
	}
	/* callbacks and the like from kpatch-macros.h come along whole */
	for_each_sec(c->patched, sec)
		if (!strncmp(sec->name, KPATCH_CALLBACKS_PREFIX,
			     strlen(KPATCH_CALLBACKS_PREFIX)))
			include_section(c, sec);
	include_drain(c);
}

/* What the entries the special pass kept refer to, and what that needs. */
void include_special(struct cdo *c)
{
	include_drain(c);
}
