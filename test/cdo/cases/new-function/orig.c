#include "kernel-stubs.h"

int limit_value(int v)
{
	if (v > 100)
		return 100;
	return v;
}

int unrelated(int v)
{
	return v ^ 0x55;
}
