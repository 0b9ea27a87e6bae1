/* two objects with a vmlinux table each, the second 8-aligned as the differ may write */
#include "common.h"
extern int m1;
LIVEPATCH_MODINFO;
int u1(void) { return m1; }
static struct KLP_MODULE_RELOC(vmlinux) r1[] = { { &m1, 0 } };
