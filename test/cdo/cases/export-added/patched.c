#include "kernel-stubs.h"

int widget_lookup(int id)
{
	return id * 16;
}
EXPORT_SYMBOL(widget_lookup);
