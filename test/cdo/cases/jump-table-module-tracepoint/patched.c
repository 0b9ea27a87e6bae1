#include "kernel-stubs.h"

/* include/linux/tracepoint-defs.h: the key follows the name */
struct tracepoint { const char *name; struct static_key key; };
struct tracepoint __tracepoint_foo_event = { .name = "foo_event" };
extern void trace_hit(int v);

int handle(int v)
{
	if (arch_static_branch(&__tracepoint_foo_event.key, false))
		trace_hit(v);
	return v + 2;
}
