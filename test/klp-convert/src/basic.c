/* vmlinux symbol used from .text; an exported one (printk) stays plain. */
#include "common.h"
extern char *saved_command_line;
extern int printk(const char *fmt, ...);
LIVEPATCH_MODINFO;
int show(void)
{
	printk("%s\n", saved_command_line);
	return saved_command_line[0];
}
struct KLP_MODULE_RELOC(vmlinux) relocs[] = {
	{ .sym = &saved_command_line, .sympos = 0 },
};
