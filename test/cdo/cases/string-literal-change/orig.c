#include "kernel-stubs.h"

void report(int code)
{
	pr_err("device failed with code %d\n", code);
}

void other(int code)
{
	pr_info("other path %d\n", code);
}
