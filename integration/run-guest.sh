#!/bin/bash
# run-guest.sh: boot a kernel under qemu (TCG) with a busybox initramfs holding guest
# test scripts and modules, capture the serial console, and judge the KPTEST-* markers.
#
#   integration/run-guest.sh [options] BZIMAGE|cached GUEST_SCRIPT [MODULE.ko ...]
#
#   BZIMAGE       kernel image; "cached" = the boot image of integration/kernel-cache.sh
#                 (x86_64 bzImage, ppc64le vmlinux, s390x bzImage)
#   GUEST_SCRIPT  busybox-sh script using the kp_* helpers of guest/kptest.sh
#   options:
#     --script T.sh      another guest script (run after the previous ones, same boot)
#     --module M.ko      another module (same as a positional MODULE.ko)
#     --file SRC[:DEST]  another file for the guest (default DEST /files/basename)
#     --log FILE         console log (default: $KPATCH_CACHE/logs/<first script>.log)
#     --timeout SECS     wall-clock bound for the whole qemu run (default 180)
#     --script-timeout SECS  bound for each guest script, inside the guest (default 60);
#                        a script killed by it fails as "<test> script: killed after ..."
#     --mem MB           guest memory (default 512)
#     --smp N            guest CPUs (default 1)
#     --append ARGS      extra kernel command line
#     --allow-warn       do not fail on kernel "WARNING:" lines
#     --kvm              use KVM (only if a probe showed it works here; default TCG)
#     --accel SPEC       qemu's -accel argument (default tcg)
#   The guest architecture is ARCH=x86_64 (default) | ppc64le | s390x (integration/arch.sh):
#   qemu-system-x86_64 (ttyS0), qemu-system-ppc64 -M pseries -cpu POWER9 (hvc0),
#   qemu-system-s390x -M s390-ccw-virtio (ttysclp0), with that architecture's busybox.
#
# Exit status: 0 every check passed and KPTEST-END was seen; 1 a check failed
# (the first line of stderr names it: "run-guest: FAIL <test> <check>: <detail>"),
# the kernel oopsed/panicked, the guest timed out or never printed KPTEST-END;
# 2 bad usage or missing files.
set -euo pipefail

die() { echo "run-guest: error: $*" >&2; exit 2; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KP_ARCH_TOOL=run-guest
# shellcheck source=integration/arch.sh
. "$HERE/arch.sh"
kp_arch_init

scripts=() modules=() files=()
log='' tmo=180 stmo=60 mem=512 smp=1 append='' allow_warn=0 accel=tcg kernel=''
while [ $# -gt 0 ]; do
	case $1 in
	--script) scripts+=("${2:?}"); shift ;;
	--module) modules+=("${2:?}"); shift ;;
	--file) files+=("${2:?}"); shift ;;
	--log) log=${2:?}; shift ;;
	--timeout) tmo=${2:?}; shift ;;
	--script-timeout) stmo=${2:?}; shift ;;
	--mem) mem=${2:?}; shift ;;
	--smp) smp=${2:?}; shift ;;
	--append) append=${2?}; shift ;;
	--allow-warn) allow_warn=1 ;;
	--kvm) accel=kvm ;;
	--accel) accel=${2:?}; shift ;;
	-h|--help) sed -n '2,/^set /s/^# \{0,1\}//p' "$0" | sed '$d'; exit 0 ;;
	-*) die "unknown option $1 (see --help)" ;;
	*)
		if [ -z "$kernel" ]; then kernel=$1
		elif [ ${#scripts[@]} -eq 0 ]; then scripts+=("$1")
		else modules+=("$1"); fi ;;
	esac
	shift
done
if [ -z "$kernel" ] || [ ${#scripts[@]} -eq 0 ]; then
	die "usage: run-guest.sh [options] BZIMAGE|cached GUEST_SCRIPT [MODULE.ko ...]"
fi
case $tmo$stmo$smp in ''|*[!0-9]*) die "--timeout, --script-timeout and --smp need whole numbers" ;; esac

if [ "$kernel" = cached ]; then
	kenv=$("$HERE/kernel-cache.sh" --no-build --print-env) ||
		die "no cached kernel: run integration/kernel-cache.sh first"
	eval "$kenv"
	kernel=$KBZIMAGE
fi
[ -f "$kernel" ] || die "kernel image $kernel not found"
command -v "$KP_QEMU" >/dev/null || die "$KP_QEMU not found (run scripts/install-deps)"
# a ppc64 ELF image booted as another architecture hangs silently: say so instead
case $KP_ARCH:$(file -b "$kernel" 2>/dev/null) in
ppc64le:*ELF*PowerPC*) ;;
ppc64le:*) die "$kernel is not a ppc64le ELF vmlinux (ARCH=ppc64le boots vmlinux)" ;;
*:*ELF*PowerPC*) die "$kernel is a PowerPC kernel but ARCH is $KP_ARCH (use ARCH=ppc64le)" ;;
esac

# a test's name: its script's file name without .sh, or .guest (a patch test's,
# integration/lib/patchspec.sh)
tname() { local b; b=$(basename "$1" .sh); basename "$b" .guest; }
name=$(tname "${scripts[0]}")
logname=$name
for s in "${scripts[@]:1}"; do name=$name+$(tname "$s"); done
if [ -z "$log" ]; then
	# no kernel cached is fine here: the log goes to the default cache
	kenv=$("$HERE/kernel-cache.sh" --no-build --print-env 2>/dev/null) || kenv=
	eval "$kenv"
	log=${KPATCH_CACHE:-${HOME:-/root}/.cache/kpatch-ng}/logs/$logname.log
fi
mkdir -p "$(dirname "$log")"

work=$(mktemp -d "${TMPDIR:-/tmp}/kpatch-guest.XXXXXX")
qpid=
cleanup() {
	if [ -n "$qpid" ]; then kill "$qpid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

args=(-o "$work/initramfs.cpio")
for s in "${scripts[@]}"; do args+=(--script "$s"); done
for m in ${modules[@]+"${modules[@]}"}; do args+=(--module "$m"); done
for f in ${files[@]+"${files[@]}"}; do args+=(--file "$f"); done
"$HERE/guest/mkinitramfs.sh" "${args[@]}" || die "building the initramfs failed"

cmdline="console=$KP_CONSOLE $KP_BOOT_ARGS printk.devkmsg=on panic=-1 oops=panic kp_script_timeout=$stmo $append"
t0=$(date +%s.%N)
set +e
timeout -k 5 "$tmo" "$KP_QEMU" ${KP_QEMU_MACHINE[@]+"${KP_QEMU_MACHINE[@]}"} -accel "$accel" -m "$mem" -smp "$smp" -nographic -no-reboot \
	-kernel "$kernel" -initrd "$work/initramfs.cpio" -append "$cmdline" \
	</dev/null >"$log.raw" 2>&1 &
qpid=$!
wait $qpid
rc=$?
qpid=
set -e
t1=$(date +%s.%N)
tr -d '\r' < "$log.raw" > "$log"
rm -f "$log.raw"
wall=$(echo "$t1 - $t0" | bc)

markers=$(grep -o 'KPTEST-[A-Z]*.*' "$log" || true)
boot=$(echo "$markers" | sed -n 's/^KPTEST-BOOT uptime=\([0-9.]*\).*/\1/p' | head -1)
npass=$(echo "$markers" | grep -c '^KPTEST-PASS ' || true)
fails=$(echo "$markers" | grep '^KPTEST-FAIL ' || true)
kbad=$(grep -E 'Kernel panic|BUG: |Oops|general protection fault|Call Trace:' "$log" | head -3 || true)
[ $allow_warn = 1 ] || kbad=$kbad$(grep -E '^(\[[ 0-9.]*\] )?WARNING: ' "$log" |
	{ if [ -n "$KP_BENIGN_WARN" ]; then grep -vF -- "$KP_BENIGN_WARN"; else cat; fi; } | head -3 || true)

# the test that was running when the guest died (if any), and the last marker seen
cur=$(echo "$markers" | sed -n 's/^KPTEST-BEGIN \([^ ]*\).*/\1/p' | tail -1)
if [ -n "$cur" ] && grep -q "^KPTEST-DONE $cur " <<<"$markers"; then cur=; fi
where=${cur:-$name}
lastm=$(echo "$markers" | tail -1)
summary="(boot to /init ${boot:-?}s guest time, run $(printf %.1f "$wall")s wall, log $log)"
if [ -n "$fails" ]; then
	echo "$fails" | while IFS= read -r l; do echo "run-guest: FAIL ${l#KPTEST-FAIL }" >&2; done
	echo "run-guest: $name: $(echo "$fails" | wc -l) check(s) failed, $npass passed $summary" >&2
	exit 1
fi
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	echo "run-guest: FAIL $where timeout: guest timed out after ${tmo}s (last marker: ${lastm:-none}); last console lines:" >&2
	tail -n 15 "$log" | sed 's/^/    /' >&2
	echo "run-guest: $summary" >&2
	exit 1
fi
if [ -n "$kbad" ]; then
	echo "run-guest: FAIL $where kernel: $(echo "$kbad" | head -1) (last marker: ${lastm:-none})" >&2
	while IFS= read -r l; do echo "    $l"; done <<<"$kbad" >&2
	echo "run-guest: $summary" >&2
	exit 1
fi
if ! grep -q '^KPTEST-END ' <<<"$markers"; then
	echo "run-guest: FAIL $where end: no KPTEST-END marker (qemu exit $rc, last marker: ${lastm:-none}); last console lines:" >&2
	tail -n 15 "$log" | sed 's/^/    /' >&2
	echo "run-guest: $summary" >&2
	exit 1
fi
if [ $rc -ne 0 ]; then
	echo "run-guest: FAIL $name qemu: exited with status $rc; last lines:" >&2
	tail -n 5 "$log" | sed 's/^/    /' >&2
	exit 1
fi
echo "run-guest: PASS $name: $npass checks passed $summary"
