// SPDX-License-Identifier: GPL-2.0
/*
 * The second rule: a definition of a static function that nothing else in
 * the unit names makes no code (GCC -O2 emits no unused static function), so
 * it may differ between the two units. "Names" is read widely, since a wrong
 * "unreferenced" would drop an object the patch changes: any other occurrence
 * of the identifier, any string literal that has it as a word, attributes
 * that have the function emitted anyway, and names GCC itself may call.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "pp-compare.h"

static const char *const keywords[] = {
	"__attribute__", "__attribute", "__typeof__", "__typeof", "typeof", "asm", "__asm__",
	"__asm", "__declspec", "_Alignas", "__alignof__", "sizeof", "if", "while", "for",
	"switch", "return", "static", "inline", "__inline__", "__inline", "__extension__", NULL
};

/* attributes that make GCC emit a function (or name another) though nothing calls it */
static const char *const emitting[] = {
	"used", "__used__", "retain", "__retain__", "constructor", "__constructor__",
	"destructor", "__destructor__", "externally_visible", "__externally_visible__",
	"symver", "__symver__", "alias", "__alias__", "ifunc", "__ifunc__", "weakref",
	"__weakref__", "target_clones", "__target_clones__", NULL
};

/* names GCC itself may call or emit a reference to: exact, then by prefix */
static const char *const compiler_exact[] = {
	"abort", "bcmp", "bzero", "mcount", "_mcount", "__fentry__", "__stack_chk_fail",
	"__stack_chk_guard", NULL
};

static const char *const compiler_prefix[] = {
	"mem", "str", "__mem", "__str", "__builtin", "__sanitizer", "__asan", "__ubsan",
	"__tsan", "__msan", "__kasan", "__kcsan", "__kmsan", "__hwasan", "__gcov",
	"__cyg_profile", "__x86_", "__llvm", "__stack_chk", "__morestack", NULL
};

/* a character of a word in a string literal (asm text, a symbol's name) */
static int str_word(int c)
{
	return isalnum(c) || c == '_';
}

static int tok_is(const struct tok *k, const char *w)
{
	return k->len == strlen(w) && !memcmp(k->s, w, k->len);
}

static int in_list(const char *s, size_t n, const char *const *list)
{
	int i;

	for (i = 0; list[i]; i++)
		if (n == strlen(list[i]) && !memcmp(s, list[i], n))
			return 1;
	return 0;
}

/* names GCC itself may call or emit a reference to (implicit calls, libgcc, hooks) */
static int compiler_name(const char *s, size_t n)
{
	int i;
	size_t k;

	if (in_list(s, n, compiler_exact))
		return 1;
	for (i = 0; compiler_prefix[i]; i++)
		if (n >= strlen(compiler_prefix[i]) &&
		    !memcmp(s, compiler_prefix[i], strlen(compiler_prefix[i])))
			return 1;
	/* libgcc: __divdi3, __popcountdi2, __udivmodti4, __adddf3 */
	if (n > 3 && s[0] == '_' && s[1] == '_' && isdigit((unsigned char)s[n - 1])) {
		for (k = 2; k < n && (islower((unsigned char)s[k]) || s[k] == '_'); k++)
			;
		if (k < n && isdigit((unsigned char)s[k]))
			return 1;
	}
	return 0;
}

/* the tokens of chunk c up to offset end of the unit (a literal is one) */
static struct tok *head_tokens(const struct unit *u, const struct chunk *c, size_t end,
			       size_t *ntok)
{
	const char *p = u->text + c->off, *head_end = u->text + end;
	struct tok *toks = NULL;
	size_t n = 0, cap = 0;

	while (p < head_end) {
		if (*p == ' ' || *p == '\n') {
			p++;
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			toks = xrealloc(toks, cap * sizeof(*toks));
		}
		toks[n].s = p;
		if (is_ident((unsigned char)*p)) {
			while (p < head_end && is_ident((unsigned char)*p))
				p++;
		} else if (*p == '"' || *p == '\'') {
			p = u->text + literal_end(u->text, p - u->text, end);
		} else {
			p++;
		}
		toks[n].len = p - toks[n].s;
		n++;
	}
	*ntok = n;
	return toks;
}

/* ... NAME ( PARAMETERS ): NAME in *name, or 0 when it cannot be read */
static int head_name(const struct tok *toks, size_t ntok, struct tok *name)
{
	size_t k;
	int depth = 0;

	if (ntok < 3 || !tok_is(&toks[ntok - 1], ")"))
		return 0;
	for (k = ntok; k-- > 0;) {
		if (tok_is(&toks[k], ")"))
			depth++;
		else if (tok_is(&toks[k], "(") && !--depth)
			break;
	}
	if (k == (size_t)-1 || k == 0 || !is_ident((unsigned char)*toks[k - 1].s) ||
	    isdigit((unsigned char)*toks[k - 1].s) ||
	    in_list(toks[k - 1].s, toks[k - 1].len, keywords) ||
	    (k >= 2 && (tok_is(&toks[k - 2], "struct") || tok_is(&toks[k - 2], "union") ||
			tok_is(&toks[k - 2], "enum"))))
		return 0;
	*name = toks[k - 1];
	return 1;
}

/* static, outside brackets, and neither extern nor given an asm label? */
static int head_static(const struct tok *toks, size_t ntok, const char **why)
{
	size_t i;
	int depth = 0, stat = 0;

	for (i = 0; i < ntok; i++) {
		if (tok_is(&toks[i], "(") || tok_is(&toks[i], "["))
			depth++;
		else if (tok_is(&toks[i], ")") || tok_is(&toks[i], "]"))
			depth--;
		else if (!depth && tok_is(&toks[i], "static"))
			stat = 1;
		else if (tok_is(&toks[i], "extern") || tok_is(&toks[i], "typedef") ||
			 tok_is(&toks[i], "asm") || tok_is(&toks[i], "__asm__") ||
			 tok_is(&toks[i], "__asm")) {
			*why = "extern, or an asm label";
			return 0;
		}
	}
	if (!stat)
		*why = "not static";
	return stat;
}

/*
 * The identifiers of the whole definition: -1 when one is an attribute that
 * has it emitted, else how often its own name occurs in it.
 */
static long own_uses(const struct unit *u, const struct chunk *c, const struct tok *name)
{
	const char *t = u->text + c->off, *p, *b;
	long own = 0;

	for (p = t; p < t + c->len;) {
		if (*p == '"' || *p == '\'') {
			p = u->text + literal_end(u->text, p - u->text, c->off + c->len);
			continue;
		}
		if (is_ident((unsigned char)*p) && (p == t || !is_ident((unsigned char)p[-1]))) {
			b = p;
			while (p < t + c->len && is_ident((unsigned char)*p))
				p++;
			if (in_list(b, p - b, emitting))
				return -1;
			if ((size_t)(p - b) == name->len && !memcmp(b, name->s, name->len))
				own++;
			continue;
		}
		p++;
	}
	return own;
}

/*
 * Does a literal outside the definition contain the name, as a word?
 * ("kernel/utsname_sysctl.c" does not name utsname; '$' is not part of a
 * word here: "$foo" is foo's address in asm.)
 */
static int named_in_literal(const struct unit *u, const struct chunk *c, const struct tok *name)
{
	size_t i;

	for (i = 0; i + name->len <= u->slen; i++) {
		if (i >= c->soff && i < c->soff + c->slen) {
			i = c->soff + c->slen - 1;
			continue;
		}
		if (u->strs[i] == name->s[0] && !memcmp(u->strs + i, name->s, name->len) &&
		    (i == 0 || !str_word((unsigned char)u->strs[i - 1])) &&
		    (i + name->len == u->slen || !str_word((unsigned char)u->strs[i + name->len])))
			return 1;
	}
	return 0;
}

/* the reason a static function named *name nothing else uses must be kept, or NULL */
static const char *why_used(const struct unit *u, const struct chunk *c, const struct tok *name)
{
	long own;

	if (compiler_name(name->s, name->len))
		return "a name the compiler itself may call";
	own = own_uses(u, c, name);
	if (own < 0)
		return "a definition whose attributes have it emitted";
	if (word_count(u, name->s, name->len) > (size_t)own)
		return "used in the unit";
	if (named_in_literal(u, c, name))
		return "named in a string literal of the unit";
	return NULL;
}

/*
 * Is chunk c of unit u the definition of a static function nothing else in
 * the unit names? Its name in *name (also when it is not: for the message),
 * and in *why the reason when it is not.
 */
int unreferenced_static(const struct unit *u, const struct chunk *c, struct tok *name,
			const char **why)
{
	struct tok *toks;
	const char *used;
	size_t ntok;
	int ok = 0;

	name->s = NULL;
	name->len = 0;
	*why = "not a function definition";
	if (!c->func)
		return 0;
	toks = head_tokens(u, c, c->body, &ntok);
	if (!head_name(toks, ntok, name)) {
		*why = "a definition whose name cannot be read";
		goto cleanup;
	}
	if (!head_static(toks, ntok, why))
		goto cleanup;
	used = why_used(u, c, name);
	if (used) {
		*why = used;
		goto cleanup;
	}
	ok = 1;
cleanup:
	free(toks);
	return ok;
}

/*
 * A prototype that can bind a symbol without a use: a weak, an alias or an
 * asm label, a typedef, or more than one declarator (a name per comma).
 */
static int binding_prototype(const struct tok *toks, size_t ntok)
{
	static const char *const binding[] = {
		"weak", "__weak__", "typedef", "asm", "__asm__", "__asm", NULL
	};
	size_t i;
	int depth = 0;

	for (i = 0; i < ntok; i++) {
		if (tok_is(&toks[i], "(") || tok_is(&toks[i], "["))
			depth++;
		else if (tok_is(&toks[i], ")") || tok_is(&toks[i], "]"))
			depth--;
		else if ((!depth && tok_is(&toks[i], ",")) || tok_is(&toks[i], "="))
			return 1;
		else if (in_list(toks[i].s, toks[i].len, binding))
			return 1;
	}
	return 0;
}

/*
 * Is chunk c of unit u a prototype (a function declaration without a body,
 * "... NAME ( PARAMETERS );") that nothing else in the unit names? GCC emits
 * nothing for a declaration nothing refers to: no code, no symbol. A header
 * patch that turns an inline into an extern function (or back) changes only
 * such a line in the units that do not call it. Its name in *name.
 */
int unreferenced_prototype(const struct unit *u, const struct chunk *c, struct tok *name)
{
	struct tok *toks;
	size_t ntok, end = c->off + c->len;
	int ok = 0;

	name->s = NULL;
	name->len = 0;
	if (c->func || !c->len || u->text[end - 1] != ';')
		return 0;
	toks = head_tokens(u, c, end - 1, &ntok);
	if (head_name(toks, ntok, name) && !binding_prototype(toks, ntok) &&
	    !why_used(u, c, name))
		ok = 1;
	free(toks);
	return ok;
}
