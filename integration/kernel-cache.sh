#!/bin/bash
# kernel-cache.sh: a reference kernel (Debian's linux-source-$KERNEL +
# integration/configs/$KERNEL-<arch>.config), unpacked once and built once per
# (source version, config fragment, compiler version), cached outside the repository.
# KERNEL=6.1 (default) or 6.12 selects the kernel. The architecture:
# ARCH=x86_64 (default) | ppc64le | s390x (or KP_ARCH; see integration/arch.sh):
# ppc64le and s390x are cross-built with Debian's powerpc64le-linux-gnu- /
# s390x-linux-gnu- compilers.
#
#   integration/kernel-cache.sh               ensure source + booted kernel, print env lines
#   integration/kernel-cache.sh --print-env   same; progress goes to stderr, KEY=value to stdout,
#                                             so  eval "$(integration/kernel-cache.sh --print-env)"
#   integration/kernel-cache.sh --no-build --print-env
#                                             print the paths only; exit 1 if not built yet
#   integration/kernel-cache.sh --source-only unpack the source only, print env lines
#   integration/kernel-cache.sh --key         print the cache key
#   integration/kernel-cache.sh --status      print whether the kernel for the current key is built
#
#   . integration/kernel-cache.sh             defines kc_* functions only (no side effects);
#                                             then kc_ensure_kernel && kc_export
#
# KERNEL=6.1-vulnerable is the base of the real stable fixes (integration/stable.sh):
# 6.1's source with every fix of ../shared/stable-fixes (KPATCH_STABLE_FIXES)
# reverted, copied once into $KPATCH_CACHE/src/linux-source-6.1-vulnerable, built
# with configs/6.1-<arch>.config and configs/6.1-vulnerable-<arch>.config on top.
#
# KERNEL=debian-6.1 or debian-6.12 selects Debian's stock kernel instead: the
# release Debian's linux-image-amd64 (6.1) or linux-image-6.12-amd64 meta package
# names (KPATCH_STOCK_RELEASE overrides it), nothing built: its image package is
# downloaded and unpacked into $KPATCH_CACHE/stock/<release>/image/ (vmlinuz, the
# modules, the config), and kpatch-build --kernel <release> --fetch fetches the
# rest: KSRC, KOBJ (the headers' kbuild tree), KVMLINUX (the -dbg one). Extra
# variables then: KSTOCK (the release), KSTOCK_VERSION (the packages' version),
# KIMAGE (the unpacked image package), KMODDIR (its lib/modules/<release>), KBASE
# (6.1 or 6.12: the source the patches are written for).
#
# Environment: KERNEL (6.1, 6.12, debian-6.1, debian-6.12; default 6.1), ARCH or KP_ARCH, KPATCH_CACHE
# (default ~/.cache/kpatch-ng), KPATCH_KERNEL_TARBALL (default
# /usr/src/linux-source-$KERNEL.tar.xz), KPATCH_JOBS (default nproc).
#
# Layout:  $KPATCH_CACHE/src/linux-source-$KERNEL    pristine source (never build in it)
#          $KPATCH_CACHE/kernel/<key>/                O= build dir: vmlinux, boot image,
#                                                     Module.symvers, modules, kbuild tree
#          $KPATCH_CACHE/kernel/<key>/.kpatch-ng-complete   written last
#          $KPATCH_CACHE/kernel/<key>/build.log

KC_RECIPE=1	# bump when the build steps below change: it is part of the key

kc_init() {
	KC_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	KPATCH_CACHE=${KPATCH_CACHE:-${HOME:-/root}/.cache/kpatch-ng}
	KERNEL=${KERNEL:-6.1}
	case $KERNEL in
	6.1|6.12) KBASE=$KERNEL KC_STOCK=0 ;;
	6.1-vulnerable)	# (the stable fixes' base: see kc_ensure_reverted)
		KBASE=6.1 KC_STOCK=0
		KC_REVERTS=${KPATCH_STABLE_FIXES:-$KC_DIR/../../shared/stable-fixes}/patches ;;
	debian-6.1|debian-6.12) KBASE=${KERNEL#debian-} KC_STOCK=1 ;;
	*) kc_die "KERNEL=$KERNEL: the reference kernels are 6.1 and 6.12 (6.1-vulnerable: 6.1 with the stable fixes reverted), Debian's stock ones debian-6.1 and debian-6.12" ;;
	esac
	KP_ARCH_TOOL=kernel-cache
	# shellcheck source=integration/arch.sh
	. "$KC_DIR/arch.sh"
	kp_arch_init
	KC_TARBALL=${KPATCH_KERNEL_TARBALL:-/usr/src/linux-source-$KBASE.tar.xz}
	# a variant's fragment goes on top of its base's
	KC_FRAGMENTS=("$KC_DIR/configs/$KBASE-$KP_ARCH.config")
	[ "$KERNEL" = "$KBASE" ] || [ "$KC_STOCK" = 1 ] || KC_FRAGMENTS+=("$KC_DIR/configs/$KERNEL-$KP_ARCH.config")
	KC_JOBS=${KPATCH_JOBS:-$(nproc)}
	KC_SRCNAME=$(basename "$KC_TARBALL" .tar.xz)
	KC_PRISTINE=$KPATCH_CACHE/src/$KC_SRCNAME
	KC_SRC_MARKER=$KPATCH_CACHE/src/.$KC_SRCNAME.complete
	KSRC=$KC_PRISTINE
	if [ -n "${KC_REVERTS:-}" ]; then
		KSRC=$KPATCH_CACHE/src/$KC_SRCNAME-${KERNEL#"$KBASE"-}
		KC_REVERTED_MARKER=$KPATCH_CACHE/src/.$(basename "$KSRC").complete
	fi
	KC_T0=${KC_T0:-$(date +%s)}
}

kc_die() { echo "kernel-cache: error: $*" >&2; exit 1; }
kc_log() { echo "kernel-cache: [$(( $(date +%s) - KC_T0 ))s] $*" >&2; }

# Identity of the source: Debian package version (when installed) + tarball size.
kc_source_id() {
	local ver size
	[ -r "$KC_TARBALL" ] || kc_die "kernel source tarball $KC_TARBALL not found (run scripts/install-deps)"
	ver=$(dpkg-query -W -f='${Version}' "$KC_SRCNAME" 2>/dev/null || echo unknown)
	size=$(stat -c %s "$KC_TARBALL")
	echo "$KC_SRCNAME $ver $size"
}

kc_key() {
	local f
	for f in "${KC_FRAGMENTS[@]}"; do
		[ -r "$f" ] || kc_die "config fragment $f not found"
	done
	command -v "$KP_CC" >/dev/null || kc_die "$KP_CC not found (run scripts/install-deps)"
	{
		echo "recipe $KC_RECIPE"
		kc_source_id
		[ -z "${KC_REVERTS:-}" ] || echo "reverted $(kc_reverts_id)"
		cat "${KC_FRAGMENTS[@]}"
		"$KP_CC" --version
	} | sha256sum | cut -c1-16
}

kc_set_paths() {
	KC_KEY=$(kc_key)
	KOBJ=$KPATCH_CACHE/kernel/$KC_KEY
	KC_MARKER=$KOBJ/.kpatch-ng-complete
	KVMLINUX=$KOBJ/vmlinux
	KBZIMAGE=$KOBJ/$KP_BOOT_FILE
	KSYMVERS=$KOBJ/Module.symvers
	KCONFIG=$KOBJ/.config
	KGEN_INIT_CPIO=$KOBJ/usr/gen_init_cpio
}

kc_source_pristine() {
	local f src=$1 marker=$2
	for f in .config include/config include/generated "$src"/arch/*/include/generated vmlinux; do
		f=${f#"$src/"}
		[ -e "$src/$f" ] && kc_die "source tree $src is not pristine ($f exists; something built in it). Reset: rm -rf '$src' '$marker'"
	done
	return 0
}

# Unpack the tarball once (under a lock); reuse when the marker matches the source id.
kc_ensure_source() {
	local id
	id=$(kc_source_id)
	mkdir -p "$KPATCH_CACHE/src"
	(
		flock -n 9 || { kc_log "waiting for another unpack of $KC_SRCNAME"; flock 9; }
		if [ -d "$KC_PRISTINE" ] && [ "$(cat "$KC_SRC_MARKER" 2>/dev/null)" = "$id" ]; then
			exit 0
		fi
		kc_log "unpacking $KC_TARBALL into $KC_PRISTINE"
		rm -rf "$KC_PRISTINE" "$KC_SRC_MARKER" "$KPATCH_CACHE/src/.unpack.tmp"
		mkdir "$KPATCH_CACHE/src/.unpack.tmp"
		tar -C "$KPATCH_CACHE/src/.unpack.tmp" -xJf "$KC_TARBALL" ||
			kc_die "unpacking $KC_TARBALL failed"
		[ -f "$KPATCH_CACHE/src/.unpack.tmp/$KC_SRCNAME/Makefile" ] ||
			kc_die "$KC_TARBALL does not contain $KC_SRCNAME/Makefile"
		mv "$KPATCH_CACHE/src/.unpack.tmp/$KC_SRCNAME" "$KC_PRISTINE"
		rmdir "$KPATCH_CACHE/src/.unpack.tmp"
		echo "$id" > "$KC_SRC_MARKER"
		kc_log "unpacked $(make -s -C "$KC_PRISTINE" kernelversion 2>/dev/null)"
	) 9>"$KPATCH_CACHE/src/.lock" || exit 1
	kc_source_pristine "$KC_PRISTINE" "$KC_SRC_MARKER"
	[ -z "${KC_REVERTS:-}" ] || kc_ensure_reverted
}

# the fixes a variant reverts: their names and contents
kc_reverts_id() {
	local p
	[ -d "$KC_REVERTS" ] || kc_die "no stable fixes in $KC_REVERTS (KPATCH_STABLE_FIXES)"
	for p in "$KC_REVERTS"/[0-9][0-9]-*.patch; do basename "$p"; cat "$p"; done |
		sha256sum | cut -c1-16
}

# The vulnerable base: a copy of the pristine source with every fix of
# $KC_REVERTS reverted (they are file-disjoint and all in 6.1.192, so each
# reverses without fuzz), made once per (source, fixes) under a lock.
kc_ensure_reverted() {
	local id p n=0 tmp=$KSRC.tmp
	id="$(kc_source_id) reverted $(kc_reverts_id)"
	(
		flock -n 9 || { kc_log "waiting for another copy of $KSRC"; flock 9; }
		if [ -d "$KSRC" ] && [ "$(cat "$KC_REVERTED_MARKER" 2>/dev/null)" = "$id" ]; then
			exit 0
		fi
		kc_log "copying $KC_PRISTINE into $KSRC and reverting the fixes of $KC_REVERTS"
		rm -rf "$KSRC" "$KC_REVERTED_MARKER" "$tmp"
		cp -a "$KC_PRISTINE" "$tmp"
		for p in "$KC_REVERTS"/[0-9][0-9]-*.patch; do
			patch -s -R -p1 -F0 --no-backup-if-mismatch -d "$tmp" < "$p" ||
				kc_die "$(basename "$p") does not revert on $KC_PRISTINE"
			n=$((n + 1))
		done
		mv "$tmp" "$KSRC"
		echo "$id" > "$KC_REVERTED_MARKER"
		kc_log "$n fixes reverted in $KSRC"
	) 9>"$KPATCH_CACHE/src/.lock-$(basename "$KSRC")" || exit 1
	kc_source_pristine "$KSRC" "$KC_REVERTED_MARKER"
}



# Check every value the fragment asks for survived olddefconfig.
kc_verify_config() {
	local cfg=$1 line sym bad=0
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF -- "$line" "$cfg" || {
				echo "kernel-cache: error: config: '$line' requested but .config has '$(grep -E "^(# )?${line%%=*}[= ]" "$cfg" || echo "${line%%=*} absent")'" >&2
				bad=1
			} ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }; sym=${sym%% *}
			grep -qE "^$sym=" "$cfg" && {
				echo "kernel-cache: error: config: $sym must be off but .config has $(grep -E "^$sym=" "$cfg")" >&2
				bad=1
			} ;;
		esac
	done < <(cat "${KC_FRAGMENTS[@]}")
	for sym in LIVEPATCH KALLSYMS_ALL DYNAMIC_FTRACE_WITH_REGS DEBUG_INFO MODULES; do
		grep -qx "CONFIG_$sym=y" "$cfg" || {
			echo "kernel-cache: error: config: CONFIG_$sym=y did not survive olddefconfig" >&2
			bad=1
		}
	done
	grep -qx "CONFIG_MODULE_SIG=y" "$cfg" && { echo "kernel-cache: error: config: module signing is on" >&2; bad=1; }
	[ $bad -eq 0 ] || kc_die "config fragments ${KC_FRAGMENTS[*]} did not survive olddefconfig (see above; $cfg)"
}

# a line every 30 s while the kernel builds (minutes on 2 cores, silent otherwise)
kc_progress() {
	local n
	while sleep 30; do
		n=$(find "$KOBJ" -name '*.o' 2>/dev/null | wc -l)
		kc_log "building $KC_KEY: $n objects compiled so far"
	done
}

kc_build() {
	local log=$KOBJ/build.log t0 t_cfg secs f
	t0=$(date +%s)
	rm -rf "$KOBJ"
	mkdir -p "$KOBJ"
	kc_log "building the $KP_ARCH kernel $KC_KEY in $KOBJ (-j$KC_JOBS, $KP_CC, log $log)"
	kc_make() { make -C "$KSRC" O="$KOBJ" ${KP_KMAKE[@]+"${KP_KMAKE[@]}"} "$@" >>"$log" 2>&1 || {
		tail -n 30 "$log" >&2
		kc_die "make $* failed (full log: $log)"; }; }
	kc_make tinyconfig
	"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$KOBJ" "$KOBJ/.config" "${KC_FRAGMENTS[@]}" >>"$log" 2>&1 ||
		kc_die "merge_config.sh failed (log: $log)"
	kc_make olddefconfig
	kc_verify_config "$KOBJ/.config"
	kc_log "config ok: LIVEPATCH KALLSYMS_ALL DYNAMIC_FTRACE_WITH_REGS DEBUG_INFO present"
	t_cfg=$(date +%s)
	# one kernel build at a time on this machine (kpatch-build's original build
	# takes the same lock): two at once on 2 cores only thrash
	(
		flock -n 8 || { kc_log "waiting for another kernel build on this machine"; flock 8; }
		date +%s > "$KOBJ/.make-start"
		kc_progress & tick=$!
		trap 'kill "$tick" 2>/dev/null || true' EXIT	# (also when make fails)
		kc_make -j"$KC_JOBS" all
	) 8>"$KPATCH_CACHE/.kernel-build.lock" || exit 1
	kc_log "vmlinux, $KP_BOOT_FILE and modules built"
	for f in "$KVMLINUX" "$KBZIMAGE" "$KSYMVERS" "$KGEN_INIT_CPIO" \
		"$KOBJ/samples/livepatch/livepatch-sample.ko"; do
		[ -e "$f" ] || kc_die "build finished but $f is missing (log: $log)"
	done
	# the build's own time: the wait for the machine-wide lock is not counted
	secs=$(( $(date +%s) - t0 - ($(cat "$KOBJ/.make-start") - t_cfg) ))
	{
		echo "key=$KC_KEY"
		echo "arch=$KP_ARCH"
		echo "source=$(kc_source_id)"
		echo "kernelrelease=$(cat "$KOBJ/include/config/kernel.release")"
		echo "build_seconds=$secs"
		echo "jobs=$KC_JOBS"
		echo "date=$(date -u +%FT%TZ)"
	} > "$KC_MARKER.tmp"
	mv "$KC_MARKER.tmp" "$KC_MARKER"
	kc_log "kernel build complete in ${secs}s"
}

# Build the booted kernel unless the completion marker exists (under a lock).
kc_ensure_kernel() {
	kc_ensure_source
	kc_set_paths
	mkdir -p "$KPATCH_CACHE/kernel"
	(
		if ! flock -n 9; then
			kc_log "waiting for another build of kernel $KC_KEY"
			flock 9
		fi
		if [ -f "$KC_MARKER" ]; then
			kc_log "kernel $KC_KEY cached ($(grep build_seconds "$KC_MARKER"))"
			exit 0
		fi
		kc_build
	) 9>"$KPATCH_CACHE/kernel/.$KC_KEY.lock" || exit 1
}

# ---------------------------------------------------------------- stock kernels
# the release Debian's meta package for this kernel names
kc_stock_release() {
	local meta=linux-image-amd64
	[ "$KBASE" = 6.1 ] || meta=linux-image-$KBASE-amd64
	[ "$KP_ARCH" = x86_64 ] || kc_die "KERNEL=$KERNEL: Debian's stock kernels are tested on x86_64 only"
	if [ -n "${KPATCH_STOCK_RELEASE:-}" ]; then echo "$KPATCH_STOCK_RELEASE"; return; fi
	apt-cache depends "$meta" 2>/dev/null | sed -n 's/^ *Depends: linux-image-\([0-9][^ ]*-amd64\)$/\1/p' | head -n1
}
kc_stock_paths() {
	KSTOCK=$(kc_stock_release)
	[ -n "$KSTOCK" ] || kc_die "KERNEL=$KERNEL: apt knows no release of it (apt-get update?)"
	KIMAGE=$KPATCH_CACHE/stock/$KSTOCK/image
	KC_MARKER=$KIMAGE/.kpatch-ng-complete
	KBZIMAGE=$KIMAGE/boot/vmlinuz-$KSTOCK
	KCONFIG=$KIMAGE/boot/config-$KSTOCK
	KMODDIR=$KIMAGE/lib/modules/$KSTOCK
	KC_KEY=$KSTOCK
	# (written by kc_stock_ensure: kpatch-build --fetch's answer)
	if [ -f "$KC_MARKER" ]; then
		KSRC=$(sed -n 's/^SRCDIR=//p' "$KC_MARKER") KOBJ=$(sed -n 's/^KBUILD=//p' "$KC_MARKER")
		KVMLINUX=$(sed -n 's/^VMLINUX=//p' "$KC_MARKER") KSYMVERS=$KOBJ/Module.symvers
	fi
	KGEN_INIT_CPIO=$KPATCH_CACHE/tools/gen_init_cpio
}
# the image package, downloaded (cached in $KPATCH_CACHE/debian/debs) and unpacked
kc_stock_ensure() {
	kc_stock_paths
	KSTOCK_VERSION=$(apt-cache policy "linux-image-$KSTOCK" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
	[ -f "$KC_MARKER" ] && return 0
	# (the lanes of make check may both need it first: one unpacks, the other waits)
	mkdir -p "$KPATCH_CACHE/stock"
	exec 7> "$KPATCH_CACHE/stock/.$KSTOCK.lock"
	flock -n 7 || { kc_log "waiting for another unpacking of $KSTOCK"; flock 7; }
	[ -f "$KC_MARKER" ] || { kc_stock_moved; kc_stock_unpack; }
	exec 7>&-
	kc_stock_paths
}
# Debian replaces a release with the next ABI without notice: when the meta
# package names one this cache has not seen but it holds an older one of the same
# kernel, say so (the suites then test the new one, fetched and prepared afresh)
kc_stock_moved() {
	local d old=
	for d in "$KPATCH_CACHE"/stock/"$KBASE".*-amd64/image/.kpatch-ng-complete; do
		[ -f "$d" ] || continue
		d=${d%/image/.kpatch-ng-complete}; d=${d##*/}
		[ "$d" = "$KSTOCK" ] || old+=${old:+, }$d
	done
	[ -z "$old" ] ||
		kc_log "Debian's $KBASE kernel is now $KSTOCK (this cache holds $old): fetching and preparing it afresh"
}
kc_stock_unpack() {
	local deb
	# the headers, the source, the -dbg vmlinux and the image package, found or
	# downloaded (each .deb held to apt's index) by kpatch-build's own cache
	kc_log "kpatch-build --kernel $KSTOCK --fetch (image, headers, source, -dbg vmlinux)"
	# (its progress lines, downloads and unpacking of minutes, shown as they come)
	mkdir -p "$KPATCH_CACHE/stock/$KSTOCK"
	"$KC_DIR/../kpatch-build/kpatch-build" --kernel "$KSTOCK" --fetch > "$KPATCH_CACHE/stock/$KSTOCK/fetch.env" \
		2> >(tee "$KPATCH_CACHE/stock/$KSTOCK/fetch.log" >&2) ||
		kc_die "kpatch-build --kernel $KSTOCK --fetch failed (log $KPATCH_CACHE/stock/$KSTOCK/fetch.log)"
	deb=$(sed -n 's/^IMAGE_DEB=//p' "$KPATCH_CACHE/stock/$KSTOCK/fetch.env" | sed 's/\\//g')
	kc_log "unpacking $(basename "$deb") into $KIMAGE"
	rm -rf "$KIMAGE"; mkdir -p "$KIMAGE"
	dpkg-deb -x "$deb" "$KIMAGE" || kc_die "unpacking $deb failed"
	[ -f "$KBZIMAGE" ] && [ -d "$KMODDIR" ] || kc_die "$deb has no boot/vmlinuz-$KSTOCK or modules"
	mv "$KPATCH_CACHE/stock/$KSTOCK/fetch.env" "$KPATCH_CACHE/stock/$KSTOCK/fetch.log" "$KIMAGE/"
	# gen_init_cpio for the guest's initramfs, from the source
	kc_ensure_source
	if [ ! -x "$KGEN_INIT_CPIO" ]; then
		mkdir -p "$KPATCH_CACHE/tools"
		gcc -O2 -o "$KGEN_INIT_CPIO.$$" "$KSRC/usr/gen_init_cpio.c" && mv "$KGEN_INIT_CPIO.$$" "$KGEN_INIT_CPIO" ||
			kc_die "cannot compile gen_init_cpio"
	fi
	{ echo "release=$KSTOCK"; echo "version=$KSTOCK_VERSION"; echo "build_seconds=0"
	  sed 's/\\//g' "$KIMAGE/fetch.env"; } > "$KC_MARKER"
}

kc_env() {
	local v
	for v in KERNEL KBASE KSTOCK KSTOCK_VERSION KIMAGE KMODDIR KPATCH_CACHE KP_ARCH KSRC KOBJ KVER KVMLINUX KBZIMAGE KSYMVERS KCONFIG KGEN_INIT_CPIO KC_KEY KBUILD_SECONDS; do
		printf '%s=%q\n' "$v" "${!v-}"
	done
}

kc_export() {
	if [ "$KC_STOCK" = 1 ]; then
		KVER=$KSTOCK KBUILD_SECONDS=0
		export KERNEL KBASE KSTOCK KSTOCK_VERSION KIMAGE KMODDIR KPATCH_CACHE KSRC KOBJ KVER KVMLINUX KSYMVERS KBZIMAGE KCONFIG KGEN_INIT_CPIO KC_KEY KBUILD_SECONDS
		return
	fi
	KVER=$(cat "$KOBJ/include/config/kernel.release" 2>/dev/null || true)
	KBUILD_SECONDS=$(sed -n 's/^build_seconds=//p' "$KC_MARKER" 2>/dev/null || true)
	export KERNEL KPATCH_CACHE KSRC KOBJ KVER KVMLINUX KBZIMAGE KSYMVERS KCONFIG KGEN_INIT_CPIO KC_KEY KBUILD_SECONDS
}

kc_main() {
	local build=1 mode=env
	while [ $# -gt 0 ]; do
		case $1 in
		--print-env|--build) ;;
		--no-build) build=0 ;;
		--source-only) mode=source ;;
		--key) mode=key ;;
		--status) mode=status ;;
		-h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
		*) kc_die "unknown option $1 (see --help)" ;;
		esac
		shift
	done
	kc_init
	if [ "$KC_STOCK" = 1 ]; then
		case $mode in
		key) kc_stock_release; return ;;
		status) kc_stock_paths; [ -f "$KC_MARKER" ] && { echo "unpacked: $KOBJ"; return; }; echo "not unpacked: $KOBJ"; return 1 ;;
		source) kc_ensure_source; kc_export; kc_env; return ;;
		esac
		if [ $build = 1 ]; then kc_stock_ensure
		else kc_stock_paths; [ -f "$KC_MARKER" ] || kc_die "$KERNEL ($KSTOCK) not unpacked yet; run integration/kernel-cache.sh"
		fi
		kc_export; kc_env; return
	fi
	case $mode in
	key) kc_key; return ;;
	status)
		kc_set_paths
		if [ -f "$KC_MARKER" ]; then echo "built: $KOBJ"; cat "$KC_MARKER"; else echo "not built: $KOBJ"; return 1; fi
		return ;;
	source) kc_ensure_source; kc_set_paths; kc_export; kc_env; return ;;
	esac
	# make check (the quick tier) builds no kernel and uses none it did not
	# build, so that it runs the same checks on every machine
	[ "${KPATCH_CHECK_TIER:-}" != quick ] ||
		kc_die "KERNEL=$KERNEL is a reference kernel: make check's quick tier uses none (make check-full does)"
	if [ $build = 1 ]; then
		kc_ensure_kernel
	else
		kc_set_paths
		[ -f "$KC_MARKER" ] || kc_die "kernel $KC_KEY not built yet ($KOBJ); run integration/kernel-cache.sh"
	fi
	kc_export
	kc_env
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -Eeuo pipefail
	# a command that fails unexpectedly is named, never a silent exit
	trap 'kc_die "line $LINENO: command failed (exit $?): $BASH_COMMAND"' ERR
	kc_main "$@"
else
	kc_init
fi
