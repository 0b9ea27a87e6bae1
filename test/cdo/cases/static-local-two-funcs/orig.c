#include "kernel-stubs.h"

/* two functions with a static local of the same name: count.0 and count.1 */
int reader(int x)
{
	static int count;

	count++;
	return x + count;
}

int writer(int x)
{
	static int count;

	count += x;
	return count;
}
