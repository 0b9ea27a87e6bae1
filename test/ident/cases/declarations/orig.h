/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HDR_H
#define _HDR_H

/* what each kind of declaration names */
typedef int (*handler_fn)(void *data);
extern int (*active_handler)(void *data);
extern unsigned long total_pages __read_mostly;
__printf(1, 2) __cold void report(const char *fmt, ...);
int (*lookup_handler(int id))(void *data);
struct table {
	enum { T_EMPTY, T_FULL } state;
	struct entry { int key; } first;
};
typedef struct table table_t;
struct __packed wire { char kind; };
static int counts[4] = { 1, 2, 3, 4 }, total;

#endif
