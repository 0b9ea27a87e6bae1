/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The include worklist (include-work.c): what joins the output, queued by
 * the passes that find it (include.c, special.c) and walked out from until
 * nothing new is needed. No pass of its own: the passes share it.
 */
#ifndef CDO_INCLUDE_WORK_H
#define CDO_INCLUDE_WORK_H

#include "cdo.h"
#include "reloc-target.h"

/* Queue @sym, with why it joins (the -d report), unless it is in already. */
void include_symbol(struct cdo *c, struct symbol *sym, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Queue all of @sec. */
void include_section(struct cdo *c, struct section *sec);
/* Does a reference to @t from included code need a copy of it? Queue it. */
void include_target(struct cdo *c, const struct target *t, const char *user);
/* Walk out from everything queued until nothing new is needed. */
void include_drain(struct cdo *c);
void include_free(struct cdo *c);

#endif
