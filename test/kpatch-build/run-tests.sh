#!/bin/bash
# test/kpatch-build/run-tests.sh: kpatch-build's tests.
#
#   run-tests.sh [-v] [--no-kernel] [--installed PREFIX] [NAME-GLOB]
#
# --installed PREFIX (or KPB_INSTALLED=PREFIX): the same cases against the installed
# tools (PREFIX/bin/kpatch-build, create-diff-object and klp-convert, PREFIX/libexec/
# kpatch-ng's helpers, libraries, report awk files and report schema, PREFIX/share/
# kpatch-ng/kmod), with the test inputs (fake-kernel/, patches/, guest/, the report
# validator, the kernel cases' patches and out-of-tree module) copied to the
# temporary directory, which is also the working directory: nothing of the tools
# or inputs comes from the repository (the harness scripts integration/kernel-cache.sh,
# run-guest.sh and build-extmod.sh do). Cases about the repository's sources are
# skipped with their reason. test/package/run.sh runs this after `dpkg -i`.
#
# Part 1 uses a small kernel-like tree (fake-kernel/: kbuild's O= interface, .cmd files,
# vmlinux.a, modules.order) in a temporary directory with a temporary cache: option
# parsing, name rules, every pre-build refusal, the cached original build, cleanup
# after failures (source tree and cache byte-identical, no scratch left).
# Part 2 uses the reference kernel (integration/kernel-cache.sh) when it is built:
# a one-function patch to fs/proc/cmdline.c end to end, a lines-only patch
# (__LINE__) that must change nothing, and a failing patch that must leave the
# source tree and the original-build cache intact. It is skipped with a notice
# when the kernel, create-diff-object, klp-convert or kmod/patch is missing.
# This script holds the setup, the options and the pre-build refusals; the other
# cases are in the files it sources: build-cases.sh, strict-cases.sh and
# report-cases.sh (part 1), kernel-cases.sh (part 2).
# Every check is reported through test/lib/result.sh; the last line is
# "kpatch-build: N passed, N failed, N skipped" (kpatch-build-installed with
# --installed); the exit status is non-zero on failure.
set -u
export LC_ALL=C
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SUITE=$HERE	# this suite's own files (HERE moves to the inputs' copy with --installed)
REPO=$(cd "$HERE/../.." && pwd)
VERBOSE=0 WITH_KERNEL=1 FILTER='*' INSTALLED=${KPB_INSTALLED:-}
while [ $# -gt 0 ]; do
	case $1 in
	-v) VERBOSE=1 ;;
	--no-kernel) WITH_KERNEL=0 ;;
	--installed) INSTALLED=${2:?--installed needs a PREFIX}; shift ;;
	--installed=*) INSTALLED=${1#*=} ;;
	*) FILTER=$1 ;;
	esac
	shift
done

T=$(mktemp -d /tmp/kpb-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
OUT=$T/out RC=0
# (from the suite's own directory: with --installed HERE is the inputs' copy;
# the suite keeps nothing but $T)
# shellcheck source=test/lib/result.sh
. "$SUITE/../lib/result.sh"
if [ -z "$INSTALLED" ]; then result_init kpatch-build "$T"; else result_init kpatch-build-installed "$T"; fi
# setup_failed REASON: the suite cannot run at all
setup_failed() { fail setup "$1"; result_summary; exit 1; }

# the tools under test and the inputs: the repository's, or the installed ones
# with the inputs copied out of the repository (INPUTS: the kernel cases' patch
# and out-of-tree module directories)
if [ -z "$INSTALLED" ]; then
	KPB=$REPO/kpatch-build/kpatch-build
	KPB_DIR=$REPO/kpatch-build
	SCHEMA=$REPO/kpatch-build/report-schema.json
	CDO=$REPO/create-diff-object/create-diff-object
	KLPC=$REPO/klp-convert/klp-convert
	KMOD=$REPO/kmod/patch
	ZOO=$REPO/integration/zoo IPATCHES=$REPO/integration/patches EXTMOD=$REPO/integration/smoke/extmod
else
	INSTALLED=$(cd "$INSTALLED" && pwd) || setup_failed "--installed $INSTALLED: no such directory"
	KPB=$INSTALLED/bin/kpatch-build
	KPB_DIR=$INSTALLED/libexec/kpatch-ng
	SCHEMA=$INSTALLED/libexec/kpatch-ng/report-schema.json
	CDO=$INSTALLED/bin/create-diff-object
	KLPC=$INSTALLED/bin/klp-convert
	KMOD=$INSTALLED/share/kpatch-ng/kmod/patch
	mkdir -p "$T/inputs/integration"
	cp -a "$HERE/fake-kernel" "$HERE/patches" "$HERE/guest" "$HERE/validate-report.py" "$T/inputs/"
	cp -a "$REPO/integration/zoo" "$REPO/integration/patches" "$T/inputs/integration/"
	cp -a "$REPO/integration/smoke/extmod" "$T/inputs/integration/extmod"
	HERE=$T/inputs
	ZOO=$HERE/integration/zoo IPATCHES=$HERE/integration/patches EXTMOD=$HERE/integration/extmod
	# the driver must not find anything of the repository by environment
	unset KPATCH_TOOLS_DIR KPATCH_KMOD_DIR
	cd "$T" || exit 1
	echo "kpatch-build suite against the tools installed in $INSTALLED ($KPB), inputs and working directory in $T"
	[ -x "$KPB" ] || setup_failed "$KPB not installed"
fi
# the differ and klp-convert are there
have_tools() { [ -x "$CDO" ] && [ -x "$KLPC" ]; }

# shellcheck disable=SC2053  # (FILTER is a glob)
want() { [[ $1 == $FILTER ]]; }

# kpb ARGS...: run kpatch-build, output in $OUT, status in $RC
kpb() {
	"$KPB" "$@" > "$OUT" 2>&1
	RC=$?
	[ $VERBOSE = 0 ] || sed 's/^/    > /' "$OUT"
}
# expect NAME STATUS REGEX ARGS...: STATUS is 0, "nz" (non-zero) or a number
expect() {
	local name=$1 st=$2 re=$3; shift 3
	want "$name" || return 0
	kpb "$@"
	case $st in
	nz) [ $RC -ne 0 ] || { fail "$name" "exit 0, expected failure" "$OUT"; return; } ;;
	*) [ $RC -eq "$st" ] || { fail "$name" "exit $RC, expected $st" "$OUT"; return; } ;;
	esac
	grep -qE -- "$re" "$OUT" || { fail "$name" "output does not match /$re/" "$OUT"; return; }
	pass "$name"
}
# the error of a refused run must be one line
one_line_error() {
	[ "$(grep -c 'error:' "$OUT")" -eq 1 ]
}

# ------------------------------------------------------------------ fake tree setup
S=$T/src            # the "user's" source tree
B=$T/booted         # the "booted" kernel build (vmlinux, Module.symvers, .config)
USER_KPATCH_CACHE=${KPATCH_CACHE:-}
export KPATCH_CACHE=$T/cache
cp -a "$HERE/fake-kernel" "$S"
mkdir -p "$B"
CCTEXT=$(${CC:-gcc} --version | head -n1)
{ cat "$S/config"; echo "CONFIG_CC_VERSION_TEXT=\"$CCTEXT\""; } > "$B/.config"
cp "$B/.config" "$B/config.good"
(make -s -C "$S" O="$B" vmlinux modules >/dev/null) || setup_failed "fake kernel build"
# the booted tree's kbuild for the patch module: link the differ's output as the .ko
cat > "$B/Makefile" <<'MK'
# fake booted kbuild tree: make -C THIS M=DIR KPATCH_NAME=N [target]
default:
	@echo "template: KPATCH_REPLACE=$(KPATCH_REPLACE)"
	printf 'livepatch=Y\0license=GPL\0' > $(M)/modinfo.bin
	ld -r -o $(M)/linked.o $(M)/patch-objs.o
	objcopy --add-section .modinfo=$(M)/modinfo.bin --set-section-flags .modinfo=alloc,readonly \
		$(M)/linked.o $(M)/livepatch-$(KPATCH_NAME).ko
%.o:
	@:
MK
rm -f "$S/config"
STD=(-s "$S" -c "$B/.config" -v "$B/vmlinux" -o "$T/o")
mkdir -p "$T/o" "$T/p"

mkpatch() {	# mkpatch NAME FILE SED-EXPR: a -p1 patch of FILE in $S
	local n=$1 f=$2 e=$3
	rm -rf "$T/pp"; mkdir -p "$T/pp/a/$(dirname "$f")" "$T/pp/b/$(dirname "$f")"
	[ -f "$S/$f" ] && cp "$S/$f" "$T/pp/a/$f" || : > "$T/pp/a/$f"
	cp "$T/pp/a/$f" "$T/pp/b/$f"
	sed -i "$e" "$T/pp/b/$f"
	(cd "$T/pp" && diff -u "a/$f" "b/$f") > "$T/p/$n"
	[ -s "$T/p/$n" ] || echo "mkpatch $n: empty patch" >&2
}
mkpatch cmdline.patch fs/proc/cmdline.c 's/seq_puts(m, "\\n");/seq_puts(m, "\\n"); seq_puts(m, "x");/'
mkpatch asm.patch arch/x86/entry/entry_64.S 's/ret/nop\n\tret/'
mkpatch vdso.patch arch/x86/entry/vdso/vclock_gettime.c 's/return 0/return 1/'
mkpatch boot.patch arch/x86/boot/main.c 's/{ }/{ for (;;); }/'
mkpatch makefile.patch kernel/Makefile 's/kernel/kernel2/'
printf -- '--- a/kernel/time/timeconst.bc\n+++ b/kernel/time/timeconst.bc\n@@ -1 +1 @@\n-scale=0\n+scale=1\n' > "$T/p/bc.patch"
mkpatch broken.patch fs/proc/cmdline.c 's/return 0;/return 0 +;/'
mkpatch header.patch include/linux/fake.h 's/FAKE_VALUE 1/FAKE_VALUE 2/'
mkpatch lines.patch fs/proc/cmdline.c 's/^extern char \*saved_command_line;/extern char *saved_command_line;\n\n/'
# a patch that does not apply: context that is not in the file
sed 's/seq_puts(m, saved_command_line);/seq_puts(m, nothing_here);/' "$T/p/cmdline.patch" > "$T/p/noapply.patch"
# a patch that applies with fuzz: first context line changed
awk '/^ / && !done { print " // changed context"; done = 1; next } { print }' "$T/p/cmdline.patch" > "$T/p/fuzz.patch"
# a name that needs sanitizing and truncation
cp "$T/p/cmdline.patch" "$T/p/my fix+1.patch"
cp "$T/p/cmdline.patch" "$T/p/$(printf 'x%.0s' $(seq 1 60)).patch"

# names, sizes, mtimes and contents of everything but directory mtimes
tree_sum() { (cd "$1" && find . ! -type d -printf '%p %s %T@ %m %l\n' | sort; find . -type d | sort; find . -type f -print0 | sort -z | xargs -0 -r sha1sum) | sha1sum; }
S_SUM=$(tree_sum "$S")

# ------------------------------------------------------------------ options
expect version 0 '^kpatch-build \(kpatch-ng\) [0-9]' --version
expect help 0 'usage: kpatch-build .*patch file' -h
expect help-long 0 '--oot-module-src' --help
expect no-patch nz 'error: no patch file given' "${STD[@]}"
expect unknown-option nz 'error: unknown option --frobnicate' --frobnicate "$T/p/cmdline.patch"
expect missing-arg nz 'error: option -s needs an argument' "$T/p/cmdline.patch" -s
expect bad-jobs nz 'error: -j/--jobs needs a positive number' -j x "${STD[@]}" "$T/p/cmdline.patch"
expect zero-jobs nz 'error: -j/--jobs needs a positive number' -j 0 "${STD[@]}" "$T/p/cmdline.patch"
expect missing-patch nz 'error: patch file .*/nope.patch not found' "${STD[@]}" "$T/p/nope.patch"
expect oot-alone nz 'error: --oot-module and --oot-module-src go together' --oot-module "$T/x.ko" "${STD[@]}" "$T/p/cmdline.patch"
expect attached-jobs nz "error: -j/--jobs needs a positive number, got '0'" -j0 "${STD[@]}" "$T/p/cmdline.patch"
expect attached-cluster nz "error: -j/--jobs needs a positive number, got 'x'" -dRjx "${STD[@]}" "$T/p/cmdline.patch"
expect unknown-short nz 'error: unknown option -q \(see -h\)' -dq "$T/p/cmdline.patch"
expect ambiguous-long nz "error: option '--rep' is ambiguous" --rep x "$T/p/cmdline.patch"
expect missing-arg-long nz 'error: option --name needs an argument' "$T/p/cmdline.patch" --name
expect empty-arg nz 'error: option -n needs an argument' -n '' "$T/p/cmdline.patch"
expect long-option-equals nz 'error: kernel config not found|error: config file /nonexistent not found' --config=/nonexistent -s "$S" -v "$B/vmlinux" "$T/p/cmdline.patch"
expect bad-sourcedir nz "does not look like a kernel source tree" -s "$T" -c "$B/.config" -v "$B/vmlinux" "$T/p/cmdline.patch"
expect bad-vmlinux nz "is not an ELF file" -s "$S" -c "$B/.config" -v "$B/.config" "$T/p/cmdline.patch"
mkdir -p "$T/lonely"; cp "$B/vmlinux" "$T/lonely/"
expect no-kbuild-dir nz "kbuild tree .* not found next to .*; pass -k" -s "$S" -c "$B/.config" -v "$T/lonely/vmlinux" "$T/p/cmdline.patch"
expect not-a-diff nz "not a unified diff" "${STD[@]}" "$S/Makefile"
# no option at all on a host whose kernel is no Debian package: both ways out named
if apt-cache policy "linux-image-$(uname -r)" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -qv '(none)'; then
	skip wrong-host "the running kernel $(uname -r) is a Debian package: kpatch-build patches it"
else
	expect wrong-host nz "error: the running kernel $(uname -r) (is not a Debian kernel package|is named like a Debian release).*: pass --kernel RELEASE for a Debian kernel release, or -s SRC -c CONFIG -v VMLINUX for a kernel you built" "$T/p/cmdline.patch"
fi
# a Debian release the archive dropped (the running kernel's name, as the error reads it)
if want wrong-host-gone; then
	# shellcheck disable=SC2016  # expanded by the inner bash
	msg=$(UNAME_R=6.1.0-1-amd64 bash -c '. "$1/lib/stock.sh"; stock_not_running' sh "$KPB_DIR" 2>&1)
	if grep -q "the running kernel 6.1.0-1-amd64 is named like a Debian release, but apt has no linux-image-6.1.0-1-amd64 (Debian's archive keeps only the current release" <<<"$msg"; then
		pass wrong-host-gone "$msg"
	else
		fail wrong-host-gone "got: $msg"
	fi
fi

# ------------------------------------------------------------------ shellcheck
# the driver with its libraries (-x: one program), kpatch-cc, each library on
# its own, and these tests (the .shellcheckrc files say what is disabled, why)
if want shellcheck; then
	if [ -n "$INSTALLED" ]; then
		skip shellcheck "--installed: checks the repository's sources, not the installed tools"
	elif ! command -v shellcheck >/dev/null; then
		skip shellcheck "shellcheck not installed (scripts/install-deps)"
	else
		(cd "$REPO" && shellcheck -x kpatch-build/kpatch-build kpatch-build/kpatch-cc kpatch-build/lib/*.sh &&
			shellcheck -x -P SCRIPTDIR test/kpatch-build/*.sh) > "$OUT" 2>&1 &&
			pass shellcheck || fail shellcheck "shellcheck -x kpatch-build/kpatch-build kpatch-build/kpatch-cc kpatch-build/lib/*.sh test/kpatch-build/*.sh" "$OUT"
	fi
fi

# ------------------------------------------------------------------ name rules
expect name-invalid nz "error: invalid name 'bad name!'" -n 'bad name!' "${STD[@]}" "$T/p/cmdline.patch"
expect name-dot nz "error: invalid name 'a.b'" -n 'a.b' "${STD[@]}" "$T/p/cmdline.patch"
expect name-too-long nz "error: name '.*' is 46 characters; at most 45" -n "$(printf 'n%.0s' $(seq 1 46))" "${STD[@]}" "$T/p/cmdline.patch"
if want name-max; then
	kpb -n "$(printf 'n%.0s' $(seq 1 45))" "${STD[@]}" "$T/p/noapply.patch"
	grep -q 'invalid name\|characters; at most' "$OUT" && fail name-max "45 characters refused" "$OUT" || pass name-max
fi
# ------------------------------------------------------------------ pre-build refusals
for opt in MODULES LIVEPATCH HAVE_LIVEPATCH DYNAMIC_FTRACE_WITH_REGS KALLSYMS_ALL; do
	grep -v "^CONFIG_$opt=" "$B/config.good" > "$T/config-no-$opt"
	expect "config-$opt" nz "^kpatch-build: error: CONFIG_$opt is not enabled" -s "$S" -c "$T/config-no-$opt" -v "$B/vmlinux" "$T/p/cmdline.patch"
	want "config-$opt" && { one_line_error || fail "config-$opt-one-line" "error is not one line" "$OUT"; }
done
# architectures: from the config (or ARCH), the ftrace mode checked, arm64 refused by name
arch_config() {	# arch_config FILE LINES...: the good config with CONFIG_X86_64 replaced
	local f=$T/$1; shift
	{ grep -v -e '^CONFIG_X86_64=' -e '^CONFIG_HAVE_FENTRY=' "$B/config.good"; printf '%s\n' "$@"; } > "$f"
}
arch_config config-arm64 CONFIG_ARM64=y
expect arch-arm64 nz "^kpatch-build: error: .*config-arm64 is an arm64 configuration: arm64 is not supported" -s "$S" -c "$T/config-arm64" -v "$B/vmlinux" "$T/p/cmdline.patch"
want arch-arm64 && { one_line_error || fail arch-arm64-one-line "error is not one line" "$OUT"; }
arch_config config-ppc64be CONFIG_PPC64=y CONFIG_MPROFILE_KERNEL=y
expect arch-ppc64-big-endian nz "error: .*big-endian ppc64 configuration: only little-endian ppc64le" -s "$S" -c "$T/config-ppc64be" -v "$B/vmlinux" "$T/p/cmdline.patch"
arch_config config-ppc64le-pg CONFIG_PPC64=y CONFIG_CPU_LITTLE_ENDIAN=y
expect arch-ppc64le-ftrace nz "error: CONFIG_MPROFILE_KERNEL is not set in .*: ppc64le live patching needs -mprofile-kernel" -s "$S" -c "$T/config-ppc64le-pg" -v "$B/vmlinux" "$T/p/cmdline.patch"
arch_config config-s390x-hotpatch CONFIG_S390=y CONFIG_HAVE_FENTRY=y
expect arch-s390x-ftrace nz "error: CONFIG_HAVE_FENTRY and CONFIG_FTRACE_MCOUNT_USE_CC are not both set" -s "$S" -c "$T/config-s390x-hotpatch" -v "$B/vmlinux" "$T/p/cmdline.patch"
grep -v -e '^CONFIG_HAVE_FENTRY=' "$B/config.good" > "$T/config-nofentry"
expect arch-x86-ftrace nz "error: CONFIG_HAVE_FENTRY is not set in .*: x86_64 live patching needs -mfentry" -s "$S" -c "$T/config-nofentry" -v "$B/vmlinux" "$T/p/cmdline.patch"
if want arch-env-mismatch; then
	ARCH=s390x kpb "${STD[@]}" "$T/p/cmdline.patch"
	[ $RC -ne 0 ] && grep -q "error: ARCH=s390x in the environment, but .* is a x86_64 configuration" "$OUT" && one_line_error &&
		pass arch-env-mismatch || fail arch-env-mismatch "ARCH of another architecture not refused" "$OUT"
fi
arch_config config-ppc64le CONFIG_PPC64=y CONFIG_CPU_LITTLE_ENDIAN=y CONFIG_MPROFILE_KERNEL=y
if want arch-cross-missing; then
	CROSS_COMPILE=/nonexistent/ppc- kpb -s "$S" -c "$T/config-ppc64le" -v "$B/vmlinux" "$T/p/cmdline.patch"
	[ $RC -ne 0 ] && grep -q "error: cross compiler '/nonexistent/ppc-gcc' for the ppc64le kernel not found" "$OUT" && one_line_error &&
		pass arch-cross-missing || fail arch-cross-missing "a missing cross compiler was not named" "$OUT"
fi
# the cross compiler is checked like the native one: against CONFIG_CC_VERSION_TEXT
if want arch-cross-version && command -v powerpc64le-linux-gnu-gcc >/dev/null; then
	sed 's/^CONFIG_CC_VERSION_TEXT=.*/CONFIG_CC_VERSION_TEXT="powerpc64le-linux-gnu-gcc (Fake 1.0) 1.0"/' "$T/config-ppc64le" > "$T/config-ppc64le-cc"
	kpb -s "$S" -c "$T/config-ppc64le-cc" -v "$B/vmlinux" "$T/p/cmdline.patch"
	[ $RC -ne 0 ] && grep -q "error: compiler mismatch: the kernel was built with 'powerpc64le-linux-gnu-gcc (Fake 1.0) 1.0' (CONFIG_CC_VERSION_TEXT), 'powerpc64le-linux-gnu-gcc' is 'powerpc64le-linux-gnu-gcc (Debian" "$OUT" &&
		pass arch-cross-version || fail arch-cross-version "the cross compiler was not checked against CONFIG_CC_VERSION_TEXT" "$OUT"
fi
sed 's/^CONFIG_CC_VERSION_TEXT=.*/CONFIG_CC_VERSION_TEXT="gcc (Fake 1.0) 1.0"/' "$B/config.good" > "$T/config-cc"
expect compiler-config nz "error: compiler mismatch: the kernel was built with 'gcc \(Fake 1.0\) 1.0'" -s "$S" -c "$T/config-cc" -v "$B/vmlinux" "$T/p/cmdline.patch"
expect compiler-skip nz "does not apply" --skip-compiler-check -s "$S" -c "$T/config-cc" -v "$B/vmlinux" "$T/p/noapply.patch"
cp "$B/vmlinux" "$T/vmlinux-cc"
printf 'GCC: (Fake 9.9) 9.9\0' > "$T/comment"
objcopy --remove-section .comment --add-section .comment="$T/comment" "$T/vmlinux-cc" 2>/dev/null
cp "$B/Module.symvers" "$B/Makefile" "$T/" 2>/dev/null
expect compiler-vmlinux nz "error: compiler mismatch: .*vmlinux-cc was built with '\(Fake 9.9\) 9.9'" -s "$S" -c "$B/.config" -v "$T/vmlinux-cc" "$T/p/cmdline.patch"
if want compiler-cc-env2; then
	printf '#!/bin/sh\necho "gcc (Other 1.2) 1.2"\n' > "$T/fakecc"; chmod +x "$T/fakecc"
	CC=$T/fakecc kpb "${STD[@]}" "$T/p/cmdline.patch"
	[ $RC -ne 0 ] && grep -q "compiler mismatch: .*'$T/fakecc' is 'gcc (Other 1.2) 1.2'" "$OUT" && pass compiler-cc-env2 || fail compiler-cc-env2 "CC=other compiler not refused" "$OUT"
fi
expect patch-noapply nz "error: patch .*noapply.patch does not apply" "${STD[@]}" "$T/p/noapply.patch"
want patch-noapply && { one_line_error || fail patch-noapply-one-line "error is not one line" "$OUT"; }
# (each refusal's one-line check reads the output of its run: the same command)
expect refuse-asm nz "error: .*changes assembly source arch/x86/entry/entry_64.S" "${STD[@]}" "$T/p/asm.patch"
want refuse-asm && { one_line_error || fail refuse-asm-one-line "not one line" "$OUT"; }
expect refuse-vdso nz "error: .*changes vdso code arch/x86/entry/vdso/vclock_gettime.c" "${STD[@]}" "$T/p/vdso.patch"
want refuse-vdso && { one_line_error || fail refuse-vdso-one-line "not one line" "$OUT"; }
expect refuse-boot nz "error: .*changes early boot code arch/x86/boot/main.c" "${STD[@]}" "$T/p/boot.patch"
want refuse-boot && { one_line_error || fail refuse-boot-one-line "not one line" "$OUT"; }
expect refuse-makefile nz "error: .*changes build file kernel/Makefile" "${STD[@]}" "$T/p/makefile.patch"
want refuse-makefile && { one_line_error || fail refuse-makefile-one-line "not one line" "$OUT"; }
expect refuse-bc nz "error: .*changes kernel/time/timeconst.bc, from which kbuild generates a header .timeconst.h. that the patched objects cannot see" "${STD[@]}" "$T/p/bc.patch"
if want unclean-tree; then
	touch "$S/.config"
	kpb "${STD[@]}" "$T/p/cmdline.patch"
	rm -f "$S/.config"
	[ $RC -ne 0 ] && grep -q "source tree .* is not clean (.config exists)" "$OUT" && pass unclean-tree || fail unclean-tree "dirty tree accepted" "$OUT"
fi
if want sig-force; then
	{ cat "$B/config.good"; echo CONFIG_MODULE_SIG=y; echo CONFIG_MODULE_SIG_FORCE=y; } > "$T/config-sig"
	kpb -s "$S" -c "$T/config-sig" -v "$B/vmlinux" "$T/p/cmdline.patch"
	[ $RC -ne 0 ] && grep -q "only loads signed modules (CONFIG_MODULE_SIG_FORCE.*signing key .* is not available: pass your own key and its enrolled certificate with --sign-key and --sign-cert" "$OUT" && pass sig-force || fail sig-force "unsignable module not refused" "$OUT"
fi
# nothing of the above may have started a build or touched the tree
if want refusals-no-build; then
	[ -z "$(find "$KPATCH_CACHE/kpatch-build/orig" -mindepth 1 -maxdepth 1 ! -name '*.lock' 2>/dev/null)" ] &&
		[ "$(tree_sum "$S")" = "$S_SUM" ] && pass refusals-no-build || fail refusals-no-build "a refused run started the original build" "$OUT"
fi

# ------------------------------------------------------------------ original build, cache, cleanup
# shellcheck source=test/kpatch-build/build-cases.sh
. "$SUITE/build-cases.sh" || { echo "kpatch-build suite: cannot read $SUITE/build-cases.sh" >&2; exit 1; }

# ------------------------------------------------------------------ strict mode, kept steps
# shellcheck source=test/kpatch-build/strict-cases.sh
. "$SUITE/strict-cases.sh" || { echo "kpatch-build suite: cannot read $SUITE/strict-cases.sh" >&2; exit 1; }

# ------------------------------------------------------------------ reports, progress
# shellcheck source=test/kpatch-build/report-cases.sh
. "$SUITE/report-cases.sh" || { echo "kpatch-build suite: cannot read $SUITE/report-cases.sh" >&2; exit 1; }

# ------------------------------------------------------------------ reference kernel
HAVE_TOOLS=1
for t in "$CDO" "$KLPC" "$KMOD"; do
	[ -e "$t" ] || { HAVE_TOOLS=0; MISSING_TOOL=$t; }
done
if [ $WITH_KERNEL = 0 ]; then
	skip reference-kernel "--no-kernel"
elif ! ENV=$(if [ -n "$USER_KPATCH_CACHE" ]; then cache=(env KPATCH_CACHE="$USER_KPATCH_CACHE"); else cache=(env -u KPATCH_CACHE); fi
	"${cache[@]}" "$REPO/integration/kernel-cache.sh" --no-build --print-env 2>/dev/null); then
	skip reference-kernel "reference kernel not built (integration/kernel-cache.sh)"
elif [ $HAVE_TOOLS = 0 ]; then
	skip reference-kernel "$MISSING_TOOL not built yet"
else
	# shellcheck source=test/kpatch-build/kernel-cases.sh
	. "$SUITE/kernel-cases.sh" || { echo "kpatch-build suite: cannot read $SUITE/kernel-cases.sh" >&2; exit 1; }
fi

result_summary
