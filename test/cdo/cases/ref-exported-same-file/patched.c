#include "kernel-stubs.h"

noinline int widget_count(void)
{
	return 42;
}
EXPORT_SYMBOL(widget_count);

int widget_report(void)
{
	return widget_count() + 2;
}
