#include "kernel-stubs.h"

/* pr_warn_once/WARN_ONCE: static __already_done.N flags in one .data.once section */
int legacy_ioctl(int cmd)
{
	pr_warn_once("legacy ioctl %d used\n", cmd);
	return -25;
}

int deprecated_opt(int v)
{
	WARN_ONCE(v > 3, "option value %d is deprecated\n", v);
	return v;
}
