/* the header's patch changes a static inline function this unit calls */
#include "hdr.h"

int total(int a, int b)
{
	return add(a, b);
}
