# Top-level build. `make` builds every tool; `make check` runs the quick tier of
# the tests (no kernel build), `make check-full` all of them, with ASan+UBSan
# builds of the tools; `make bench`, `make demo`, `make integration`.
CC	?= gcc
PREFIX	?= /usr/local
VARIANT	?= release
B	:= build/$(VARIANT)

CFLAGS_COMMON := -std=gnu11 -g -Wall -Wextra -Werror -Wno-unused-parameter \
		 -I. -D_GNU_SOURCE -MMD -MP
ifeq ($(VARIANT),asan)
CFLAGS_V := -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
	    -fno-omit-frame-pointer
# (the sanitizer runtimes linked in: at exit LeakSanitizer scans the writable
# data of every loaded module, and the shared libubsan brings its own 6 MB
# .bss; linked in, a differ run on a small case takes ~95 ms of CPU, not ~140,
# and the suites run these tools thousands of times)
LDFLAGS_V := -fsanitize=address,undefined -static-libasan -static-libubsan
else
CFLAGS_V := -O2
endif
LDLIBS	:= -lelf -ldwarf

LIB_SRCS  := $(wildcard lib/*.c) $(wildcard arch/*.c) $(wildcard arch/*/*.c)
CDO_SRCS  := $(wildcard create-diff-object/*.c)
KLPC_SRCS := $(wildcard klp-convert/*.c)
TOOLS	  := create-diff-object klp-convert

obj = $(patsubst %.c,$(B)/%.o,$(1))

# $(B)/link-flags holds the link flags and is rewritten when they change; the
# binaries depend on it, so that a change of them relinks an existing build
# (the objects do not depend on them). LINKED: a rule's inputs without it.
LINK_FLAGS := $(LDFLAGS_V) $(LDFLAGS)
$(B)/link-flags: FORCE
	@mkdir -p $(dir $@)
	@[ "$$(cat $@ 2>/dev/null)" = '$(LINK_FLAGS)' ] || echo '$(LINK_FLAGS)' > $@
LINKED = $(filter-out $(B)/link-flags,$^)

.PHONY: all tools check check-full bench install clean deps demo integration FORCE
# (copied only when changed: the test lanes of `make check` run `make all` while
# the other lane runs these binaries)
all: tools
	@for t in $(TOOLS); do \
		if [ -e $(B)/bin/$$t ] && ! cmp -s $(B)/bin/$$t $$t/$$t; then \
			cp -f $(B)/bin/$$t $$t/$$t; fi; done

tools: $(B)/bin/create-diff-object $(if $(KLPC_SRCS),$(B)/bin/klp-convert) \
	$(B)/bin/elf-roundtrip

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS_V) $(CFLAGS) -c -o $@ $<

$(B)/libkp.a: $(call obj,$(LIB_SRCS))
	$(AR) rcs $@ $^

$(B)/bin/create-diff-object: $(call obj,$(CDO_SRCS)) $(B)/libkp.a $(B)/link-flags
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_V) $(LDFLAGS) -o $@ $(LINKED) $(LDLIBS)

$(B)/bin/klp-convert: $(call obj,$(KLPC_SRCS)) $(B)/libkp.a $(B)/link-flags
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_V) $(LDFLAGS) -o $@ $(LINKED) $(LDLIBS)

# test/elf: the model's read/write round trip
$(B)/bin/elf-roundtrip: $(B)/test/elf/roundtrip.o $(B)/libkp.a $(B)/link-flags
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_V) $(LDFLAGS) -o $@ $(LINKED) $(LDLIBS)

deps:
	@scripts/install-deps

# make check: the quick tier, no kernel build (CI's); make check-full: every
# kernel and architecture (test/run-all.sh says what each runs)
# (the tools built on every core first: a cold check compiles them twice)
NPROC	:= $(shell nproc 2>/dev/null || echo 1)
check check-full: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all
	@$(MAKE) --no-print-directory -j$(NPROC) VARIANT=asan tools
	@test/run-all.sh $(if $(filter check-full,$@),full,quick)

bench: deps all
	@test/bench/run.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/kpatch-ng
	install -m 755 create-diff-object/create-diff-object $(DESTDIR)$(PREFIX)/bin/
	if [ -e klp-convert/klp-convert ]; then \
		install -m 755 klp-convert/klp-convert $(DESTDIR)$(PREFIX)/bin/; fi
	cp -r kmod $(DESTDIR)$(PREFIX)/share/kpatch-ng/

clean:
	rm -rf build $(foreach t,$(TOOLS),$(t)/$(t))

FORCE:

-include $(patsubst %.o,%.d,$(call obj,$(LIB_SRCS) $(CDO_SRCS) $(KLPC_SRCS) test/elf/roundtrip.c))
include kpatch-build/kpatch-build.mk
include kpatch/kpatch.mk
-include integration/integration.mk
