/* the same header patch in a unit that calls the function: it may change */
#include "hdr.h"

void reset(int *s)
{
	prepare_destroy(s);
}
