#include "kernel-stubs.h"

int check_range(int v)
{
	if (WARN_ON(v < 0))
		return 0;
	WARN_ON_ONCE(v > 4096);
	return v;
}

int check_ptr(void *p)
{
	if (WARN(!p, "null pointer %p\n", p))
		return -22;
	return 0;
}
