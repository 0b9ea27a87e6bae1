// SPDX-License-Identifier: GPL-2.0
/*
 * elf-roundtrip IN OUT: read IN into the ELF model and write it back as
 * OUT, unchanged. test/elf/run.sh holds the result to IN section by section.
 */
#include <stdio.h>
#include "lib/elf.h"
#include "lib/util.h"

int main(int argc, char **argv)
{
	struct elf *elf;
	int ret;

	progname = "elf-roundtrip";
	if (argc != 3) {
		fprintf(stderr, "usage: elf-roundtrip IN.o OUT.o\n");
		return EXIT_BADINPUT;
	}
	elf = elf_open(argv[1]);
	if (!elf)
		return EXIT_BADINPUT;
	ret = elf_write(elf, argv[2]);
	elf_close(elf);
	return ret ? EXIT_BADINPUT : 0;
}
