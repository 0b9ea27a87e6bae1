#include "kernel-stubs.h"

/*
 * prepare() is split by GCC: the o->ready test is inlined into every caller
 * and the rest is prepare.part.0.
 */
struct obj { int ready; int data[32]; int hist[8]; };
extern void slow_setup(struct obj *o, int);
extern int cfg_mode;

static int prepare(struct obj *o, int seed)
{
	int i;

	if (o->ready)
		return 0;
	for (i = 0; i < 32; i++) {
		o->data[i] = i * seed + cfg_mode;
		o->hist[i & 7] += o->data[i] >> 3;
		if (o->data[i] > 1000)
			slow_setup(o, i);
	}
	slow_setup(o, seed);
	slow_setup(o, seed + 1);
	o->ready = 1;
	return 1;
}

int user1(struct obj *o) { return prepare(o, 3) + 1; }
int user2(struct obj *o, int s) { return prepare(o, s) + 2; }
int user3(struct obj *o, int s) { return prepare(o, s * 2) + 3; }
int user4(struct obj *o, int s) { return prepare(o, s * 5) + 4; }
