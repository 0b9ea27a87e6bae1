#include "include/hdr.h"

int table[MAX_ITEMS];
