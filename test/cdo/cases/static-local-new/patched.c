#include "kernel-stubs.h"

int ratelimited(int code)
{
	static int printed;	/* new static local: a new variable, copied */

	if (code && printed++ < 10)
		pr_warn("code %d\n", code);
	return code;
}
