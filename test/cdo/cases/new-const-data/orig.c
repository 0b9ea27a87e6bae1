#include "kernel-stubs.h"

int crc_step(int c, int b)
{
	return (c << 1) ^ b;
}
