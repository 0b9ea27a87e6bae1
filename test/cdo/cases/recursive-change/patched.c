#include "kernel-stubs.h"

int depth(int n)
{
	if (n <= 1)
		return 1;
	return 1 + depth(n / 3);
}
