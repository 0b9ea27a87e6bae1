#include <linux/fake.h>

extern char *saved_command_line;

int cmdline_proc_show(struct seq_file *m, void *v)
{
	seq_puts(m, saved_command_line);
	seq_puts(m, "\n");
	return 0;
}

int cmdline_other(struct seq_file *m)
{
	printk("line %d\n", __LINE__);
	return fake_value();
}
