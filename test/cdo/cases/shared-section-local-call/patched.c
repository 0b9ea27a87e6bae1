#include "kernel-stubs.h"

/* like __sched: several static functions in one named section */
#define __shared_text __attribute__((section(".sched.text")))

static noinline __shared_text int other_local(int x)
{
	return x - 3;
}

static noinline __shared_text int nap(int x)
{
	return other_local(x) * 7 + 1;
}

int sleepy(int x)
{
	return nap(x) + 2;
}

int use_other(int x)
{
	return other_local(x);
}
