# integration/integration.mk: included by the top-level Makefile.
INTEGRATION_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

.PHONY: integration-kernel integration-env integration-smoke

# build (or reuse) the cached reference kernel and print its paths
integration-kernel:
	$(INTEGRATION_DIR)/kernel-cache.sh --print-env

integration-env:
	@$(INTEGRATION_DIR)/kernel-cache.sh --no-build --print-env

# boot the reference kernel with samples/livepatch/livepatch-sample.ko + harness self-test
integration-smoke:
	$(INTEGRATION_DIR)/smoke.sh

# Phase 1: `make integration` runs the smoke test; the boot-tested patch suite
# (integration/patches/) replaces this once kpatch-build exists.
integration: integration-smoke
