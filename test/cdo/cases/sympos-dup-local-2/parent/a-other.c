#include "kernel-stubs.h"

/* another kernel file with a static variable of the same name */
static int count;

int other_event(void)
{
	return ++count;
}
