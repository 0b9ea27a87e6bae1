# shellcheck shell=bash disable=SC2034  # (the KP_* variables are for the scripts that source it)
# integration/arch.sh: the guest architecture of the integration scripts (sourced).
#
# The architecture is chosen with ARCH=x86_64|ppc64le|s390x (make ARCH=ppc64le ...,
# default x86_64), or KP_ARCH, which wins: kp_arch_init exports KP_ARCH, so the
# scripts a script starts see the same choice. kbuild reads ARCH from the environment
# and from MAKEFLAGS, and "ppc64le" is not a kbuild architecture, so kp_arch_init
# replaces ARCH by the kbuild name (powerpc, s390; unset for x86_64, the host) and
# strips ARCH=... from MAKEFLAGS: every kernel make below a script then builds for
# the right architecture.
#
# Sets (and exports KP_ARCH, ARCH, CROSS_COMPILE):
#   KP_ARCH        x86_64 | ppc64le | s390x
#   KP_KARCH       kbuild's ARCH: x86 | powerpc | s390
#   KP_CROSS       CROSS_COMPILE prefix ("" for x86_64)
#   KP_CC          the kernel's compiler: ${KP_CROSS}gcc
#   KP_KMAKE       make arguments for the kernel tree: (ARCH=.. CROSS_COMPILE=..), () native
#   KP_BOOT_FILE       booted image, relative to the build dir
#   KP_QEMU, KP_QEMU_MACHINE (array), KP_CONSOLE, KP_DEBARCH, KP_BUSYBOX
#   KP_BENIGN_WARN  a console "WARNING:" line of this guest that is no kernel warning
#   KP_BOOT_ARGS    kernel command line words every guest of this arch boots with

kp_arch_die() { echo "${KP_ARCH_TOOL:-integration}: error: $*" >&2; exit 2; }

kp_arch_init() {
	local want=${KP_ARCH:-${ARCH:-x86_64}} cache=${KPATCH_CACHE:-${HOME:-/root}/.cache/kpatch-ng}
	KP_BENIGN_WARN='' KP_BOOT_ARGS=''
	case $want in
	x86_64|x86|amd64)
		# no_timer_check: a TCG guest on a loaded host (two test lanes and a
		# kernel build on 2 cores) can miss the IO-APIC timer check's few
		# ticks and panic "IO-APIC + timer doesn't work!"; virtual machines
		# skip that check (as Debian's cloud images do)
		KP_BOOT_ARGS=no_timer_check
		KP_ARCH=x86_64 KP_KARCH=x86 KP_CROSS='' KP_BOOT_FILE=arch/x86/boot/bzImage
		KP_QEMU=qemu-system-x86_64 KP_QEMU_MACHINE=() KP_CONSOLE=ttyS0 KP_DEBARCH=amd64 ;;
	ppc64le|ppc64el|powerpc)
		# x-vof=on: qemu's own small Open Firmware instead of SLOF (boots in 7 s, not 35);
		# its NVRAM is unformatted, which the kernel reports once (KP_BENIGN_WARN).
		# The spectre caps TCG cannot emulate are declared broken: no qemu warning per boot.
		KP_ARCH=ppc64le KP_KARCH=powerpc KP_CROSS=powerpc64le-linux-gnu- KP_BOOT_FILE=vmlinux
		KP_QEMU=qemu-system-ppc64 KP_QEMU_MACHINE=(-M "pseries,x-vof=on,cap-cfpc=broken,cap-sbbc=broken,cap-ibs=broken,cap-ccf-assist=off" -cpu POWER9)
		KP_CONSOLE=hvc0 KP_DEBARCH=ppc64el
		KP_BENIGN_WARN='WARNING: nvram corruption detected: 0-length partition' ;;
	s390x|s390)
		KP_ARCH=s390x KP_KARCH=s390 KP_CROSS=s390x-linux-gnu- KP_BOOT_FILE=arch/s390/boot/bzImage
		KP_QEMU=qemu-system-s390x KP_QEMU_MACHINE=(-M s390-ccw-virtio)
		KP_CONSOLE=ttysclp0 KP_DEBARCH=s390x ;;
	arm64|aarch64)
		kp_arch_die "ARCH=$want: arm64 has no reference kernel or guest here (no Debian 6.1 kernel selects arm64 livepatch); use x86_64, ppc64le or s390x" ;;
	*)
		kp_arch_die "ARCH=$want: unknown architecture (use x86_64, ppc64le or s390x)" ;;
	esac
	KP_CC=${KP_CROSS}gcc
	if [ "$KP_ARCH" = x86_64 ]; then
		KP_KMAKE=()
		KP_BUSYBOX=/bin/busybox
		unset ARCH CROSS_COMPILE
	else
		KP_KMAKE=(ARCH="$KP_KARCH" CROSS_COMPILE="$KP_CROSS")
		KP_BUSYBOX=$cache/busybox/$KP_DEBARCH/bin/busybox
		export ARCH=$KP_KARCH CROSS_COMPILE=$KP_CROSS
	fi
	export KP_ARCH
	# make ARCH=ppc64le puts ARCH=ppc64le into MAKEFLAGS, where it would override
	# the ARCH given to every kernel make below: drop it there
	if [ -n "${MAKEFLAGS:-}" ]; then
		MAKEFLAGS=$(printf '%s' "$MAKEFLAGS" | sed -E 's/(^| )ARCH=[^ ]*//g; s/(^| )-- *$//')
		export MAKEFLAGS
	fi
	unset MAKEOVERRIDES
}

# the tools an architecture's builds and boots need; one line naming the missing one
kp_arch_missing() {
	command -v "$KP_QEMU" >/dev/null || { echo "$KP_QEMU"; return 0; }
	command -v "$KP_CC" >/dev/null || { echo "$KP_CC"; return 0; }
	[ -x "$KP_BUSYBOX" ] || { echo "$KP_BUSYBOX"; return 0; }
	return 1
}
