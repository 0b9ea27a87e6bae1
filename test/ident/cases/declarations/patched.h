/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

/* what each kind of declaration names */
typedef long (*handler_fn)(void *data);
extern long (*active_handler)(void *data);
extern unsigned int total_pages __read_mostly;
__printf(1, 2) __cold void report(const char *fmt, long n, ...);
long (*lookup_handler(int id))(void *data);
struct table {
	enum { T_EMPTY, T_HALF, T_FULL } state;
	struct entry { long key; } first;
};
typedef struct table table_t;
struct __packed wire { short kind; };
static int counts[4] = { 1, 2, 3, 5 }, total;

#endif
