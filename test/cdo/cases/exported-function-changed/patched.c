#include "kernel-stubs.h"

int widget_size(int n)
{
	return n * 32;
}
EXPORT_SYMBOL_GPL(widget_size);

int widget_align(int n)
{
	return (n + 7) & ~7;
}
EXPORT_SYMBOL(widget_align);
