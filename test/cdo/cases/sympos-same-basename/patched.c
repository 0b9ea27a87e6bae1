#include "kernel-stubs.h"

/*
 * the parent holds another file with the same basename (think
 * drivers/a/core.c and drivers/b/core.c): both have a local "count"; the
 * STT_FILE names are equal, the other locals tell the blocks apart
 */
static int count;
static int sb_only_here;

int sb_event(int n)
{
	sb_only_here++;
	count += 2 * n;
	return count + sb_only_here;
}
