# shellcheck shell=bash
# integration/lib/build.sh (sourced): what the runners of patch tests (suite.sh,
# zoo.sh) share to build a test and find its modules, after
# `eval "$(kernel-cache.sh --print-env)"` and with ROOT set (the checkout).
#
#   kp_kpb NAME OUTDIR ARG...      kpatch-build -n NAME -o OUTDIR ARG... against the
#                                  kernel: --kernel for a stock one, else its build
#   kp_kernel_args                 those kernel options, in KP_KERNEL_ARGS
#   kp_run_check FILE KO           a test's .check: bash FILE KO KCONFIG
#   kp_run_build_script FILE DIR   a test's build-script: bash FILE DIR
#   kp_tree_module PATH            a module by its path in the kernel's build tree
#   kp_module_path NAME            the .ko of the module NAME ("-" and "_" alike)
#   kp_with_deps KO...             the KOs after the modules they depend on

KPB=$ROOT/kpatch-build/kpatch-build
KP_CHECK_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/checklib.sh

# KP_KERNEL_ARGS: kpatch-build's options naming the kernel: --kernel for a
# stock one (kpatch-build finds all by itself), else its source, config, vmlinux
kp_kernel_args() {
	if [ -n "${KSTOCK:-}" ]; then KP_KERNEL_ARGS=(--kernel "$KSTOCK")
	else KP_KERNEL_ARGS=(-s "$KSRC" -c "$KCONFIG" -v "$KVMLINUX"); fi
}

kp_kpb() {
	local name=$1 dir=$2; shift 2
	# an empty CC: kpatch-build's default compiler, ${CROSS_COMPILE}gcc
	kp_kernel_args
	"$KPB" "${KP_KERNEL_ARGS[@]}" -o "$dir" -n "$name" "$@"
}

# the kernel's variables a test's own scripts read (print-env sets, not exports them)
kp_test_env() {
	env ROOT="$ROOT" KERNEL="$KERNEL" KP_ARCH="${KP_ARCH:-x86_64}" KSTOCK="${KSTOCK:-}" \
		KSRC="${KSRC:-}" KOBJ="${KOBJ:-}" KVMLINUX="${KVMLINUX:-}" KCONFIG="${KCONFIG:-}" \
		KMODDIR="${KMODDIR:-}" KP_CHECK_LIB="$KP_CHECK_LIB" "$@"
}

kp_run_check() { kp_test_env bash "$1" "$2" "$KCONFIG"; }
kp_run_build_script() { kp_test_env bash "$1" "$2"; }

# a module named by its path in the build tree: the reference kernel's, or a stock
# kernel's in its image package (.ko or .ko.xz)
kp_tree_module() {
	local f
	[ -n "${KSTOCK:-}" ] || { echo "$KOBJ/$1"; return; }
	for f in "$KMODDIR/kernel/$1" "$KMODDIR/kernel/$1.xz" "$KMODDIR/kernel/$1.zst"; do
		[ -f "$f" ] && { echo "$f"; return; }
	done
	echo "$KMODDIR/kernel/$1"
}

# the .ko in $KOBJ of the module named $1 ("-" and "_" alike), from modules.order,
# which lists "dir/name.ko" up to 6.1 and "dir/name.o" from 6.2 on
# (a stock kernel's: in its image package, modules.order of lib/modules/<release>,
# each file .ko or compressed)
kp_module_path() {
	local dir=$KOBJ p
	[ -z "${KSTOCK:-}" ] || dir=$KMODDIR
	p=$(awk -v a="$1" -v b="$(echo "$1" | tr _ -)" -v k="$dir" '{ n = $0; sub(/.*\//, "", n); sub(/\.(ko|o)$/, "", n) }
		n == a || n == b { sub(/\.o$/, ".ko"); print k "/" $0; exit }' "$dir/modules.order")
	[ -z "$p" ] || [ -f "$p" ] || for p in "$p.xz" "$p.zst" "$p"; do [ -f "$p" ] && break; done
	[ -z "$p" ] || echo "$p"
}

# the module that provides alias $1 (a softdep may name one: libcrc32c's
# "pre: crc32c"): the .ko whose .modinfo holds "alias=$1", the kernel's
# generic one (crypto/) before a CPU-specific one (arch/: crc32c-intel needs
# SSE4.2, which qemu's default CPU lacks)
kp_alias_path() {
	local dir=$KOBJ m
	[ -z "${KSTOCK:-}" ] || dir=$KMODDIR
	{
		if [ -n "${KSTOCK:-}" ] && [ -n "$(find "$dir" -name '*.ko.*' -print -quit)" ]; then
			for m in $(kp_alias_modules "$1"); do kp_module_path "$m"; done
		else
			find "$dir" -name '*.ko*' -print0 | xargs -0 -r grep -l -aP "\\x00alias=\\Q$1\\E\\x00"
		fi
	} | awk '{ print ($0 ~ /\/arch\//), $0 }' | sort | awk 'NR == 1 { print $2 }'
}
# the modules of a stock image with compressed modules (Debian 6.12: .ko.xz, which
# grep cannot read) that provide alias $1: from the modules.alias depmod writes for
# it, once (9 s), in a linked copy of the image's lib/ (the image stays as shipped)
kp_alias_modules() {
	local f=$KIMAGE/modules.alias t
	if [ ! -f "$f" ]; then
		t=$(mktemp -d "$KIMAGE/.depmod.XXXXXX") || return 1
		cp -al "$KIMAGE/lib" "$t/" && depmod -b "$t" "$KSTOCK" &&
			mv "$t/lib/modules/$KSTOCK/modules.alias" "$f.$$" && mv "$f.$$" "$f"
		rm -rf "$t"
	fi
	[ -f "$f" ] && awk -v a="$1" '$1 == "alias" && $2 == a { print $3 }' "$f"
}

# the modules $@ (paths in $KOBJ) preceded by the modules each one depends on
# (modinfo's depends= and softdep's "pre:" modules, recursively: a module whose
# init asks the crypto API for an algorithm fails to load without its provider,
# the guest has no modprobe to load it), each once, in an order insmod can load them
kp_with_deps() {
	local m out=() seen=" "
	add() {
		local m=$1 d p
		case $seen in *" $m "*) return 0 ;; esac
		seen="$seen$m "
		for d in $(modinfo -F depends "$m" 2>/dev/null | tr , ' '); do
			p=$(kp_module_path "$d")
			[ -z "$p" ] || add "$p"
		done
		for d in $(modinfo -F softdep "$m" 2>/dev/null | sed -n 's/.*pre: *\([^:]*\)\( post:.*\)\{0,1\}$/\1/p'); do
			p=$(kp_module_path "$d"); [ -n "$p" ] || p=$(kp_alias_path "$d")
			[ -z "$p" ] || add "$p"
		done
		out+=("$m")
	}
	for m in "$@"; do add "$m"; done
	echo "${out[*]}"
}
