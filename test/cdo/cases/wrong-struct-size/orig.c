#include "kernel-stubs.h"

int take_ref(int *refs)
{
	WARN_ON(*refs < 0);
	return ++*refs;
}

int drop_ref(int *refs)
{
	BUG_ON(*refs == 0);
	return --*refs;
}
