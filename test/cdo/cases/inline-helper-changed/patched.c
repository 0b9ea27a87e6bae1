#include "kernel-stubs.h"

/* a static inline helper, inlined into two callers; a third caller does not use it */
static __always_inline int quota_left(int used, int limit)
{
	if (used + 1 >= limit)
		return 0;
	return limit - used;
}

int can_alloc(int used, int limit, int want)
{
	return quota_left(used, limit) >= want;
}

int report_quota(int used, int limit)
{
	int left = quota_left(used, limit);

	if (!left)
		pr_warn("quota exhausted\n");
	return left;
}

int other(int x)
{
	return x * 2;
}
