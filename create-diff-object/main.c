// SPDX-License-Identifier: GPL-2.0
/*
 * create-diff-object: given one object compiled before (ORIG) and after
 * (PATCHED) a source patch, write an object holding exactly the changed
 * and new functions plus what they need, with records for the patch
 * module template and klp-convert. cdo.h describes the passes.
 *
 * Exit status: 0 output written; 1 bad input or internal error; 2 the
 * change cannot be live-patched; 3 no function changed.
 */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdo.h"
#include "include-work.h"
#include "lib/util.h"

/* The special-section table's entry-size variables, per architecture. */
static void print_size_vars(FILE *f)
{
	const struct special_section *r;
	const struct arch *a;
	size_t i, n;

	fprintf(f, "Entry sizes of special sections come from the environment (kpatch-struct-sizes):\n");
	for (i = 0; (a = arch_nth(i)); i++) {
		fprintf(f, "  %s:", a->name);
		for (n = 0; (r = arch_row(a, n)); n++)
			if (r->size_env)
				fprintf(f, " %s", r->size_env);
		fputc('\n', f);
	}
}

static void usage(int code)
{
	fprintf(code ? stderr : stdout,
		"usage: create-diff-object [-d|--debug] ORIG.o PATCHED.o PARENT_NAME PARENT_SYMTAB\n"
		"                          MODULE_SYMVERS PATCH_NAME OUTPUT.o\n"
		"  PARENT_NAME     vmlinux or the name of the module the object belongs to\n"
		"  PARENT_SYMTAB   `readelf -s --wide` of the parent\n"
		"  MODULE_SYMVERS  the kernel's Module.symvers (may be /dev/null)\n");
	print_size_vars(code ? stderr : stdout);
	fprintf(code ? stderr : stdout,
		"Exit: 0 written, 1 bad input, 2 cannot be live-patched, 3 no function changed.\n");
	exit(code);
}

static void parse_args(struct cdo *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "debug", no_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	while ((o = getopt_long(argc, argv, "dh", opts, NULL)) != -1) {
		if (o == 'd')
			debug_enabled = true;
		else if (o == 'h')
			usage(0);
		else
			usage(EXIT_BADINPUT);
	}
	if (argc - optind != 7)
		usage(EXIT_BADINPUT);
	c->orig_path = argv[optind];
	c->patched_path = argv[optind + 1];
	c->parent = argv[optind + 2];
	c->parent_symtab_path = argv[optind + 3];
	c->symvers_path = argv[optind + 4];
	c->patch_name = argv[optind + 5];
	c->out_path = argv[optind + 6];
}

static const char *first_file(struct elf *elf)
{
	struct symbol *sym;

	for_each_sym(elf, sym)
		if (sym->type == STT_FILE)
			return sym->name;
	return NULL;
}

/* Both objects must be builds of one source file for one machine. */
static void check_pair(struct cdo *c)
{
	const char *fo = first_file(c->orig), *fp = first_file(c->patched);

	if (c->orig->ehdr.e_machine != c->patched->ehdr.e_machine)
		die(EXIT_BADINPUT, "%s and %s are for different machines",
		    c->orig_path, c->patched_path);
	if (fo && fp && strcmp(fo, fp))
		die(EXIT_BADINPUT, "%s and %s were compiled from different source files (%s, %s)",
		    c->orig_path, c->patched_path, fo, fp);
	if (!fo != !fp)
		die(EXIT_BADINPUT, "%s and %s: only one of them names its source file",
		    c->orig_path, c->patched_path);
}

static unsigned int count_changed(struct cdo *c)
{
	struct symbol *sym;
	unsigned int n = 0;

	for_each_sym(c->patched, sym)
		if (is_func(sym) && si(sym)->include && !si(sym)->parent)
			n++;
	return n;
}

/* ORIG, PATCHED and their arch ops; false when one is not there (said). */
static bool open_objects(struct cdo *c)
{
	c->orig = elf_open(c->orig_path);
	if (!c->orig)
		return false;
	c->patched = elf_open(c->patched_path);
	if (!c->patched)
		return false;
	c->arch = arch_get(c->patched);
	return c->arch != NULL;
}

static int finish(struct cdo *c, int code)
{
	unclassify(c->orig);
	unclassify(c->patched);
	klp_free(c);
	include_free(c);
	section_index_free(c->sections);
	elf_close(c->orig);
	elf_close(c->patched);
	free((char *)c->objname);
	return code;
}

static unsigned int count_new(struct cdo *c)
{
	struct symbol *sym;
	unsigned int n = 0;

	for_each_sym(c->patched, sym)
		if (is_func(sym) && si(sym)->include && si(sym)->status == NEW)
			n++;
	return n;
}

/*
 * The passes, in the order cdo.h describes. Each reads what the ones
 * before it left on the model and in struct cdo; none calls another.
 */
static const struct pass {
	const char *name;
	void (*run)(struct cdo *c);
} passes[] = {
	{ "classify", classify },
	{ "split", split_shared_sections },
	{ "callsite", callsite_sections },
	{ "chunks", find_chunks },
	{ "parent", klp_load },
	{ "directives", read_directives },
	{ "correlate", correlate },
	{ "compare", compare },
	{ "propagate", propagate },
	{ "inline", explain_inlined },
	{ "include", include },
	{ "special", special_sections },
	{ "include-special", include_special },
	{ "verify", verify },
};

int main(int argc, char **argv)
{
	struct cdo c = { 0 };
	char *base;
	size_t i;

	progname = "create-diff-object";
	parse_args(&c, argc, argv);
	base = xstrdup(c.patched_path);
	c.objname = xstrdup(basename(base));
	free(base);

	if (!open_objects(&c))
		return finish(&c, EXIT_BADINPUT);
	c.sections = section_index_new(c.arch);
	check_pair(&c);
	for (i = 0; i < ARRAY_SIZE(passes); i++)
		passes[i].run(&c);
	if (c.nr_refusals)
		return finish(&c, EXIT_REFUSED);
	if (!count_changed(&c)) {
		fprintf(stderr, "%s: %s: no changed functions\n", progname,
			c.objname);
		return finish(&c, EXIT_NOCHANGE);
	}
	if (emit(&c))
		return finish(&c, EXIT_BADINPUT);
	if (c.nr_refusals)
		return finish(&c, EXIT_REFUSED);
	debugf("%s: %u function(s) patched, %u new", c.objname, c.nr_changed,
	       count_new(&c));
	return finish(&c, 0);
}
