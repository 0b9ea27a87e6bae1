# kpatch-build/kpatch-build.mk: included by the top-level Makefile.
# Builds kpatch-struct-sizes (special-section entry sizes from vmlinux DWARF, libdwarf)
# and the other kpatch-build tools, and copies each next to the kpatch-build script,
# where kpatch-build looks for it.
# install: the driver, its sourced lib/*.sh (next to the resolved script) and tools.
KPB_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

.PHONY: kpatch-build-tools
all: kpatch-build-tools
kpatch-build-tools: $(KPB_DIR)/kpatch-struct-sizes $(KPB_DIR)/kpatch-dwarf-units \
	$(KPB_DIR)/kpatch-binary-match $(KPB_DIR)/kpatch-pp-compare $(KPB_DIR)/kpatch-ident

# the structs it looks for are the special-section table's (arch/, in libkp.a)
$(B)/bin/kpatch-struct-sizes: $(KPB_DIR)/struct-sizes.c $(B)/libkp.a $(B)/link-flags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS_V) $(CFLAGS) $(LDFLAGS_V) $(LDFLAGS) -o $@ $< $(B)/libkp.a -ldwarf -lelf -lz

$(KPB_DIR)/kpatch-struct-sizes: $(B)/bin/kpatch-struct-sizes
	cp -f $< $@

# the compilation units of a distribution kernel's debug binaries (stock kernels)
$(B)/bin/kpatch-dwarf-units: $(KPB_DIR)/dwarf-units.c $(B)/link-flags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS_V) $(CFLAGS) $(LDFLAGS_V) $(LDFLAGS) -o $@ $< -ldwarf -lelf -lz

$(KPB_DIR)/kpatch-dwarf-units: $(B)/bin/kpatch-dwarf-units
	cp -f $< $@

# a rebuilt original object against the shipped binary (stock kernels)
$(B)/bin/kpatch-binary-match: $(KPB_DIR)/binary-match.c $(B)/libkp.a $(B)/link-flags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS_V) $(CFLAGS) $(LDFLAGS_V) $(LDFLAGS) -o $@ $< $(B)/libkp.a -lelf

$(KPB_DIR)/kpatch-binary-match: $(B)/bin/kpatch-binary-match
	cp -f $< $@

# a header patch's includer, original and patched preprocessed: can it change?
# (one file per job, pp-compare/pp-compare.h lists them; in `make tools` too, as
# the other tools tested with their ASan build: test/pp-compare/run.sh)
PPC_SRCS := $(wildcard $(KPB_DIR)/pp-compare/*.c)
tools: $(B)/bin/kpatch-pp-compare
$(B)/bin/kpatch-pp-compare: $(call obj,$(PPC_SRCS)) $(B)/libkp.a $(B)/link-flags
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_V) $(LDFLAGS) -o $@ $(LINKED)

-include $(patsubst %.o,%.d,$(call obj,$(PPC_SRCS)))

$(KPB_DIR)/kpatch-pp-compare: $(B)/bin/kpatch-pp-compare
	cp -f $< $@

# the identifiers a header hunk changes, and the files of the tree that can
# reach them, before anything is preprocessed (the header filter; one file
# per job, ident/ident.h lists them; in `make tools` too: test/ident/run.sh)
KPI_SRCS := $(wildcard $(KPB_DIR)/ident/*.c)
tools: $(B)/bin/kpatch-ident
$(B)/bin/kpatch-ident: $(call obj,$(KPI_SRCS)) $(B)/libkp.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_V) $(LDFLAGS) -o $@ $^

-include $(patsubst %.o,%.d,$(call obj,$(KPI_SRCS)))

$(KPB_DIR)/kpatch-ident: $(B)/bin/kpatch-ident
	cp -f $< $@

install: install-kpatch-build
.PHONY: install-kpatch-build
install-kpatch-build: kpatch-build-tools
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/libexec/kpatch-ng/lib
	install -m 755 $(KPB_DIR)/kpatch-build $(KPB_DIR)/kpatch-cc \
		$(KPB_DIR)/kpatch-struct-sizes $(KPB_DIR)/kpatch-dwarf-units \
		$(KPB_DIR)/kpatch-binary-match $(KPB_DIR)/kpatch-pp-compare \
		$(KPB_DIR)/kpatch-ident $(DESTDIR)$(PREFIX)/libexec/kpatch-ng/
	install -m 644 $(KPB_DIR)/lib/*.sh $(KPB_DIR)/lib/*.awk $(DESTDIR)$(PREFIX)/libexec/kpatch-ng/lib/
	install -m 644 $(KPB_DIR)/report-schema.json $(DESTDIR)$(PREFIX)/libexec/kpatch-ng/
	ln -sf ../libexec/kpatch-ng/kpatch-build $(DESTDIR)$(PREFIX)/bin/kpatch-build
