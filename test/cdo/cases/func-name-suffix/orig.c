#include "kernel-stubs.h"

extern void trace_fn(const char *fn, int v);

int step_one(int v)
{
	trace_fn(__func__, v);
	return v + 1;
}

int step_two(int v)
{
	trace_fn(__func__, v);
	return v * 2;
}
