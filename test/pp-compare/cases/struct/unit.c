/* the header's patch adds a member to a structure this unit uses */
#include "hdr.h"

int get_b(struct pair *p)
{
	return p->b;
}
