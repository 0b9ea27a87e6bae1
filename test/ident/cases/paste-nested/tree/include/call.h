#include "compiler.h"

/* foo_ is written here, the rest of the name by the invoker */
#define CALL_FOO(n) __PASTE(foo_, n)()
