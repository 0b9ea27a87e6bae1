// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "arch/arch.h"
#include "lib/util.h"

extern const struct arch arch_x86_64;
extern const struct arch arch_aarch64;
extern const struct arch arch_ppc64le;
extern const struct arch arch_s390x;

static const struct arch *const arches[] = {
	&arch_x86_64,
	&arch_aarch64,
	&arch_ppc64le,
	&arch_s390x,
};

const struct arch *arch_get(const struct elf *elf)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(arches); i++)
		if (arches[i]->machine == elf->ehdr.e_machine)
			return arches[i];
	die(EXIT_BADINPUT, "%s: unsupported machine %u (supported: x86_64, aarch64, ppc64le, s390x)",
	    elf->path, elf->ehdr.e_machine);
}

const struct special_section *arch_special(const struct arch *arch,
					   const char *name)
{
	const struct special_section *s;

	for (s = arch->special; s->name; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}
