#include "kernel-stubs.h"

int widget_find(int id)
{
	return id * 16;
}
EXPORT_SYMBOL_GPL(widget_find);

int widget_count(void)
{
	return 3;
}
