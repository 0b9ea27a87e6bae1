#include "kernel-stubs.h"

/* const data: .rodata.limits; the reader's code is identical in both builds */
static const int limits[4] = { 10, 20, 30, 40 };
const char banner[] = "driver v1";

int limit_of(int i)
{
	return limits[i & 3];
}

const char *get_banner(void)
{
	return banner;
}
