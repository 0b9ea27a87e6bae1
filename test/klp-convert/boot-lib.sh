# shellcheck shell=bash
# test/klp-convert/boot-lib.sh (sourced by boot-sample.sh, boot-modsample.sh and
# boot-template.sh): what each of them does before its own build and boot.
#
#   BOOT_NAME=boot-x; . "$(dirname "$0")/boot-lib.sh"
#
# Sets HERE (this directory) and ROOT (the tree), defines boot_skip and die (one
# SKIP or FAIL line of test/lib/result.sh naming BOOT_NAME; boot_skip exits 0:
# run-tests.sh counts that as its check skipped), boot_timeout_arg and
# boot_kernel_env.
# shellcheck source=test/lib/grepq.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/grepq.sh"
# shellcheck source=test/lib/result.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/result.sh"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
boot_skip() { skip "$BOOT_NAME" "$*"; exit 0; }
die() { fail "$BOOT_NAME" "$*" >&2; exit 1; }

# boot_timeout_arg [--timeout SECS] -> tmo (default 180)
# shellcheck disable=SC2034 # (tmo is the sourcing script's)
boot_timeout_arg() {
	tmo=180
	[ "${1:-}" != --timeout ] || tmo=${2:?}
}

# boot_kernel_env --qemu|--no-qemu: the cached reference kernel's variables (KOBJ,
# KVMLINUX, KBZIMAGE, KPATCH_CACHE, ...) and klp-convert built; skips when the
# kernel is not cached, or (--qemu: the script boots) qemu is not installed
boot_kernel_env() {
	local env_out
	env_out=$("$ROOT/integration/kernel-cache.sh" --no-build --print-env 2>/dev/null) ||
		boot_skip "no cached reference kernel (run integration/kernel-cache.sh)"
	eval "$env_out"
	[ "$1" = --no-qemu ] || command -v qemu-system-x86_64 >/dev/null ||
		boot_skip "qemu-system-x86_64 not installed"
	[ -x "$ROOT/klp-convert/klp-convert" ] || make -C "$ROOT" >/dev/null
}
