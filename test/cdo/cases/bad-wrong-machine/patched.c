#include "kernel-stubs.h"

int twice(int x)
{
	return x * 3;
}
