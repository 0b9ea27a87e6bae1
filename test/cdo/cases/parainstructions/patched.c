#include "kernel-stubs.h"

int lock_and_count(int *c)
{
	arch_local_irq_disable_stub();
	return *c += 2;
}

int lock_only(int *c)
{
	arch_local_irq_disable_stub();
	return *c;
}
