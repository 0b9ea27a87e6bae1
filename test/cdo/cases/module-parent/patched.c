#include "kernel-stubs.h"

/* the object belongs to a module, "mydrv", not to vmlinux */
static noinline int hw_read(int reg)
{
	return reg * 4;
}

int mydrv_probe(int reg)
{
	return hw_read(reg) + 3;
}
