#include "kernel-stubs.h"

int first(int v)
{
	if (v > 10)
		v = 10;
	return v;
}

int warn_later(int v)
{
	WARN_ON(v == 3);
	might_sleep();
	pr_err("v=%d at %d\n", v, __LINE__);
	return v + 1;
}
