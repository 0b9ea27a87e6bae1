// SPDX-License-Identifier: GPL-2.0
/*
 * kpatch-ident: for kpatch-build's header filter, which compiled units can
 * reach what a header hunk changes, found before anything is preprocessed.
 *
 *   kpatch-ident changed ORIG NEW
 *	ORIG and NEW: two versions of one header (or of a .c file others
 *	include), not preprocessed. Prints "<kind> <name> <why>" for each
 *	identifier the difference changes, sorted: kind function, macro,
 *	variable, type or enumerator; why changed, added, removed, or
 *	uses:<name> (a named item of the file that mentions a changed name,
 *	to a fixpoint). Exit 0 when every difference is named (nothing printed
 *	when only white space or comments differ), 3 with one line on stderr
 *	("FILE:LINE: why") when one cannot be (a conditional directive,
 *	#include, #pragma, #undef, top-level asm, a macro invocation that
 *	defines names, a file that cannot be cut into items). changed.c.
 *
 *   kpatch-ident index SRCDIR LIST OUT
 *	LIST: paths relative to SRCDIR, one per line. Writes OUT (through
 *	OUT.tmp): for each file the identifiers it names (outside comments and
 *	string literals, keywords dropped) and its paste fragments, the
 *	pieces "##" can build a name from. Prints "N files, M identifiers,
 *	S bytes". index.c.
 *
 *   kpatch-ident query INDEX [--extra REL=PATH]... [--exclude REL]... IDENT...
 *	Prints, sorted: "<file> <ident> names" for each file that names IDENT;
 *	"<file> <ident> paste:<fragment>" for each file with a fragment that
 *	is a proper prefix or suffix of IDENT, and "<file> <ident>
 *	paste-rest:<rest>" for each file that names the rest of IDENT.
 *	--extra: REL's text is PATH's (lexed now); --exclude: REL left out.
 *	query.c.
 *
 * Bad input (usage, a file that cannot be read, a corrupt index) exits 2
 * with one line on stderr. Out of memory exits 1 (lib/util.c): never 0.
 */
#include <stdio.h>
#include <string.h>
#include "ident.h"

static void usage(void)
{
	die(ID_BAD_INPUT, "usage: kpatch-ident changed ORIG NEW | index SRCDIR LIST OUT | "
	    "query INDEX [--extra REL=PATH]... [--exclude REL]... IDENT...");
}

int main(int argc, char **argv)
{
	progname = "kpatch-ident";
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "changed")) {
		if (argc != 4)
			usage();
		return cmd_changed(argv[2], argv[3]);
	}
	if (!strcmp(argv[1], "index")) {
		if (argc != 5)
			usage();
		return cmd_index(argv[2], argv[3], argv[4]);
	}
	if (!strcmp(argv[1], "query")) {
		if (argc < 4)
			usage();
		return cmd_query(argc - 2, argv + 2);
	}
	usage();
}
