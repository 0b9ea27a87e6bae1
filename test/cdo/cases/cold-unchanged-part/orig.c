#include "kernel-stubs.h"

/* the unlikely error path goes to process.cold in .text.unlikely.process */
extern void report_failure(int code) __cold;

int process(int *buf, int n)
{
	int i, sum = 0;

	if (n <= 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (unlikely(buf[i] < 0)) {
			report_failure(buf[i]);
			pr_err("negative value %d at %d\n", buf[i], i);
			return -22;
		}
		sum += buf[i];
	}
	return sum;
}

int helper(int x)
{
	return x - 1;
}
