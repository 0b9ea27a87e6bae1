// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include "ksymtab.h"
#include "util.h"

static const struct {
	const char *name;
	unsigned char type;
} types[] = {
	{ "NOTYPE", STT_NOTYPE }, { "OBJECT", STT_OBJECT },
	{ "FUNC", STT_FUNC }, { "SECTION", STT_SECTION },
	{ "FILE", STT_FILE }, { "COMMON", STT_COMMON }, { "TLS", STT_TLS },
	{ "IFUNC", STT_GNU_IFUNC },
};

static int parse_type(const char *s)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(types[i].name, s))
			return types[i].type;
	return -1;
}

/*
 * "  12: ffffffff81000000  34 FUNC LOCAL DEFAULT 5 name"; on ppc64le readelf
 * adds "[<localentry>: 8]" after the visibility, which says nothing the
 * tools need here.
 */
static bool parse_line(char *line, struct ksym *s, bool *defined)
{
	char *f[8], *save = NULL, *tok;
	int n = 0, type;
	bool in_note = false;

	for (tok = strtok_r(line, " \t\n", &save); tok && n < 8;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (in_note || tok[0] == '[') {
			in_note = !strchr(tok, ']');
			continue;
		}
		f[n++] = tok;
	}
	if (n < 7 || !isdigit((unsigned char)f[0][0]) ||
	    f[0][strlen(f[0]) - 1] != ':')
		return false;
	type = parse_type(f[3]);
	if (type < 0)
		return false;
	s->value = strtoull(f[1], NULL, 16);
	s->type = type;
	s->local = !strcmp(f[4], "LOCAL");
	*defined = strcmp(f[6], "UND") != 0;
	s->name = xstrdup(n == 8 ? f[7] : "");
	return true;
}

static void add_sym(struct ksymtab *t, struct ksym *s, size_t *cap)
{
	if (t->nsyms == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		t->syms = xrealloc(t->syms, *cap * sizeof(*t->syms));
	}
	s->order = t->nsyms;
	t->syms[t->nsyms++] = *s;
}

static void add_file(struct ksymtab *t, char *name)
{
	t->files = xrealloc(t->files, (t->nfiles + 1) * sizeof(*t->files));
	t->files[t->nfiles++] = name;
}

struct ksymtab *ksymtab_read(const char *path)
{
	struct ksymtab *t;
	char *line = NULL;
	size_t len = 0, cap = 0, i;
	bool in_symtab = true;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	t = xcalloc(1, sizeof(*t));
	while (getline(&line, &len, f) > 0) {
		struct ksym s = { 0 };
		bool defined;

		/* the ".symtab" table only: a .dynsym would count twice */
		if (!strncmp(line, "Symbol table '", 14)) {
			in_symtab = !strncmp(line + 14, ".symtab'", 8);
			continue;
		}
		if (!in_symtab || !parse_line(line, &s, &defined))
			continue;
		if (s.type == STT_FILE) {
			add_file(t, s.name);
			continue;
		}
		s.file = t->nfiles;
		if (!defined || !s.name[0] || s.type == STT_SECTION) {
			free(s.name);
			continue;
		}
		add_sym(t, &s, &cap);
	}
	free(line);
	fclose(f);
	htable_init(&t->by_name);
	for (i = 0; i < t->nsyms; i++)
		htable_add(&t->by_name, &t->syms[i].node,
			   hash_str(t->syms[i].name));
	return t;
}

void ksymtab_free(struct ksymtab *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nsyms; i++)
		free(t->syms[i].name);
	for (i = 0; i < t->nfiles; i++)
		free(t->files[i]);
	free(t->syms);
	free(t->files);
	htable_free(&t->by_name);
	free(t);
}

bool ksym_in_kallsyms(const struct ksym *s)
{
	return s->type == STT_FUNC || s->type == STT_OBJECT ||
	       s->type == STT_NOTYPE || s->type == STT_GNU_IFUNC;
}
