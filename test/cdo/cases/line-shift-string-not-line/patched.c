#include "kernel-stubs.h"

/* a line added above */
extern void note_site(const char *site, int v);
#define SITE __FILE__ ":" __stringify(__LINE__)

/* control: only its line moves */
void site_plain(int v)
{
	note_site(SITE, v);
}

/* the line moves and other text changes */
void site_tagged(int v)
{
	note_site(SITE " (v2)", v);
}

/* a number that is no line changes */
void set_timeout(int v)
{
	note_site("timeout 200 ms", v);
}

/* a number that is a moved line (site_plain's 9 -> 10), but not here */
void budget(int v)
{
	note_site("budget 10", v);
}

/* a number that is part of a name */
void fw_name(int v)
{
	note_site("fw-v22.bin", v);
}
