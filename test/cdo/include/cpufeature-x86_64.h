/*
 * For the x86_64 cases (altinstr-aux-*): static_cpu_has() as 6.1's
 * arch/x86/include/asm/cpufeature.h makes it: a jump into .altinstr_aux,
 * whose test of the boot CPU's capability bit jumps back; the alternative
 * turns the first jump into a direct one.
 */
struct cpuinfo_stub {
	u32 x86_capability[20];
};
extern struct cpuinfo_stub boot_cpu_data;

static __always_inline bool _static_cpu_has(u16 bit)
{
	asm goto(ALTERNATIVE("jmp 6f", "jmp %l[t_no]", %P[feature])
		 ".pushsection .altinstr_aux,\"ax\"\n"
		 "6:\n"
		 " testb %[bitnum],%[cap_byte]\n"
		 " jnz %l[t_yes]\n"
		 " jmp %l[t_no]\n"
		 ".popsection\n"
		 : : [feature] "i" (bit),
		     [bitnum] "i" (1 << (bit & 7)),
		     [cap_byte] "m" (((const char *)boot_cpu_data.x86_capability)[bit >> 3])
		 : : t_yes, t_no);
t_yes:
	return true;
t_no:
	return false;
}
#define static_cpu_has(bit)	_static_cpu_has(bit)
#define X86_FEATURE_FSRM	(18*32+4)
#define X86_FEATURE_ERMS	(9*32+9)
