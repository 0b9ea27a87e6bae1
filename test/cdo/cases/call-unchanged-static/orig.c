#include "kernel-stubs.h"

static noinline int lookup_slot(int key)
{
	return (key * 2654435761u) >> 28;
}

int insert(int key)
{
	return lookup_slot(key) + 1;
}

int remove_key(int key)
{
	return lookup_slot(key) - 1;
}
