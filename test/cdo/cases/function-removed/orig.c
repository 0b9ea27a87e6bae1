#include "kernel-stubs.h"

static noinline int legacy_check(int v)
{
	return v != 0x1234;
}

int validate(int v)
{
	if (!legacy_check(v))
		return 0;
	return v > 0;
}

int unrelated(int v)
{
	return v + 5;
}
