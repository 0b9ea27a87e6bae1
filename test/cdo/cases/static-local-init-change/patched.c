#include "kernel-stubs.h"

int next_id(void)
{
	static int id = 1000;

	return id++;
}
