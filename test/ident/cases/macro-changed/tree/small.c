#include "include/hdr.h"

int small = MIN_ITEMS;
