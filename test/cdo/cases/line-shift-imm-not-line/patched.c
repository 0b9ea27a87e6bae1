#include "kernel-stubs.h"
#include "fs-line-args.h"
/* a line added above */

/* control: only its line moves */
void *get_inode(struct super_block *sb, unsigned long ino)
{
	return fs_iget(sb, ino);
}

/* a constant that is no line changes, passed where a line goes */
void *get_root(struct super_block *sb)
{
	return __fs_iget(sb, 2, __func__, 200);
}

/* a constant that is a moved line (get_inode's 7 -> 8), but not here */
void *get_journal(struct super_block *sb)
{
	return __fs_iget(sb, 8, __func__, 8);
}

/* a constant passed to _printk, which line_funcs[] names */
void report_quota(int v)
{
	pr_info("quota %d of %d\n", v, 1001);
}
