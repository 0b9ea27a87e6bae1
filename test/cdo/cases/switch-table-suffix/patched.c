#include "kernel-stubs.h"

/* a new function with its own table, first in the file: CSWTCH numbers shift */
static noinline int kind_new(int k)
{
	switch (k) {
	case 0: return 100;
	case 1: return 200;
	case 2: return 300;
	case 3: return 400;
	case 4: return 500;
	default: return 0;
	}
}

/* GCC turns these switches into lookup tables: CSWTCH.N in .rodata.CSWTCH.N */
int kind_a(int k)
{
	switch (k) {
	case 0: return 11;
	case 1: return 27;
	case 2: return 39;
	case 3: return 41;
	case 4: return 58;
	default: return -1;
	}
}

int kind_b(int k)
{
	switch (k) {
	case 0: return 3;
	case 1: return 9;
	case 2: return 4;
	case 3: return 15;
	case 4: return 2;
	case 5: return 77;
	default: return kind_new(k);
	}
}
