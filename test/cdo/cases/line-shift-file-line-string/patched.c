#include "kernel-stubs.h"

/* two lines added above:
 * every line below moves down by two, 8 becomes 10 */
extern void note_site(const char *site, int v);
#define NOTE(v) note_site(__FILE__ ":" __stringify(__LINE__), v)

int check_range(int v)
{
	NOTE(v);
	if (v > 100)
		NOTE(-v);
	return v;
}

/* a __LINE__ immediate (might_sleep) and a string in one function */
void check_sleep(int v)
{
	might_sleep();
	NOTE(v);
}
