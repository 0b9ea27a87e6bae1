#include "kernel-stubs.h"

int validate(int v)
{
	return v > 0;
}

int unrelated(int v)
{
	return v + 5;
}
