char *saved_command_line = "console=ttyS0";
int seq_puts(void *m, const char *s) { return s[0] + (m != 0); }
