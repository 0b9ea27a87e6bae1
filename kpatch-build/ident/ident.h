/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kpatch-ident: which identifiers does a header hunk change, and which files
 * of the tree can reach them (main.c says what each command prints). One file
 * per job:
 *
 *   lex.c       un-preprocessed C read into tokens: comments dropped,
 *               backslash-newlines joined, directives marked
 *   names.c     a set of strings: interned names, tables
 *   items.c     a file cut into top-level items: directives, declarations,
 *               each with the conditional directives around it
 *   declare.c   the names a C declaration defines (function, variable,
 *               type, enumerator)
 *   changed.c   `changed`: two versions' items matched, the changed names
 *               and what uses them in the file
 *   macro.c     a #define read for token pasting: its parameters, what it
 *               pastes, the macros its body passes parameters to
 *   paste.c     a file's paste fragments, given the paste macros; the
 *               fragments a name can be cut into
 *   index.c     `index`: every file lexed, the paste macros to a fixpoint
 *   store.c     the index file: written, mapped and checked
 *   query.c     `query`: the files that can reach an identifier
 *   main.c      the commands
 */
#ifndef KP_IDENT_H
#define KP_IDENT_H

#include <stddef.h>
#include <stdint.h>
#include "lib/hash.h"
#include "lib/util.h"

/*
 * Exit codes. Out of memory, lib/util.c's allocators exit EXIT_BADINPUT (1)
 * with nothing on stdout: never 0, so the driver never takes a partial answer.
 */
#define ID_OK		0
#define ID_BAD_INPUT	2
#define ID_UNCLASSIFIED	3

_Static_assert(EXIT_BADINPUT != ID_OK, "out of memory must never read as success");

/* ------------------------------------------------------------------ lex.c */
enum tok_kind { T_IDENT, T_NUMBER, T_STRING, T_CHAR, T_PUNCT, T_HASH, T_EOD };

#define TF_SPACE	1	/* white space (or a comment) before it */
#define TF_DIRNAME	2	/* the name of a directive: "define" in #define */

struct token {
	uint32_t off, len;	/* in lexed.buf */
	uint32_t line;		/* 1-based, of the original file (with lines) */
	uint8_t kind, flags;
};

struct lexed {
	const char *path;
	char *buf;		/* the text, backslash-newlines removed */
	size_t len, cap;
	struct token *t;
	size_t n, tcap;
	uint32_t *splice;	/* offsets in buf where a line was joined */
	size_t nsplice, scap;
};

int read_file(const char *path, char **buf, size_t *len, size_t *cap);
void lex_text(struct lexed *lx, int lines);
void lex_file(struct lexed *lx, const char *path, int lines);
void lexed_free(struct lexed *lx);
int tok_is(const struct lexed *lx, size_t i, const char *s);
int tok_eq(const struct lexed *a, size_t i, const struct lexed *b, size_t j);
int is_keyword(const char *s, size_t len);
int is_upper_word(const char *s, size_t len);

static inline const char *tok_text(const struct lexed *lx, size_t i)
{
	return lx->buf + lx->t[i].off;
}

/* ---------------------------------------------------------------- names.c */
struct sname {
	const char *s;
	uint32_t len;
	uint32_t id;		/* order of insertion */
	void *data;
};

struct sslot {
	uint32_t key;		/* the name's hash */
	struct sname *e;	/* NULL: empty */
};

struct sset {
	struct sslot *slot;
	unsigned int bits;
	struct sname **by_id;
	size_t n, cap;
	char **arena;		/* the entries and their strings, in blocks */
	size_t narena, aused, asize;
};

uint32_t hash_mem(const char *s, size_t len);
void sset_init(struct sset *ss);
void sset_free(struct sset *ss);
struct sname *sset_find(const struct sset *ss, const char *s, size_t len);
struct sname *sset_add(struct sset *ss, const char *s, size_t len);
struct sname *sset_find_h(const struct sset *ss, const char *s, size_t len, uint32_t key);
struct sname *sset_add_h(struct sset *ss, const char *s, size_t len, uint32_t key);
void sset_reserve(struct sset *ss, size_t n);
void sset_add_many(struct sset *ss, size_t n, const char *const *s, const uint32_t *len,
		   const uint32_t *key, struct sname **out);

/* --------------------------------------------------------------- items.c */
enum item_type {
	IT_C,		/* a declaration or definition */
	IT_DEFINE, IT_UNDEF, IT_COND, IT_INCLUDE, IT_PRAGMA, IT_DIRECTIVE,
};

enum name_kind { K_FUNCTION, K_MACRO, K_VARIABLE, K_TYPE, K_ENUMERATOR };

struct name {
	enum name_kind kind;
	const char *s;
	uint32_t len;
};

struct item {
	enum item_type type;
	uint32_t *tok;		/* its tokens (indices in the lexed file) */
	size_t ntok;
	uint32_t line;
	const char *ctx;	/* the conditional directives around it */
	struct name *names;
	size_t nnames, ncap;
	int opaque;		/* OPAQUE_*: it defines names we cannot know */
	int empty;		/* a declaration of nothing (a stray ';') */
	char *what;		/* for messages: "asm", the macro invoked, ... */
	uint64_t hash;
	int same;		/* an identical item is in the other version */
};

#define OPAQUE_MACRO		1	/* a declaration a macro makes */
#define OPAQUE_INVOCATION	2	/* a leading macro invocation */
#define OPAQUE_CROSSES		3	/* it crosses a conditional's branches */
#define OPAQUE_UNTERMINATED	4	/* no ';' before the end of the file */

struct file_items {
	struct lexed lx;
	struct item *it;
	size_t n, cap;
	struct sset ctxs;	/* the contexts' strings */
	char *err;		/* why it could not be cut (NULL: it could) */
	uint32_t errline;
};

void items_cut(struct file_items *f);
void items_free(struct file_items *f);
const char *item_excerpt(const struct file_items *f, const struct item *it);

/* ------------------------------------------------------------- declare.c */
void declare(struct file_items *f, struct item *it);
void item_add_name(struct item *it, enum name_kind kind, const char *s, size_t len);
int is_prefix_attribute(const char *s, size_t len);

/* ------------------------------------------------------------- changed.c */
int cmd_changed(const char *orig, const char *new);

/* --------------------------------------------------------------- macro.c */
/*
 * Paste masks: bit k (k < 31) an argument position whose tokens a macro
 * pastes (directly with ##, or by passing them to a paste macro's pasted
 * position); bit 31 every position from 31 on.
 */
#define PASTE_ALL_FROM(k)	((k) >= 31 ? 0x80000000u : ~0u << (k))

static inline int mask_has(uint32_t mask, unsigned int k)
{
	return (mask >> (k < 31 ? k : 31)) & 1;
}

struct macro {
	size_t name;		/* token index of its name */
	size_t body, end;	/* its replacement list: tokens [body, end) */
	size_t param[64];	/* token indices of the parameters */
	int nparam;
	int more;		/* parameters past param[]: every position pastes */
	int variadic;		/* the last parameter is __VA_ARGS__ or name... */
	int funclike;
};

/* an argument of an invocation in a macro's body that holds a parameter */
struct pass_edge {
	uint32_t file;		/* the file of the #define */
	uint32_t macro;		/* the macro's name (an index id) */
	uint32_t callee;	/* the macro it invokes */
	uint32_t pmask;		/* the positions of the parameter(s) it holds */
	uint8_t arg;		/* which argument */
	uint8_t spread;		/* it holds the variadic ones: every position from arg */
};

typedef void (*edge_fn)(void *ctx, const struct lexed *lx, const struct macro *m,
			size_t callee, unsigned int arg, int spread, uint32_t pmask);
typedef void (*tok_fn)(void *ctx, size_t i, unsigned int arg);
typedef void (*word_fn)(void *ctx, const char *s, size_t len);

int macro_read(const struct lexed *lx, size_t h, struct macro *m);
int macro_param(const struct lexed *lx, const struct macro *m, size_t i);
uint32_t macro_direct_mask(const struct lexed *lx, const struct macro *m);
void macro_literal_operands(const struct lexed *lx, const struct macro *m, word_fn fn, void *ctx);
size_t invocation_walk(const struct lexed *lx, size_t open, size_t end, tok_fn fn, void *ctx);
void macro_edges(const struct lexed *lx, const struct macro *m, edge_fn fn, void *ctx);

/* --------------------------------------------------------------- paste.c */
typedef uint32_t (*mask_fn)(void *ctx, const char *s, size_t len);

void file_words(const struct lexed *lx, word_fn fn, void *ctx);
void define_fragments(const struct lexed *lx, word_fn fn, void *ctx);
void invocation_fragments(const struct lexed *lx, mask_fn mask, void *mctx, word_fn fn, void *ctx);

struct paste_scope {
	mask_fn global;		/* the tree's paste macros */
	void *gctx;
	struct sset local;	/* the file's macros (data: their mask) */
};

void paste_scope_init(struct paste_scope *ps, const struct lexed *lx, mask_fn global, void *gctx);
uint32_t paste_scope_mask(void *ps, const char *s, size_t len);
void paste_scope_free(struct paste_scope *ps);
void own_fragments(const struct lexed *lx, struct sset *frags);
void paste_pieces(const struct sset *frags, const char *s, size_t len, word_fn fn, void *ctx);

/* --------------------------------------------------------------- store.c */
struct index_out {
	const char *const *files;	/* relative paths */
	uint32_t nfiles;
	/* per identifier: the name, the files naming it, the files with it as
	 * a fragment (sorted file numbers) and its paste mask */
	struct sset *names;
	uint32_t **named, **frag;
	uint32_t *nnamed, *nfrag;
	uint32_t *mask;
};

struct index_map {
	const char *path;
	const uint8_t *base;
	size_t size;
	uint32_t nfiles;
	const uint32_t *file_off;
	const char *paths;
	size_t paths_len;
	struct {
		const uint32_t *index;	/* a block's offset in data */
		uint64_t nblocks, count;
		const uint8_t *data;
		size_t len;
	} tab[3];
};

enum { TAB_NAMES, TAB_FRAGS, TAB_PASTE };

size_t store_write(const char *out, const struct index_out *io);
void store_open(struct index_map *im, const char *path);
void store_close(struct index_map *im);
const char *store_file(const struct index_map *im, uint32_t i);
int store_lookup(const struct index_map *im, int t, const char *s, size_t len, size_t *val);
uint32_t store_mask(const struct index_map *im, size_t pos);
size_t store_postings(const struct index_map *im, int t, size_t pos, uint32_t **files);

/* --------------------------------------------------------------- index.c */
int cmd_index(const char *srcdir, const char *list, const char *out);

/* --------------------------------------------------------------- query.c */
int cmd_query(int argc, char **argv);

#endif
