// SPDX-License-Identifier: GPL-2.0
/*
 * Inlined callees: when the first difference of a changed function lies in
 * code that was inlined into it, the -d report names the inlined function
 * ("patched: F (inlined callee C changed)"). compare.c has already decided
 * that F changed, from its bytes; this pass only explains why. So anything
 * wrong with the debug info (absent, compressed, malformed) just leaves the
 * report at "changed at offset 0x...", and it never changes an outcome.
 *
 * The answer comes from the PATCHED object's DWARF: each concrete
 * DW_TAG_subprogram holds DW_TAG_inlined_subroutine DIEs (nested, maybe
 * inside DW_TAG_lexical_block) with their pc ranges and an abstract origin
 * naming the callee. The innermost instance covering the first differing
 * byte wins.
 *
 * libdwarf reads the DWARF through dwarf_object_init_b() over the shared
 * ELF model, not through dwarf_init_path(), because the objects are
 * relocatable: with -ffunction-sections every pc in .debug_info and
 * .debug_rnglists/.debug_ranges is a relocation against the function's own
 * section, so even correctly relocated as ET_REL each pc is an offset
 * that no longer says *which* section it is in (a .cold piece's ranges
 * would match offsets of the hot function). Here we hand libdwarf section
 * contents that we relocate ourselves, from the relocations the model has
 * already parsed, into a synthetic address space where every allocated
 * section has its own 4 GiB window (index << 32); a pc then names its
 * section too. It also spares a second open and parse of the file, and
 * libdwarf loads only the sections it asks for.
 */
#include <stdlib.h>
#include <string.h>
#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>
#include "cdo.h"
#include "lib/util.h"

#define SEC_SHIFT	32	/* synthetic address = index << 32 + offset */
#define MAX_DEPTH	64	/* DIE nesting followed; deeper is nonsense */
#define MAX_HOPS	16	/* abstract_origin/specification chain */

/* A changed function to explain, by the address of its first change. */
struct want {
	struct symbol *func;
	Dwarf_Addr addr;
	char *callee;		/* innermost inlined callee covering addr */
	unsigned int depth;	/* and its nesting below the subprogram */
};

struct range {
	Dwarf_Addr lo, hi;	/* [lo, hi) */
};

struct walk {
	const struct cdo *c;
	struct elf *elf;
	unsigned char **buf;	/* relocated section copies, by index */
	Dwarf_Debug dbg;
	Dwarf_Half version;	/* of the CU being walked */
	Dwarf_Addr cu_base;	/* its base address (DWARF 2-4 ranges) */
	struct want *wants;
	size_t nwants;
	struct range *ranges;	/* pc ranges of one DIE */
	size_t nranges, cap;
	bool failed;		/* a libdwarf error: report nothing */
};

/* ---- first difference of a function, as compare.c sees it ---- */

static uint64_t avail(const struct symbol *s)
{
	if (!s->sec->data || s->offset >= s->sec->size)
		return 0;
	return s->size < s->sec->size - s->offset ? s->size :
	       s->sec->size - s->offset;
}

static unsigned char a_byte(const struct symbol *s, long off)
{
	return s->sec->data[s->offset + off];
}

/*
 * Relocation targets equal for the report's purpose. compare.c's exact
 * test is private to it; this one only serves functions whose size
 * changed, where change_off says nothing.
 */
static bool similar_target(const struct target *a, const struct target *b)
{
	if (a->sym && b->sym) {
		if (a->addend != b->addend)
			return false;
		if (b->sym->twin)
			return b->sym->twin == a->sym;
		return !strcmp(si(a->sym)->norm ? si(a->sym)->norm : a->sym->name,
			       si(b->sym)->norm ? si(b->sym)->norm : b->sym->name);
	}
	if (!a->sec || !b->sec || a->off != b->off || a->addend != b->addend)
		return false;
	return b->sec->twin == a->sec || !strcmp(a->sec->name, b->sec->name);
}

/* Offset of the first differing relocation, or -1. */
static long first_reloc_diff(const struct cdo *c, const struct symbol *o,
			     const struct symbol *p)
{
	struct reloc **ro, **rp;
	size_t no = relocs_in(o->sec, o->offset, o->size, &ro);
	size_t np = relocs_in(p->sec, p->offset, p->size, &rp);
	size_t i;

	for (i = 0; i < no && i < np; i++) {
		uint64_t ao = ro[i]->offset - o->offset;
		uint64_t po = rp[i]->offset - p->offset;
		struct target to, tp;

		reloc_target(c, o->sec, ro[i], &to);
		reloc_target(c, p->sec, rp[i], &tp);
		if (ao != po || ro[i]->type != rp[i]->type ||
		    !similar_target(&to, &tp))
			return (long)(ao < po ? ao : po);
	}
	if (i < np)
		return (long)(rp[i]->offset - p->offset);
	if (i < no)
		return (long)(ro[i]->offset - o->offset);
	return -1;
}

static int64_t disp(const unsigned char *c, unsigned int size)
{
	return size == 1 ? (int8_t)c[0] :
	       (int32_t)(c[0] | c[1] << 8 | c[2] << 16 | (uint32_t)c[3] << 24);
}

/*
 * x86_64: a forward jump over the changed code has a new displacement
 * without being changed itself. When the difference at @i lies in the
 * rel8/rel32 field of such a jump in both (the bytes before @i are equal,
 * so one opcode check serves both), return the end of that field, else 0.
 * A heuristic without an instruction decoder: the report only.
 */
static uint64_t jump_field_end(const struct symbol *o, const struct symbol *p,
			       uint64_t i, uint64_t len)
{
	const unsigned char *a = o->sec->data + o->offset;
	const unsigned char *b = p->sec->data + p->offset;
	uint64_t s, end;
	unsigned int size;

	for (s = i; s + 3 >= i && s >= 1; s--) {
		if (s == i && ((a[s - 1] & 0xf0) == 0x70 || a[s - 1] == 0xeb))
			size = 1;
		else if (a[s - 1] == 0xe9 ||
			 (s >= 2 && a[s - 2] == 0x0f && (a[s - 1] & 0xf0) == 0x80))
			size = 4;
		else
			continue;
		end = s + size;
		if (end > len || disp(a + s, size) <= 0 || disp(b + s, size) <= 0 ||
		    end + disp(a + s, size) > o->size ||
		    end + disp(b + s, size) > p->size)
			continue;
		return end;
	}
	return 0;
}

static uint64_t first_byte_diff(const struct cdo *c, const struct symbol *o,
				const struct symbol *p, uint64_t len)
{
	const unsigned char *a = o->sec->data + o->offset;
	const unsigned char *b = p->sec->data + p->offset;
	bool x86 = c->arch->machine == EM_X86_64;
	uint64_t i, end;

	for (i = 0; i < len; i++) {
		if (a[i] == b[i])
			continue;
		end = x86 ? jump_field_end(o, p, i, len) : 0;
		if (!end)
			break;
		i = end - 1;
	}
	return i;
}

/* First offset where PATCHED @p differs from its ORIG twin, or -1. */
static long first_diff(const struct cdo *c, const struct symbol *p)
{
	const struct symbol *o = p->twin;
	uint64_t len, i;
	long best = -1, r;

	if (!o || !o->sec || !p->sec || !o->sec->data || !p->sec->data)
		return -1;
	len = avail(o) < avail(p) ? avail(o) : avail(p);
	i = first_byte_diff(c, o, p, len);
	if (i < len || o->size != p->size)
		best = (long)i;
	/*
	 * Same size and changed by compare_entity: change_off is its exact
	 * first differing relocation when the bytes there are equal, else
	 * its first differing byte and the relocations are all the same.
	 */
	if (o->size == p->size && !si(p)->why && si(p)->change_off >= 0)
		r = (uint64_t)si(p)->change_off < len &&
		    a_byte(o, si(p)->change_off) == a_byte(p, si(p)->change_off) ?
		    si(p)->change_off : -1;
	else
		r = first_reloc_diff(c, o, p);
	if (r >= 0 && (best < 0 || r < best))
		best = r;
	return best;
}

static Dwarf_Addr sec_base(const struct section *sec)
{
	if (!(sec->sh.sh_flags & SHF_ALLOC))
		return 0;	/* offsets into debug sections stay offsets */
	return (Dwarf_Addr)sec->index << SEC_SHIFT;
}

static void add_want(struct walk *w, struct symbol *func,
		     const struct symbol *piece, long off)
{
	struct want *wt;

	w->wants = xrealloc(w->wants, (w->nwants + 1) * sizeof(*w->wants));
	wt = &w->wants[w->nwants++];
	memset(wt, 0, sizeof(*wt));
	wt->func = func;
	wt->addr = sec_base(piece->sec) + piece->offset + (uint64_t)off;
	debugf("inline: %s: first difference at %s+0x%lx", func->name,
	       piece->name, off);
}

/*
 * The function's own first change; when its own code compares the same
 * (it changed because a .cold piece did), the first changed piece's.
 */
static void collect_wants(struct walk *w)
{
	struct symbol *sym, *ch;
	long off;

	for_each_sym(w->c->patched, sym) {
		if (!is_func(sym) || sym->parent || sym->status != CHANGED ||
		    !sym->twin)
			continue;
		off = first_diff(w->c, sym);
		if (off >= 0) {
			add_want(w, sym, sym, off);
			continue;
		}
		for (ch = si(sym)->child; ch; ch = si(ch)->sibling) {
			if (!is_func(ch) || ch->status != CHANGED ||
			    !strncmp(ch->name, "__pfx_", 6))
				continue;
			off = first_diff(w->c, ch);
			if (off >= 0) {
				add_want(w, sym, ch, off);
				break;
			}
		}
	}
}

/* ---- libdwarf's view of the model ---- */

static bool is_dwarf_section(const struct section *sec)
{
	return sec && sec->sh.sh_type == SHT_PROGBITS &&
	       !strncmp(sec->name, ".debug_", 7);
}

static struct section *dwarf_section(struct walk *w, Dwarf_Half idx)
{
	struct section *sec;

	if (idx >= w->elf->nr_sec_index)
		return NULL;
	sec = w->elf->sec_by_index[idx];
	return is_dwarf_section(sec) ? sec : NULL;
}

/* Debug info holds absolute addresses and section offsets only. */
static void apply_relocs(const struct walk *w, const struct section *sec,
			 unsigned char *buf)
{
	const struct arch *arch = w->c->arch;
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
			v += sec_base(r->sym->sec) + r->sym->offset;
		for (i = 0; i < size; i++)
			buf[r->offset + i] = (unsigned char)(v >> (8 * i));
	}
}

/* Everything but the DWARF sections is hidden from libdwarf. */
static int get_section_info(void *obj, Dwarf_Half idx,
			    Dwarf_Obj_Access_Section *ret, int *error)
{
	struct walk *w = obj;
	struct section *sec;

	if (idx >= w->elf->nr_sec_index)
		return DW_DLV_NO_ENTRY;
	memset(ret, 0, sizeof(*ret));
	ret->name = "";
	sec = dwarf_section(w, idx);
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
	struct walk *w = obj;
	struct section *sec = dwarf_section(w, idx);

	if (!sec || !sec->data || !sec->size)
		return DW_DLV_NO_ENTRY;
	if (!w->buf[idx]) {
		w->buf[idx] = xmalloc(sec->size);
		memcpy(w->buf[idx], sec->data, sec->size);
		apply_relocs(w, sec, w->buf[idx]);
	}
	*data = w->buf[idx];
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
	return ((struct walk *)obj)->elf->nr_sec_index;
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
static bool usable_dwarf(struct elf *elf)
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

/* ---- the walk ---- */

/* OK and NO_ENTRY go on; an error ends the walk and the report. */
static bool dw_ok(struct walk *w, int res, Dwarf_Error err)
{
	if (res != DW_DLV_ERROR)
		return true;
	if (!w->failed)
		debugf("inline: %s: debug info not usable: %s", w->c->objname,
		       err ? dwarf_errmsg(err) : "?");
	if (err)
		dwarf_dealloc_error(w->dbg, err);
	w->failed = true;
	return false;
}

static void add_range(struct walk *w, Dwarf_Addr lo, Dwarf_Addr hi)
{
	if (hi <= lo)
		return;
	if (w->nranges == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->ranges = xrealloc(w->ranges, w->cap * sizeof(*w->ranges));
	}
	w->ranges[w->nranges].lo = lo;
	w->ranges[w->nranges++].hi = hi;
}

/* DWARF 5 .debug_rnglists; entries come cooked (base applied). */
static bool rnglists(struct walk *w, Dwarf_Attribute attr, Dwarf_Half form,
		     Dwarf_Unsigned val)
{
	Dwarf_Rnglists_Head head;
	Dwarf_Unsigned count, where, i;
	Dwarf_Error err = NULL;
	int res;

	res = dwarf_rnglists_get_rle_head(attr, form, val, &head, &count,
					  &where, &err);
	if (res != DW_DLV_OK)
		return dw_ok(w, res, err);
	for (i = 0; i < count && res == DW_DLV_OK; i++) {
		Dwarf_Unsigned raw1, raw2, lo, hi;
		Dwarf_Bool noaddr = 0;
		unsigned int len, code;

		res = dwarf_get_rnglists_entry_fields_a(head, i, &len, &code,
							&raw1, &raw2, &noaddr,
							&lo, &hi, &err);
		if (res == DW_DLV_OK && !noaddr && code != DW_RLE_end_of_list &&
		    code != DW_RLE_base_address && code != DW_RLE_base_addressx)
			add_range(w, lo, hi);
	}
	dwarf_dealloc_rnglists_head(head);
	return dw_ok(w, res, err);
}

/* DWARF 2-4 .debug_ranges: raw pairs relative to the current base. */
static bool ranges(struct walk *w, Dwarf_Die die, Dwarf_Off off)
{
	Dwarf_Addr base = w->cu_base;
	Dwarf_Ranges *r;
	Dwarf_Signed n, i;
	Dwarf_Unsigned bytes;
	Dwarf_Off real;
	Dwarf_Error err = NULL;
	int res;

	res = dwarf_get_ranges_b(w->dbg, off, die, &real, &r, &n, &bytes, &err);
	if (res != DW_DLV_OK)
		return dw_ok(w, res, err);
	for (i = 0; i < n; i++) {
		if (r[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
			base = r[i].dwr_addr2;
		else if (r[i].dwr_type == DW_RANGES_ENTRY)
			add_range(w, base + r[i].dwr_addr1, base + r[i].dwr_addr2);
		else
			break;
	}
	dwarf_ranges_dealloc(w->dbg, r, n);
	return true;
}

static bool ranges_attr(struct walk *w, Dwarf_Die die)
{
	Dwarf_Attribute attr;
	Dwarf_Error err = NULL;
	Dwarf_Unsigned val = 0;
	Dwarf_Off off = 0;
	Dwarf_Half form = 0;
	bool ok;
	int res;

	res = dwarf_attr(die, DW_AT_ranges, &attr, &err);
	if (res != DW_DLV_OK)
		return dw_ok(w, res, err);
	res = dwarf_whatform(attr, &form, &err);
	if (res == DW_DLV_OK && form == DW_FORM_rnglistx)
		res = dwarf_formudata(attr, &val, &err);
	else if (res == DW_DLV_OK)
		res = dwarf_global_formref(attr, &off, &err);
	if (res != DW_DLV_OK)
		ok = dw_ok(w, res, err) && res == DW_DLV_NO_ENTRY;
	else if (w->version >= 5)
		ok = rnglists(w, attr, form, form == DW_FORM_rnglistx ? val : off);
	else
		ok = ranges(w, die, off);
	dwarf_dealloc_attribute(attr);
	return ok;
}

/* Fill w->ranges with the pc ranges of @die; false on an error. */
static bool die_ranges(struct walk *w, Dwarf_Die die)
{
	enum Dwarf_Form_Class cls;
	Dwarf_Error err = NULL;
	Dwarf_Addr lo, hi;
	Dwarf_Half form;
	int res;

	w->nranges = 0;
	res = dwarf_lowpc(die, &lo, &err);
	if (res != DW_DLV_OK)
		return dw_ok(w, res, err) && ranges_attr(w, die);
	res = dwarf_highpc_b(die, &hi, &form, &cls, &err);
	if (res == DW_DLV_OK)
		add_range(w, lo, cls == DW_FORM_CLASS_CONSTANT ? lo + hi : hi);
	return dw_ok(w, res, err);
}

static bool covers(const struct walk *w, Dwarf_Addr addr)
{
	size_t i;

	for (i = 0; i < w->nranges; i++)
		if (addr >= w->ranges[i].lo && addr < w->ranges[i].hi)
			return true;
	return false;
}

static bool covers_any(const struct walk *w)
{
	size_t i;

	for (i = 0; i < w->nwants; i++)
		if (covers(w, w->wants[i].addr))
			return true;
	return false;
}

/* The callee's name, through abstract_origin/specification hops. */
static char *callee_name(struct walk *w, Dwarf_Die die)
{
	Dwarf_Die cur = die, ref;
	Dwarf_Attribute attr;
	Dwarf_Error err = NULL;
	Dwarf_Off off;
	char *name = NULL, *s;
	unsigned int hop;
	int res;

	for (hop = 0; hop < MAX_HOPS && !name; hop++) {
		res = dwarf_diename(cur, &s, &err);
		if (res == DW_DLV_OK) {
			name = xstrdup(s);
			break;
		}
		if (!dw_ok(w, res, err))
			break;
		res = dwarf_attr(cur, DW_AT_abstract_origin, &attr, &err);
		if (res == DW_DLV_NO_ENTRY)
			res = dwarf_attr(cur, DW_AT_specification, &attr, &err);
		if (res != DW_DLV_OK) {
			dw_ok(w, res, err);
			break;
		}
		res = dwarf_global_formref(attr, &off, &err);
		dwarf_dealloc_attribute(attr);
		if (res == DW_DLV_OK)
			res = dwarf_offdie_b(w->dbg, off, true, &ref, &err);
		if (res != DW_DLV_OK) {
			dw_ok(w, res, err);
			break;
		}
		if (cur != die)
			dwarf_dealloc_die(cur);
		cur = ref;
	}
	if (cur != die)
		dwarf_dealloc_die(cur);
	return name;
}

/* An inlined instance covering a wanted address: innermost one wins. */
static void match(struct walk *w, Dwarf_Die die, unsigned int depth)
{
	char *name = NULL;
	size_t i;

	for (i = 0; i < w->nwants; i++) {
		struct want *wt = &w->wants[i];

		if ((wt->callee && wt->depth >= depth) || !covers(w, wt->addr))
			continue;
		if (!name)
			name = callee_name(w, die);
		if (!name)
			return;
		free(wt->callee);
		wt->callee = xstrdup(name);
		wt->depth = depth;
	}
	free(name);
}

static void walk_children(struct walk *w, Dwarf_Die parent,
			  unsigned int depth);

/*
 * Only subprograms at the top, then inlined instances and lexical blocks
 * below them, and only where a wanted address lies.
 */
static void visit(struct walk *w, Dwarf_Die die, unsigned int depth)
{
	Dwarf_Error err = NULL;
	Dwarf_Half tag;
	int res;

	res = dwarf_tag(die, &tag, &err);
	if (res != DW_DLV_OK) {
		dw_ok(w, res, err);
		return;
	}
	if (depth ? tag != DW_TAG_inlined_subroutine &&
		    tag != DW_TAG_lexical_block : tag != DW_TAG_subprogram)
		return;
	if (!die_ranges(w, die))
		return;
	/* a subprogram without pc is abstract; a block without is a scope */
	if (w->nranges ? !covers_any(w) : !depth)
		return;
	if (tag == DW_TAG_inlined_subroutine)
		match(w, die, depth);
	walk_children(w, die, depth + 1);
}

static void walk_children(struct walk *w, Dwarf_Die parent,
			  unsigned int depth)
{
	Dwarf_Error err = NULL;
	Dwarf_Die die, next;
	int res;

	if (depth > MAX_DEPTH)
		return;
	res = dwarf_child(parent, &die, &err);
	while (res == DW_DLV_OK && !w->failed) {
		visit(w, die, depth);
		res = w->failed ? DW_DLV_NO_ENTRY :
		      dwarf_siblingof_b(w->dbg, die, true, &next, &err);
		dwarf_dealloc_die(die);
		die = next;
	}
	dw_ok(w, res, err);
}

static void walk_cu(struct walk *w)
{
	Dwarf_Error err = NULL;
	Dwarf_Die cu;
	int res;

	res = dwarf_siblingof_b(w->dbg, NULL, true, &cu, &err);
	if (res != DW_DLV_OK) {
		dw_ok(w, res, err);
		return;
	}
	w->cu_base = 0;
	res = dwarf_lowpc(cu, &w->cu_base, &err);
	if (dw_ok(w, res, err))
		walk_children(w, cu, 0);
	dwarf_dealloc_die(cu);
}

static void walk_dwarf(struct walk *w)
{
	Dwarf_Obj_Access_Interface iface = { w, &methods };
	Dwarf_Unsigned hlen, typeoff, next;
	Dwarf_Half asize, lsize, esize, type;
	Dwarf_Off abbrev;
	Dwarf_Sig8 sig;
	Dwarf_Error err = NULL;
	int res;

	w->buf = xcalloc(w->elf->nr_sec_index + 1, sizeof(*w->buf));
	res = dwarf_object_init_b(&iface, NULL, NULL, DW_GROUPNUMBER_ANY,
				  &w->dbg, &err);
	if (res != DW_DLV_OK) {
		/* no Dwarf_Debug to free the error with */
		debugf("inline: %s: no usable debug info", w->c->objname);
		w->failed = true;
		return;
	}
	for (;;) {
		res = dwarf_next_cu_header_d(w->dbg, true, &hlen, &w->version,
					     &abbrev, &asize, &lsize, &esize,
					     &sig, &typeoff, &next, &type, &err);
		if (res != DW_DLV_OK || w->failed)
			break;
		walk_cu(w);
	}
	dw_ok(w, res, err);
	dwarf_object_finish(w->dbg, &err);
}

static void free_walk(struct walk *w)
{
	size_t i;

	for (i = 0; w->buf && i < w->elf->nr_sec_index; i++)
		free(w->buf[i]);
	for (i = 0; i < w->nwants; i++)
		free(w->wants[i].callee);
	free(w->buf);
	free(w->wants);
	free(w->ranges);
}

void explain_inlined(struct cdo *c)
{
	struct walk w = { .c = c, .elf = c->patched };
	size_t i;

	if (!usable_dwarf(c->patched))
		return;
	collect_wants(&w);
	if (w.nwants)
		walk_dwarf(&w);
	for (i = 0; i < w.nwants && !w.failed; i++) {
		struct want *wt = &w.wants[i];

		if (wt->callee)
			si(wt->func)->inlined = xasprintf("inlined callee %s changed",
							  wt->callee);
	}
	free_walk(&w);
}
