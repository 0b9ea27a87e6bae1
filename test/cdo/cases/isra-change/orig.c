#include "kernel-stubs.h"

/* dev_score.isra.0: only two fields of *d are read, GCC passes them as scalars */
struct dev { int id; int flags; int stats[16]; int name_len; };

static noinline int dev_score(struct dev *d, int w)
{
	return d->flags * w + d->name_len;
}

int check(struct dev *d, int w) { return dev_score(d, w) + 1; }
int check2(struct dev *d, int w) { return dev_score(d, w * 2) + 2; }
