#include "kernel-stubs.h"

/* global read-only data: other kernel files may read it directly */
const int proto_version = 4;

int get_version(void)
{
	return proto_version;
}
