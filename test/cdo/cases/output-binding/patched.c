#include "kernel-stubs.h"

int limit = 100;
unsigned long area_calls;

static noinline int clamp(int v)
{
	if (v < 0)
		return 0;
	return v > limit ? limit : v;
}

noinline int checked_mul(int a, int b)
{
	if (a > 46340 || b > 46340)
		return 0x7fffffff;
	return a * b;
}

int area(int w, int h)
{
	area_calls++;
	return clamp(checked_mul(w, h));
}

__attribute__((weak)) int perimeter(int w, int h)
{
	return 2 * (w + h) + 1;
}
