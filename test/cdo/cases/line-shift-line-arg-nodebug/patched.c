#include "kernel-stubs.h"
#include "fs-line-args.h"
/* two lines added above, as at the top of fs/ext4/super.c: every line
 * below moves down by two */

void *get_inode(struct super_block *sb, unsigned long ino)
{
	if (ino < 2)
		return (void *)0;
	return fs_iget(sb, ino);
}

void *quota_write(struct super_block *sb, int blocks)
{
	return fs_journal_start(sb, 3, blocks);
}
