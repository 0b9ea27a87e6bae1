#include "include/hdr.h"

int form = SQUARE;
