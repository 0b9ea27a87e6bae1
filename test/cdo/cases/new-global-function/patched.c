#include "kernel-stubs.h"

noinline int checked_mul(int a, int b)
{
	if (a > 46340 || b > 46340)
		return 0x7fffffff;
	return a * b;
}

int area(int w, int h)
{
	return checked_mul(w, h);
}
