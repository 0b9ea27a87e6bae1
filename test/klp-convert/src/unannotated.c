/* a hand-written patch that names no symbol in a KLP_MODULE_RELOC table */
#include "common.h"
extern int counter;		/* unique in target.symtab: a klp symbol, sympos 0 */
extern int printk(const char *fmt, ...);	/* exported: stays undefined */
extern int undefined_here;	/* in no table: stays undefined */
LIVEPATCH_MODINFO;
int f(void) { return counter + printk("x") + undefined_here; }
