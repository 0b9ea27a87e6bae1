// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

const char *progname = "kpatch";
bool debug_enabled;

static void *check(void *p)
{
	if (!p) {
		fprintf(stderr, "%s: out of memory\n", progname);
		exit(EXIT_BADINPUT);
	}
	return p;
}

void *xmalloc(size_t n)
{
	return check(malloc(n ? n : 1));
}

void *xcalloc(size_t n, size_t m)
{
	return check(calloc(n ? n : 1, m ? m : 1));
}

void *xrealloc(void *p, size_t n)
{
	return check(realloc(p, n ? n : 1));
}

char *xstrdup(const char *s)
{
	return check(strdup(s));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		check(NULL);
	return s;
}

static void verrorf(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void errorf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrorf(fmt, ap);
	va_end(ap);
}

void die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrorf(fmt, ap);
	va_end(ap);
	exit(code);
}

void warnx_(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: warning: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void debugf(const char *fmt, ...)
{
	va_list ap;

	if (!debug_enabled)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
