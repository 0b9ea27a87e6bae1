/*
 * kpatch-pp-compare: can a header patch change this object?
 *
 *   kpatch-pp-compare [--strict] ORIG.i PATCHED.i
 *
 * ORIG.i and PATCHED.i are one compilation unit preprocessed (the object's own
 * compile command with -E) from the original and from the patched source.
 * A patch to a header reaches an object only through the text the preprocessor
 * hands the compiler, so:
 *
 *  - when the two texts are the same apart from line markers and the amount of
 *    white space between tokens, the compiler is given the same program and the
 *    object cannot change (its debug line table aside, which the differ does
 *    not compare: __LINE__ and __FILE__ are in the text, expanded);
 *  - when the only top-level declarations that differ are definitions of
 *    static functions that nothing else in the unit names, the object cannot
 *    change either: GCC (-O2) emits no code for a static function nothing
 *    refers to. "Names" is read widely: any occurrence of the identifier
 *    outside the function's own definition (a call, its address taken, a
 *    prototype, a member of that name, a macro-made initializer), and any
 *    string literal that has it as a word (asm text, alias, section names;
 *    adjacent literals joined, escapes decoded). A
 *    function whose definition asks for its emission anyway (used, retain,
 *    constructor, destructor, externally_visible, symver, an alias or ifunc,
 *    an asm label) or whose name GCC itself may call (memcpy, memset, libgcc's
 *    __*di3 and the like, instrumentation hooks) is never set aside.
 *
 * Names made with __COUNTER__ (__UNIQUE_ID_*N, __compiletime_assert_N), which
 * a hunk that adds or removes one renumbers in the rest of the unit, compare
 * equal in a function definition whose body defines no static, when each
 * occurs in no other declaration: renumbered consistently, they are the same
 * locals (and never-called error functions) under other names.
 *
 * Anything else (a structure, a prototype, a global, a function the unit
 * uses, a change this reading cannot classify) may change the object.
 * --strict: only the first rule (for compile flags that keep unused functions).
 *
 * Prints one line: "same: identical", "same: only unreferenced static
 * functions differ: NAME...", "same: identical but for the numbers of
 * __COUNTER__ names", or "may change: WHAT"; exit 0 for same, 1 for
 * may change, 2 on bad input.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct chunk {
	size_t off, len;	/* in unit.text */
	const char *cmp;	/* the text compared: unit.text + off, or canonical() */
	size_t cmplen;
	size_t soff, slen;	/* its string literals' contents, in unit.strs */
	size_t body;		/* function definitions: offset of the body's '{' */
	int func;
	uint64_t hash;
};

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

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "kpatch-pp-compare: out of memory\n");
		exit(2);
	}
	return p;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, r;

	if (!f) {
		fprintf(stderr, "kpatch-pp-compare: cannot open %s\n", path);
		exit(2);
	}
	do {
		if (cap - n < 65536) {
			cap = cap ? cap * 2 : 1 << 20;
			buf = xrealloc(buf, cap + 1);
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	if (ferror(f)) {
		fprintf(stderr, "kpatch-pp-compare: cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int is_ident(int c)
{
	return isalnum(c) || c == '_' || c == '$';
}

/* a character of a word in a string literal (asm text, a symbol's name) */
static int str_word(int c)
{
	return isalnum(c) || c == '_';
}

/* the end of the literal that starts at s[i] (a quote), past its closing quote */
static size_t literal_end(const char *s, size_t i, size_t n)
{
	char q = s[i++];

	while (i < n && s[i] != q && s[i] != '\n') {
		if (s[i] == '\\' && i + 1 < n)
			i++;
		i++;
	}
	return i < n && s[i] == q ? i + 1 : i;
}

/*
 * The text without line markers ("# 12 \"file\" 2", "#line 12"), each run of
 * white space outside literals one space, and directive lines (#pragma,
 * #ident) kept whole between newlines.
 */
static void normalize(struct unit *u, const char *in, size_t n)
{
	size_t i = 0, o = 0, e;
	int space = 0;

	u->text = xrealloc(NULL, n + 2);
	while (i < n) {
		/* at the start of a line */
		size_t j = i;

		while (j < n && (in[j] == ' ' || in[j] == '\t'))
			j++;
		if (j < n && in[j] == '#') {
			size_t k = j + 1;

			e = j;
			while (e < n && in[e] != '\n')
				e++;
			while (k < e && (in[k] == ' ' || in[k] == '\t'))
				k++;
			if (!(k < e && isdigit((unsigned char)in[k])) && strncmp(in + k, "line", 4)) {
				/* a directive the compiler reads: on a line of its own */
				size_t t = e;

				while (t > j && isspace((unsigned char)in[t - 1]))
					t--;
				if (o && u->text[o - 1] != '\n')
					u->text[o++] = '\n';
				memcpy(u->text + o, in + j, t - j);
				o += t - j;
				u->text[o++] = '\n';
				space = 0;
			}
			i = e < n ? e + 1 : e;
			continue;
		}
		/* a line of code */
		while (i < n && in[i] != '\n') {
			char c = in[i];

			if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
				space = 1;
				i++;
				continue;
			}
			if (space && o && u->text[o - 1] != '\n')
				u->text[o++] = ' ';
			space = 0;
			if (c == '"' || c == '\'') {
				e = literal_end(in, i, n);
				memcpy(u->text + o, in + i, e - i);
				o += e - i;
				i = e;
				continue;
			}
			u->text[o++] = c;
			i++;
		}
		if (i < n)
			i++;	/* the newline */
		space = 1;
	}
	u->text[o] = '\0';
	u->len = o;
}

static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	while (n--) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

static void word_add(struct unit *u, const char *s, size_t len)
{
	size_t mask = u->nwords - 1, i = hash_bytes(s, len) & mask;

	while (u->words[i].s) {
		if (u->words[i].len == len && !memcmp(u->words[i].s, s, len)) {
			u->words[i].count++;
			return;
		}
		i = (i + 1) & mask;
	}
	u->words[i].s = s;
	u->words[i].len = len;
	u->words[i].count = 1;
}

static size_t word_count(const struct unit *u, const char *s, size_t len)
{
	size_t mask = u->nwords - 1, i = hash_bytes(s, len) & mask;

	while (u->words[i].s) {
		if (u->words[i].len == len && !memcmp(u->words[i].s, s, len))
			return u->words[i].count;
		i = (i + 1) & mask;
	}
	return 0;
}

/* a literal's contents, escapes decoded, appended to u->strs */
static void add_literal(struct unit *u, size_t *cap, const char *s, size_t n)
{
	size_t i;

	if (u->slen + n + 2 > *cap) {
		*cap = (*cap + n + 2) * 2;
		u->strs = xrealloc(u->strs, *cap);
	}
	for (i = 0; i < n; i++) {
		unsigned v = 0;
		int k;

		if (s[i] != '\\' || i + 1 >= n) {
			u->strs[u->slen++] = s[i];
			continue;
		}
		i++;
		switch (s[i]) {
		case 'n': v = '\n'; break;
		case 't': v = '\t'; break;
		case 'r': v = '\r'; break;
		case 'a': v = '\a'; break;
		case 'b': v = '\b'; break;
		case 'f': v = '\f'; break;
		case 'v': v = '\v'; break;
		case 'x':
			while (i + 1 < n && isxdigit((unsigned char)s[i + 1])) {
				i++;
				v = v * 16 + (isdigit((unsigned char)s[i]) ? s[i] - '0' : (tolower((unsigned char)s[i]) - 'a' + 10));
			}
			break;
		default:
			if (s[i] >= '0' && s[i] <= '7') {
				for (k = 0; k < 3 && i < n && s[i] >= '0' && s[i] <= '7'; k++, i++)
					v = v * 8 + (s[i] - '0');
				i--;
			} else {
				v = (unsigned char)s[i];
			}
		}
		u->strs[u->slen++] = (char)v;
	}
}

/*
 * Top-level declarations: each ends at a ';' outside any bracket, a function
 * definition (a '{' right after a ')') at the '}' that closes its body; a
 * directive line between them is one of its own. Identifiers are counted, and
 * the contents of literals collected (adjacent ones joined, as C joins them).
 */
static void parse(struct unit *u)
{
	const char *t = u->text;
	size_t n = u->len, i = 0, start = 0, capch = 0, capstr = 0, sstart = 0;
	int paren = 0, brace = 0, func = 0, joined = 0;
	size_t body = 0;

	u->nwords = 1 << 16;
	while (u->nwords < n / 4)
		u->nwords <<= 1;
	u->words = calloc(u->nwords, sizeof(*u->words));
	if (!u->words) {
		fprintf(stderr, "kpatch-pp-compare: out of memory\n");
		exit(2);
	}

#define END_CHUNK(end) do {							\
		size_t s_ = start, e_ = (end);					\
		while (s_ < e_ && (t[s_] == ' ' || t[s_] == '\n'))		\
			s_++;							\
		while (e_ > s_ && (t[e_ - 1] == ' ' || t[e_ - 1] == '\n'))	\
			e_--;							\
		if (e_ > s_) {							\
			if (u->nch == capch) {					\
				capch = capch ? capch * 2 : 4096;		\
				u->ch = xrealloc(u->ch, capch * sizeof(*u->ch)); \
			}							\
			u->ch[u->nch].off = s_;					\
			u->ch[u->nch].len = e_ - s_;				\
			u->ch[u->nch].soff = sstart;				\
			u->ch[u->nch].slen = u->slen - sstart;			\
			u->ch[u->nch].func = func;				\
			u->ch[u->nch].body = body;				\
			u->ch[u->nch].cmp = t + s_;				\
			u->ch[u->nch].cmplen = e_ - s_;				\
			u->nch++;						\
		}								\
		start = (end); sstart = u->slen; func = 0; body = 0;		\
	} while (0)

	while (i < n) {
		char c = t[i];

		if (c == '\n' && i + 1 < n && t[i + 1] == '#') {
			size_t e = i + 1, k;

			while (e < n && t[e] != '\n')
				e++;
			/* its words and literals count too (#pragma weak, redefine_extname) */
			for (k = i + 1; k < e; k++) {
				if (is_ident((unsigned char)t[k]) && !is_ident((unsigned char)t[k - 1])) {
					size_t b = k;

					while (k < e && is_ident((unsigned char)t[k]))
						k++;
					word_add(u, t + b, k - b);
					k--;
				} else if (t[k] == '"' || t[k] == '\'') {
					size_t le = literal_end(t, k, e);

					add_literal(u, &capstr, t + k + 1, le - k - (le > k + 1 && t[le - 1] == t[k] ? 2 : 1));
					u->strs[u->slen++] = '\0';
					k = le - 1;
				}
			}
			if (!paren && !brace) {
				size_t s = start;

				while (s < i && (t[s] == ' ' || t[s] == '\n'))
					s++;
				if (s == i) {	/* nothing pending: a declaration of its own */
					start = i + 1;
					END_CHUNK(e);
				}
			}
			i = e;
			joined = 0;
			continue;
		}
		if (c == '"' || c == '\'') {
			size_t e = literal_end(t, i, n);

			if (joined && u->slen)
				u->slen--;	/* "a" "b" is "ab" */
			add_literal(u, &capstr, t + i + 1, e - i - (e > i + 1 && t[e - 1] == c ? 2 : 1));
			u->strs[u->slen++] = '\0';
			joined = c == '"';
			i = e;
			continue;
		}
		if (c == ' ' || c == '\n') {
			i++;
			continue;
		}
		joined = 0;
		if (is_ident((unsigned char)c)) {
			size_t b = i;

			while (i < n && is_ident((unsigned char)t[i]))
				i++;
			/* a literal's prefix (L"", u8"") is part of the literal */
			if (i < n && (t[i] == '"' || t[i] == '\'') && i - b <= 2)
				continue;
			word_add(u, t + b, i - b);
			continue;
		}
		switch (c) {
		case '(':
		case '[':
			paren++;
			break;
		case ')':
		case ']':
			paren--;
			break;
		case '{':
			if (!brace && !paren) {
				size_t k = i;

				while (k > start && (t[k - 1] == ' ' || t[k - 1] == '\n'))
					k--;
				if (k > start && t[k - 1] == ')') {
					func = 1;
					body = i;
				}
			}
			brace++;
			break;
		case '}':
			brace--;
			if (!brace && !paren && func) {
				END_CHUNK(i + 1);
			}
			break;
		case ';':
			if (!brace && !paren) {
				END_CHUNK(i + 1);
			}
			break;
		}
		i++;
	}
	END_CHUNK(n);
#undef END_CHUNK
}

/* the normalized text of a unit (parse() reads it only when the two differ) */
static void load(struct unit *u, const char *path)
{
	size_t n;
	char *in = read_file(path, &n);

	memset(u, 0, sizeof(*u));
	u->path = path;
	normalize(u, in, n);
	free(in);
}

static int chunk_eq(const struct unit *a, const struct chunk *x, const struct unit *b, const struct chunk *y)
{
	(void)a;
	(void)b;
	return x->hash == y->hash && x->cmplen == y->cmplen && !memcmp(x->cmp, y->cmp, x->cmplen);
}

/*
 * Names made with __COUNTER__: __UNIQUE_ID_<prefix><N> (the locals of min(),
 * max(), ...) and __compiletime_assert_<N> (the never-called error function
 * READ_ONCE and BUILD_BUG_ON declare). A header hunk that adds or removes one
 * renumbers every later one in the unit.
 */
static int counter_name(const char *s, size_t n)
{
	size_t d = n;

	while (d > 0 && isdigit((unsigned char)s[d - 1]))
		d--;
	if (d == n)
		return 0;
	return (d >= 12 && !memcmp(s, "__UNIQUE_ID_", 12)) ||
	       (d == 21 && !memcmp(s, "__compiletime_assert_", 21));
}

/*
 * A function definition compared with its counter-made names numbered in
 * their order of appearance, when that cannot change its code: each such name
 * occurs in no other declaration of the unit (a local of the body, or a
 * declaration the body alone uses), and the body defines no static (whose
 * symbol would carry the name). Otherwise it is compared as it is.
 */
static void canonical(struct unit *u, struct chunk *c)
{
	const char *t = u->text + c->off, *end = t + c->len, *body = u->text + c->body, *p;
	const char *names[64];
	size_t lens[64], nnames = 0, k, o = 0;
	char *out;

	if (!c->func)
		return;
	for (p = t; p < end; p++)
		if (*p == '_' && (!memcmp(p, "__UNIQUE_ID_", 12 < end - p ? 12 : end - p) ||
				  !memcmp(p, "__compiletime_assert_", 21 < end - p ? 21 : end - p)))
			break;
	if (p == end)
		return;
	/* the names, each counted in the chunk against the unit */
	for (p = t; p < end;) {
		if (*p == '"' || *p == '\'') {
			p = u->text + literal_end(u->text, p - u->text, c->off + c->len);
			continue;
		}
		if (is_ident((unsigned char)*p) && (p == t || !is_ident((unsigned char)p[-1]))) {
			const char *b = p;
			size_t n, own = 0;
			const char *q;

			while (p < end && is_ident((unsigned char)*p))
				p++;
			n = p - b;
			if (b >= body && n == 6 && !memcmp(b, "static", 6))
				return;
			if (!counter_name(b, n))
				continue;
			for (k = 0; k < nnames; k++)
				if (lens[k] == n && !memcmp(names[k], b, n))
					break;
			if (k < nnames)
				continue;
			if (nnames == 64)
				return;
			for (q = t; q + n <= end; q++)
				if (!memcmp(q, b, n) && (q == t || !is_ident((unsigned char)q[-1])) &&
				    (q + n == end || !is_ident((unsigned char)q[n])))
					own++;
			if (word_count(u, b, n) != own)
				return;
			names[nnames] = b;
			lens[nnames++] = n;
			continue;
		}
		p++;
	}
	/* the copy, each name's number replaced by its order: __UNIQUE_ID___x#3 */
	out = xrealloc(NULL, c->len + 1);
	for (p = t; p < end;) {
		if (*p == '"' || *p == '\'') {
			const char *e = u->text + literal_end(u->text, p - u->text, c->off + c->len);

			memcpy(out + o, p, e - p);
			o += e - p;
			p = e;
			continue;
		}
		if (is_ident((unsigned char)*p) && (p == t || !is_ident((unsigned char)p[-1]))) {
			const char *b = p;
			size_t n;

			while (p < end && is_ident((unsigned char)*p))
				p++;
			n = p - b;
			for (k = 0; k < nnames; k++)
				if (lens[k] == n && !memcmp(names[k], b, n))
					break;
			if (k < nnames) {
				size_t d = n;
				char num[24];

				while (isdigit((unsigned char)b[d - 1]))
					d--;
				snprintf(num, sizeof(num), "#%zu", k);
				out = xrealloc(out, c->len + o + strlen(num) + 1);
				memcpy(out + o, b, d);
				o += d;
				memcpy(out + o, num, strlen(num));
				o += strlen(num);
			} else {
				memcpy(out + o, b, n);
				o += n;
			}
			continue;
		}
		out[o++] = *p++;
	}
	c->cmp = out;
	c->cmplen = o;
}

/* tokens of a function definition's head, for finding its name */
struct tok {
	const char *s;
	size_t len;
};

static int tok_is(const struct tok *k, const char *w)
{
	return k->len == strlen(w) && !memcmp(k->s, w, k->len);
}

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

/* names GCC itself may call or emit a reference to (implicit calls, libgcc, hooks) */
static int compiler_name(const char *s, size_t n)
{
	static const char *const exact[] = {
		"abort", "bcmp", "bzero", "mcount", "_mcount", "__fentry__", "__stack_chk_fail",
		"__stack_chk_guard", NULL
	};
	static const char *const prefix[] = {
		"mem", "str", "__mem", "__str", "__builtin", "__sanitizer", "__asan", "__ubsan",
		"__tsan", "__msan", "__kasan", "__kcsan", "__kmsan", "__hwasan", "__gcov",
		"__cyg_profile", "__x86_", "__llvm", "__stack_chk", "__morestack", NULL
	};
	int i;
	size_t k;

	for (i = 0; exact[i]; i++)
		if (n == strlen(exact[i]) && !memcmp(s, exact[i], n))
			return 1;
	for (i = 0; prefix[i]; i++)
		if (n >= strlen(prefix[i]) && !memcmp(s, prefix[i], strlen(prefix[i])))
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

static int in_list(const char *s, size_t n, const char *const *list)
{
	int i;

	for (i = 0; list[i]; i++)
		if (n == strlen(list[i]) && !memcmp(s, list[i], n))
			return 1;
	return 0;
}

/*
 * Is chunk c of unit u the definition of a static function nothing else in
 * the unit names? Its name in *name (also when it is not: for the message).
 */
static int unreferenced_static(const struct unit *u, const struct chunk *c, struct tok *name, const char **why)
{
	const char *t = u->text + c->off, *head_end = u->text + c->body;
	struct tok *toks = NULL;
	size_t ntok = 0, cap = 0, i, k, own = 0, total;
	int depth = 0, stat = 0, ok = 1;
	const char *p;

	name->s = NULL;
	name->len = 0;
	*why = "not a function definition";
	if (!c->func)
		return 0;
	/* the head: its tokens (literals skipped, as one token) */
	for (p = t; p < head_end;) {
		if (*p == ' ' || *p == '\n') {
			p++;
			continue;
		}
		if (ntok == cap) {
			cap = cap ? cap * 2 : 64;
			toks = xrealloc(toks, cap * sizeof(*toks));
		}
		toks[ntok].s = p;
		if (is_ident((unsigned char)*p)) {
			while (p < head_end && is_ident((unsigned char)*p))
				p++;
		} else if (*p == '"' || *p == '\'') {
			p = u->text + literal_end(u->text, p - u->text, c->body);
		} else {
			p++;
		}
		toks[ntok].len = p - toks[ntok].s;
		ntok++;
	}
	/* ... NAME ( PARAMETERS ) { */
	if (ntok < 3 || !tok_is(&toks[ntok - 1], ")")) {
		*why = "a definition whose name cannot be read";
		ok = 0;
		goto out;
	}
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
			tok_is(&toks[k - 2], "enum")))) {
		*why = "a definition whose name cannot be read";
		ok = 0;
		goto out;
	}
	*name = toks[k - 1];
	depth = 0;
	for (i = 0; i < ntok; i++) {
		if (tok_is(&toks[i], "(") || tok_is(&toks[i], "["))
			depth++;
		else if (tok_is(&toks[i], ")") || tok_is(&toks[i], "]"))
			depth--;
		else if (!depth && tok_is(&toks[i], "static"))
			stat = 1;
		else if (tok_is(&toks[i], "extern") || tok_is(&toks[i], "typedef") ||
			 tok_is(&toks[i], "asm") || tok_is(&toks[i], "__asm__") || tok_is(&toks[i], "__asm")) {
			*why = "extern, or an asm label";
			ok = 0;
			goto out;
		}
	}
	if (!stat) {
		*why = "not static";
		ok = 0;
		goto out;
	}
	if (compiler_name(name->s, name->len)) {
		*why = "a name the compiler itself may call";
		ok = 0;
		goto out;
	}
	/* identifiers of the whole definition: its attributes, its own name */
	for (p = t; p < t + c->len;) {
		if (*p == '"' || *p == '\'') {
			p = u->text + literal_end(u->text, p - u->text, c->off + c->len);
			continue;
		}
		if (is_ident((unsigned char)*p) && (p == t || !is_ident((unsigned char)p[-1]))) {
			const char *b = p;

			while (p < t + c->len && is_ident((unsigned char)*p))
				p++;
			if (in_list(b, p - b, emitting)) {
				*why = "a definition whose attributes have it emitted";
				ok = 0;
				goto out;
			}
			if ((size_t)(p - b) == name->len && !memcmp(b, name->s, name->len))
				own++;
			continue;
		}
		p++;
	}
	total = word_count(u, name->s, name->len);
	if (total > own) {
		*why = "used in the unit";
		ok = 0;
		goto out;
	}
	/* any literal outside the definition that contains the name */
	for (i = 0; i + name->len <= u->slen; i++) {
		if (i >= c->soff && i < c->soff + c->slen) {
			i = c->soff + c->slen - 1;
			continue;
		}
		/* (as a word: "kernel/utsname_sysctl.c" does not name utsname; '$' is
		 * not part of a word here: "$foo" is foo's address in asm) */
		if (u->strs[i] == name->s[0] && !memcmp(u->strs + i, name->s, name->len) &&
		    (i == 0 || !str_word((unsigned char)u->strs[i - 1])) &&
		    (i + name->len == u->slen || !str_word((unsigned char)u->strs[i + name->len]))) {
			*why = "named in a string literal of the unit";
			ok = 0;
			goto out;
		}
	}
out:
	free(toks);
	return ok;
}

/* a short, one-line excerpt of chunk c */
static void excerpt(const struct unit *u, const struct chunk *c, char *buf, size_t size)
{
	size_t i, o = 0;

	for (i = 0; i < c->len && o + 4 < size; i++)
		buf[o++] = u->text[c->off + i] == '\n' ? ' ' : u->text[c->off + i];
	if (i < c->len) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
}

/* the differing declarations of one side left once the unreferenced ones are set aside */
struct side {
	size_t *keep;
	size_t nkeep;
};

int main(int argc, char **argv)
{
	struct unit a, b;
	size_t pre = 0, suf = 0, i, names = 0;
	int strict = 0, arg = 1;
	struct side sa = { 0 }, sb = { 0 };
	char msg[4096] = "", ex[160];

	if (argc > 1 && !strcmp(argv[1], "--strict")) {
		strict = 1;
		arg++;
	}
	if (argc - arg != 2) {
		fprintf(stderr, "usage: kpatch-pp-compare [--strict] ORIG.i PATCHED.i\n");
		return 2;
	}
	load(&a, argv[arg]);
	load(&b, argv[arg + 1]);
	if (a.len == b.len && !memcmp(a.text, b.text, a.len)) {
		printf("same: identical\n");
		return 0;
	}
	parse(&a);
	parse(&b);
	for (int s = 0; s < 2; s++) {
		struct unit *u = s ? &b : &a;

		for (i = 0; i < u->nch; i++) {
			canonical(u, &u->ch[i]);
			u->ch[i].hash = hash_bytes(u->ch[i].cmp, u->ch[i].cmplen);
		}
	}
	while (pre < a.nch && pre < b.nch && chunk_eq(&a, &a.ch[pre], &b, &b.ch[pre]))
		pre++;
	while (suf < a.nch - pre && suf < b.nch - pre &&
	       chunk_eq(&a, &a.ch[a.nch - 1 - suf], &b, &b.ch[b.nch - 1 - suf]))
		suf++;
	/* both sides' differing declarations, the unreferenced static functions aside */
	for (int s = 0; s < 2; s++) {
		struct unit *u = s ? &b : &a;
		struct side *d = s ? &sb : &sa;

		d->keep = xrealloc(NULL, (u->nch - pre - suf + 1) * sizeof(size_t));
		for (i = pre; i < u->nch - suf; i++) {
			struct tok name;
			const char *why;

			if (!strict && unreferenced_static(u, &u->ch[i], &name, &why)) {
				/* (the same definition on both sides is not worth naming) */
				const struct unit *o = s ? &a : &b;
				size_t j;
				int both = 0;

				for (j = pre; j < o->nch - suf && !both; j++)
					both = chunk_eq(u, &u->ch[i], o, &o->ch[j]);
				if (!both && names < 8) {
					char w[256];

					snprintf(w, sizeof(w), " %.*s", (int)(name.len < 200 ? name.len : 200), name.s);
					if (!strstr(msg, w) && strlen(msg) + strlen(w) < sizeof(msg)) {
						strcat(msg, w);
						names++;
					}
				}
				continue;
			}
			d->keep[d->nkeep++] = i;
		}
	}
	for (i = 0; i < sa.nkeep && i < sb.nkeep; i++)
		if (!chunk_eq(&a, &a.ch[sa.keep[i]], &b, &b.ch[sb.keep[i]]))
			break;
	if (i == sa.nkeep && i == sb.nkeep) {
		if (names)
			printf("same: only unreferenced static functions differ:%s\n", msg);
		else
			printf("same: identical but for the numbers of __COUNTER__ names\n");
		return 0;
	}
	{
		/* what differs first: the patched side's declaration, else the original's */
		const struct unit *u = i < sb.nkeep ? &b : &a;
		const struct chunk *c = i < sb.nkeep ? &b.ch[sb.keep[i]] : &a.ch[sa.keep[i]];
		struct tok name;
		const char *why;

		if (!strict && c->func && (unreferenced_static(u, c, &name, &why), name.s))
			printf("may change: function %.*s (%s)\n", (int)name.len, name.s, why);
		else {
			excerpt(u, c, ex, sizeof(ex));
			printf("may change: %s%s\n", u == &a ? "(removed) " : "", ex);
		}
	}
	return 1;
}
