#include "kernel-stubs.h"

extern void note_site(const char *site, int v);
#define NOTE(v) note_site(__FILE__ ":" __stringify(__LINE__), v)

int check_range(int v)
{
	NOTE(v);
	if (v > 100)
		NOTE(-v);
	return v;
}
