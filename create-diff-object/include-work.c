// SPDX-License-Identifier: GPL-2.0
/*
 * The include worklist (include-work.h): the output holds the changed and
 * new functions and exactly what they need to run in the patch module.
 * The worklist walks out from what the passes queue (include.c: changed
 * and new functions; special.c: what kept special-section entries refer
 * to): a function's .cold part and __pfx_ padding come along; a new
 * object, a special static (__warned.N, descriptors, __func__) and an
 * anonymous section (string literals, constant pools, alternative
 * replacements) are copied; everything else — unchanged functions,
 * unchanged variables, a changed function's static locals — stays in the
 * running kernel and is only referenced (klp.c decides how).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "include-work.h"
#include "reloc-target.h"
#include "lib/util.h"

void include_symbol(struct cdo *c, struct symbol *sym, const char *fmt, ...)
{
	struct include_work *w = &c->work;
	va_list ap;

	if (si(sym)->include)
		return;
	si(sym)->include = true;
	if (!si(sym)->why) {
		va_start(ap, fmt);
		if (vasprintf(&si(sym)->why, fmt, ap) < 0)
			si(sym)->why = NULL;
		va_end(ap);
	}
	if (w->nsyms == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 64;
		w->syms = xrealloc(w->syms, w->cap * sizeof(*w->syms));
	}
	w->syms[w->nsyms++] = sym;
}

void include_section(struct cdo *c, struct section *sec)
{
	struct include_work *w = &c->work;

	if (sci(sec)->include)
		return;
	sci(sec)->include = true;
	if (w->nsecs == w->scap) {
		w->scap = w->scap ? w->scap * 2 : 16;
		w->secs = xrealloc(w->secs, w->scap * sizeof(*w->secs));
	}
	w->secs[w->nsecs++] = sec;
}

static void walk_range(struct cdo *c, struct section *sec, uint64_t off,
		       uint64_t len, const char *user);

/* Only [off, off+len) of @sec is needed. */
static void include_range(struct cdo *c, struct section *sec, uint64_t off,
			  uint64_t len, const char *user)
{
	struct secinfo *s = sci(sec);

	if (off > sec->size || len > sec->size - off)
		die(EXIT_BADINPUT, "%s: %s: range 0x%lx+0x%lx past the end of %s",
		    c->objname, user, (unsigned long)off, (unsigned long)len,
		    sec->name);
	for (size_t i = 0; i < s->nranges; i++)
		if (s->ranges[i].off == off && s->ranges[i].len == len)
			return;
	if (s->nranges == s->rcap) {
		s->rcap = s->rcap ? s->rcap * 2 : 8;
		s->ranges = xrealloc(s->ranges, s->rcap * sizeof(*s->ranges));
	}
	s->ranges[s->nranges++] = (struct span){ off, len };
	walk_range(c, sec, off, len, user);
}

/*
 * Include the chunk of anonymous code @off lies in: the other chunks would
 * drag references to functions the patch does not carry, any of which the
 * running kernel might not even have.
 */
static void include_chunk(struct cdo *c, struct section *sec, uint64_t off,
			  const char *user)
{
	struct span ch = chunk_at(sec, off);

	include_range(c, sec, ch.off, ch.len, user);
}

/* Keep the call-site entry of @sec holding @off, and what it points to. */
static void include_entry(struct cdo *c, struct section *sec, int64_t off)
{
	struct secinfo *s = sci(sec);
	size_t i;

	if (off < 0 || (uint64_t)off >= sec->size)
		die(EXIT_BADINPUT, "%s: reference past the end of %s",
		    c->objname, sec->name);
	i = off / s->entsize;
	if (s->keep[i])
		return;
	s->keep[i] = true;
	walk_range(c, sec, i * s->entsize, s->entsize, sec->name);
}

/* Does a reference to @t from included code need a copy of it? */
void include_target(struct cdo *c, const struct target *t, const char *user)
{
	struct symbol *s = t->sym;

	if (t->sec) {
		struct secinfo *ts = sci(t->sec);

		if (ts->callsite && ts->entsize) {
			include_entry(c, t->sec, t->off);
			return;
		}
		if (is_anonymous_code(t->sec) && t->off >= 0 &&
		    (uint64_t)t->off <= t->sec->size) {
			include_chunk(c, t->sec, t->off, user);
			return;
		}
		if (!ts->special && !is_debug_section(t->sec))
			include_section(c, t->sec);
		return;
	}
	if (!s || !s->sec || si(s)->include)
		return;
	if (is_func(s)) {
		if (si(s)->status != SAME && !si(s)->ignored)
			include_symbol(c, s, "%s", si(s)->status == NEW ?
				       "new" : "changed");
		return;
	}
	if (si(s)->special_static)
		include_symbol(c, s, "needed by %s", user);
	else if (si(s)->status == NEW)
		include_symbol(c, s, "new, needed by %s", user);
	else if (si(s)->status == CHANGED && !(s->sec->sh.sh_flags & SHF_WRITE))
		include_symbol(c, s, "changed read-only data, needed by %s", user);
}

/*
 * A call the module loader cannot route out of the patch module (the
 * arch's call_site(): CALL_NO_SLOT) must stay inside it: an unchanged
 * callee of this file comes along as a copy.
 */
static void carry_callee(struct cdo *c, struct section *sec,
			 const struct reloc *r, const struct target *t,
			 const char *user)
{
	struct symbol *s = t->sym;

	if (!c->arch->call_site || !s || !s->sec || si(s)->include ||
	    !is_func(s) || c->arch->call_site(sec, r) != CALL_NO_SLOT)
		return;
	include_symbol(c, s, "called by %s with %s, so carried into the patch",
		       user, c->arch->call_site_words->no_slot_carried);
}

static void walk_range(struct cdo *c, struct section *sec, uint64_t off,
		       uint64_t len, const char *user)
{
	struct reloc **rs;
	size_t n, i;

	n = relocs_in(sec, off, len, &rs);
	for (i = 0; i < n; i++) {
		struct target t;

		reloc_target(c, sec, rs[i], &t);
		if (is_text_section(sec))
			carry_callee(c, sec, rs[i], &t, user);
		include_target(c, &t, user);
	}
}

static void include_children(struct cdo *c, struct symbol *sym)
{
	struct symbol *s;

	for (s = si(sym)->child; s; s = si(s)->sibling)
		include_symbol(c, s, "part of %s", sym->name);
	if (si(sym)->parent)
		include_symbol(c, si(sym)->parent, "its part %s changed",
			       sym->name);
}

/* Walk out from everything queued until nothing new is needed. */
void include_drain(struct cdo *c)
{
	struct include_work *w = &c->work;

	while (w->nsyms || w->nsecs) {
		if (w->nsyms) {
			struct symbol *sym = w->syms[--w->nsyms];

			include_children(c, sym);
			walk_range(c, sym->sec, sym->offset, sym->size, sym->name);
			continue;
		}
		{
			struct section *sec = w->secs[--w->nsecs];

			walk_range(c, sec, 0, sec->size, sec->name);
		}
	}
}

void include_free(struct cdo *c)
{
	free(c->work.syms);
	free(c->work.secs);
	memset(&c->work, 0, sizeof(c->work));
}
