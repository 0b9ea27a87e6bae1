/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kpatch-formats.h: the records and names the tools hand to each other.
 *
 *   create-diff-object  writes .kpatch.funcs, .kpatch.strings, callback
 *                       objnames and .klp.module_relocs.<obj> records
 *   klp-convert         reads .klp.module_relocs.<obj> and the callback and
 *                       .kpatch.funcs objnames; writes .klp.sym./.klp.rela.
 *   kmod/patch          (the template) reads .kpatch.funcs and callbacks
 *   patch sources       write callbacks (kpatch-macros.h) and
 *                       KLP_MODULE_RELOC tables (klp-module-reloc.h)
 *
 * The tools are C userspace programs that write and read these records in
 * the target's byte order at the fixed offsets below (targets are 64-bit:
 * pointers and unsigned long are 8 bytes); the kernel side uses the structs
 * at the end, checked against the same numbers at compile time, so the two
 * cannot drift apart. This header includes nothing, so kernel module builds
 * and userspace can both use it.
 */
#ifndef _KPATCH_FORMATS_H
#define _KPATCH_FORMATS_H

/* The width of a pointer-sized field of a record (an absolute relocation). */
#define KPATCH_PTR_SIZE			8

/* .kpatch.funcs: one struct kpatch_func_record per replaced function. */
#define KPATCH_FUNCS_SECTION		".kpatch.funcs"
#define KPATCH_FUNC_SIZE		32
#define KPATCH_FUNC_ALIGN		8
#define KPATCH_FUNC_NEW_FUNC		0	/* -> the new function */
#define KPATCH_FUNC_OLD_NAME		8	/* -> its name in the running kernel */
#define KPATCH_FUNC_OBJNAME		16	/* -> "vmlinux" or the module name */
#define KPATCH_FUNC_SYMPOS		24	/* 8 bytes: kallsyms position, 0: unique */

/* The strings the records point at. */
#define KPATCH_STRINGS_SECTION		".kpatch.strings"

/* .kpatch.callbacks.<kind>: struct kpatch_callback_entry, from kpatch-macros.h. */
#define KPATCH_CALLBACKS_PREFIX		".kpatch.callbacks."
#define KPATCH_CALLBACK_SIZE		16
#define KPATCH_CALLBACK_FN		0	/* -> the callback */
#define KPATCH_CALLBACK_OBJNAME		8	/* -> object name; the differ fills it */

/* Directives of patch sources (kpatch-macros.h), read by the differ. */
#define KPATCH_IGNORE_FUNCTIONS_SECTION	".kpatch.ignore.functions"
#define KPATCH_IGNORE_SECTIONS_SECTION	".kpatch.ignore.sections"
#define KPATCH_FORCE_SECTION		".kpatch.force"

/* .klp.module_relocs.<obj>: packed struct klp_module_reloc records. */
#define KLP_MODULE_RELOCS_PREFIX	".klp.module_relocs."
#define KLP_MODULE_RELOC_SIZE		12
#define KLP_MODULE_RELOC_SYM		0	/* -> the symbol */
#define KLP_MODULE_RELOC_SYMPOS		8	/* 4 bytes */

/*
 * The kernel's livepatch ELF format: ".klp.sym.<obj>.<name>,<sympos>" and
 * ".klp.rela.<obj>.<section>", with the 6.1 loader's limits
 * (sscanf(".klp.sym.%55[^.].%511[^,],%lu")).
 */
#define KLP_SYM_PREFIX			".klp.sym."
#define KLP_RELA_PREFIX			".klp.rela."
#define KLP_OBJNAME_MAX			55	/* MODULE_NAME_LEN - 1 */
#define KLP_SYMNAME_MAX			511	/* KSYM_NAME_LEN - 1 */

/* The object the kernel itself is: the klp_object with a NULL name. */
#define KLP_VMLINUX			"vmlinux"

/* A module's livepatch object name: its file name with '-' read as '_'. */
static inline char klp_objname_char(char c)
{
	return c == '-' ? '_' : c;
}

/*
 * The records as C structs, for the kernel side (the template, patch
 * sources) and checked against the offsets above wherever a 64-bit target
 * compiles them. The tools do not use the structs: they write the offsets,
 * whatever their host.
 */
struct kpatch_func_record {
	void *new_func;
	const char *old_name;
	const char *objname;
	unsigned long sympos;
};

struct kpatch_callback_entry {
	void *fn;
	const char *objname;
};

struct klp_module_reloc {
	void *sym;
	unsigned int sympos;
} __attribute__((packed));

#if __SIZEOF_POINTER__ == 8
#define KPATCH_FORMAT_CHECK(type, field, off)				\
	_Static_assert(__builtin_offsetof(struct type, field) == (off),	\
		       #type "." #field " is not at " #off)
#define KPATCH_FORMAT_SIZE(type, size)					\
	_Static_assert(sizeof(struct type) == (size),			\
		       "struct " #type " is not " #size " bytes")
KPATCH_FORMAT_CHECK(kpatch_func_record, new_func, KPATCH_FUNC_NEW_FUNC);
KPATCH_FORMAT_CHECK(kpatch_func_record, old_name, KPATCH_FUNC_OLD_NAME);
KPATCH_FORMAT_CHECK(kpatch_func_record, objname, KPATCH_FUNC_OBJNAME);
KPATCH_FORMAT_CHECK(kpatch_func_record, sympos, KPATCH_FUNC_SYMPOS);
KPATCH_FORMAT_SIZE(kpatch_func_record, KPATCH_FUNC_SIZE);
KPATCH_FORMAT_CHECK(kpatch_callback_entry, fn, KPATCH_CALLBACK_FN);
KPATCH_FORMAT_CHECK(kpatch_callback_entry, objname, KPATCH_CALLBACK_OBJNAME);
KPATCH_FORMAT_SIZE(kpatch_callback_entry, KPATCH_CALLBACK_SIZE);
KPATCH_FORMAT_CHECK(klp_module_reloc, sym, KLP_MODULE_RELOC_SYM);
KPATCH_FORMAT_CHECK(klp_module_reloc, sympos, KLP_MODULE_RELOC_SYMPOS);
KPATCH_FORMAT_SIZE(klp_module_reloc, KLP_MODULE_RELOC_SIZE);
#undef KPATCH_FORMAT_CHECK
#undef KPATCH_FORMAT_SIZE
#endif

#endif /* _KPATCH_FORMATS_H */
