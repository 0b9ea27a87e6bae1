#include "kernel-stubs.h"

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
	default: return 0;
	}
}
