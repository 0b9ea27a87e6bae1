#include "kernel-stubs.h"

struct port {
	int lock;
	int status;
	int count;
	int fifo[8];
};

/* a lock-like helper, inlined where the handler takes and drops it */
static inline void port_lock(struct port *p)
{
	__atomic_store_n(&p->lock, 1, __ATOMIC_RELEASE);
}

static inline void port_unlock(struct port *p, int v)
{
	__atomic_store_n(&p->lock, v & 0, __ATOMIC_RELEASE);
}

/* not inlined: the patch calls it (an extern function) */
void port_reset(struct port *p);

/* the handler: the patch adds a recovery test after reading the status */

int port_handle(struct port *p, int iir)
{
	int status, i, sum = 0;

	port_lock(p);
	status = p->status;
	for (i = 0; i < 8; i++)
		sum += p->fifo[i] * (iir + i);
	if (status & 2)
		p->count += sum;
	else
		p->count -= sum ^ iir;
	port_unlock(p, sum);
	return sum + status;
}
