#include "kernel-stubs.h"

int publish(int *slot, int v)
{
	*slot = v ^ 1;
	mb_stub();
	return v;
}

int publish2(int *slot, int v)
{
	*slot = v + 1;
	mb_stub();
	return v;
}
