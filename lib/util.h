/* SPDX-License-Identifier: GPL-2.0 */
/* Allocation and error reporting shared by every tool. */
#ifndef KP_UTIL_H
#define KP_UTIL_H

#include <stddef.h>
#include <stdbool.h>

/* Exit codes shared by the tools (create-diff-object documents them). */
#define EXIT_BADINPUT	1
#define EXIT_REFUSED	2
#define EXIT_NOCHANGE	3

extern const char *progname;
extern bool debug_enabled;

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * "progname: msg" on stderr: what a library function says before it
 * returns its error (NULL, -1) for the tool to decide about.
 */
void errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * errorf(), then exit(code): for the tools only. The library never exits
 * (test/static checks it), but for its allocators above: out of memory,
 * every tool ends with EXIT_BADINPUT.
 */
void die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void debugf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
