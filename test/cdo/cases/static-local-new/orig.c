#include "kernel-stubs.h"

int ratelimited(int code)
{
	if (code)
		pr_warn("code %d\n", code);
	return code;
}
