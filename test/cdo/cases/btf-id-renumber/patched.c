#include "kernel-stubs.h"

/*
 * As the kernel's BTF_ID(): each slot of a BTF id set is a 4-byte local
 * object in .BTF_ids named "__BTF_ID__<kind>__<name>__" + __COUNTER__ +
 * __LINE__ (resolve_btfids fills them in at the vmlinux link); data points to
 * the slots (net/core/filter.c's bpf_func_proto .ret_btf_id), and one type
 * may be named twice.
 */
#define BTF_SLOT(sym)							\
	asm(".pushsection .BTF_ids,\"a\"\n"				\
	    ".local " __stringify(sym) "\n"				\
	    ".type " __stringify(sym) ", @object\n"			\
	    ".size " __stringify(sym) ", 4\n"				\
	    __stringify(sym) ":\n\t.zero 4\n.popsection")
#define BTF_ID_N(kind, name, n)						\
	BTF_SLOT(__PASTE(__PASTE(__BTF_ID__##kind##__##name##__, n), __LINE__))
#define BTF_ID(kind, name) BTF_ID_N(kind, name, __COUNTER__)

struct proto {
	int (*func)(int);
	u32 *ret_btf_id;
};

/* a min() in a header's inline takes a __COUNTER__ number first */
static int __PASTE(counter_user_, __COUNTER__) __attribute__((used));

extern u32 sock_ids[];
asm(".pushsection .BTF_ids,\"a\"\n.global sock_ids\nsock_ids:\n.popsection");
BTF_ID(struct, tcp_sock);
BTF_ID(struct, xdp_buff);
BTF_ID(struct, file);
BTF_ID(struct, xdp_buff);

noinline int to_tcp_sock(int x)
{
	return x + 2;
}

noinline int to_file(int x)
{
	return x * 2;
}

const struct proto tcp_sock_proto = { to_tcp_sock, &sock_ids[0] };
const struct proto xdp_proto = { to_tcp_sock, &sock_ids[1] };
const struct proto file_proto = { to_file, &sock_ids[2] };
const struct proto xdp_len_proto = { to_file, &sock_ids[3] };
