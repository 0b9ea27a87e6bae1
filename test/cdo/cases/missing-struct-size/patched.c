#include "kernel-stubs.h"

int checked(int v)
{
	BUG_ON(v == 13);
	return v + 2;
}
