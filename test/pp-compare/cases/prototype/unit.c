/*
 * The header's patch turns an extern function back into an inline; this
 * unit calls neither: both sides' declarations are unreferenced.
 */
#include "hdr.h"

int twice(int v)
{
	return v * 2;
}
