# shellcheck shell=bash
# test/lib/kpb-orig.sh (sourced): where kpatch-build keeps its cached
# -ffunction-sections original build of a reference kernel.
#
#   kpb_orig_dir ARCH   prints $KPATCH_CACHE/kpatch-build/orig/<key> for the
#                       reference kernel of ARCH (x86_64, ppc64le, s390x; KERNEL
#                       picks 6.1 or 6.12); fails when that kernel is not cached
#
# The key is computed by kpatch-build's own code (lib/original.sh), from the same
# inputs kpatch-build gives it: an older entry of the same config (another source
# mtime, another key recipe) stays in the cache, and guessing by config alone
# could pick it instead of the one kpatch-build uses now. The directory may not
# exist yet, or be incomplete (no .complete): the caller checks.
kpb_orig_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# shellcheck disable=SC2153 # (KP_ARCH, KSRC, KCONFIG come from kernel-cache.sh)
kpb_orig_dir() (
	env_out=$(ARCH=$1 "$kpb_orig_top/integration/kernel-cache.sh" --no-build --print-env 2>/dev/null) ||
		exit 1
	eval "$env_out"
	# shellcheck source=kpatch-build/lib/checks.sh
	. "$kpb_orig_top/kpatch-build/lib/checks.sh" || exit 1
	# shellcheck source=kpatch-build/lib/original.sh
	. "$kpb_orig_top/kpatch-build/lib/original.sh" || exit 1
	case $KP_ARCH in
	ppc64le) cross=powerpc64le-linux-gnu- ;;
	s390x) cross=s390x-linux-gnu- ;;
	*) cross= ;;
	esac
	# what check_compiler and the option defaults of kpatch-build set
	cc_first=$($(cc_real "${CC:-${cross}gcc}") --version 2>/dev/null | head -n 1)
	[ -n "$cc_first" ] || exit 1
	# shellcheck disable=SC2034 # (read by orig_cache_key)
	{
		SRCDIR=$KSRC CONFIG=$KCONFIG TARGETS=(vmlinux modules)
		CC_IDENT=$(cc_ident "$cc_first")
		KB_CACHE=$KPATCH_CACHE/kpatch-build
		KPB_SYNC_CHECK=1	# (no background in-place-edit check)
	}
	orig_cache_key
	echo "$ORIG"
)
