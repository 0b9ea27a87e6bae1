// SPDX-License-Identifier: GPL-2.0
/*
 * Classify: before anything is compared, decide what each symbol and
 * section of an object is. A ".cold" piece belongs to its function; GCC's
 * numbered names (count.3, foo.isra.0, __UNIQUE_ID_ddebug12.4) get a
 * normalized form without the numbers, which is what correlation matches
 * on; "special statics" (__warned.N, __func__.N, ...) are per-call-site
 * helpers that a patch may copy freely; a section with no function or
 * object inside is "anonymous" (string literals, constant pools,
 * .altinstr_replacement) and is copied whole when something needs it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "cdo.h"
#include "lib/util.h"

static const char *const special_static_prefixes[] = {
	"__key.", "__warned.", "__already_done.", "__func__.",
	"__FUNCTION__.", "_rs.", "CSWTCH.", "_entry.", "_entry_ptr.",
	"__print_once.", "descriptor.", "__msg.", "__UNIQUE_ID_",
	"__tpstrtab_", "__bpf_trace_tp_map_", "__compound_literal.",
};

static bool has_special_prefix(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(special_static_prefixes); i++)
		if (!strncmp(name, special_static_prefixes[i],
			     strlen(special_static_prefixes[i])))
			return true;
	return false;
}

/* GCC names them "__key.12"; clang "func.__key.12" (after any dot). */
bool is_special_static_name(const char *name)
{
	const char *dot;

	if (has_special_prefix(name))
		return true;
	for (dot = strchr(name, '.'); dot; dot = strchr(dot + 1, '.'))
		if (has_special_prefix(dot + 1))
			return true;
	return false;
}

static bool all_digits(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return false;
	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/*
 * The kernel's BTF_ID() names each slot of a BTF id set
 * "__BTF_ID__<kind>__<name>__" followed by __COUNTER__ and __LINE__: anything
 * that takes a number from __COUNTER__ earlier in the unit (a min() in an
 * inline of a header) renumbers them all.
 */
bool is_btf_id_name(const char *name)
{
	return !strncmp(name, "__BTF_ID__", 10);
}

/*
 * "foo.isra.0" -> "foo.isra.#", "count.12" -> "count.#",
 * "__UNIQUE_ID_ddebug123.4" -> "__UNIQUE_ID_ddebug#.#",
 * "__BTF_ID__struct__file__151111809" -> "__BTF_ID__struct__file__#".
 */
char *normalized_name(const char *name)
{
	size_t len = strlen(name), i = 0, o = 0;
	char *out = xmalloc(len + 2);

	if (is_btf_id_name(name)) {
		while (len > 10 && isdigit((unsigned char)name[len - 1]))
			len--;
		memcpy(out, name, len);
		out[len] = '#';
		out[len + 1] = 0;
		return out;
	}
	if (!strncmp(name, "__UNIQUE_ID_", 12)) {
		const char *dot = strchr(name, '.');
		size_t end = dot ? (size_t)(dot - name) : len;

		while (end > 12 && isdigit((unsigned char)name[end - 1]))
			end--;
		memcpy(out, name, end);
		o = end;
		out[o++] = '#';
		i = dot ? (size_t)(dot - name) : len;
	}
	while (i < len) {
		const char *dot = strchr(name + i + 1, '.');
		size_t end = dot ? (size_t)(dot - name) : len;

		if (name[i] == '.' && all_digits(name + i + 1, end - i - 1)) {
			out[o++] = '.';
			out[o++] = '#';
		} else {
			memcpy(out + o, name + i, end - i);
			o += end - i;
		}
		i = end;
	}
	out[o] = 0;
	return out;
}

/* Section names without their numbers: .data..Lubsan_data118 */
bool similar_section_names(const char *a, const char *b)
{
	while (*a || *b) {
		if (isdigit((unsigned char)*a)) {
			a++;
			continue;
		}
		if (isdigit((unsigned char)*b)) {
			b++;
			continue;
		}
		if (*a++ != *b++)
			return false;
	}
	return true;
}

struct symbol *entity_at(const struct section *sec, uint64_t off)
{
	struct symbol *sym = find_symbol_containing(sec, off);

	if (sym)
		return sym;
	/* an offset right at the end of an object (a past-the-end pointer) */
	sym = find_symbol_at(sec, off);
	if (sym && is_entity(sym))
		return sym;
	return NULL;
}

static bool has_role(const struct section *sec, enum section_role role)
{
	const struct special_section *row = sci(sec)->row;

	return row && row->role == role;
}

bool is_init_section(const struct section *sec)
{
	return has_role(sec, SEC_INIT);
}

bool is_debug_section(const struct section *sec)
{
	return has_role(sec, SEC_DEBUG);
}

bool is_patch_source_section(const struct section *sec)
{
	return !strncmp(sec->name, ".kpatch.", 8);
}

/*
 * The function a ".cold" piece was split from, or the function a prefix
 * (padding) symbol precedes: such pieces live and die with it.
 */
static void find_parent(const struct cdo *c, struct elf *elf,
			struct symbol *sym)
{
	const char *cold = strstr(sym->name, ".cold"), *of;
	char *pname;

	if (!is_func(sym))
		return;
	if (arch_is_prefix_symbol(c->arch, sym->name, &of)) {
		pname = xstrdup(of);
	} else if (cold) {
		pname = xstrdup(sym->name);
		pname[cold - sym->name] = 0;
	} else {
		return;
	}
	si(sym)->parent = find_symbol_by_name(elf, pname);
	if (si(sym)->parent && !is_func(si(sym)->parent))
		si(sym)->parent = NULL;
	free(pname);
}

/* A section before its symbols are looked at (or one a pass created). */
void classify_section(struct cdo *c, struct section *sec)
{
	struct secinfo *s = xcalloc(1, sizeof(*s));

	s->row = section_index_find(c->sections, sec->name);
	s->special = s->row && s->row->role == SEC_ENTRIES;
	s->anonymous = true;
	sec->priv = s;
}

static void classify_object(struct cdo *c, struct elf *elf)
{
	struct section *sec;
	struct symbol *sym;

	for_each_sec(elf, sec)
		classify_section(c, sec);
	for_each_sym(elf, sym) {
		struct syminfo *s = xcalloc(1, sizeof(*s));

		s->change_off = -1;
		sym->priv = s;
		if (sym->type == STT_FILE && !c->srcfile && elf == c->patched)
			c->srcfile = sym->name;
		if (!is_entity(sym))
			continue;
		sci(sym->sec)->anonymous = false;
		s->special_static = sym->type == STT_OBJECT &&
				    is_local_sym(sym) &&
				    is_special_static_name(sym->name);
		find_parent(c, elf, sym);
	}
	for_each_sym(elf, sym) {
		struct syminfo *parent;

		if (!si(sym)->parent)
			continue;
		parent = si(si(sym)->parent);
		si(sym)->sibling = parent->child;
		parent->child = sym;
	}
}

void classify(struct cdo *c)
{
	classify_object(c, c->orig);
	classify_object(c, c->patched);
}

/* Free what classify() and the passes hung off the model. */
void unclassify(struct elf *elf)
{
	struct section *sec;
	struct symbol *sym;

	if (!elf)
		return;
	for_each_sec(elf, sec) {
		struct secinfo *s = sec->priv;

		if (!s)
			continue;
		free(s->keep);
		free(s->relocs);
		free(s->ranges);
		free(s->refs);
		free(s);
		sec->priv = NULL;
	}
	for_each_sym(elf, sym) {
		struct syminfo *s = sym->priv;

		if (!s)
			continue;
		free(s->why);
		free(s->norm);
		free(s->unsplit);
		free((char *)s->inlined);
		free(s);
		sym->priv = NULL;
	}
}
