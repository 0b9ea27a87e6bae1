#include "kernel-stubs.h"

DECLARE_STATIC_CALL(sched_hook, schedule);

int do_yield(int n)
{
	static_call_void(sched_hook);
	return n - 1;
}

int do_yield_twice(int n)
{
	static_call_void(sched_hook);
	static_call_void(sched_hook);
	return n + 1;
}
