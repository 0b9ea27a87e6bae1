#include "common.h"
extern int m2, m3;
int u2(void) { return m2 + m3; }
static struct klp_module_reloc r2[] __attribute__((used, aligned(8), section(".klp.module_relocs.vmlinux"))) = {
	{ &m2, 0 }, { &m3, 1 },
};
