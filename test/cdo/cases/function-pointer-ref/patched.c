#include "kernel-stubs.h"

typedef int (*handler_t)(int);

static noinline int handle_read(int v)  { return v + 100; }
static noinline int handle_write(int v) { return v + 200; }

handler_t pick(int op)
{
	return op == 1 ? handle_write : handle_read;
}

int dispatch(int op, int v)
{
	return pick(op)(v);
}
