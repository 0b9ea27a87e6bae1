#include "kernel-stubs.h"
#include "cpufeature-x86_64.h"

int fast_copy_ok;
int copy_mode;

int pick_copy_mode(int len)
{
	if (static_cpu_has(X86_FEATURE_FSRM))
		return 3;
	return len > 64 ? 2 : 1;
}

int __init copy_mode_setup(void)
{
	if (static_cpu_has(X86_FEATURE_ERMS))
		copy_mode = 2;
	return 0;
}
