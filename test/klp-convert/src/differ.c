/*
 * create-diff-object style: symbols already named .klp.sym.<obj>.<name>,<pos>,
 * one with its record, one without; a .kpatch.funcs record naming module ext4
 * makes ext4 a known object.
 */
#include "common.h"
extern int dup_fn(int) KLP_SYM(vmlinux, dup_fn, 3);
extern int ext4_state KLP_SYM(ext4, ext4_state, 0);
LIVEPATCH_MODINFO;
int g(int x) { return dup_fn(x) + ext4_state; }
static const char s_old[] __attribute__((used, section(".kpatch.strings"))) = "ext4_fn";
static const char s_obj[] __attribute__((used, section(".kpatch.strings"))) = "ext4";
struct rec { void *new_func; const char *old_name; const char *objname; unsigned long sympos; };
static struct rec funcs[] __attribute__((used, section(".kpatch.funcs"))) = {
	{ g, s_old, s_obj, 0 },
};
static struct KLP_MODULE_RELOC(vmlinux) r[] = { { dup_fn, 3 } };
