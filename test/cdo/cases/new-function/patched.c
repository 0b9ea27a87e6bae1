#include "kernel-stubs.h"

static noinline int clamp_low(int v)
{
	if (v < -100)
		return -100;
	return v;
}

int limit_value(int v)
{
	if (v > 100)
		return 100;
	return clamp_low(v);
}

int unrelated(int v)
{
	return v ^ 0x55;
}
