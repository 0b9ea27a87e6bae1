/* the header's patch removes a global definition (the original side's declaration differs) */
#include "hdr.h"

int twice(int v)
{
	return v * 2;
}
