#include "kernel-stubs.h"

/*
 * like the kernel's "static inline" (inline implies notrace there) kept out
 * of line by GCC: no __fentry__ call, so it cannot be redirected itself
 */
static noinline notrace int scale(int v)
{
	return v * 3 + 2;
}

int scale_a(int v)
{
	return scale(v) + 10;
}

int scale_b(int v)
{
	return scale(v) - 10;
}

int unrelated(int v)
{
	return v ^ 5;
}
