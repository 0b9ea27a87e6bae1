#include "kernel-stubs.h"
#include "fortify.h"

/* a line added above: every line below moves down by one */
struct emulation_failure {
	int ndata;
	unsigned char insn_bytes[16];
};

struct run {
	int reason;
	struct emulation_failure emulation_failure;
};

void prepare_emulation_failure(struct run *run, const void *insn, int len)
{
	run->reason = 1;
	fortify_memcpy(run->emulation_failure.insn_bytes, insn, len);
	run->emulation_failure.ndata = len;
}
