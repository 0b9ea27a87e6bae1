/* references from two functions (-ffunction-sections) and from data; sympos 2 */
#include "common.h"
extern int local_fn(int);
extern int counter;
LIVEPATCH_MODINFO;
int a(int x) { return local_fn(x) + 1; }
int b(void) { return counter; }
int (*fnptr)(int) = local_fn;
static struct KLP_MODULE_RELOC(vmlinux) r[] = {
	{ .sym = local_fn, .sympos = 2 },
	{ .sym = &counter, .sympos = 0 },
};
