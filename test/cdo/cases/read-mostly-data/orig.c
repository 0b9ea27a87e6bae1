#include "kernel-stubs.h"

/* both live in the one .data..read_mostly section (explicit section) */
int sysctl_level __read_mostly = 3;
static int cached_mode __read_mostly = 1;

int effective_level(void)
{
	return sysctl_level + cached_mode;
}

int level_is_high(void)
{
	return sysctl_level > 5;
}
