#include "kernel-stubs.h"

/* two helpers inlined into one caller; the patch changes only scale() */
static __always_inline int clamp_lo(int v, int lo)
{
	return v < lo ? lo : v;
}

static __always_inline int scale(int v, int k)
{
	return v * k + 5;
}

int compute(int v, int lo, int k)
{
	int x = clamp_lo(v, lo);

	return scale(x, k);
}

/* uses only the unchanged helper */
int floor_of(int v, int lo)
{
	return clamp_lo(v, lo) + 1;
}

/* changed in its own code, next to inlined code that did not change */
int plain(int v, int lo)
{
	return clamp_lo(v, lo) * 11;
}
