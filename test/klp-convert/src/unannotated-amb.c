/* an unannotated reference to a name the running kernel has twice */
#include "common.h"
extern int local_fn(int);
LIVEPATCH_MODINFO;
int g(int x) { return local_fn(x) + 1; }
