#include "kernel-stubs.h"

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

	if (status > 10)
		retries += 2;
	return retries;
}
