/* the header's patch changes a comment and a macro this unit does not use */
#include "hdr.h"

int area(int w, int h)
{
	return SCALE(w) * h;
}
