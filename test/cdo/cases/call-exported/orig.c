#include "kernel-stubs.h"

extern int register_widget(const char *name, int flags);

int widget_init(int flags)
{
	return register_widget("alpha", flags);
}
