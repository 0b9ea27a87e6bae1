/*
 * kpatch-dwarf-units: list the compilation units of kernel binaries, read
 * from their DWARF debug info with libdwarf.
 *
 *   kpatch-dwarf-units FILE...
 *
 * Prints one line per compilation unit: FILE<TAB>NAME<TAB>PRODUCER, NAME
 * being DW_AT_name (the source file, as the compiler was given it) and
 * PRODUCER DW_AT_producer (the compiler and its code-generating flags).
 * kpatch-build reads from it which binary of a distribution kernel an
 * object belongs to (vmlinux or which module: the -dbg package's unstripped
 * files) and with which compiler and flags it was built, to hold a rebuilt
 * original object to the shipped one.
 *
 * Only the unit DIE of each unit is read, never its children, so a vmlinux
 * of thousands of units takes about a second. A file without debug info is
 * reported on stderr and skipped.
 * Exit: 0 every file read, 1 one could not be (its units are missing).
 */
#include <stdio.h>
#include <string.h>
#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

static int dwarf_open(const char *path, Dwarf_Debug *dbg, Dwarf_Error *err)
{
#ifdef DW_LIBDWARF_VERSION_MAJOR
	return dwarf_init_path(path, NULL, 0, DW_GROUPNUMBER_ANY, NULL, NULL, dbg, err);
#else
	return dwarf_init_path(path, NULL, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL,
			       dbg, NULL, 0, NULL, err);
#endif
}

static void dwarf_close(Dwarf_Debug dbg)
{
#ifdef DW_LIBDWARF_VERSION_MAJOR
	dwarf_finish(dbg);
#else
	Dwarf_Error err = NULL;

	dwarf_finish(dbg, &err);
#endif
}

/* A string attribute of @die (libdwarf's, not to be freed), or "". */
static const char *die_string(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Attribute attr = NULL;
	Dwarf_Error err = NULL;
	char *s = NULL;

	if (dwarf_attr(die, at, &attr, &err) != DW_DLV_OK)
		return "";
	if (dwarf_formstring(attr, &s, &err) != DW_DLV_OK)
		s = NULL;
	dwarf_dealloc(dbg, attr, DW_DLA_ATTR);
	return s ? s : "";
}

static void print_unit(Dwarf_Debug dbg, const char *path, Dwarf_Die cu)
{
	const char *name = die_string(dbg, cu, DW_AT_name);
	const char *producer = die_string(dbg, cu, DW_AT_producer);

	printf("%s\t%s\t%s\n", path, name, producer);
}

static int list_units(const char *path)
{
	Dwarf_Debug dbg = NULL;
	Dwarf_Error err = NULL;
	Dwarf_Unsigned next = 0;
	int res;

	res = dwarf_open(path, &dbg, &err);
	if (res != DW_DLV_OK) {
		fprintf(stderr, "kpatch-dwarf-units: %s: %s\n", path,
			res == DW_DLV_NO_ENTRY ? "no DWARF debug info" : dwarf_errmsg(err));
		return 1;
	}
	for (;;) {
		Dwarf_Die cu = NULL;

		res = dwarf_next_cu_header_d(dbg, 1, NULL, NULL, NULL, NULL, NULL, NULL,
					     NULL, NULL, &next, NULL, &err);
		if (res == DW_DLV_NO_ENTRY)
			break;
		if (res != DW_DLV_OK) {
			fprintf(stderr, "kpatch-dwarf-units: %s: %s\n", path, dwarf_errmsg(err));
			dwarf_close(dbg);
			return 1;
		}
		if (dwarf_siblingof_b(dbg, NULL, 1, &cu, &err) != DW_DLV_OK)
			continue;
		print_unit(dbg, path, cu);
		dwarf_dealloc(dbg, cu, DW_DLA_DIE);
	}
	dwarf_close(dbg);
	return 0;
}

int main(int argc, char **argv)
{
	int i, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: kpatch-dwarf-units FILE...\n");
		return 1;
	}
	for (i = 1; i < argc; i++)
		rc |= list_units(argv[i]);
	if (fflush(stdout)) {
		perror("kpatch-dwarf-units: stdout");
		return 1;
	}
	return rc;
}
