// SPDX-License-Identifier: GPL-2.0
/*
 * klp-convert [--symtab OBJ=FILE]... [--object OBJ]... IN.ko OUT.ko
 *
 * Reads a linked patch module, converts the references to the running
 * kernel named in its ".klp.module_relocs.<obj>" tables (and the
 * ".klp.sym.*" symbols create-diff-object named) into the kernel's
 * livepatch relocation format, and writes OUT.ko. Every error is one line,
 * "klp-convert: <file>: <symbol or section>: <reason>", and exit status 1;
 * OUT.ko is then not written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "klpc.h"
#include "lib/target-order.h"
#include "lib/util.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: klp-convert [--symtab OBJ=FILE]... [--object OBJ]... [--symvers FILE]... [--strict] IN.ko OUT.ko\n"
		"  --symtab OBJ=FILE  readelf -s --wide of vmlinux or module OBJ: check\n"
		"                     each symbol of OBJ exists and its sympos is unambiguous;\n"
		"                     an unexported undefined symbol no table names that is\n"
		"                     unique there becomes a klp symbol (sympos 0)\n"
		"  --object OBJ       the patch has a klp_object for module OBJ\n"
		"  --symvers FILE     Module.symvers: the symbols it lists are exported\n"
		"  --strict           refuse an undefined symbol that is neither exported\n"
		"                     (--symvers, a table's __ksymtab_) nor resolved\n");
	exit(EXIT_BADINPUT);
}

/* Name what is wrong with a file that is not a relocatable ELF object. */
static void check_relocatable(const char *path)
{
	static const char *const types[] = {
		"no file type", "relocatable", "executable", "shared object",
		"core file",
	};
	unsigned char h[64];
	uint16_t type;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		klpc_fail(path, "open", "%s", strerror(errno));
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n < (ssize_t)sizeof(h) || memcmp(h, ELFMAG, SELFMAG))
		klpc_fail(path, "ELF header", "not an ELF file");
	if (h[EI_CLASS] != ELFCLASS64 ||
	    (h[EI_DATA] != ELFDATA2LSB && h[EI_DATA] != ELFDATA2MSB))
		klpc_fail(path, "ELF header", "not a 64-bit ELF object");
	/* e_type in the object's byte order (s390x is big-endian) */
	type = (uint16_t)target_get(h[EI_DATA] == ELFDATA2MSB, h + 16, 2);
	if (type != ET_REL)
		klpc_fail(path, "ELF header",
			  "not a relocatable object (ELF type %u, %s): give the linked .ko",
			  type, type < ARRAY_SIZE(types) ? types[type] : "other");
}

static void add_object(struct klpc *k, const char *raw)
{
	char *name = klpc_obj_name(k, "--object", raw);

	klpc_obj(k, name, true)->known = true;
	free(name);
}

/* The command line's inputs, each option's values in the order given. */
struct klpc_args {
	const char **symtabs, **objects, **symvers;
	int nsym, nobj, nsymvers;
	bool strict;
	const char *in, *out;
};

/* --opt VALUE or --opt=VALUE at argv[*i]: its value, or NULL */
static const char *opt_value(char **argv, int argc, int *i, const char *opt)
{
	size_t n = strlen(opt);

	if (!strcmp(argv[*i], opt) && *i + 1 < argc)
		return argv[++*i];
	if (!strncmp(argv[*i], opt, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	return NULL;
}

static void parse_args(int argc, char **argv, struct klpc_args *a)
{
	const char *v;
	int i;

	a->symtabs = xcalloc(argc, sizeof(*a->symtabs));
	a->objects = xcalloc(argc, sizeof(*a->objects));
	a->symvers = xcalloc(argc, sizeof(*a->symvers));
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if ((v = opt_value(argv, argc, &i, "--symtab")))
			a->symtabs[a->nsym++] = v;
		else if ((v = opt_value(argv, argc, &i, "--object")))
			a->objects[a->nobj++] = v;
		else if ((v = opt_value(argv, argc, &i, "--symvers")))
			a->symvers[a->nsymvers++] = v;
		else if (!strcmp(argv[i], "--strict"))
			a->strict = true;
		else
			usage();
	}
	if (argc - i != 2)
		usage();
	a->in = argv[i];
	a->out = argv[i + 1];
}

int main(int argc, char **argv)
{
	struct klpc k = { 0 };
	struct klpc_args a = { 0 };

	progname = "klp-convert";
	parse_args(argc, argv, &a);
	k.path = a.in;
	htable_init(&k.objs);
	htable_init(&k.convs);
	INIT_LIST_HEAD(&k.obj_list);
	INIT_LIST_HEAD(&k.conv_list);

	check_relocatable(k.path);
	k.elf = elf_open(k.path);
	if (!k.elf)
		exit(EXIT_BADINPUT);	/* elf_open() said why */
	klpc_collect_objects(&k);
	while (a.nsym)
		klpc_load_symtab(&k, a.symtabs[--a.nsym]);
	while (a.nobj)
		add_object(&k, a.objects[--a.nobj]);
	klpc_read_annotations(&k);
	klpc_convert_unannotated(&k, a.symvers, a.nsymvers, a.strict);
	klpc_convert(&k);
	if (elf_write(k.elf, a.out))
		exit(EXIT_BADINPUT);	/* elf_write() said why, like klpc_fail() */
	if (getenv("KLP_CONVERT_VERBOSE"))
		fprintf(stderr,
			"klp-convert: %s: %u klp symbols, %u relocations in %u .klp.rela sections\n",
			a.out, k.nr_convs, k.nr_moved, k.nr_sections);
	elf_close(k.elf);
	klpc_free(&k);
	free(a.symtabs);
	free(a.objects);
	free(a.symvers);
	return 0;
}
