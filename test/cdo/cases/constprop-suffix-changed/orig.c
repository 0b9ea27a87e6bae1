#include "kernel-stubs.h"

/*
 * GCC 12 numbers clones per function name. With -fipa-cp-clone (on at -O3,
 * possible in a kernel build through KCFLAGS) compute() gets one .constprop
 * clone per constant mode. ORIG: compute.constprop.0 is the mode-3 clone.
 * PATCHED: the new mode-7 clone takes .constprop.0 and the unchanged mode-3
 * clone becomes compute.constprop.1.
 */
extern int table[64];

static noinline int compute(int mode, int x)
{
	int r = 0, i;

	for (i = 0; i < x; i++) {
		if (mode == 3)
			r += table[i & 63] * i;
		else if (mode == 7)
			r ^= table[(i * 7) & 63];
		else
			r -= table[i & 31] / (mode + 1);
	}
	return r;
}

int use_a(int x) { return compute(3, x); }
int use_b(int x) { return compute(3, x + 1); }
int use_z1(int x) { return x + 9; }
int use_z2(int x) { return x + 19; }
