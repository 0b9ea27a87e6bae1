#include "kernel-stubs.h"

/* new function with a static local, placed first: it shifts GCC's numbering */
static noinline int first_time(void)
{
	static int done;

	if (done)
		return 0;
	done = 1;
	return 1;
}

int poll_device(int status)
{
	static int retries;

	if (status < 0)
		retries++;
	return retries;
}

int other_poll(int status)
{
	static int retries;

	if (status > 10 && !first_time())
		retries += 2;
	return retries;
}
