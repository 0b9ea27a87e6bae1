#include "kernel-stubs.h"

/*
 * a driver-private annotation section the differ knows nothing about: each
 * entry points at a code address and carries a value
 */
#define QUIRK(val)							\
	asm volatile("1: nop\n"						\
		     ".pushsection .cdo_quirks,\"a\"\n"			\
		     ".balign 4\n"					\
		     ".long 1b - .\n"					\
		     ".long " __stringify(val) "\n"			\
		     ".popsection\n")

int quirky(int x)
{
	QUIRK(6);
	return x + 1;
}
