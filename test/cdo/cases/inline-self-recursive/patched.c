#include "kernel-stubs.h"

/* a recursive function: GCC inlines some of its recursion into itself */
struct node { struct node *l, *r; int w; };

static int depth(struct node *t)
{
	int l, r;

	if (!t)
		return 0;
	l = depth(t->l);
	r = depth(t->r);
	return t->w + (l > r ? l : r) + 1;
}

int tree_depth(struct node *t)
{
	return depth(t) + 1;
}
