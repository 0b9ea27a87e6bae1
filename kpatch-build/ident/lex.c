// SPDX-License-Identifier: GPL-2.0
/*
 * Un-preprocessed C read into tokens, as translation phases 1-3 see it:
 * backslash-newlines joined first (a directive or a token may span lines),
 * comments one space, string and character literals one token each (never
 * past the end of a line: an apostrophe in an #error or an #if 0 block ends
 * there), and each directive marked: a T_HASH token for the '#' that starts
 * a line and a T_EOD token at the newline that ends it. Nothing is expanded.
 * A byte that is no C token (UTF-8, a stray backslash) is a punctuator of its
 * own: any file lexes, so bad input is never a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ident.h"

enum { C_OTHER, C_SPACE, C_NL, C_IDENT, C_DIGIT };
static unsigned char cls[256];

static void cls_init(void)
{
	int c;

	if (cls['a'])
		return;
	for (c = 'a'; c <= 'z'; c++)
		cls[c] = cls[c - 'a' + 'A'] = C_IDENT;
	cls['_'] = cls['$'] = C_IDENT;
	for (c = '0'; c <= '9'; c++)
		cls[c] = C_DIGIT;
	cls[' '] = cls['\t'] = cls['\r'] = cls['\f'] = cls['\v'] = C_SPACE;
	cls['\n'] = C_NL;
}

/* the whole file into *buf (grown as needed, NUL-terminated); -1 with errno */
int read_file(const char *path, char **buf, size_t *len, size_t *cap)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	size_t n = 0;
	ssize_t r;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || S_ISDIR(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			errno = EISDIR;
		goto fail;
	}
	for (;;) {
		if (*cap < n + 65536 || *cap < (size_t)st.st_size + 2) {
			*cap = (*cap > (size_t)st.st_size ? *cap : (size_t)st.st_size) * 2 + 65536;
			*buf = xrealloc(*buf, *cap);
		}
		r = read(fd, *buf + n, *cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	(*buf)[n] = '\0';
	*len = n;
	return 0;
fail:
	close(fd);
	return -1;
}

/*
 * Phase 2: each backslash-newline removed in place, its offset kept so that
 * a token's line is the line it starts on in the file.
 */
static void splice_lines(struct lexed *lx)
{
	char *s = lx->buf, *p = memchr(s, '\\', lx->len);
	size_t i, o, n = lx->len, k;

	lx->nsplice = 0;
	if (!p)
		return;
	for (i = o = p - s; i < n;) {
		k = i + 1;
		if (s[i] == '\\' && k < n && s[k] == '\r' && k + 1 < n && s[k + 1] == '\n')
			k++;
		if (s[i] != '\\' || k >= n || s[k] != '\n') {
			s[o++] = s[i++];
			continue;
		}
		if (lx->nsplice == lx->scap) {
			lx->scap = lx->scap ? lx->scap * 2 : 64;
			lx->splice = xrealloc(lx->splice, lx->scap * sizeof(*lx->splice));
		}
		lx->splice[lx->nsplice++] = o;
		i = k + 1;
	}
	s[o] = '\0';
	lx->len = o;
}

static struct token *push(struct lexed *lx, size_t off, size_t len, int kind, int flags)
{
	struct token *t;

	if (lx->n == lx->tcap) {
		lx->tcap = lx->tcap ? lx->tcap * 2 : 4096;
		lx->t = xrealloc(lx->t, lx->tcap * sizeof(*lx->t));
	}
	t = &lx->t[lx->n++];
	t->off = off;
	t->len = len;
	t->kind = kind;
	t->flags = flags;
	t->line = 0;
	return t;
}

/* the end of the literal that starts at s[i] (a quote): past its closing quote */
static size_t literal_end(const char *s, size_t i, size_t n)
{
	char q = s[i++];

	while (i < n && s[i] != q && s[i] != '\n') {
		if (s[i] == '\\' && i + 1 < n && s[i + 1] != '\n')
			i++;
		i++;
	}
	return i < n && s[i] == q ? i + 1 : i;
}

static size_t punct_len(const char *s, size_t i, size_t n)
{
	static const char *const three[] = { "<<=", ">>=", "..." };
	static const char two[] = "->++--<<>><=>===!=&&||*=/=%=+=-=&=^=|=##";
	size_t k;

	for (k = 0; k < ARRAY_SIZE(three); k++)
		if (i + 3 <= n && !memcmp(s + i, three[k], 3))
			return 3;
	for (k = 0; k + 1 < sizeof(two); k += 2)
		if (i + 2 <= n && s[i] == two[k] && s[i + 1] == two[k + 1])
			return 2;
	return 1;
}

/* a pp-number: a digit (or .digit), then digits, letters, '.', and signed exponents */
static size_t number_end(const char *s, size_t i, size_t n)
{
	for (i++; i < n; i++) {
		char c = s[i];

		if ((c == '+' || c == '-') && strchr("eEpP", s[i - 1]))
			continue;
		if (cls[(unsigned char)c] != C_IDENT && cls[(unsigned char)c] != C_DIGIT &&
		    c != '.')
			break;
	}
	return i;
}

/* past a comment that starts at s[i] (slash-star or slash-slash: to the newline) */
static size_t comment_end(const char *s, size_t i, size_t n)
{
	const char *e;

	if (s[i + 1] == '/') {
		e = memchr(s + i, '\n', n - i);
		return e ? (size_t)(e - s) : n;
	}
	for (i += 2; i + 1 < n; i++)
		if (s[i] == '*' && s[i + 1] == '/')
			return i + 2;
	return n;
}

static void push_word(struct lexed *lx, size_t i, size_t e, int flags)
{
	int kind = T_PUNCT;
	unsigned char c = lx->buf[i];

	if (cls[c] == C_IDENT)
		kind = T_IDENT;
	else if (cls[c] == C_DIGIT ||
		 (c == '.' && e - i > 1 && cls[(unsigned char)lx->buf[i + 1]] == C_DIGIT))
		kind = T_NUMBER;	/* (".5", not "...") */
	else if (c == '"')
		kind = T_STRING;
	else if (c == '\'')
		kind = T_CHAR;
	push(lx, i, e - i, kind, flags);
}

/* the token that starts at s[i] (not white space, not a comment): its end */
static size_t token_end(const char *s, size_t i, size_t n)
{
	unsigned char c = s[i];

	if (cls[c] == C_IDENT) {
		for (i++; i < n && (cls[(unsigned char)s[i]] == C_IDENT ||
				    cls[(unsigned char)s[i]] == C_DIGIT); i++)
			;
		return i;
	}
	if (cls[c] == C_DIGIT || (c == '.' && i + 1 < n && cls[(unsigned char)s[i + 1]] == C_DIGIT))
		return number_end(s, i, n);
	if (c == '"' || c == '\'')
		return literal_end(s, i, n);
	return i + punct_len(s, i, n);
}

/* phase 3: the tokens of lx->buf, directives marked with T_HASH ... T_EOD */
static void lex_tokens(struct lexed *lx)
{
	const char *s = lx->buf;
	size_t i = 0, n = lx->len, e;
	int bol = 1, dir = 0, space = 1, dirname = 0, flags;

	lx->n = 0;
	while (i < n) {
		unsigned char c = s[i];

		if (cls[c] == C_NL || cls[c] == C_SPACE) {
			if (c == '\n' && dir)
				push(lx, i, 0, T_EOD, 0);
			if (c == '\n')
				bol = 1, dir = 0;
			space = 1;
			i++;
			continue;
		}
		if (c == '/' && i + 1 < n && (s[i + 1] == '*' || s[i + 1] == '/')) {
			i = comment_end(s, i, n);
			space = 1;
			continue;
		}
		flags = space ? TF_SPACE : 0;
		space = 0;
		if (bol && c == '#' && (i + 1 >= n || s[i + 1] != '#')) {
			push(lx, i, 1, T_HASH, flags);
			bol = 0, dir = dirname = 1;
			i++;
			continue;
		}
		bol = 0;
		e = token_end(s, i, n);
		push_word(lx, i, e, flags | (dirname && cls[c] == C_IDENT ? TF_DIRNAME : 0));
		dirname = 0;
		i = e;
	}
	if (dir)
		push(lx, n, 0, T_EOD, 0);
}

/* each token's line in the file: newlines before it, and lines joined */
static void tok_lines(struct lexed *lx)
{
	const char *s = lx->buf, *nl;
	size_t k, pos = 0, si = 0, off;
	uint32_t line = 1;

	for (k = 0; k < lx->n; k++) {
		off = lx->t[k].off;
		while (pos < off && (nl = memchr(s + pos, '\n', off - pos))) {
			line++;
			pos = nl - s + 1;
		}
		if (pos < off)
			pos = off;
		while (si < lx->nsplice && lx->splice[si] <= off) {
			line++;
			si++;
		}
		lx->t[k].line = line;
	}
}

/* lx->buf (lx->len bytes, read_file's) lexed; lines: the tokens' lines too */
void lex_text(struct lexed *lx, int lines)
{
	cls_init();
	splice_lines(lx);
	lex_tokens(lx);
	if (lines)
		tok_lines(lx);
}

/* a file lexed, with lines: exit ID_BAD_INPUT if it cannot be read */
void lex_file(struct lexed *lx, const char *path, int lines)
{
	lx->path = path;
	if (read_file(path, &lx->buf, &lx->len, &lx->cap))
		die(ID_BAD_INPUT, "cannot read %s: %s", path, strerror(errno));
	lex_text(lx, lines);
}

void lexed_free(struct lexed *lx)
{
	free(lx->buf);
	free(lx->t);
	free(lx->splice);
	memset(lx, 0, sizeof(*lx));
}

int tok_is(const struct lexed *lx, size_t i, const char *s)
{
	size_t len = strlen(s);

	return i < lx->n && lx->t[i].len == len && !memcmp(lx->buf + lx->t[i].off, s, len);
}

int tok_eq(const struct lexed *a, size_t i, const struct lexed *b, size_t j)
{
	return a->t[i].kind == b->t[j].kind && a->t[i].len == b->t[j].len &&
	       !memcmp(a->buf + a->t[i].off, b->buf + b->t[j].off, a->t[i].len);
}

static int cmp_word(const void *k, const void *e)
{
	return strcmp(k, *(const char *const *)e);
}

/*
 * C's keywords and GCC's spellings of them: they name nothing a patch can
 * change, and dropping them keeps the index small.
 */
int is_keyword(const char *s, size_t len)
{
	static const char *const kw[] = {
		"_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic",
		"_Noreturn", "_Static_assert", "_Thread_local", "__alignof__",
		"__asm", "__asm__", "__attribute", "__attribute__", "__auto_type",
		"__builtin_offsetof", "__builtin_types_compatible_p",
		"__builtin_va_arg", "__const", "__const__", "__extension__",
		"__inline", "__inline__", "__int128", "__label__", "__restrict",
		"__restrict__", "__signed", "__signed__", "__thread", "__typeof",
		"__typeof__", "__volatile", "__volatile__", "asm", "auto", "break",
		"case", "char", "const", "continue", "default", "do", "double",
		"else", "enum", "extern", "float", "for", "goto", "if", "inline",
		"int", "long", "register", "restrict", "return", "short", "signed",
		"sizeof", "static", "struct", "switch", "typedef", "typeof",
		"union", "unsigned", "void", "volatile", "while",
	};
	char w[32];

	if (len >= sizeof(w) || len < 2)
		return 0;
	memcpy(w, s, len);
	w[len] = '\0';
	return bsearch(w, kw, ARRAY_SIZE(kw), sizeof(kw[0]), cmp_word) != NULL;
}

/* a macro's kind of name: capitals (and digits, '_'), no lower case */
int is_upper_word(const char *s, size_t len)
{
	int upper = 0;

	while (len--) {
		if (*s >= 'a' && *s <= 'z')
			return 0;
		upper |= *s >= 'A' && *s <= 'Z';
		s++;
	}
	return upper;
}
