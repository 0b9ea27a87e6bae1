// SPDX-License-Identifier: GPL-2.0
/*
 * The names a top-level C declaration defines, read without preprocessing:
 *
 *   - a function (definition or prototype): the identifier before the
 *     parameter list, the first '(' at depth 0 that is no declarator group
 *     ("(*fp)(int)": a pointer, the variable fp) once attributes
 *     ("__attribute__((...))", "__printf(1, 2)", ...) and typeof(...) are
 *     set aside; bare words ("__init", "__must_check") are not names because
 *     the name is the last word before the '(';
 *   - variables: the last identifier of each declarator, before '[' or an
 *     initializer, trailing annotations ("__read_mostly") skipped;
 *   - struct, union and enum tags defined with a body (nested ones too: they
 *     are file-scope in C), an enum's enumerators, a lone "struct foo;";
 *   - typedef names (kind type).
 *
 * When the reading is unsure, it names more rather than less: a word before
 * an unknown "__attr(...)", or a second invocation-looking group, is named
 * too (a name too many only widens what the driver keeps). A declaration
 * whose name is made by a macro ("static DEFINE_MUTEX(lock);", an enum body
 * with "FOO(A)," in it) is opaque: it defines names we cannot know.
 */
#include <stdlib.h>
#include <string.h>
#include "ident.h"

/* a run of tokens (indices in lx) */
struct span {
	const struct lexed *lx;
	const uint32_t *a;
	size_t n;
};

struct decl {
	struct item *it;
	struct span v;		/* the declaration's tokens, directives dropped */
	int typedef_;
	int body;		/* a function definition: its body follows the head */
	size_t fwd;		/* "struct foo": the tag's token, or SIZE_MAX */
	int nest;		/* the recursion's depth: bounded, whatever the input */
};

#define MAX_NEST	64

/* a name the item defines (items.c names a #define's so too) */
void item_add_name(struct item *it, enum name_kind kind, const char *s, size_t len)
{
	if (it->nnames == it->ncap) {
		it->ncap = it->ncap ? it->ncap * 2 : 4;
		it->names = xrealloc(it->names, it->ncap * sizeof(*it->names));
	}
	it->names[it->nnames].kind = kind;
	it->names[it->nnames].s = s;
	it->names[it->nnames++].len = len;
}

static int word_in(const char *s, size_t len, const char *const *list, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (strlen(list[k]) == len && !memcmp(list[k], s, len))
			return 1;
	return 0;
}

/* attributes with arguments, before or after a declarator: "__printf(1, 2)" */
int is_prefix_attribute(const char *s, size_t len)
{
	static const char *const attrs[] = {
		"__attribute__", "__attribute", "__declspec", "_Alignas", "alignas",
		"__aligned", "__section", "__printf", "__scanf", "__alloc_size",
		"__realloc_size", "__assume_aligned", "__compiletime_error",
		"__compiletime_warning", "__diagnose_as", "__nonnull", "__acquires",
		"__releases", "__must_hold", "__cond_acquires", "__cond_releases",
		"__acquire", "__release", "__counted_by", "__cleanup", "__copy",
		"__alias", "__mode", "__access", "__free", "__guarded_by",
		"__pt_guarded_by", "__designated_init", "__no_sanitize",
		"__nocapture", "__malloc", "__retain", "asm", "__asm__", "__asm",
		"__counted_by_le", "__counted_by_be", "__sized_by",
	};

	return word_in(s, len, attrs, ARRAY_SIZE(attrs));
}

/* bare words after a variable's name: "foo __read_mostly" names foo */
static int is_trailing_annotation(const char *s, size_t len)
{
	static const char *const words[] = {
		"__read_mostly", "__ro_after_init", "__initdata", "__initconst",
		"__exitdata", "__refdata", "__initdata_memblock", "__meminitdata",
		"__cacheline_aligned", "__cacheline_aligned_in_smp",
		"____cacheline_aligned", "____cacheline_aligned_in_smp",
		"____cacheline_internodealigned_in_smp", "__page_aligned_data",
		"__page_aligned_bss", "__maybe_unused", "__always_unused", "__used",
		"__weak", "__packed", "__visible", "__nosavedata", "__percpu",
		"__rcu", "__lsm_ro_after_init", "__bss_decrypted", "__iomem",
		"__user", "__force", "__must_check", "__randomize_layout",
		"__no_randomize_layout", "__aligned_largest", "__latent_entropy",
		"__init", "__exit", "__ref", "__cold", "__hot", "__noreturn",
		"__pure", "__attribute_const__", "__deprecated", "__unused",
		"__private", "__bitwise", "__nocast", "__safe", "__kernel",
	};

	return word_in(s, len, words, ARRAY_SIZE(words));
}

/* a type that reads like a name: "u32 __foo(...)" is no variable u32 */
static int is_common_type(const char *s, size_t len)
{
	static const char *const types[] = {
		"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "__u8",
		"__u16", "__u32", "__u64", "__s8", "__s16", "__s32", "__s64",
		"__be16", "__be32", "__be64", "__le16", "__le32", "__le64",
		"__sum16", "__wsum", "bool",
	};

	if (len > 2 && s[len - 2] == '_' && s[len - 1] == 't')
		return 1;
	return word_in(s, len, types, ARRAY_SIZE(types));
}

static const char *sp_text(const struct span *s, size_t i)
{
	return tok_text(s->lx, s->a[i]);
}

static size_t sp_len(const struct span *s, size_t i)
{
	return s->lx->t[s->a[i]].len;
}

static int sp_is(const struct span *s, size_t i, const char *w)
{
	return i < s->n && tok_is(s->lx, s->a[i], w);
}

/* an identifier that is no keyword */
static int sp_ident(const struct span *s, size_t i)
{
	return i < s->n && s->lx->t[s->a[i]].kind == T_IDENT &&
	       !is_keyword(sp_text(s, i), sp_len(s, i));
}

static int sp_open(const struct span *s, size_t i)
{
	return sp_is(s, i, "(") || sp_is(s, i, "[") || sp_is(s, i, "{");
}

static int sp_close(const struct span *s, size_t i)
{
	return sp_is(s, i, ")") || sp_is(s, i, "]") || sp_is(s, i, "}");
}

/* past the group that opens at a[i], or n if it never closes */
static size_t sp_skip(const struct span *s, size_t i)
{
	int depth = 0;

	for (; i < s->n; i++) {
		if (sp_open(s, i))
			depth++;
		else if (sp_close(s, i) && --depth <= 0)
			return i + 1;
	}
	return s->n;
}

static void name_tok(struct decl *d, enum name_kind kind, const struct span *s, size_t i)
{
	if (d->typedef_ && (kind == K_FUNCTION || kind == K_VARIABLE))
		kind = K_TYPE;
	item_add_name(d->it, kind, sp_text(s, i), sp_len(s, i));
}

/* the item defines names that a macro makes (the macro at a[i]) */
static void opaque(struct decl *d, const struct span *s, size_t i)
{
	if (!d->it->opaque)
		d->it->opaque = OPAQUE_MACRO;
	if (!d->it->what)
		d->it->what = xasprintf("%.*s", (int)sp_len(s, i), sp_text(s, i));
}

static size_t specifier(struct decl *d, size_t i, size_t end, int top);

static int is_tag_keyword(const struct span *s, size_t i)
{
	return sp_is(s, i, "struct") || sp_is(s, i, "union") || sp_is(s, i, "enum");
}

/* the enumerators of an enum body, tokens [i, end) of d->v */
static void enumerators(struct decl *d, size_t i, size_t end)
{
	const struct span *v = &d->v;

	while (i < end) {
		if (sp_ident(v, i) && sp_is(v, i + 1, "("))
			opaque(d, v, i);
		else if (sp_ident(v, i))
			name_tok(d, K_ENUMERATOR, v, i);
		/* on to the next ',' at depth 0 */
		while (i < end && !sp_is(v, i, ","))
			i = sp_open(v, i) ? sp_skip(v, i) : i + 1;
		i++;
	}
}

/* the tags defined inside a struct or union body (file-scope in C) */
static void nested_tags(struct decl *d, size_t i, size_t end)
{
	if (d->nest >= MAX_NEST) {
		opaque(d, &d->v, i - 1);
		return;
	}
	d->nest++;
	while (i < end) {
		if (is_tag_keyword(&d->v, i))
			i = specifier(d, i, end, 0);
		else
			i++;
	}
	d->nest--;
}

/*
 * "struct|union|enum [TAG] [{...}]" at d->v.a[i]: a body defines the tag (and
 * an enum's enumerators); without one it is a reference, a forward
 * declaration if nothing else is declared (top level only). Returns its end.
 */
static size_t specifier(struct decl *d, size_t i, size_t end, int top)
{
	const struct span *v = &d->v;
	int is_enum = sp_is(v, i, "enum");
	size_t j = i + 1, tag = SIZE_MAX, e, body_end, k;

	/* "struct __packed foo {": words before the tag of a body are attributes */
	for (k = j; sp_ident(v, k); k++)
		;
	if (k > j + 1 && sp_is(v, k, "{"))
		j = k - 1;
	if (sp_ident(v, j))
		tag = j++;
	if (!sp_is(v, j, "{")) {
		if (top && tag != SIZE_MAX)
			d->fwd = tag;
		return j;
	}
	e = sp_skip(v, j);
	if (e > end)
		e = end;
	body_end = sp_is(v, e - 1, "}") ? e - 1 : e;
	if (tag != SIZE_MAX)
		item_add_name(d->it, K_TYPE, sp_text(v, tag), sp_len(v, tag));
	if (is_enum)
		enumerators(d, j + 1, body_end);
	else
		nested_tags(d, j + 1, body_end);
	return e;
}

/*
 * d->v without the trailing ';', the attributes with arguments and the
 * typeof(...) groups; at depth 0 the struct/union/enum specifiers are read
 * (and left out) and the tokens up to a function body kept in *out.
 */
static void head(struct decl *d, uint32_t *out, size_t *nout)
{
	struct span *v = &d->v;
	size_t i = 0, o = 0;
	int depth = 0, eq = 0;

	while (i < v->n) {
		if (depth == 0 && is_tag_keyword(v, i)) {
			i = specifier(d, i, v->n, 1);
			continue;
		}
		if (depth == 0 && sp_is(v, i, "{") && !eq) {
			d->body = 1;	/* a function body */
			break;
		}
		if (depth == 0 && (sp_is(v, i, "=") || sp_is(v, i, ",")))
			eq = sp_is(v, i, "=");
		if (depth == 0 && sp_is(v, i, "typedef"))
			d->typedef_ = 1;
		if (sp_open(v, i))
			depth++;
		else if (sp_close(v, i) && depth)
			depth--;
		out[o++] = v->a[i++];
	}
	*nout = o;
}

/* the item's tokens outside its directives, without attributes and typeof(...) */
static void view(struct decl *d, uint32_t *a)
{
	const struct lexed *lx = d->v.lx;
	const struct item *it = d->it;
	size_t k, n = 0;
	int dir = 0;

	for (k = 0; k < it->ntok; k++) {
		uint32_t t = it->tok[k];

		if (lx->t[t].kind == T_HASH)
			dir = 1;
		if (!dir)
			a[n++] = t;
		else if (lx->t[t].kind == T_EOD)
			dir = 0;
	}
	if (n && tok_is(lx, a[n - 1], ";"))
		n--;
	d->v.a = a;
	d->v.n = n;
}

static int is_typeof(const struct span *s, size_t i)
{
	return sp_is(s, i, "typeof") || sp_is(s, i, "__typeof__") ||
	       sp_is(s, i, "__typeof") || sp_is(s, i, "_Atomic");
}

/* attributes "__printf(1, 2)", "__attribute__((x))" and typeof(...) dropped from d->v */
static void drop_groups(struct decl *d, uint32_t *a)
{
	const struct span *v = &d->v;
	size_t i = 0, o = 0;

	while (i < v->n) {
		if (sp_is(v, i + 1, "(") && v->lx->t[v->a[i]].kind == T_IDENT &&
		    (is_prefix_attribute(sp_text(v, i), sp_len(v, i)) || is_typeof(v, i))) {
			i = sp_skip(v, i + 1);
			continue;
		}
		a[o++] = v->a[i++];
	}
	d->v.n = o;
}

/* a declarator's name when it has no parameter list: the last identifier */
static size_t last_word(struct decl *d, const struct span *s, size_t end)
{
	size_t i = end, p;

	while (i-- > 0)
		if (sp_ident(s, i) && !is_trailing_annotation(sp_text(s, i), sp_len(s, i)))
			break;
	if (i == SIZE_MAX)
		return SIZE_MAX;
	/* "foo __unknown_annotation": foo may be the name too */
	p = i - 1;
	if (i > 0 && sp_len(s, i) > 2 && !memcmp(sp_text(s, i), "__", 2) && sp_ident(s, p) &&
	    !is_common_type(sp_text(s, p), sp_len(s, p)) &&
	    !is_trailing_annotation(sp_text(s, p), sp_len(s, p)))
		name_tok(d, K_VARIABLE, s, p);
	return i;
}

static int has_star(const struct span *s)
{
	size_t i;

	for (i = 0; i < s->n; i = sp_open(s, i) ? sp_skip(s, i) : i + 1)
		if (sp_is(s, i, "*") || sp_is(s, i, "^"))
			return 1;
	return 0;
}

/* a function's name at a[p - 1] (its parameters at a[p]): the unsure cases named too */
static void function_extras(struct decl *d, const struct span *s, size_t p)
{
	size_t i = sp_skip(s, p);

	/* another "word(...)" after it: the first one may have been an attribute */
	for (; i < s->n; i = sp_open(s, i) ? sp_skip(s, i) : i + 1)
		if (sp_ident(s, i) && sp_is(s, i + 1, "("))
			name_tok(d, K_FUNCTION, s, i);
	/* "int x __unknown_attr(8)": x may be the name */
	if (p >= 2 && sp_len(s, p - 1) > 2 && !memcmp(sp_text(s, p - 1), "__", 2) &&
	    sp_ident(s, p - 2) && !is_common_type(sp_text(s, p - 2), sp_len(s, p - 2)) &&
	    !is_trailing_annotation(sp_text(s, p - 2), sp_len(s, p - 2)))
		name_tok(d, K_VARIABLE, s, p - 2);
}

/*
 * The name of declarator s (its initializer cut): its index in s, *func when
 * it is a function's; SIZE_MAX if none. "(" at depth 0 is a parameter list
 * after an identifier, or a declarator group when it holds '*' first or is
 * followed by '(' or '[' ("(*fp)(int)", "(*tbl[4])(void)", "(name)(int)").
 */
static size_t declarator(struct decl *d, const struct span *s, int *func)
{
	struct span in;
	size_t p, q, r;
	int inner;

	for (p = 0; p < s->n; p++)
		if (sp_is(s, p, "(") || sp_is(s, p, "["))
			break;
	*func = 0;
	if (p == s->n || sp_is(s, p, "["))
		return last_word(d, s, p);
	q = sp_skip(s, p);
	if (!sp_is(s, p + 1, "*") && !sp_is(s, p + 1, "^") && !sp_is(s, q, "(") &&
	    !sp_is(s, q, "[") && p > 0 && sp_ident(s, p - 1)) {
		*func = 1;
		function_extras(d, s, p);
		return p - 1;
	}
	in.lx = s->lx;
	in.a = s->a + p + 1;
	in.n = (sp_is(s, q - 1, ")") ? q - 1 : q) - (p + 1);
	if (d->nest >= MAX_NEST) {
		opaque(d, s, p);
		return SIZE_MAX;
	}
	d->nest++;
	r = declarator(d, &in, &inner);
	d->nest--;
	if (r == SIZE_MAX)
		return SIZE_MAX;
	*func = inner || (!has_star(&in) && sp_is(s, q, "("));
	return r + p + 1;
}

/*
 * Parameters at s->a[i] ("(...)") that a macro's arguments would not be: a
 * keyword or a '*' in them ("SOCK_INODE(struct socket *socket)"), or "()"
 */
static int real_params(const struct span *s, size_t i)
{
	size_t e = sp_skip(s, i), k;

	if (e == i + 2)
		return 1;
	for (k = i + 1; k < e; k++)
		if (sp_is(s, k, "*") || (s->lx->t[s->a[k]].kind == T_IDENT &&
					 is_keyword(sp_text(s, k), sp_len(s, k))))
			return 1;
	return 0;
}

/* each declarator of h (split at ',' and cut at '=' at depth 0) named */
static void declarators(struct decl *d, const struct span *h)
{
	struct span seg = { .lx = h->lx };
	size_t i = 0, start, name;
	int func;

	while (i <= h->n) {
		start = i;
		while (i < h->n && !sp_is(h, i, ",") && !sp_is(h, i, "="))
			i = sp_open(h, i) ? sp_skip(h, i) : i + 1;
		seg.a = h->a + start;
		seg.n = i - start;
		name = declarator(d, &seg, &func);
		if (name != SIZE_MAX && func && !d->body && !real_params(&seg, name + 1) &&
		    is_upper_word(sp_text(&seg, name), sp_len(&seg, name)))
			opaque(d, &seg, name);	/* "static DEFINE_MUTEX(lock)" */
		else if (name != SIZE_MAX)
			name_tok(d, func ? K_FUNCTION : K_VARIABLE, &seg, name);
		/* past the initializer, to the next declarator */
		while (i < h->n && !sp_is(h, i, ","))
			i = sp_open(h, i) ? sp_skip(h, i) : i + 1;
		i++;
	}
}

/* a leading invocation "FOO(...)", asm(...), static_assert(...): no names */
static int leading_invocation(struct decl *d)
{
	const struct span *v = &d->v;

	if (sp_is(v, 0, "asm") || sp_is(v, 0, "__asm__") || sp_is(v, 0, "__asm")) {
		d->it->what = xstrdup("asm");
		return 1;
	}
	if (v->lx->t[v->a[0]].kind != T_IDENT || is_prefix_attribute(sp_text(v, 0), sp_len(v, 0)) ||
	    is_typeof(v, 0))
		return 0;
	/* "FOO(...)", or "LRU_NAMES" alone: a macro's invocation */
	if (!sp_is(v, 1, "(") && !is_upper_word(sp_text(v, 0), sp_len(v, 0)))
		return 0;
	if (sp_is(v, 0, "_Static_assert") || sp_is(v, 0, "static_assert")) {
		d->it->what = xstrdup("static_assert");
		return 1;
	}
	if (is_keyword(sp_text(v, 0), sp_len(v, 0)))
		return 0;	/* "long (*fp)(void)" */
	opaque(d, v, 0);
	if (d->it->opaque == OPAQUE_MACRO)
		d->it->opaque = OPAQUE_INVOCATION;
	return 1;
}

/* the names the C item defines (it->names), or why it has none */
void declare(struct file_items *f, struct item *it)
{
	struct decl d = { .it = it, .v = { .lx = &f->lx }, .fwd = SIZE_MAX };
	uint32_t *a = xmalloc((it->ntok + 1) * sizeof(*a)), *h;
	struct span hs = { .lx = &f->lx };

	view(&d, a);
	if (!d.v.n) {
		it->empty = 1;
		goto out;
	}
	if (leading_invocation(&d))
		goto out;
	drop_groups(&d, a);
	h = xmalloc((d.v.n + 1) * sizeof(*h));
	head(&d, h, &hs.n);
	hs.a = h;
	declarators(&d, &hs);
	if (!it->nnames && !it->opaque && d.fwd != SIZE_MAX)
		item_add_name(it, K_TYPE, sp_text(&d.v, d.fwd), sp_len(&d.v, d.fwd));
	free(h);
out:
	free(a);
}
