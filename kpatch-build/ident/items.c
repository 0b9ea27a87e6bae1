// SPDX-License-Identifier: GPL-2.0
/*
 * A file cut into top-level items, each with its context: the conditional
 * directives around it (an item moved into or out of an #ifdef is changed,
 * though its tokens are not).
 *
 * An item is a directive line (#define, #undef, #include, a conditional,
 * #pragma, any other), or a C declaration: its tokens up to a ';' at depth 0,
 * or to the '}' that closes a function body. Inside a declaration, a
 * conditional directive or #pragma is part of it (a member under #ifdef
 * changes the structure), but #define, #undef and #include are items of
 * their own: what they define outlives the declaration.
 *
 * Conditionals may cut across a declaration ("void f(void)\n#ifdef X\n{...}
 * \n#else\n{...}\n#endif"): at #else and #elif the bracket depth goes back to
 * what it was at the #if (each branch is read as the first one was), and a
 * declaration that ends inside a conditional it opened runs on to the
 * #endif. One that starts in a branch and has not ended with it is cut
 * there and opaque, no names we can trust (the assembler in the #else of
 * "#ifndef __ASSEMBLY__" reads so: its lines have no ';'). A declaration that
 * starts with a macro invocation that is no
 * attribute ("PAGEFLAG(Locked, locked, PF_NO_TAIL)" without a ';', a
 * "SYSCALL_DEFINE1(...) {...}") ends after its ')', or its body.
 * Brackets that do not balance, an #else or #endif without #if, an #if
 * without #endif: the file cannot be cut (f->err).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ident.h"

struct cond {
	uint64_t hash;		/* of the group's directives so far */
	int depth;		/* the bracket depth at its #if */
	uint32_t line;
};

struct cutter {
	struct file_items *f;
	struct lexed *lx;
	struct cond *stack;
	size_t nstack, scap;
	const char *ctx;
	size_t cur;		/* the open declaration: its index + 1, or 0 */
	int linkage;		/* open "extern "C" {" blocks */
	size_t linkage_len;
	size_t start_cond;	/* the conditional depth it started at */
	int depth;		/* its bracket depth */
	int body;		/* the '{' at depth 0 opened a function body */
	int saw_eq;		/* an initializer: a '{' is no body */
	int pending;		/* it ended inside a conditional it opened */
	int after_body;		/* it ended with a body: another branch's '{' is one */
	int macro;		/* it starts with a macro invocation: 1, then decided */
	int cross;		/* it started in the branch a directive ends */
	size_t prev;		/* its last token outside directives */
};

/* the open declaration (f->it moves as items are added: never kept) */
static struct item *open_it(struct cutter *c)
{
	return c->cur ? &c->f->it[c->cur - 1] : NULL;
}

static void fail(struct cutter *c, uint32_t line, const char *why)
{
	if (!c->f->err) {
		c->f->err = xstrdup(why);
		c->f->errline = line;
	}
}

static struct item *new_item(struct cutter *c, enum item_type type, uint32_t line)
{
	struct file_items *f = c->f;
	struct item *it;

	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 256;
		f->it = xrealloc(f->it, f->cap * sizeof(*f->it));
	}
	it = &f->it[f->n++];
	memset(it, 0, sizeof(*it));
	it->type = type;
	it->line = line;
	it->ctx = c->ctx;
	return it;
}

static void add_tok(struct item *it, size_t i)
{
	if (!(it->ntok & (it->ntok - 1)) && it->ntok >= 8)
		it->tok = xrealloc(it->tok, it->ntok * 2 * sizeof(*it->tok));
	else if (!it->ntok)
		it->tok = xmalloc(8 * sizeof(*it->tok));
	it->tok[it->ntok++] = i;
}

/*
 * The context of what follows: the conditional stack, each group a 64-bit
 * hash of its directives' text (a long #elif chain costs no more), interned
 */
static void set_ctx(struct cutter *c)
{
	char *s = xmalloc(c->nstack * 17 + 1), *p = s;
	size_t k;

	for (k = 0; k < c->nstack; k++)
		p += sprintf(p, "%016llx ", (unsigned long long)c->stack[k].hash);
	*p = '\0';
	c->ctx = sset_add(&c->f->ctxs, s, p - s)->s;
	free(s);
}

/* FNV-1a, 64 bits, of the directive's tokens [i, e) (white space aside), on top of h */
static uint64_t text_hash(uint64_t h, const struct lexed *lx, size_t i, size_t e)
{
	const char *p;
	size_t k, n;

	for (k = i; k < e; k++) {
		for (p = tok_text(lx, k), n = lx->t[k].len; n--; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ULL;
		h = (h ^ 0x100) * 1099511628211ULL;	/* (between tokens) */
	}
	return h;
}

static enum item_type dir_type(const struct lexed *lx, size_t h)
{
	static const char *const conds[] = { "if", "ifdef", "ifndef", "elif",
		"elifdef", "elifndef", "else", "endif" };
	size_t k;

	if (h + 1 >= lx->n || !(lx->t[h + 1].flags & TF_DIRNAME))
		return IT_DIRECTIVE;
	for (k = 0; k < ARRAY_SIZE(conds); k++)
		if (tok_is(lx, h + 1, conds[k]))
			return IT_COND;
	if (tok_is(lx, h + 1, "define"))
		return IT_DEFINE;
	if (tok_is(lx, h + 1, "undef"))
		return IT_UNDEF;
	if (tok_is(lx, h + 1, "include") || tok_is(lx, h + 1, "include_next"))
		return IT_INCLUDE;
	if (tok_is(lx, h + 1, "pragma"))
		return IT_PRAGMA;
	return IT_DIRECTIVE;
}

/* a conditional directive (tokens [h, e)): the stack and the context follow it */
static void cond(struct cutter *c, size_t h, size_t e)
{
	const struct lexed *lx = c->lx;
	uint32_t line = lx->t[h].line;
	struct cond *top;

	if (tok_is(lx, h + 1, "if") || tok_is(lx, h + 1, "ifdef") || tok_is(lx, h + 1, "ifndef")) {
		if (c->nstack == c->scap) {
			c->scap = c->scap ? c->scap * 2 : 16;
			c->stack = xrealloc(c->stack, c->scap * sizeof(*c->stack));
		}
		top = &c->stack[c->nstack++];
		top->hash = text_hash(1469598103934665603ULL, lx, h, e);
		top->depth = c->cur ? c->depth : 0;
		top->line = line;
	} else if (!c->nstack) {
		fail(c, line, "a conditional directive without #if: cannot cut the file");
		return;
	} else if (tok_is(lx, h + 1, "endif")) {
		c->nstack--;
		if (c->cur && c->nstack < c->start_cond) {
			c->start_cond = c->nstack;
			c->cross = !c->pending;
		}
	} else {
		/* #else, #elif: the branch starts at the #if's depth */
		top = &c->stack[c->nstack - 1];
		top->hash = text_hash(top->hash, lx, h, e);
		if (c->cur)
			c->depth = top->depth;
		c->cross = c->cur && !c->pending && c->nstack == c->start_cond;
	}
	set_ctx(c);
}

static void close_item(struct cutter *c)
{
	c->cur = 0;
	c->pending = 0;
}

/* the declaration ended syntactically: closed, unless inside a conditional it opened */
static void end_item(struct cutter *c, int body)
{
	c->after_body = body;
	if (c->nstack > c->start_cond)
		c->pending = 1;
	else
		close_item(c);
}

/* the directive at c->lx->t[h] (its T_EOD at e): an item, or part of the open one */
static size_t directive(struct cutter *c, size_t h)
{
	const struct lexed *lx = c->lx;
	enum item_type type = dir_type(lx, h);
	size_t e = h, k;
	struct item *it;

	while (e < lx->n && lx->t[e].kind != T_EOD)
		e++;
	if (type == IT_COND)
		cond(c, h, e);
	if (c->cross) {
		/* it started in the branch that ends here: cut, unknowable */
		open_it(c)->opaque = OPAQUE_CROSSES;
		close_item(c);
		c->cross = 0;
	}
	if (c->cur && type != IT_DEFINE && type != IT_UNDEF && type != IT_INCLUDE) {
		for (k = h; k < e; k++)
			add_tok(open_it(c), k);
		if (c->pending && c->nstack <= c->start_cond)
			close_item(c);
		return e + 1;
	}
	/* (a conditional's context is the stack after it: its own group's text) */
	it = new_item(c, type, lx->t[h].line);
	for (k = h; k < e; k++)
		add_tok(it, k);
	if (type == IT_DEFINE && h + 2 < e && lx->t[h + 2].kind == T_IDENT)
		item_add_name(it, K_MACRO, tok_text(lx, h + 2), lx->t[h + 2].len);
	return e + 1;
}

static int is_open(const struct lexed *lx, size_t i)
{
	return lx->t[i].kind == T_PUNCT && lx->t[i].len == 1 && strchr("([{", tok_text(lx, i)[0]);
}

static int is_close(const struct lexed *lx, size_t i)
{
	return lx->t[i].kind == T_PUNCT && lx->t[i].len == 1 && strchr(")]}", tok_text(lx, i)[0]);
}

/*
 * After the ')' of a leading macro invocation at t[i]: does the declaration
 * go on? Yes for ';', a body, an initializer, a declarator's punctuation, or
 * a word on the same line; no for another invocation, a keyword (a new
 * declaration), a directive, or a word on a line of its own.
 */
static int macro_goes_on(const struct lexed *lx, size_t i)
{
	size_t j = i + 1;

	if (j >= lx->n || lx->t[j].kind == T_HASH)
		return 0;
	if (lx->t[j].kind != T_IDENT)
		return 1;
	if (tok_is(lx, j, "__attribute__") || tok_is(lx, j, "__asm__") || tok_is(lx, j, "asm"))
		return 1;
	if (is_keyword(tok_text(lx, j), lx->t[j].len))
		return 0;
	if (tok_is(lx, j + 1, "("))
		return 0;
	return lx->t[j].line == lx->t[i].line;
}

static void open_item(struct cutter *c, size_t i)
{
	const struct lexed *lx = c->lx;

	new_item(c, IT_C, lx->t[i].line);
	c->cur = c->f->n;
	c->start_cond = c->nstack;
	c->depth = c->body = c->saw_eq = c->pending = c->after_body = 0;
	c->macro = lx->t[i].kind == T_IDENT && tok_is(lx, i + 1, "(") &&
		   !is_prefix_attribute(tok_text(lx, i), lx->t[i].len) &&
		   !is_keyword(tok_text(lx, i), lx->t[i].len);
	/* "LRU_NAMES" alone: a macro invocation without arguments */
	if (lx->t[i].kind == T_IDENT && !c->macro && is_upper_word(tok_text(lx, i), lx->t[i].len))
		c->macro = 3;
	c->prev = i;
}

/* a token of a declaration: brackets counted, its end found */
static void c_token(struct cutter *c, size_t i)
{
	const struct lexed *lx = c->lx;
	const char *s = tok_text(lx, i);

	if (!c->cur)
		open_item(c, i);
	else if (c->pending)
		c->pending = 0;		/* another branch of it */
	add_tok(open_it(c), i);
	if (c->macro == 3) {
		c->macro = 2;
		if (!macro_goes_on(lx, i))
			end_item(c, 0);
		goto out;
	}
	if (is_open(lx, i)) {
		if (*s == '{' && !c->depth && !c->saw_eq &&
		    (open_it(c)->ntok == 1 || tok_is(lx, c->prev, ")") || c->after_body))
			c->body = 1;
		c->depth++;
	} else if (is_close(lx, i)) {
		if (!c->depth) {
			fail(c, lx->t[i].line, "unbalanced brackets: cannot cut the file");
			return;
		}
		if (--c->depth)
			goto out;
		if (*s == '}' && c->body)
			end_item(c, 1);
		else if (*s == ')' && c->macro == 1) {
			c->macro = 2;
			if (!macro_goes_on(lx, i))
				end_item(c, 0);
		}
	} else if (!c->depth && lx->t[i].kind == T_PUNCT && lx->t[i].len == 1) {
		if (*s == ';')
			end_item(c, 0);
		else if (*s == '=')
			c->saw_eq = 1;
	}
out:
	c->prev = i;
}

/*
 * "extern "C" {" (a uapi header's, for C++) and its '}': items of their own,
 * the declarations between them at the top level as without it
 */
static int linkage(struct cutter *c, size_t i)
{
	const struct lexed *lx = c->lx;
	struct item *it;
	size_t k;

	c->linkage_len = 0;
	if (tok_is(lx, i, "extern") && i + 2 < lx->n && lx->t[i + 1].kind == T_STRING &&
	    tok_is(lx, i + 2, "{")) {
		c->linkage++;
		c->linkage_len = 3;
	} else if (tok_is(lx, i, "}") && c->linkage) {
		c->linkage--;
		c->linkage_len = 1;
	}
	if (!c->linkage_len)
		return 0;
	it = new_item(c, IT_C, lx->t[i].line);
	for (k = i; k < i + c->linkage_len; k++)
		add_tok(it, k);
	return 1;
}

/* f->lx (lexed with lines) cut into f->it; f->err says why it could not be */
void items_cut(struct file_items *f)
{
	struct cutter c = { .f = f, .lx = &f->lx };
	size_t i = 0;

	sset_init(&f->ctxs);
	set_ctx(&c);
	while (i < f->lx.n && !f->err) {
		if (f->lx.t[i].kind == T_HASH)
			i = directive(&c, i);
		else if (!c.cur && linkage(&c, i))
			i += c.linkage_len;
		else
			c_token(&c, i++);
	}
	if (!f->err && c.cur && c.depth)
		fail(&c, open_it(&c)->line, "a declaration still open at the end of the file: "
		     "cannot cut it");
	/* (a list included into an initializer: its names are not declared) */
	if (c.cur && !c.pending && !open_it(&c)->opaque)
		open_it(&c)->opaque = OPAQUE_UNTERMINATED;
	if (!f->err && c.nstack)
		fail(&c, c.stack[c.nstack - 1].line, "an #if without #endif: cannot cut the file");
	free(c.stack);
	for (i = 0; i < f->n && !f->err; i++)
		if (f->it[i].type == IT_C)
			declare(f, &f->it[i]);
}

void items_free(struct file_items *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->it[i].tok);
		free(f->it[i].names);
		free(f->it[i].what);
	}
	free(f->it);
	free(f->err);
	sset_free(&f->ctxs);
	lexed_free(&f->lx);
}

/* a short text of the item for a message: its first tokens (a directive: its line) */
const char *item_excerpt(const struct file_items *f, const struct item *it)
{
	static char buf[160];
	const struct lexed *lx = &f->lx;
	size_t k, o = 0, l;

	for (k = 0; k < it->ntok && o < 64; k++) {
		size_t t = it->tok[k];

		if (lx->t[t].kind == T_EOD)
			break;
		if (k && (lx->t[t].flags & TF_SPACE))
			buf[o++] = ' ';
		l = lx->t[t].len < 64 ? lx->t[t].len : 64;
		memcpy(buf + o, tok_text(lx, t), l);
		o += l;
	}
	/* (o < 64 + 65 here: room for the ellipsis) */
	if (k < it->ntok && lx->t[it->tok[k]].kind != T_EOD)
		o += sprintf(buf + o, " ...");
	buf[o] = '\0';
	return buf;
}
