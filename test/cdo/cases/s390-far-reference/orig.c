#include "kernel-stubs.h"

static int level;

static noinline int handler(int x)
{
	return x + level;
}

void *pick_handler(int x)
{
	if (x > 3)
		printk("pick %d\n", x);
	return handler;
}

int bump(int x)
{
	level += x;
	return handler(x);
}
