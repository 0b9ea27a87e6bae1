#!/bin/bash
# mkinitramfs.sh: build the test guest's initramfs (an uncompressed newc cpio) with the
# kernel's gen_init_cpio, so no root privileges or device-node tricks are needed.
#
#   integration/guest/mkinitramfs.sh [-o OUT.cpio] [--script T.sh]... [--module M.ko]...
#                                    [--file SRC[:DEST]]...
#
#   --script T.sh    guest test script (or T.guest) -> /tests/NNN-T.sh (run in the given order; the
#                    test's name, KP_NAME, is T)
#   --module M.ko    -> /modules/M.ko   (kp_insmod CHECK M)
#   --file SRC[:DEST]  any other file (e.g. a static helper binary) -> DEST
#                    (default /files/basename; executable bit kept)
# Needs busybox-static of the guest's architecture (ARCH, integration/arch.sh: /bin/busybox
# for x86_64, $KPATCH_CACHE/busybox/<debarch>/bin/busybox else; BUSYBOX overrides);
# gen_init_cpio (a host tool) comes from the cached kernel build
# (kernel-cache.sh) or is compiled from the cached source.
set -euo pipefail

die() { echo "mkinitramfs: error: $*" >&2; exit 1; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KP_ARCH_TOOL=mkinitramfs
# shellcheck source=integration/arch.sh
. "$HERE/../arch.sh"
kp_arch_init
out=initramfs.cpio
scripts=() modules=() files=()
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=${2:?}; shift ;;
	--script) scripts+=("${2:?--script needs a file}"); shift ;;
	--module) modules+=("${2:?--module needs a file}"); shift ;;
	--file) files+=("${2:?--file needs SRC[:DEST]}"); shift ;;
	-h|--help) sed -n '2,/^set /s/^# \{0,1\}//p' "$0" | sed '$d'; exit 0 ;;
	*) die "unknown argument $1 (see --help)" ;;
	esac
	shift
done

BUSYBOX=${BUSYBOX:-$KP_BUSYBOX}
[ -x "$BUSYBOX" ] || die "$BUSYBOX ($KP_ARCH busybox-static) not found (run scripts/install-deps)"
file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked' ||
	die "$BUSYBOX is not statically linked (install busybox-static)"

# gen_init_cpio: from the kernel build dir, else build it from the cached source
GEN=${KGEN_INIT_CPIO:-}
if [ -z "$GEN" ] || [ ! -x "$GEN" ]; then
	# no kernel cached is fine here: gen_init_cpio is built from the source below
	kenv=$("$HERE/../kernel-cache.sh" --no-build --print-env 2>/dev/null) || kenv=
	eval "$kenv"
	GEN=${KGEN_INIT_CPIO:-}
fi
if [ -z "$GEN" ] || [ ! -x "$GEN" ]; then
	kenv=$("$HERE/../kernel-cache.sh" --source-only) ||
		{ echo "mkinitramfs: the kernel source (integration/kernel-cache.sh --source-only) is not available" >&2; exit 1; }
	eval "$kenv"
	GEN=$KPATCH_CACHE/tools/gen_init_cpio
	if [ ! -x "$GEN" ]; then
		mkdir -p "$KPATCH_CACHE/tools"
		gcc -O2 -o "$GEN.tmp.$$" "$KSRC/usr/gen_init_cpio.c" || die "cannot compile gen_init_cpio"
		mv "$GEN.tmp.$$" "$GEN"
	fi
fi

abs() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
list=$(mktemp)
unz=$(mktemp -d)
trap 'rm -rf "$list" "$unz"' EXIT
# a compressed module (Debian 6.12 ships .ko.xz): decompressed here, as the
# guest's busybox insmod loads only plain .ko files
plain_module() {
	local m=$1 b
	case $m in
	*.ko.xz|*.ko.zst)
		b=$(basename "$m"); b=${b%.*}
		case $m in *.xz) xz -dc "$m" ;; *) zstd -qdc "$m" ;; esac > "$unz/$b" ||
			die "cannot decompress $m"
		echo "$unz/$b" ;;
	*) echo "$m" ;;
	esac
}
{
	for d in /bin /sbin /dev /proc /sys /tmp /root /lib /tests /modules /files /etc; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	echo "file /bin/busybox $BUSYBOX 0755 0 0"
	echo "slink /bin/sh busybox 0777 0 0"
	echo "file /init $HERE/init 0755 0 0"
	echo "file /lib/kptest.sh $HERE/kptest.sh 0644 0 0"
	n=100
	for s in "${scripts[@]}"; do
		[ -f "$s" ] || die "guest script $s not found"
		# (T.sh or T.guest: the test T, a patch test's, integration/lib/patchspec.sh)
		b=$(basename "$s" .sh)
		echo "file /tests/$n-$(basename "$b" .guest).sh $(abs "$s") 0755 0 0"
		n=$((n + 1))
	done
	declare -A seen=()
	for m in "${modules[@]}"; do
		[ -f "$m" ] || die "module $m not found"
		m=$(plain_module "$m")
		b=$(basename "$m")
		[ -z "${seen[$b]:-}" ] || die "two modules named $b"
		seen[$b]=1
		echo "file /modules/$b $(abs "$m") 0644 0 0"
	done
	for f in "${files[@]}"; do
		src=${f%%:*}
		dest=/files/$(basename "$src")
		[ "$src" = "$f" ] || dest=${f#*:}
		[ -f "$src" ] || die "file $src not found"
		mode=0644
		[ -x "$src" ] && mode=0755
		echo "file $dest $(abs "$src") $mode 0 0"
	done
} > "$list"
"$GEN" "$list" > "$out.tmp" || die "gen_init_cpio failed on $list"
mv "$out.tmp" "$out"
