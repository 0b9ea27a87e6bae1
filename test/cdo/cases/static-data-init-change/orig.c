#include "kernel-stubs.h"

/* written at run time (set_weight), so it is .data: its current value matters */
static int weights[4] = { 1, 2, 3, 4 };

int weight_of(int i)
{
	return weights[i & 3];
}

void set_weight(int i, int w)
{
	weights[i & 3] = w;
}
