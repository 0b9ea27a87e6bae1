#include "kernel-stubs.h"

/*
 * Helpers that do not change, inlined in both versions where ORIG calls
 * them; the patch adds calls to them, which GCC inlines too
 */
static inline int limit_of(int v, int cap)
{
	if (v > cap)
		return cap;
	return v < 0 ? 0 : v;
}

/* not marked inline: small enough that GCC inlines it anyway */
static int halve(int v)
{
	return (v >> 1) + 3;
}

int get_limit(int v, int cap)
{
	return limit_of(v, cap) + 1;
}

int half_of(int v)
{
	return halve(v);
}

/* calls no helper: PATCHED calls limit_of */
int set_limit(int *slot, int v, int cap)
{
	*slot = v;
	return cap;
}

/* calls limit_of once: PATCHED twice */
int sum_limits(int a, int b, int cap)
{
	return limit_of(a, cap) + b;
}

/* calls no helper: PATCHED calls halve */
int scaled(int v)
{
	return v * 5;
}
