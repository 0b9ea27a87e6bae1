/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klp-module-reloc.h: name the running kernel's symbols a live patch needs
 * but cannot link against (static functions and variables, unexported
 * globals).
 *
 * A patch declares the symbol extern as usual and lists it once in an
 * annotation table for the object (vmlinux or a module name) that defines it:
 *
 *	extern char *saved_command_line;
 *
 *	static struct KLP_MODULE_RELOC(vmlinux) my_relocs[] = {
 *		{ .sym = &saved_command_line, .sympos = 0 },
 *	};
 *
 * sympos is the symbol's position among the same-named symbols of that
 * object as kallsyms lists them (0: the name is unique). After the module
 * is linked, klp-convert reads the table from ".klp.module_relocs.<obj>",
 * turns every reference to the listed symbols into a livepatch relocation
 * (".klp.rela.<obj>.<section>", against ".klp.sym.<obj>.<name>,<sympos>")
 * and deletes the table: it never reaches the running kernel.
 *
 * The layout is fixed (struct klp_module_reloc in kpatch-formats.h, 12 bytes
 * a record, packed): create-diff-object emits the same records for the
 * symbols it finds, so klp-convert has one input.
 */
#ifndef _KPATCH_KLP_MODULE_RELOC_H
#define _KPATCH_KLP_MODULE_RELOC_H

#include "kpatch-formats.h"

/*
 * Expands to a struct type placed in the annotation section of @obj, so that
 * "static struct KLP_MODULE_RELOC(obj) name[] = { ... };" declares a table.
 * "used" keeps an otherwise unreferenced static table alive; aligning the
 * table to 4 (not the 8 gcc would pick) lets the linker concatenate the
 * tables of several objects without padding between 12-byte records.
 */
#define KLP_MODULE_RELOC(obj)						\
	klp_module_reloc						\
	__attribute__((__used__, __aligned__(4),			\
		       __section__(KLP_MODULE_RELOCS_PREFIX #obj)))

#endif /* _KPATCH_KLP_MODULE_RELOC_H */
