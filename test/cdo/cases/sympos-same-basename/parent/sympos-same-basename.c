#include "kernel-stubs.h"

/* the other file of the same name, linked first */
static int count;
static int elsewhere_only;

int other_event(int n)
{
	elsewhere_only += n;
	return ++count + elsewhere_only;
}
