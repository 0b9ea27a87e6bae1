#include "include/compiler.h"

int q(void)
{
	return 4;
}
