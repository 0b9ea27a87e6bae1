/* another header's inline: its includers reach base_get through it */
#include "hdr.h"

static inline int wrap_get(void)
{
	return base_get() * 2;
}
