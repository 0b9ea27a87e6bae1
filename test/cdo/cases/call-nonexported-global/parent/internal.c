#include "kernel-stubs.h"

static int internal_total;

int internal_counter_add(int n)
{
	internal_total += n;
	return internal_total;
}
