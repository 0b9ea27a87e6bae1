#include "kernel-stubs.h"

int next_id(void)
{
	static int id = 100;

	return id++;
}
