# klp-module.mk: build a hand-written live patch module out of tree and run
# klp-convert on it. The module's Makefile (read by kbuild and by you):
#
#	KPATCH_KMOD ?= /usr/local/share/kpatch-ng/kmod	# this directory
#	obj-m := livepatch-foo.o
#	include $(KPATCH_KMOD)/klp-module.mk
#
# and then:   make KDIR=/path/to/kernel/build [KLP_CONVERT_FLAGS=...]
#
# The sources include "klp-module-reloc.h" / "kpatch-macros.h" (this
# directory's include/ is on the include path), carry
# MODULE_INFO(livepatch, "Y"), and name the unexported symbols of the
# running kernel they use in a KLP_MODULE_RELOC(obj) table (those the target
# has more than once at least; see below). modpost runs with
# KBUILD_MODPOST_WARN=1 (set here, also for a plain make -C KDIR M=DIR, since
# Makefile.modpost includes the module's Makefile): those symbols are
# undefined at that point, which modpost would otherwise treat as an error. Instead, after klp-convert has
# turned them into klp symbols, every undefined symbol left must be exported
# by the kernel (Module.symvers, KBUILD_EXTRA_SYMBOLS) or the build fails.
# Each .ko with livepatch=Y in .modinfo is converted in place (klp-convert is
# idempotent). Targets: all (default), modules, clean.
#
# A kernel of another architecture (a ppc64le or s390x KDIR on an x86_64 host)
# is cross-built without flags: kbuild's ARCH and Debian's CROSS_COMPILE prefix
# (powerpc64le-linux-gnu-, s390x-linux-gnu-) come from $(KDIR)/.config; an ARCH=
# or CROSS_COMPILE= on the command line wins.
#
# Variables: KDIR (kernel build tree, default the running kernel's),
# KLP_CONVERT (the tool), KLP_CONVERT_FLAGS (e.g. --symtab vmlinux=FILE,
# --object MOD for a module target the patch has a klp_object for),
# KLP_VMLINUX (default $(KDIR)/vmlinux if there; empty: none).
#
# With the target's symbol table at hand, an unexported symbol the running
# kernel has only once needs no KLP_MODULE_RELOC line: unless
# KLP_CONVERT_FLAGS names a vmlinux symtab, the one of KLP_VMLINUX is made
# (.vmlinux.symtab here) and given to klp-convert, which turns such symbols
# into klp symbols with sympos 0 and refuses an ambiguous one, naming every
# candidate. KDIR's Module.symvers and KBUILD_EXTRA_SYMBOLS say what is
# exported (left to the module loader).

ifneq ($(KERNELRELEASE),)
# ---- kbuild's pass: compile flags only ----
KPATCH_KMOD ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
ccflags-y += -I$(KPATCH_KMOD)/include
# Makefile.modpost includes the module's Makefile too (for
# KBUILD_EXTRA_SYMBOLS): the klp symbols are undefined until klp-convert.
KBUILD_MODPOST_WARN := 1

else
# ---- the user's pass ----
KPATCH_KMOD := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
KDIR ?= /lib/modules/$(shell uname -r)/build
KLP_CONVERT ?= $(firstword $(wildcard $(KPATCH_KMOD)/../klp-convert/klp-convert) klp-convert)
KLP_CONVERT_FLAGS ?=
KLP_MODULES = $(patsubst %.o,%.ko,$(obj-m))
KLP_VMLINUX ?= $(wildcard $(KDIR)/vmlinux)
KLP_SYMTAB :=
ifeq ($(filter vmlinux=% --symtab=vmlinux=%,$(KLP_CONVERT_FLAGS)),)
ifneq ($(KLP_VMLINUX),)
KLP_SYMTAB := $(CURDIR)/.vmlinux.symtab
endif
endif
KLP_ALL_FLAGS = --strict $(KLP_CONVERT_FLAGS) $(if $(KLP_SYMTAB),--symtab vmlinux=$(KLP_SYMTAB)) \
	$(addprefix --symvers ,$(wildcard $(KDIR)/Module.symvers) $(KBUILD_EXTRA_SYMBOLS))

# the kernel's architecture (its config) against the host's: cross-build if they differ
KLP_KDIR_ARCH := $(shell sed -n -e 's/^CONFIG_X86_64=y$$/x86_64/p' \
	-e 's/^CONFIG_PPC64=y$$/ppc64le/p' -e 's/^CONFIG_S390=y$$/s390x/p' \
	$(KDIR)/.config 2>/dev/null | head -n1)
KLP_KARCH_x86_64 := x86
KLP_KARCH_ppc64le := powerpc
KLP_KARCH_s390x := s390
KLP_CROSS_x86_64 := x86_64-linux-gnu-
KLP_CROSS_ppc64le := powerpc64le-linux-gnu-
KLP_CROSS_s390x := s390x-linux-gnu-
KLP_KMAKE :=
ifneq ($(KLP_KDIR_ARCH),)
ifneq ($(KLP_KDIR_ARCH),$(shell uname -m))
ifneq ($(origin ARCH),command line)
KLP_KMAKE += ARCH=$(KLP_KARCH_$(KLP_KDIR_ARCH))
endif
ifneq ($(origin CROSS_COMPILE),command line)
KLP_KMAKE += CROSS_COMPILE=$(KLP_CROSS_$(KLP_KDIR_ARCH))
endif
endif
endif

.PHONY: all modules clean klp-convert-modules
all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) KPATCH_KMOD=$(KPATCH_KMOD) $(KLP_KMAKE) \
		KBUILD_MODPOST_WARN=1 modules
	@$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) \
		klp-convert-modules

$(CURDIR)/.vmlinux.symtab: $(KLP_VMLINUX)
	readelf -s --wide $< > $@.tmp && mv -f $@.tmp $@

# Convert each livepatch module (klp-convert refuses an undefined symbol
# that is neither exported nor resolved through the symbol table).
klp-convert-modules: $(KLP_SYMTAB)
	@set -e; for ko in $(KLP_MODULES); do \
		if ! readelf -p .modinfo $$ko | grep -q 'livepatch=Y$$'; then \
			echo "  KLP     $$ko: no livepatch=Y in .modinfo, not converted"; \
			continue; fi; \
		echo "  KLP     $$ko"; \
		$(KLP_CONVERT) $(KLP_ALL_FLAGS) $$ko $$ko.klp.tmp; \
		mv -f $$ko.klp.tmp $$ko; \
	done

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) KPATCH_KMOD=$(KPATCH_KMOD) $(KLP_KMAKE) clean
	rm -f $(CURDIR)/.vmlinux.symtab
endif
