/*
 * kpatch-struct-sizes: print the entry sizes of the kernel's special sections,
 * read from the DWARF debug info of a vmlinux with libdwarf.
 *
 *   kpatch-struct-sizes VMLINUX
 *
 * Prints one NAME=SIZE line per struct found: the environment variables
 * create-diff-object reads, for the rows of the special-section table of
 * vmlinux's architecture that take their entry size from a struct
 * (arch/special.c, arch/<arch>/special.c: size_env, size_struct). On
 * x86_64: BUG_STRUCT_SIZE (struct bug_entry), JUMP_STRUCT_SIZE, EX_, ALT_,
 * PARA_, ORC_ and STATIC_CALL_STRUCT_SIZE.
 * Structs the kernel does not have (config off) are not printed.
 * Only the top-level DIEs of each compilation unit are visited, and the walk
 * stops as soon as every struct was found.
 * Exit: 0 ok (a warning on stderr when no struct was found), 1 error (no debug
 * info, bad file).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>
#include "arch/arch.h"

/* The structs to look for, from the table: one per environment variable. */
static const struct special_section *wanted[64];
static unsigned int nwanted;

static long long sizes[64];
static unsigned nfound;

static uint16_t elf_machine(const char *path)
{
	GElf_Ehdr eh;
	uint16_t m = EM_NONE;
	Elf *e;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return EM_NONE;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && gelf_getehdr(e, &eh))
		m = eh.e_machine;
	elf_end(e);
	close(fd);
	return m;
}

/* The table's rows sized by a struct, once per variable. */
static int collect_wanted(const char *vmlinux)
{
	const struct arch *arch = arch_for_machine(elf_machine(vmlinux));
	const struct special_section *r;
	unsigned int i;
	size_t n;

	if (!arch) {
		fprintf(stderr, "kpatch-struct-sizes: %s: not an object of a supported architecture\n",
			vmlinux);
		return -1;
	}
	for (n = 0; (r = arch_row(arch, n)); n++) {
		if (!r->size_struct || !r->size_env)
			continue;
		for (i = 0; i < nwanted; i++)
			if (!strcmp(wanted[i]->size_env, r->size_env))
				break;
		if (i == nwanted && nwanted < sizeof(wanted) / sizeof(wanted[0]))
			wanted[nwanted++] = r;
	}
	return 0;
}

static void visit(Dwarf_Debug dbg, Dwarf_Die die)
{
	Dwarf_Half tag;
	Dwarf_Error err = NULL;
	Dwarf_Bool decl = 0;
	Dwarf_Unsigned sz;
	char *name = NULL;
	unsigned i;

	if (dwarf_tag(die, &tag, &err) != DW_DLV_OK || tag != DW_TAG_structure_type)
		return;
	if (dwarf_diename(die, &name, &err) != DW_DLV_OK)
		return;
	for (i = 0; i < nwanted; i++) {
		if (sizes[i] >= 0 || strcmp(name, wanted[i]->size_struct))
			continue;
		if (dwarf_hasattr(die, DW_AT_declaration, &decl, &err) == DW_DLV_OK && decl)
			break;
		if (dwarf_bytesize(die, &sz, &err) == DW_DLV_OK) {
			sizes[i] = (long long)sz;
			nfound++;
		}
		break;
	}
	dwarf_dealloc(dbg, name, DW_DLA_STRING);
}

/*
 * Visit the top-level DIEs of each compilation unit until every struct was
 * found; *ncu counts the units read. -1 on a libdwarf error (reported).
 */
static int walk_cus(Dwarf_Debug dbg, const char *path, int *ncu)
{
	Dwarf_Error err = NULL;
	Dwarf_Unsigned next = 0;
	int res;

	while (nfound < nwanted) {
		Dwarf_Die cu = NULL, die = NULL, sib;

		res = dwarf_next_cu_header_d(dbg, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
					     NULL, &next, NULL, &err);
		if (res == DW_DLV_NO_ENTRY)
			break;
		if (res != DW_DLV_OK) {
			fprintf(stderr, "kpatch-struct-sizes: %s: %s\n", path, dwarf_errmsg(err));
			return -1;
		}
		(*ncu)++;
		if (dwarf_siblingof_b(dbg, NULL, 1, &cu, &err) != DW_DLV_OK)
			continue;
		res = dwarf_child(cu, &die, &err);
		while (res == DW_DLV_OK) {
			visit(dbg, die);
			res = dwarf_siblingof_b(dbg, die, 1, &sib, &err);
			dwarf_dealloc(dbg, die, DW_DLA_DIE);
			die = sib;
		}
		dwarf_dealloc(dbg, cu, DW_DLA_DIE);
	}
	if (nfound < nwanted) {
		/* finish the CU iteration so libdwarf's state is consistent */
		while (dwarf_next_cu_header_d(dbg, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
					      NULL, &next, NULL, &err) == DW_DLV_OK)
			;
	}
	return 0;
}

int main(int argc, char **argv)
{
	Dwarf_Debug dbg = NULL;
	Dwarf_Error err = NULL;
	int res, ncu = 0;
	unsigned i;

	if (argc != 2) {
		fprintf(stderr, "usage: kpatch-struct-sizes VMLINUX\n");
		return 1;
	}
	if (collect_wanted(argv[1]))
		return 1;
	for (i = 0; i < nwanted; i++)
		sizes[i] = -1;
#ifdef DW_LIBDWARF_VERSION_MAJOR
	res = dwarf_init_path(argv[1], NULL, 0, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg, &err);
#else
	res = dwarf_init_path(argv[1], NULL, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL,
			      &dbg, NULL, 0, NULL, &err);
#endif
	if (res != DW_DLV_OK) {
		fprintf(stderr, "kpatch-struct-sizes: %s: %s\n", argv[1],
			res == DW_DLV_NO_ENTRY ? "no DWARF debug info (build with CONFIG_DEBUG_INFO)"
					       : dwarf_errmsg(err));
		return 1;
	}
	if (walk_cus(dbg, argv[1], &ncu))
		return 1;
	for (i = 0; i < nwanted; i++)
		if (sizes[i] >= 0)
			printf("%s=%lld\n", wanted[i]->size_env, sizes[i]);
#ifdef DW_LIBDWARF_VERSION_MAJOR
	dwarf_finish(dbg);
#else
	dwarf_finish(dbg, &err);
#endif
	if (!nfound)	/* a warning: the differ says which size it needs, if any */
		fprintf(stderr, "kpatch-struct-sizes: %s: warning: none of the special-section structs found in %d compilation units\n",
			argv[1], ncu);
	return 0;
}
