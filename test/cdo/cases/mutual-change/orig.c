#include "kernel-stubs.h"

int is_odd(unsigned int n);

int is_even(unsigned int n)
{
	if (n == 0)
		return 1;
	return is_odd(n - 1);
}

int is_odd(unsigned int n)
{
	if (n == 0)
		return 0;
	return is_even(n - 1);
}

int other(int x)
{
	return is_even(x) + 3;
}
