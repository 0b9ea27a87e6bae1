/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kpatch-pp-compare's model of a preprocessed unit (main.c says what the
 * tool decides and why). One file per job:
 *
 *   text.c          the file read and normalized: line markers dropped, white
 *                   space folded (the text the compiler is given, compared)
 *   chunks.c        the normalized text cut into top-level declarations, its
 *                   identifiers counted and its literals decoded
 *   canonical.c     a definition's __COUNTER__ names renumbered by order
 *   unreferenced.c  is a declaration a static function nothing else names?
 *   main.c          the two units compared, the verdict and the exit code
 */
#ifndef KP_PP_COMPARE_H
#define KP_PP_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include "lib/util.h"

/*
 * The tool's exit codes (kpatch-build/lib/targeted.sh sets an object aside
 * only on exit 0 with a "same:" line; anything else keeps it). Bad input
 * (usage, a file that cannot be read) exits PP_BAD_INPUT through die(). Out
 * of memory, lib/util.c's allocators exit EXIT_BADINPUT, which is 1, the
 * same as PP_MAY_CHANGE, with nothing on stdout: the object is kept and
 * built, the harmless direction. Never 0: the assertion below holds it.
 */
#define PP_SAME		0
#define PP_MAY_CHANGE	1
#define PP_BAD_INPUT	2

_Static_assert(EXIT_BADINPUT != PP_SAME, "out of memory must never read as \"same\"");

/* a top-level declaration (or directive line) of a unit */
struct chunk {
	size_t off, len;	/* in unit.text */
	const char *cmp;	/* the text compared: unit.text + off, or canonical() */
	size_t cmplen;
	size_t soff, slen;	/* its string literals' contents, in unit.strs */
	size_t body;		/* function definitions: offset of the body's '{' */
	int func;
	uint64_t hash;
};

/* an identifier of the unit and how often it occurs */
struct word {
	const char *s;
	size_t len;
	size_t count;
};

struct unit {
	const char *path;
	char *text;		/* normalized: no line markers, one space for white space */
	size_t len;
	char *strs;		/* decoded contents of string and character literals */
	size_t slen;
	struct chunk *ch;
	size_t nch;
	struct word *words;	/* identifier counts (open addressing) */
	size_t nwords;		/* table size, a power of two */
};

/* a token of a function definition's head, for finding its name */
struct tok {
	const char *s;
	size_t len;
};

/* text.c */
int is_ident(int c);
size_t literal_end(const char *s, size_t i, size_t n);
uint64_t hash_bytes(const char *s, size_t n);
void load(struct unit *u, const char *path);
void unit_free(struct unit *u);

/* chunks.c */
void parse(struct unit *u);
size_t word_count(const struct unit *u, const char *s, size_t len);

/* canonical.c */
void canonical(struct unit *u, struct chunk *c);

/* unreferenced.c */
int unreferenced_static(const struct unit *u, const struct chunk *c,
			struct tok *name, const char **why);
int unreferenced_prototype(const struct unit *u, const struct chunk *c, struct tok *name);

#endif
