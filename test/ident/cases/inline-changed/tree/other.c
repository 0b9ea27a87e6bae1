#include "include/hdr.h"

/* clamp_val in a comment, and in a string, name nothing */
const char *other_name = "clamp_val";

int other(struct widget *w)
{
	return widget_size(w);
}
