#include "kernel-stubs.h"

#define __sched	__attribute__((__section__(".sched.text")))

struct done {
	int done;
	int waiters;
};

static noinline __sched long wait_common(struct done *x, long timeout, int state)
{
	x->waiters++;
	while (!x->done && timeout > 0) {
		/* long enough that its callers reach it with 4-byte displacements */
		asm volatile(".rept 130\n\tnop\n\t.endr" ::: "memory");
		timeout -= state + 1;
	}
	x->waiters--;
	return timeout;
}

__sched void wait_done(struct done *x)
{
	if (x->waiters > 100)
		x->waiters = 100;
	wait_common(x, 1000, 0);
}

__sched long wait_done_timeout(struct done *x, long timeout)
{
	return wait_common(x, timeout, 1) + 1;
}
