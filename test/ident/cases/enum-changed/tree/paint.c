#include "include/hdr.h"

/* BLUE's value moved: this object changes */
int sky = BLUE;
