#include "kernel-stubs.h"

DEFINE_STATIC_KEY_FALSE(trace_enabled);
DEFINE_STATIC_KEY_TRUE(fast_path);
extern void trace_hit(int v);

int handle(int v)
{
	if (static_branch_unlikely(&trace_enabled))
		trace_hit(v);
	return v + 2;
}

int handle_other(int v)
{
	if (static_branch_likely(&fast_path))
		return v;
	trace_hit(-v);
	return 0;
}
