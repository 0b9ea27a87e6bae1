#include "kernel-stubs.h"

/*
 * check_item()'s unlikely error path ends up in the callers' .cold parts;
 * the patch changes only that path (the error value)
 */
extern void report_failure(int code) __cold;

static __always_inline int check_item(int v, int i)
{
	if (unlikely(v < 0)) {
		report_failure(v);
		pr_err("negative value %d at %d\n", v, i);
		return -34;
	}
	return v;
}

int process(int *buf, int n)
{
	int i, sum = 0;

	for (i = 0; i < n; i++) {
		int r = check_item(buf[i], i);

		if (r < 0)
			return r;
		sum += r;
	}
	return sum;
}
