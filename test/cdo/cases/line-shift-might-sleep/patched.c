#include "kernel-stubs.h"




int wait_ready(volatile int *flag)
{
	might_sleep();
	while (!*flag)
		msleep(1);
	return 0;
}

int copy_in(int *dst, const int *src)
{
	might_fault();
	*dst = *src;
	return 0;
}
