// SPDX-License-Identifier: GPL-2.0
/*
 * libdwarf's view of the ELF model, for inline-dwarf.c.
 *
 * libdwarf reads the DWARF through dwarf_object_init_b() over the model,
 * not through dwarf_init_path(), because the objects are
 * relocatable: with -ffunction-sections every pc in .debug_info and
 * .debug_rnglists/.debug_ranges is a relocation against the function's own
 * section, so even correctly relocated as ET_REL each pc is an offset
 * that no longer says *which* section it is in (a .cold piece's ranges
 * would match offsets of the hot function). We hand libdwarf section
 * contents relocated by us, from the relocations the model has already
 * parsed, into a synthetic address space where every allocated section has
 * its own 4 GiB window (index << 32): a pc then names its section too. It
 * also spares a second open and parse of the file, libdwarf loads only the
 * sections it asks for, and sees no section but the .debug_* ones.
 */
#include <stdlib.h>
#include <string.h>
#include "inline.h"
#include "lib/util.h"

#define SEC_SHIFT	32	/* synthetic address = index << 32 + offset */

struct dwarf_model {
	Dwarf_Obj_Access_Interface iface;	/* libdwarf keeps a pointer */
	const struct cdo *c;
	struct elf *elf;
	unsigned char **buf;	/* relocated section copies, by index */
};

uint64_t inline_addr(const struct section *sec, uint64_t off)
{
	if (!(sec->sh.sh_flags & SHF_ALLOC))
		return off;	/* offsets into debug sections stay offsets */
	return ((uint64_t)sec->index << SEC_SHIFT) + off;
}

static bool is_dwarf_section(const struct section *sec)
{
	return sec && sec->sh.sh_type == SHT_PROGBITS &&
	       !strncmp(sec->name, ".debug_", 7);
}

static struct section *dwarf_section(struct dwarf_model *m, Dwarf_Half idx)
{
	struct section *sec;

	if (idx >= m->elf->nr_sec_index)
		return NULL;
	sec = m->elf->sec_by_index[idx];
	return is_dwarf_section(sec) ? sec : NULL;
}

/* Debug info holds absolute addresses and section offsets only. */
static void apply_relocs(const struct dwarf_model *m, const struct section *sec,
			 unsigned char *buf)
{
	const struct arch *arch = m->c->arch;
	struct reloc *r;

	if (!sec->rela)
		return;
	for_each_reloc(sec->rela, r) {
		unsigned int i, size = arch->reloc_size(r->type);
		uint64_t v = (uint64_t)r->addend;

		if ((size != 4 && size != 8) || arch->reloc_is_pcrel(r->type) ||
		    r->offset > sec->size || sec->size - r->offset < size)
			continue;
		if (r->sym && r->sym->sec)
			v += inline_addr(r->sym->sec, r->sym->offset);
		for (i = 0; i < size; i++)
			buf[r->offset + i] = (unsigned char)(v >> (8 * i));
	}
}

/* Everything but the DWARF sections is hidden from libdwarf. */
static int get_section_info(void *obj, Dwarf_Half idx,
			    Dwarf_Obj_Access_Section *ret, int *error)
{
	struct dwarf_model *m = obj;
	struct section *sec;

	if (idx >= m->elf->nr_sec_index)
		return DW_DLV_NO_ENTRY;
	memset(ret, 0, sizeof(*ret));
	ret->name = "";
	sec = dwarf_section(m, idx);
	if (!sec)
		return DW_DLV_OK;
	ret->name = sec->name;
	ret->type = sec->sh.sh_type;
	ret->size = sec->data ? sec->size : 0;
	return DW_DLV_OK;
}

static int load_section(void *obj, Dwarf_Half idx, Dwarf_Small **data,
			int *error)
{
	struct dwarf_model *m = obj;
	struct section *sec = dwarf_section(m, idx);

	if (!sec || !sec->data || !sec->size)
		return DW_DLV_NO_ENTRY;
	if (!m->buf[idx]) {
		m->buf[idx] = xmalloc(sec->size);
		memcpy(m->buf[idx], sec->data, sec->size);
		apply_relocs(m, sec, m->buf[idx]);
	}
	*data = m->buf[idx];
	return DW_DLV_OK;
}

static Dwarf_Endianness byte_order(void *obj)
{
	return DW_OBJECT_LSB;	/* the model reads little-endian only */
}

static Dwarf_Small length_size(void *obj)
{
	return 4;
}

static Dwarf_Small pointer_size(void *obj)
{
	return 8;		/* and ELFCLASS64 only */
}

static Dwarf_Unsigned section_count(void *obj)
{
	return ((struct dwarf_model *)obj)->elf->nr_sec_index;
}

static const Dwarf_Obj_Access_Methods methods = {
	.get_section_info = get_section_info,
	.get_byte_order = byte_order,
	.get_length_size = length_size,
	.get_pointer_size = pointer_size,
	.get_section_count = section_count,
	.load_section = load_section,
	.relocate_a_section = NULL,	/* load_section relocates */
};

/* Cheap checks first: most objects have no debug info at all. */
bool inline_dwarf_usable(struct elf *elf)
{
	struct section *sec = find_section_by_name(elf, ".debug_info");

	if (!sec || !sec->data || !sec->size)
		return false;
	if (elf->nr_sec_index > 0xffff)	/* libdwarf indexes by Dwarf_Half */
		return false;
	for_each_sec(elf, sec) {
		if (is_dwarf_section(sec) && (sec->sh.sh_flags & SHF_COMPRESSED)) {
			debugf("inline: %s: compressed debug info, not read",
			       sec->name);
			return false;
		}
	}
	return true;
}

struct dwarf_model *dwarf_model_open(const struct cdo *c, struct elf *elf,
				     Dwarf_Debug *dbg)
{
	struct dwarf_model *m = xcalloc(1, sizeof(*m));
	Dwarf_Error err = NULL;

	m->iface.object = m;
	m->iface.methods = &methods;
	m->c = c;
	m->elf = elf;
	m->buf = xcalloc(elf->nr_sec_index + 1, sizeof(*m->buf));
	if (dwarf_object_init_b(&m->iface, NULL, NULL, DW_GROUPNUMBER_ANY, dbg,
				&err) == DW_DLV_OK)
		return m;
	/* an error without a Dwarf_Debug cannot be freed: a small leak */
	*dbg = NULL;
	dwarf_model_close(m, NULL);
	return NULL;
}

void dwarf_model_close(struct dwarf_model *m, Dwarf_Debug dbg)
{
	Dwarf_Error err = NULL;
	size_t i;

	if (dbg && dwarf_object_finish(dbg, &err) == DW_DLV_ERROR)
		dwarf_dealloc_error(dbg, err);
	for (i = 0; i < m->elf->nr_sec_index; i++)
		free(m->buf[i]);
	free(m->buf);
	free(m);
}
