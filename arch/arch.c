// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "arch/arch.h"
#include "lib/util.h"

extern const struct arch arch_x86_64;

static const struct arch *const arches[] = {
	&arch_x86_64,
};

const struct arch *arch_nth(size_t i)
{
	return i < ARRAY_SIZE(arches) ? arches[i] : NULL;
}

const struct arch *arch_for_machine(uint16_t machine)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(arches); i++)
		if (arches[i]->machine == machine)
			return arches[i];
	return NULL;
}

const struct arch *arch_get(const struct elf *elf)
{
	const struct arch *arch = arch_for_machine(elf->ehdr.e_machine);

	if (arch)
		return arch;
	die(EXIT_BADINPUT, "%s: unsupported machine %u (supported: x86_64)",
	    elf->path, elf->ehdr.e_machine);
}
