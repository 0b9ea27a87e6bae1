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
 * line-table.c reads .debug_line through the same model; the walk here does
 * not, so only a model opened for the line table shows it.
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
	bool lines;		/* .debug_line shown too */
};

uint64_t inline_addr(const struct section *sec, uint64_t off)
{
	if (!(sec->sh.sh_flags & SHF_ALLOC))
		return off;	/* offsets into debug sections stay offsets */
	return ((uint64_t)sec->index << SEC_SHIFT) + off;
}

/*
 * What the walk reads. libdwarf sees no other section: less to parse, and
 * less of its parsing of damaged input (.debug_loclists, .debug_line...)
 * to trust.
 */
static const char *const dwarf_names[] = {
	".debug_info", ".debug_abbrev", ".debug_str", ".debug_line_str",
	".debug_str_offsets", ".debug_addr", ".debug_ranges",
	".debug_rnglists",
};

static bool is_dwarf_section(const struct section *sec)
{
	size_t i;

	if (!sec || sec->sh.sh_type != SHT_PROGBITS ||
	    strncmp(sec->name, ".debug_", 7))
		return false;
	for (i = 0; i < ARRAY_SIZE(dwarf_names); i++)
		if (!strcmp(sec->name, dwarf_names[i]))
			return true;
	return false;
}

/* A compressed one is not shown: libdwarf would read its bytes as is. */
static bool is_line_section(const struct section *sec)
{
	return sec && sec->sh.sh_type == SHT_PROGBITS &&
	       !(sec->sh.sh_flags & SHF_COMPRESSED) &&
	       !strcmp(sec->name, ".debug_line");
}

/*
 * libdwarf 20210528 frees twice on some damaged .debug_rnglists table
 * headers, which it reads as soon as a CU is opened: check them first,
 * relocated (a relocation may land in a header): 32-bit DWARF 5, 8-byte
 * addresses, offsets array inside its table, tables tiling the section.
 */
static bool rnglists_sane(bool be, const unsigned char *d, uint64_t size)
{
	uint64_t off = 0, len;

	while (off < size) {
		if (size - off < 12)
			return false;
		len = target_get(be, d + off, 4);
		if (len < 8 || len > size - off - 4 ||
		    target_get(be, d + off + 4, 2) != 5 || d[off + 6] != 8 ||
		    d[off + 7] || target_get(be, d + off + 8, 4) > (len - 8) / 4)
			return false;
		off += 4 + len;
	}
	return true;
}

static struct section *dwarf_section(struct dwarf_model *m, Dwarf_Half idx)
{
	struct section *sec;

	if (idx >= m->elf->nr_sec_index)
		return NULL;
	sec = m->elf->sec_by_index[idx];
	if (is_dwarf_section(sec) || (m->lines && is_line_section(sec)))
		return sec;
	return NULL;
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
		unsigned int size = arch->reloc_size(r->type);
		uint64_t v = (uint64_t)r->addend;

		if ((size != 4 && size != 8) || arch->reloc_is_pcrel(r->type) ||
		    r->offset > sec->size || sec->size - r->offset < size)
			continue;
		if (r->sym && r->sym->sec)
			v += inline_addr(r->sym->sec, r->sym->offset);
		target_put(m->elf->big_endian, buf + r->offset, size, v);
	}
}

static unsigned char *relocated(struct dwarf_model *m,
				const struct section *sec)
{
	unsigned char **buf;

	if (sec->index >= m->elf->nr_sec_index ||
	    m->elf->sec_by_index[sec->index] != sec)
		return NULL;	/* not as read: cannot happen */
	buf = &m->buf[sec->index];
	if (!*buf) {
		*buf = xmalloc(sec->size);
		memcpy(*buf, sec->data, sec->size);
		apply_relocs(m, sec, *buf);
	}
	return *buf;
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
	*data = relocated(m, sec);
	return *data ? DW_DLV_OK : DW_DLV_NO_ENTRY;
}

static Dwarf_Endianness byte_order(void *obj)
{
	return ((struct dwarf_model *)obj)->elf->big_endian ? DW_OBJECT_MSB :
							       DW_OBJECT_LSB;
}

static Dwarf_Small length_size(void *obj)
{
	return 4;
}

static Dwarf_Small pointer_size(void *obj)
{
	return 8;		/* the model is ELFCLASS64 only */
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
		if (!is_dwarf_section(sec))
			continue;
		if (sec->sh.sh_flags & SHF_COMPRESSED) {
			debugf("inline: %s: compressed debug info, not read",
			       sec->name);
			return false;
		}

	}
	return true;
}

/*
 * Every call passes an error pointer, so libdwarf returns its errors; a
 * handler only matters where it has none to fill, and then libdwarf
 * would abort() without one. Such an error is not ours to report.
 */
static void no_abort(Dwarf_Error err, Dwarf_Ptr arg)
{
}

struct dwarf_model *dwarf_model_open(const struct cdo *c, struct elf *elf,
				     bool lines, Dwarf_Debug *dbg)
{
	struct dwarf_model *m = xcalloc(1, sizeof(*m));
	Dwarf_Error err = NULL;
	struct section *rng;
	unsigned char *buf;

	m->iface.object = m;
	m->iface.methods = &methods;
	m->c = c;
	m->elf = elf;
	m->lines = lines;
	m->buf = xcalloc(elf->nr_sec_index + 1, sizeof(*m->buf));
	rng = find_section_by_name(elf, ".debug_rnglists");
	buf = is_dwarf_section(rng) && rng->data && rng->size ?
	      relocated(m, rng) : NULL;
	if (buf && !rnglists_sane(elf->big_endian, buf, rng->size)) {
		debugf("inline: %s: damaged, debug info not read", rng->name);
		goto fail;
	}
	if (dwarf_object_init_b(&m->iface, no_abort, NULL, DW_GROUPNUMBER_ANY,
				dbg, &err) == DW_DLV_OK)
		return m;
	/* an error without a Dwarf_Debug cannot be freed: a small leak */
fail:
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
