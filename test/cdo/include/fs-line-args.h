/*
 * A subsystem's own functions that take the caller's __func__ and __LINE__
 * (fs/ext4: __ext4_iget, __ext4_error, __ext4_journal_start_sb): no list
 * of names knows them. fs_iget() passes the line straight to the call;
 * fs_journal_start() to a header inline that passes it on, so the code
 * loading it is the inline's (another file's line), not the caller's.
 */
struct super_block;

extern void *__fs_iget(struct super_block *sb, unsigned long ino,
		       const char *func, unsigned int line);
extern void *__fs_journal_start_sb(struct super_block *sb, unsigned int line,
				   int type, int blocks);

#define fs_iget(sb, ino) __fs_iget((sb), (ino), __func__, __LINE__)

static inline void *__fs_journal_start(struct super_block *sb,
				       unsigned int line, int type, int blocks)
{
	if (!sb)
		return (void *)0;
	return __fs_journal_start_sb(sb, line, type, blocks + 1);
}

#define fs_journal_start(sb, type, blocks) \
	__fs_journal_start((sb), __LINE__, (type), (blocks))
