# integration/integration.mk: included by the top-level Makefile.
INTEGRATION_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

# the kernel of every integration target: KERNEL=6.1 (default) or 6.12, the
# reference kernels (Debian linux-source-$(KERNEL), integration/configs/$(KERNEL)-x86_64.config),
# or debian-6.1 / debian-6.12, Debian's stock kernels as shipped (no kernel build)
KERNEL ?= 6.1
export KERNEL

.PHONY: integration-kernel integration-env integration-smoke

# build (or reuse) the cached reference kernel and print its paths
integration-kernel:
	$(INTEGRATION_DIR)/kernel-cache.sh --print-env

integration-env:
	@$(INTEGRATION_DIR)/kernel-cache.sh --no-build --print-env

# boot the reference kernel with samples/livepatch/livepatch-sample.ko + harness self-test
integration-smoke:
	$(INTEGRATION_DIR)/smoke.sh

.PHONY: integration-ci integration-list integration-zoo integration-farm

# the boot-tested patch suite (integration/patches/): builds each patch with
# kpatch-build, boots it, prints the results table and writes it to
# test/out/integration/$(KERNEL)/results.txt; exits non-zero naming each failed patch and check.
# INTEGRATION_ONLY=01,07 runs a subset.
integration: deps
	$(INTEGRATION_DIR)/suite.sh $(if $(INTEGRATION_ONLY),--only $(INTEGRATION_ONLY))

integration-list:
	@$(INTEGRATION_DIR)/suite.sh --list

# the newcomer's loop: Debian's stock 6.1 kernel unless KERNEL is given (then that
# kernel), kpatch-build examples/cmdline.patch, boot, /proc/cmdline before / loaded / unloaded
demo:
	KERNEL=$(if $(filter file,$(origin KERNEL)),debian-6.1,$(KERNEL)) $(INTEGRATION_DIR)/demo.sh

# CI smoke subset (reuses the kernel and kpatch-build caches when they exist): the
# demo patch, booted, plus one refusal (changed initialized global data)
integration-ci: deps all
	$(INTEGRATION_DIR)/demo.sh
	$(INTEGRATION_DIR)/suite.sh --only 14 --results test/out/integration/$(KERNEL)/ci-results.txt

# the patch zoo (integration/zoo/): ~30 small realistic patches to the reference kernel,
# each built with kpatch-build and checked against its expected outcome (NN-name.expect:
# ok / refuse REGEX), then every built module loaded, transitioned, disabled and
# unloaded in ONE boot; table in test/out/zoo/$(KERNEL)/results.txt. ZOO_ONLY=01,07 runs a subset.
integration-zoo: deps all
	$(INTEGRATION_DIR)/zoo.sh $(if $(ZOO_ONLY),--only $(ZOO_ONLY))

# compile farm and compiler cache: kpatch-build with CC="distcc gcc" (two distccd
# daemons on 127.0.0.1; the original kernel built through them once per machine and
# cached) and CC="ccache gcc", second patch, two concurrent runs, modules booted;
# figures in test/out/farm/figures.txt
integration-farm: deps all
	$(INTEGRATION_DIR)/farm.sh

.PHONY: integration-stable
# real 6.1 stable-kernel fixes (../shared/stable-fixes), both ways: each one's revert
# live-patched into Debian's stock 6.1 kernel (STABLE_KERNEL=debian-6.1), and each fix
# live-patched into a 6.1 kernel built with all 30 reverted (6.1-vulnerable); all
# built ones booted, loaded (a module's target first), checked where a guest can reach the path, disabled and unloaded; the table
# (fix, target, build_s, result, reason) in test/out/stable/<kernel>/stable.txt and
# every fix's result with its kpatch-build report in results.json. STABLE_ONLY=05,20 a subset.
STABLE_KERNEL ?= debian-6.1 6.1-vulnerable
integration-stable: deps all
	rc=0; for k in $(STABLE_KERNEL); do \
		KERNEL=$$k $(INTEGRATION_DIR)/stable.sh $(if $(STABLE_ONLY),--only $(STABLE_ONLY)) || rc=1; \
	done; exit $$rc
