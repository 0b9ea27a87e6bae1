/* a weak declaration may bind a symbol: never set aside */
#include "hdr.h"

int twice(int v)
{
	return v * 2;
}
