#include "kernel-stubs.h"

/*
 * With the kernel's flags: ORIG has dev_score.constprop.0.isra.0 (every caller
 * passes w=3). PATCHED passes another w in check_b, so the clone is
 * dev_score.isra.0 with one more parameter: a different function with a
 * different calling convention, not a new version of the running clone.
 */
struct dev { int id; int flags; int stats[16]; int name_len; };

static noinline int dev_score(struct dev *d, int w)
{
	if (w > 5)
		return d->flags * w + d->name_len;
	return d->flags - w * d->name_len;
}

int check_a(struct dev *d) { return dev_score(d, 3) + 1; }
int check_b(struct dev *d) { return dev_score(d, 3) + 2; }
int unrelated(struct dev *d) { return d->id; }
