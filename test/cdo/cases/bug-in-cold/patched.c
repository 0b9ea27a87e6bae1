#include "kernel-stubs.h"

extern void log_failure(int code) __cold;

int submit(int *q, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (unlikely(q[i] < 0)) {
			log_failure(q[i]);
			WARN_ON_ONCE(1);
			return -5;
		}
		q[i] <<= 2;
	}
	return n;
}

int other(int *q)
{
	WARN_ON(!q);
	return 0;
}
