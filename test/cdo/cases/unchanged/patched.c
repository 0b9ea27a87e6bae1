#include "kernel-stubs.h"

int counter;

int get_counter(void)
{
	return counter;
}

void bump_counter(int by)
{
	counter += by;
	if (counter > 1000)
		pr_warn("counter overflow: %d\n", counter);
}
