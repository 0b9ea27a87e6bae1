#include "kernel-stubs.h"

void report(int code)
{
	pr_err("device error, code %d\n", code);
}

void other(int code)
{
	pr_info("other path %d\n", code);
}
