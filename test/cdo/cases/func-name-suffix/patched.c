#include "kernel-stubs.h"

extern void trace_fn(const char *fn, int v);

/* new, first in the file: the __func__.N numbering of the others shifts */
static noinline int step_zero(int v)
{
	trace_fn(__func__, v);
	return v - 1;
}

int step_one(int v)
{
	trace_fn(__func__, v);
	return step_zero(v) + 1;
}

int step_two(int v)
{
	trace_fn(__func__, v);
	return v * 2;
}
