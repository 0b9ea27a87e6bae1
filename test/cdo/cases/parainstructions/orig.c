#include "kernel-stubs.h"

int lock_and_count(int *c)
{
	arch_local_irq_disable_stub();
	return ++*c;
}

int lock_only(int *c)
{
	arch_local_irq_disable_stub();
	return *c;
}
