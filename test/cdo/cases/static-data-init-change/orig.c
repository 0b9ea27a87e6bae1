#include "kernel-stubs.h"

static int weights[4] = { 1, 2, 3, 4 };

int weight_of(int i)
{
	return weights[i & 3];
}
