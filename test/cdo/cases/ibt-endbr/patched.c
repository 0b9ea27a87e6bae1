#include "kernel-stubs.h"

int counter;

int get_counter(void)
{
	return counter;
}

int scale(int x)
{
	return x * 5 + 1;
}

void bump_counter(int by)
{
	counter += by;
}
