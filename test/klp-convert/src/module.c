/* a symbol of module "my-mod" (kernel name my_mod) and one of vmlinux */
#include "common.h"
extern int mod_state;
extern int vm_state;
LIVEPATCH_MODINFO;
int f(void) { return mod_state + vm_state; }
static struct KLP_MODULE_RELOC(my-mod) rm[] = { { &mod_state, 0 } };
static struct KLP_MODULE_RELOC(vmlinux) rv[] = { { &vm_state, 0 } };
