#include "kernel-stubs.h"

/*
 * dev_score() becomes dev_score.constprop.N.isra.0 (constant w, struct
 * fields passed as scalars). With -fipa-cp-clone there is one clone per
 * constant: ORIG has .constprop.0.isra.0 (w=3); PATCHED adds a w=7 clone that
 * takes .constprop.0.isra.0 and renames the unchanged w=3 clone to
 * .constprop.1.isra.0.
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
int check_z(struct dev *d) { return dev_score(d, 7) + 1; }
int check_y(struct dev *d) { return dev_score(d, 7) + 3; }
