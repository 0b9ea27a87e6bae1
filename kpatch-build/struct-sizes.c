/*
 * kpatch-struct-sizes: print the entry sizes of the kernel's special sections,
 * read from the DWARF debug info of a vmlinux with libdwarf.
 *
 *   kpatch-struct-sizes VMLINUX
 *
 * Prints one NAME=SIZE line per struct found (the environment variables
 * create-diff-object reads):
 *   BUG_STRUCT_SIZE          struct bug_entry
 *   EX_STRUCT_SIZE           struct exception_table_entry
 *   JUMP_STRUCT_SIZE         struct jump_entry
 *   ALT_STRUCT_SIZE          struct alt_instr
 *   PARA_STRUCT_SIZE         struct paravirt_patch_site
 *   ORC_STRUCT_SIZE          struct orc_entry
 *   STATIC_CALL_STRUCT_SIZE  struct static_call_site
 *   PRINTK_INDEX_STRUCT_SIZE struct pi_entry
 *   FIXUP_STRUCT_SIZE        struct fixup_entry (ppc64le __ftr_fixup and friends)
 * The debug info may be of any architecture and byte order (a cross-built
 * ppc64le or big-endian s390x vmlinux reads like a native one: libdwarf
 * decodes it).
 * Structs the kernel does not have (config off) are not printed.
 * Only the top-level DIEs of each compilation unit are visited, and the walk
 * stops as soon as every struct was found.
 * Exit: 0 ok (a warning on stderr when no struct was found), 1 error (no debug
 * info, bad file).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

static const struct {
	const char *var;
	const char *name;
} wanted[] = {
	{ "BUG_STRUCT_SIZE", "bug_entry" },
	{ "EX_STRUCT_SIZE", "exception_table_entry" },
	{ "JUMP_STRUCT_SIZE", "jump_entry" },
	{ "ALT_STRUCT_SIZE", "alt_instr" },
	{ "PARA_STRUCT_SIZE", "paravirt_patch_site" },
	{ "ORC_STRUCT_SIZE", "orc_entry" },
	{ "STATIC_CALL_STRUCT_SIZE", "static_call_site" },
	{ "PRINTK_INDEX_STRUCT_SIZE", "pi_entry" },
	{ "FIXUP_STRUCT_SIZE", "fixup_entry" },
};
#define NWANTED (sizeof(wanted) / sizeof(wanted[0]))

static long long sizes[NWANTED];
static unsigned nfound;

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
	for (i = 0; i < NWANTED; i++) {
		if (sizes[i] >= 0 || strcmp(name, wanted[i].name))
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

int main(int argc, char **argv)
{
	Dwarf_Debug dbg = NULL;
	Dwarf_Error err = NULL;
	Dwarf_Unsigned next = 0;
	int res, ncu = 0;
	unsigned i;

	if (argc != 2) {
		fprintf(stderr, "usage: kpatch-struct-sizes VMLINUX\n");
		return 1;
	}
	for (i = 0; i < NWANTED; i++)
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
	while (nfound < NWANTED) {
		Dwarf_Die cu = NULL, die = NULL, sib;

		res = dwarf_next_cu_header_d(dbg, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
					     NULL, &next, NULL, &err);
		if (res == DW_DLV_NO_ENTRY)
			break;
		if (res != DW_DLV_OK) {
			fprintf(stderr, "kpatch-struct-sizes: %s: %s\n", argv[1], dwarf_errmsg(err));
			return 1;
		}
		ncu++;
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
	if (nfound < NWANTED) {
		/* finish the CU iteration so libdwarf's state is consistent */
		while (dwarf_next_cu_header_d(dbg, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
					      NULL, &next, NULL, &err) == DW_DLV_OK)
			;
	}
	for (i = 0; i < NWANTED; i++)
		if (sizes[i] >= 0)
			printf("%s=%lld\n", wanted[i].var, sizes[i]);
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
