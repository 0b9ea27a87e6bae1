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
expect refuse-asm nz "error: .*changes assembly source arch/x86/entry/entry_64.S" "${STD[@]}" "$T/p/asm.patch"
expect refuse-vdso nz "error: .*changes vdso code arch/x86/entry/vdso/vclock_gettime.c" "${STD[@]}" "$T/p/vdso.patch"
expect refuse-boot nz "error: .*changes early boot code arch/x86/boot/main.c" "${STD[@]}" "$T/p/boot.patch"
expect refuse-makefile nz "error: .*changes build file kernel/Makefile" "${STD[@]}" "$T/p/makefile.patch"
expect refuse-bc nz "error: .*changes kernel/time/timeconst.bc, from which kbuild generates a header .timeconst.h. that the patched objects cannot see" "${STD[@]}" "$T/p/bc.patch"
for t in asm vdso boot makefile; do want "refuse-$t" && { kpb "${STD[@]}" "$T/p/$t.patch"; one_line_error || fail "refuse-$t-one-line" "not one line" "$OUT"; }; done
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
cache_sum() { tree_sum "$KPATCH_CACHE/kpatch-build/orig"; }
scratch_empty() { [ -z "$(ls -A "$KPATCH_CACHE/kpatch-build/tmp" 2>/dev/null)" ] || { echo "scratch left: $(ls -A "$KPATCH_CACHE/kpatch-build/tmp")" >> "$OUT"; false; }; }
if want orig-build-failure; then
	# a failing original build: error names the step, shows the build log, tree intact
	rm -rf "$KPATCH_CACHE"
	kpb "${STD[@]}" -t vmlinux -t fail-target "$T/p/cmdline.patch"
	[ $RC -ne 0 ] && grep -q "error: building original kernel .*: original build failed" "$OUT" &&
		grep -q "log: " "$OUT" && [ "$(tree_sum "$S")" = "$S_SUM" ] && scratch_empty &&
		! ls "$KPATCH_CACHE"/kpatch-build/orig/*/.complete >/dev/null 2>&1 &&
		pass orig-build-failure || fail orig-build-failure "bad failure handling of the original build" "$OUT"
fi
if want orig-build-resume; then
	# an original build that failed half-way is resumed by the next run, not restarted
	FAKE_FAIL=modules KPATCH_CACHE=$T/cache2 kpb "${STD[@]}" -n res1 "$T/p/cmdline.patch"
	r1=$RC; o1=$(cat "$OUT")
	KPATCH_CACHE=$T/cache2 kpb "${STD[@]}" -n res2 "$T/p/cmdline.patch"
	[ $r1 -ne 0 ] && grep -q 'forced failure of modules' <<<"$o1" && grep -q 'resuming an interrupted build' "$OUT" &&
		grep -q 'original build complete' "$OUT" && ls "$T"/cache2/kpatch-build/orig/*/.complete >/dev/null 2>&1 &&
		pass orig-build-resume || fail orig-build-resume "a failed original build was not resumed" "$OUT"
	rm -rf "$T/cache2"
fi
if want interrupt-orig-build; then
	# TERM during the original build: make and its children stop, no marker, resumable
	OUT=$T/intr2.out; : > "$OUT"
	FAKE_SLEEP=30 KPATCH_CACHE=$T/cache3 setsid "$KPB" "${STD[@]}" -n intr2 "$T/p/cmdline.patch" >> "$OUT" 2>&1 &
	pid=$!
	for _ in $(seq 1 50); do grep -q 'building original kernel (not cached' "$OUT" && break; sleep 0.1; done
	sleep 0.3; kill -TERM $pid; wait $pid; RC=$?
	sleep 0.3
	if [ $RC -ne 0 ] && grep -q 'interrupted' "$OUT" && ! pgrep -f "$S/scripts/fakebuild.sh" >/dev/null &&
		! ls "$T"/cache3/kpatch-build/orig/*/.complete >/dev/null 2>&1 &&
		[ -z "$(ls -A "$T/cache3/kpatch-build/tmp")" ]; then
		OUT=$T/out
		KPATCH_CACHE=$T/cache3 kpb "${STD[@]}" -n intr3 "$T/p/cmdline.patch"
		grep -q 'resuming an interrupted build' "$OUT" && grep -q 'done: ' "$OUT" &&
			pass interrupt-orig-build || fail interrupt-orig-build "the interrupted original build was not resumed" "$OUT"
	else
		fail interrupt-orig-build "rc=$RC; build still running, marker written or scratch left" "$OUT"
	fi
	OUT=$T/out; rm -rf "$T/cache3"
fi
if want broken-patch-cleanup; then
	kpb "${STD[@]}" "$T/p/cmdline.patch" -n warmup   # builds the cache (differ may be absent)
	grep -q 'building original kernel (not cached' "$OUT" || fail broken-patch-cleanup "first run did not build the original" "$OUT"
	C_SUM=$(cache_sum)
	kpb "${STD[@]}" "$T/p/broken.patch"
	[ $RC -ne 0 ] && grep -q "error: building patched objects: 1 affected: compiling the patched fs/proc/cmdline.o failed" "$OUT" &&
		grep -q "expected expression" "$OUT" && grep -q "log: .*/logs/broken-" "$OUT" &&
		grep -q 'building original kernel (cached' "$OUT" &&
		[ "$(tree_sum "$S")" = "$S_SUM" ] && [ "$(cache_sum)" = "$C_SUM" ] && scratch_empty &&
		pass broken-patch-cleanup || fail broken-patch-cleanup "tree/cache changed, scratch left or bad message" "$OUT"
fi
if want interrupt-cleanup; then
	kpb "${STD[@]}" -n warm-intr "$T/p/cmdline.patch"   # the cache must exist
	C_SUM=$(cache_sum)
	# slow compiler: interrupt while the patched object is being compiled
	printf '#!/bin/sh\ncase "$*" in *--version*) exec gcc "$@";; esac\nsleep 30\nexec gcc "$@"\n' > "$T/slowcc"; chmod +x "$T/slowcc"
	# (a fresh output file: the kill must not race with the start of the run)
	OUT=$T/intr.out; : > "$OUT"
	CC=$T/slowcc setsid "$KPB" "${STD[@]}" -n intr "$T/p/cmdline.patch" >> "$OUT" 2>&1 &
	pid=$!
	for _ in $(seq 1 50); do grep -q 'building patched objects' "$OUT" 2>/dev/null && break; sleep 0.1; done
	kill -TERM $pid; wait $pid; RC=$?
	sleep 0.5	# anything left running would recreate the scratch directory
	[ $RC -ne 0 ] && grep -q 'kpatch-build: interrupted' "$OUT" && [ "$(tree_sum "$S")" = "$S_SUM" ] &&
		[ "$(cache_sum)" = "$C_SUM" ] && scratch_empty && ! pgrep -f "$T/slowcc" >/dev/null &&
		pass interrupt-cleanup || fail interrupt-cleanup "rc=$RC; tree/cache changed or scratch left" "$OUT"
	OUT=$T/out
fi
if want name-derived; then
	kpb "${STD[@]}" "$T/p/my fix+1.patch" -t vmlinux -t modules
	grep -q 'logs/my-fix-1-' "$OUT" || compgen -G "$KPATCH_CACHE/kpatch-build/logs/my-fix-1-*" >/dev/null &&
		pass name-derived || fail name-derived "name of 'my fix+1.patch' is not my-fix-1" "$OUT"
fi
if want name-derived-truncated; then
	kpb "${STD[@]}" "$T/p/$(printf 'x%.0s' $(seq 1 60)).patch"
	compgen -G "$KPATCH_CACHE/kpatch-build/logs/$(printf 'x%.0s' $(seq 1 45))-[0-9]*" >/dev/null &&
		pass name-derived-truncated || fail name-derived-truncated "derived name not truncated to 45" "$OUT"
fi

expect patch-fuzz 0 "warning: patch .*fuzz.patch applies with fuzz" "${STD[@]}" -t vmlinux -t modules "$T/p/fuzz.patch"
if want header-objects; then
	kpb "${STD[@]}" -d "$T/p/header.patch"
	grep -q 'include/linux/fake.h: included by 3 object(s)' "$OUT" &&
		grep -q 'building patched objects: 3 affected' "$OUT" &&
		[ "$(tree_sum "$S")" = "$S_SUM" ] && pass header-objects || fail header-objects "header change: wrong object set" "$OUT"
	rm -rf "$KPATCH_CACHE"/kpatch-build/tmp/*
fi
if want cc-launcher; then
	# CC may be a command line (ccache gcc, distcc gcc): the patched compile runs through it
	printf '#!/bin/sh\necho "$*" >> %s/launcher.log\nexec "$@"\n' "$T" > "$T/launcher"; chmod +x "$T/launcher"
	CC="$T/launcher gcc" kpb "${STD[@]}" -n launch "$T/p/cmdline.patch"
	grep -q -- '-c -o fs/proc/cmdline.o .*fs/proc/cmdline.c' "$T/launcher.log" &&
		pass cc-launcher || fail cc-launcher "CC='launcher gcc' not used for the patched compile (or cache not shared)" "$OUT"
	rm -rf "$KPATCH_CACHE"/kpatch-build/tmp/*
fi
if want release-mismatch; then
	kpb "${STD[@]}" -n rel0 "$T/p/noapply.patch"
	kpb "${STD[@]}" -n rel0 "$T/p/cmdline.patch"
	ob=$(sed -n 's/.*building original kernel (cached: \(.*\))$/\1/p' "$OUT")/obj
	mkdir -p "$B/include/config" "$ob/include/config"
	echo 6.1.0-other > "$B/include/config/kernel.release"
	echo 6.1.0-fake > "$ob/include/config/kernel.release"
	kpb "${STD[@]}" -n rel "$T/p/cmdline.patch"
	rm -rf "$B/include" "$ob/include"
	[ $RC -ne 0 ] && grep -q "original build (-s source, -c config) is kernel release 6.1.0-fake, but the booted kernel's tree .* is 6.1.0-other" "$OUT" &&
		pass release-mismatch || fail release-mismatch "a different booted kernel release was accepted" "$OUT"
fi
if want default-vmlinux; then
	kpb -s "$S" -c "$B/.config" -o "$T/o" -n defv "$T/p/cmdline.patch"
	grep -q "using vmlinux $B/vmlinux" "$OUT" && grep -q 'done: ' "$OUT" &&
		pass default-vmlinux || fail default-vmlinux "the vmlinux next to -c was not used" "$OUT"
fi
if want two-patches; then
	mkpatch fork.patch kernel/fork.c 's/nr_forks++;/nr_forks += 2;/'
	kpb "${STD[@]}" -n two "$T/p/cmdline.patch" "$T/p/fork.patch"
	grep -q 'applying 2 patch(es)' "$OUT" && grep -q 'building patched objects: 2 affected' "$OUT" &&
		grep -q '2 object(s) recompiled: fs/proc/cmdline.o kernel/fork.o' "$OUT" &&
		pass two-patches || fail two-patches "two patches: wrong objects" "$OUT"
	rm -rf "$KPATCH_CACHE"/kpatch-build/tmp/*
fi
if want patch-on-patch; then
	# the second patch applies only on top of the first
	cp -a "$S" "$T/s3"; sed -i 's/seq_puts(m, "\\n");/seq_puts(m, "\\n"); seq_puts(m, "x");/' "$T/s3/fs/proc/cmdline.c"
	mkdir -p "$T/pp2/a/fs/proc" "$T/pp2/b/fs/proc"; cp "$T/s3/fs/proc/cmdline.c" "$T/pp2/a/fs/proc/"
	sed 's/seq_puts(m, "x");/seq_puts(m, "y");/' "$T/s3/fs/proc/cmdline.c" > "$T/pp2/b/fs/proc/cmdline.c"
	(cd "$T/pp2" && diff -u a/fs/proc/cmdline.c b/fs/proc/cmdline.c) > "$T/p/on-top.patch"
	rm -rf "$T/s3"
	kpb "${STD[@]}" -n stacked "$T/p/cmdline.patch" "$T/p/on-top.patch"
	! grep -q 'does not apply' "$OUT" && grep -q 'building patched objects: 1 affected' "$OUT" &&
		pass patch-on-patch || fail patch-on-patch "stacked patches not applied in order" "$OUT"
	kpb "${STD[@]}" -n stacked2 "$T/p/on-top.patch"
	[ $RC -ne 0 ] && grep -q 'on-top.patch does not apply' "$OUT" && pass patch-on-patch-alone || fail patch-on-patch-alone "dependent patch applied alone" "$OUT"
	rm -rf "$KPATCH_CACHE"/kpatch-build/tmp/*
fi
if want fake-full-flow; then
	# the whole pipeline on the fake tree: differ, template "kbuild", klp-convert
	if have_tools; then
		kpb "${STD[@]}" -n full "$T/p/cmdline.patch"
		[ $RC -eq 0 ] && grep -q 'diffing fs/proc/cmdline.o: 1 function(s) changed' "$OUT" &&
			[ -f "$T/o/livepatch-full.ko" ] && readelf -SW "$T/o/livepatch-full.ko" | grep -q '\.kpatch\.funcs' &&
			pass fake-full-flow || fail fake-full-flow "the pipeline did not finish on the fake tree" "$OUT"
	else
		skip fake-full-flow "create-diff-object or klp-convert not built"
	fi
fi
if want getopt-forms; then
	# kpatch's own scripts pass -j2, -dR; GNU getopt also takes -sDIR, --opt=V, --abbrev V
	if have_tools; then
		KPATCH_CACHE=$T/cache4 kpb -dRj1 -nclustered -s"$S" -c"$B/.config" --vmlin "$B/vmlinux" --out="$T/o" "$T/p/cmdline.patch"
		lg=$(compgen -G "$T/cache4/kpatch-build/logs/clustered-*.log" | head -n1)
		[ $RC -eq 0 ] && [ -f "$T/o/livepatch-clustered.ko" ] && grep -q 'scratch directory kept' "$OUT" &&
			grep -q 'not cached: .*-j1,' "$OUT" && grep -q 'template: KPATCH_REPLACE=0' "$lg" &&
			pass getopt-forms || fail getopt-forms "-dRj1 -nNAME -sDIR --vmlin --out= not parsed like getopt" "$OUT"
		rm -rf "$T/cache4"
	else
		skip getopt-forms "create-diff-object or klp-convert not built"
	fi
fi
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
	unset KPATCH_CACHE
	eval "$ENV"
	export KPATCH_CACHE
	KSTD=(-s "$KSRC" -c "$KCONFIG" -v "$KVMLINUX" -o "$T/ko")
	mkdir -p "$T/ko"
	# the source tree's state: files newer than its Makefile, a .config, its listing
	# shellcheck disable=SC2012  # (ls -la: the listing itself is what is summed)
	ksrc_sum() { (cd "$KSRC" && find . -newer Makefile -o -name .config | head -n 5; ls -la "$KSRC" | sha1sum); }
	K_SUM=$(ksrc_sum)
	can_boot() { command -v qemu-system-x86_64 >/dev/null && [ -x "$REPO/integration/run-guest.sh" ]; }
	# boot NAME GUEST-SCRIPT MODULE...: load the modules in the reference kernel under qemu
	boot() {
		local name=$1; shift
		want "$name" || return 0
		if ! can_boot; then skip "$name" "qemu not available"; return; fi
		"$REPO/integration/run-guest.sh" --log "$T/$name.console" cached "$@" > "$OUT" 2>&1 &&
			pass "$name" || fail "$name" "guest check failed (console $T/$name.console)" "$OUT"
	}
	if want kernel-cmdline; then
		# exactly the issue's command: -s and -c only (the vmlinux is the one next to the config)
		kpb -s "$KSRC" -c "$KCONFIG" -o "$T/ko" "$HERE/patches/cmdline-string.patch"
		grep -q "using vmlinux $KVMLINUX" "$OUT" || fail kernel-default-vmlinux "vmlinux next to the config not used" "$OUT"
		ko_file=$T/ko/livepatch-cmdline-string.ko
		if [ $RC -eq 0 ] && [ -f "$ko_file" ] && grep -q 'diffing fs/proc/cmdline.o: 1 function(s) changed' "$OUT" &&
			modinfo "$ko_file" | grep -q '^livepatch: *Y' ; then
			pass kernel-cmdline
		else
			fail kernel-cmdline "no module or wrong diff" "$OUT"
		fi
		[ -f "$ko_file" ] && boot kernel-cmdline-boot "$HERE/guest/cmdline-string.sh" "$ko_file"
	fi
	if want kernel-keep-from-diff; then
		# --keep-tmp, then --from diff: the differ and what follows rerun on the
		# kept objects, no compile; the same module, sooner
		kpb "${KSTD[@]}" -n keepk --keep-tmp "$HERE/patches/cmdline-string.patch"
		KK=$(kept_dir) t1=$(done_seconds)
		cp "$T/ko/livepatch-keepk.ko" "$T/keepk1.ko" 2>/dev/null; rm -f "$T/ko/livepatch-keepk.ko"
		kpb "${KSTD[@]}" -n keepk --from diff "$HERE/patches/cmdline-string.patch"
		t2=$(done_seconds)
		[ $RC -eq 0 ] && [ -n "$t1" ] && [ -n "$t2" ] && cmp -s "$T/keepk1.ko" "$T/ko/livepatch-keepk.ko" &&
			grep -q 'diffing fs/proc/cmdline.o: 1 function(s) changed' "$OUT" && ! grep -q 'building patched objects' "$OUT" &&
			awk -v a="$t1" -v b="$t2" 'BEGIN { exit !(b < a) }' &&
			pass "kernel-keep-from-diff (${t1}s, then ${t2}s)" || fail kernel-keep-from-diff "exit $RC; another module, or not faster (${t1:-?}s, then ${t2:-?}s)" "$OUT"
		[ -z "$KK" ] || rm -rf "$KK"
	fi
	if want kernel-lines-only; then
		kpb "${KSTD[@]}" "$HERE/patches/cmdline-lines-only.patch"
		# a later run with another patch reuses the original build (even
		# when the first kernel case of this run had to build it)
		grep -q 'building original kernel (cached' "$OUT" && pass kernel-cache-reused ||
			fail kernel-cache-reused "original not cached on a second run" "$OUT"
		[ $RC -ne 0 ] && grep -q 'diffing fs/proc/cmdline.o: no function changed' "$OUT" &&
			grep -q 'error: diffing 1 object(s): no function changed' "$OUT" && pass kernel-lines-only || fail kernel-lines-only "a lines-only patch pulled in functions" "$OUT"
	fi
	if want kernel-lines-only-LINE; then
		# kernel/params.c: param_sysfs_init() (__init) prints __LINE__; shifting it is no change
		kpb "${KSTD[@]}" "$HERE/patches/params-lines-only.patch"
		[ $RC -ne 0 ] && grep -q 'diffing kernel/params.o: no function changed' "$OUT" &&
			! grep -q 'cannot be live-patched' "$OUT" && pass kernel-lines-only-LINE || fail kernel-lines-only-LINE "__LINE__ shift treated as a change" "$OUT"
	fi
	if want kernel-macros; then
		# #include "kpatch-macros.h" works without any CC/KCFLAGS help; the callback is kept
		kpb "${KSTD[@]}" "$HERE/patches/cmdline-macros.patch"
		ko_file=$T/ko/livepatch-cmdline-macros.ko
		[ $RC -eq 0 ] && readelf -SW "$ko_file" | grep -qE '\.kpatch\.callbacks\.post_patch +PROGBITS +[0-9a-f]+ [0-9a-f]+ 000010' &&
			pass kernel-macros || fail kernel-macros "kpatch-macros.h patch failed" "$OUT"
		[ -f "$ko_file" ] && boot kernel-macros-boot "$HERE/guest/cmdline-macros.sh" "$ko_file"
	fi
	if want kernel-refusal; then
		# the differ refuses (changed __init code): exit 2, its reason on one line
		kpb "${KSTD[@]}" "$HERE/patches/cmdline-init-refused.patch"
		[ $RC -eq 2 ] && grep -q 'error: fs/proc/cmdline.o cannot be live-patched: .*proc_cmdline_init: .*__init' "$OUT" &&
			pass kernel-refusal || fail kernel-refusal "differ refusal not reported (exit $RC)" "$OUT"
	fi
	if want kernel-module; then
		kpb "${KSTD[@]}" "$HERE/patches/module-kobject-example.patch"
		ko_file=$T/ko/livepatch-module-kobject-example.ko
		[ $RC -eq 0 ] && [ -f "$ko_file" ] && grep -q 'diffing samples/kobject/kobject-example.o: 1 function(s) changed' "$OUT" &&
			pass kernel-module || fail kernel-module "in-tree module patch failed" "$OUT"
		[ -f "$ko_file" ] && boot kernel-module-boot "$HERE/guest/module-kobject-example.sh" "$KOBJ/samples/kobject/kobject-example.ko" "$ko_file"
	fi
	if want kernel-two-parents; then
		kpb "${KSTD[@]}" -n two-parents "$HERE/patches/cmdline-string.patch" "$HERE/patches/module-kobject-example.patch"
		ko_file=$T/ko/livepatch-two-parents.ko
		[ $RC -eq 0 ] && grep -q 'diffing fs/proc/cmdline.o: 1 function' "$OUT" &&
			grep -q 'diffing samples/kobject/kobject-example.o: 1 function' "$OUT" &&
			pass kernel-two-parents || fail kernel-two-parents "vmlinux + module patch failed" "$OUT"
		[ -f "$ko_file" ] && boot kernel-two-parents-boot "$HERE/guest/two-parents.sh" "$KOBJ/samples/kobject/kobject-example.ko" "$ko_file"
	fi
	if want kernel-oot; then
		EXTMOD_SUM=$(tree_sum "$EXTMOD")
		if oot_ko=$(KOBJ=$KOBJ "$REPO/integration/build-extmod.sh" "$EXTMOD" "$T/oot-booted" 2>"$OUT"); then
			kpb -c "$KCONFIG" -v "$KVMLINUX" -o "$T/ko" --oot-module "$oot_ko" --oot-module-src "$EXTMOD" "$HERE/patches/oot-kptest-smoke.patch"
			ko_file=$T/ko/livepatch-oot-kptest-smoke.ko
			[ $RC -eq 0 ] && [ -f "$ko_file" ] && grep -q 'diffing kptest_smoke.o: 1 function(s) changed' "$OUT" &&
				[ "$(tree_sum "$EXTMOD")" = "$EXTMOD_SUM" ] &&
				pass kernel-oot || fail kernel-oot "out-of-tree module patch failed (or its source dir was written)" "$OUT"
			# a second run: the original module build is the cached one, and only
			# the object the patch changed is diffed
			first_out=$(cat "$OUT")
			rm -f "$ko_file"
			kpb -c "$KCONFIG" -v "$KVMLINUX" -o "$T/ko" --oot-module "$oot_ko" --oot-module-src "$EXTMOD" "$HERE/patches/oot-kptest-smoke.patch"
			[ $RC -eq 0 ] && [ -f "$ko_file" ] &&
				grep -q 'building original out-of-tree module kptest_smoke (cached: ' "$OUT" &&
				grep -q '1 object(s) changed: kptest_smoke.o' "$OUT" &&
				grep -q 'diffing kptest_smoke.o: 1 function(s) changed' "$OUT" &&
				grep -qE 'building original out-of-tree module kptest_smoke (from|\(cached)' <<<"$first_out" &&
				pass kernel-oot-cached || fail kernel-oot-cached "the second run did not use the cached original module build" "$OUT"
			# kept, then from the differ on: the same module (original and patched are one step)
			kpb -c "$KCONFIG" -v "$KVMLINUX" -o "$T/ko" --keep-tmp --oot-module "$oot_ko" --oot-module-src "$EXTMOD" "$HERE/patches/oot-kptest-smoke.patch"
			KO=$(kept_dir); cp "$ko_file" "$T/oot1.ko" 2>/dev/null; rm -f "$ko_file"
			kpb -c "$KCONFIG" -v "$KVMLINUX" -o "$T/ko" --from diff --oot-module "$oot_ko" --oot-module-src "$EXTMOD" "$HERE/patches/oot-kptest-smoke.patch"
			[ $RC -eq 0 ] && [ -n "$KO" ] && grep -q "resuming from step diff in $KO (kept: original, patched)" "$OUT" &&
				! grep -q 'building patched objects' "$OUT" && cmp -s "$T/oot1.ko" "$ko_file" &&
				pass kernel-oot-from-diff || fail kernel-oot-from-diff "exit $RC; not resumed at the differ, or another module" "$OUT"
			[ -z "$KO" ] || rm -rf "$KO"
			[ -f "$ko_file" ] && boot kernel-oot-boot "$HERE/guest/oot-kptest-smoke.sh" "$oot_ko" "$ko_file"
		else
			fail kernel-oot "building the booted out-of-tree module failed" "$OUT"
		fi
	fi
	if want kernel-report; then
		# a new .cold part, tracepoints (.static_call_sites entries) and a klp
		# reference with sympos 2: the JSON report validated, its graph rendered
		kpb "${KSTD[@]}" -n report-graph --report "$T/k.json" --report-dot "$T/k.dot" \
			"$ZOO/22-part-cold-workqueue.patch" "$IPATCHES/11-sympos.patch"
		[ $RC -eq 0 ] && report_ok kernel-report "$T/k.json" '
o = objs()
assert r["status"] == "success" and r["kernel"]["release"].startswith("6.1."), r["kernel"]
assert len(r["kernel"]["vmlinux_build_id"]) == 40, r["kernel"]
wq, cpu = o["kernel/workqueue.o"], o["drivers/base/cpu.o"]
assert "__queue_work" in [p["function"] for p in wq["patched"]], wq["patched"]
# the .cold part is new or, when the config already split one off, changed
# with it; the WARN_ONCE flag it uses is numbered by GCC, not by us
cold = [x for x in wq["new"] if x["function"] == "__queue_work.cold"] + \
	[x for x in wq["included"] if x["symbol"] == "__queue_work.cold"]
assert cold, (wq["new"], wq["included"])
assert any(i["symbol"].startswith("__already_done.") and i["reason"] == "needed by __queue_work.cold"
	for i in wq["included"]), wq["included"]
assert {"section": ".static_call_sites", "function": "__queue_work"} in wq["special_entries"], wq["special_entries"]
assert [p["function"] for p in cpu["patched"]] == ["print_cpu_modalias"], cpu["patched"]
assert {"symbol": "dev_attr_modalias", "object": "vmlinux", "sympos": 2, "from_object": "drivers/base/cpu.o"} in r["klp_references"]
steps = {s["name"].split(" (")[0]: s for s in r["steps"]}
assert steps["building original kernel"]["cached"] and steps["reading symbols and special-section struct sizes of " + r["kernel"]["vmlinux"]]["cached"], r["steps"]
' || { [ $RC -eq 0 ] || fail kernel-report "build failed (exit $RC)" "$OUT"; }
		if want kernel-report-dot && ! command -v dot >/dev/null; then
			skip kernel-report-dot "graphviz (dot) not installed"
		elif want kernel-report-dot && [ $RC -eq 0 ]; then
			dot -Tsvg "$T/k.dot" > "$T/k.svg" 2>> "$OUT"
			n=0
			W=kernel/workqueue.o
			for t in $W:__queue_work $W:__queue_work.cold $W:section:.static_call_sites 'klp:vmlinux:dev_attr_modalias,2' \
				"$W:__queue_work&#45;&gt;$W:section:.static_call_sites" "$W:__queue_work&#45;&gt;$W:__queue_work.cold" \
				'drivers/base/cpu.o:print_cpu_modalias&#45;&gt;klp:vmlinux:dev_attr_modalias,2'; do
				grep -qF "<title>$t</title>" "$T/k.svg" && n=$((n + 1)) || echo "missing $t" >> "$OUT"
			done
			# the WARN_ONCE flag the .cold part needs (GCC numbers it)
			grep -qE "<title>$W:__queue_work(\.cold)?&#45;&gt;$W:__already_done\.[0-9]+</title>" "$T/k.svg" &&
				n=$((n + 1)) || echo "missing an edge to $W:__already_done.N" >> "$OUT"
			[ $n = 8 ] && grep -q '>\.cold part' "$T/k.svg" && grep -q '>klp references into vmlinux<' "$T/k.svg" &&
				pass kernel-report-dot || fail kernel-report-dot "graph lacks nodes or edges" "$OUT"
		fi
	fi
	if want kernel-report-refused; then
		kpb "${KSTD[@]}" --report "$T/kr.json" "$HERE/patches/cmdline-init-refused.patch"
		[ $RC -eq 2 ] && report_ok kernel-report-refused "$T/kr.json" '
assert r["status"] == "refused" and r["exit_code"] == 2 and r["module"] is None
f = r["refusals"][0]
assert f["object"] == "fs/proc/cmdline.o" and f["symbol"] == "proc_cmdline_init" and "__init" in f["reason"], r["refusals"]
' || { [ $RC -eq 2 ] || fail kernel-report-refused "exit $RC, expected 2" "$OUT"; }
	fi
	if want kernel-broken-cleanup; then
		OC=$(compgen -G "$KPATCH_CACHE/kpatch-build/orig/*/" | head -n1)
		O_SUM=$(cd "$OC" && find . -printf '%p %s %T@\n' | sort | sha1sum)
		kpb "${KSTD[@]}" "$HERE/patches/cmdline-broken.patch"
		[ $RC -ne 0 ] && grep -q 'compiling the patched fs/proc/cmdline.o failed' "$OUT" &&
			[ "$(cd "$OC" && find . -printf '%p %s %T@\n' | sort | sha1sum)" = "$O_SUM" ] &&
			[ "$(ksrc_sum)" = "$K_SUM" ] &&
			pass kernel-broken-cleanup || fail kernel-broken-cleanup "cache or source changed" "$OUT"
	fi
	# files the build generates from a changed file (lib/generated.sh): the step
	# replayed on the patched sources, refused naming the file when its output
	# differs, the cached original build untouched
	OC=$(compgen -G "$KPATCH_CACHE/kpatch-build/orig/*/" | head -n1)
	O_SUM=$(cd "$OC" && find . -printf '%p %s %T@\n' | sort | sha1sum)
	if want kernel-generated-asm-offsets; then
		kpb "${KSTD[@]}" "$HERE/patches/generated-asm-offsets.patch"
		[ $RC -eq 1 ] && [ "$(grep -c 'error:' "$OUT")" = 1 ] &&
			grep -q 'error: arch/x86/kernel/asm-offsets.c changes include/generated/asm-offsets.h (generated from arch/x86/kernel/asm-offsets.s): TASK_kpatch_pid [0-9]* added;' "$OUT" &&
			pass kernel-generated-asm-offsets || fail kernel-generated-asm-offsets "new asm-offsets constant not refused (exit $RC)" "$OUT"
	fi
	if want kernel-generated-struct; then
		# a field added to a struct asm-offsets.c measures: the offset that moves, old and new
		kpb "${KSTD[@]}" "$HERE/patches/generated-struct.patch"
		[ $RC -eq 1 ] &&
			grep -qE 'error: arch/x86/include/asm/processor.h changes include/generated/asm-offsets.h \(generated from arch/x86/kernel/asm-offsets.s\): TASK_threadsp [0-9]+ -> [0-9]+; code built against' "$OUT" &&
			pass kernel-generated-struct || fail kernel-generated-struct "moved asm-offsets constant not refused (exit $RC)" "$OUT"
	fi
	if want kernel-generated-syscall; then
		kpb "${KSTD[@]}" "$HERE/patches/generated-syscall.patch"
		[ $RC -eq 1 ] && grep -q 'error: arch/x86/entry/syscalls/syscall_64.tbl changes the generated arch/x86/include/generated/asm/syscalls_64.h' "$OUT" &&
			pass kernel-generated-syscall || fail kernel-generated-syscall "syscall table change not refused (exit $RC)" "$OUT"
	fi
	if want kernel-generated-unchanged; then
		# a header asm-offsets.c includes, changed without changing an offset, and the
		# cmdline change: asm-offsets regenerated and compared, the module built
		kpb "${KSTD[@]}" -n gen-unchanged "$HERE/patches/generated-unchanged.patch" "$HERE/patches/cmdline-string.patch"
		[ $RC -eq 0 ] && [ -f "$T/ko/livepatch-gen-unchanged.ko" ] &&
			grep -q 'regenerating arch/x86/kernel/asm-offsets.s from the patched sources' "$OUT" &&
			grep -q 'arch/x86/kernel/asm-offsets.s: unchanged by the patch' "$OUT" &&
			pass kernel-generated-unchanged || fail kernel-generated-unchanged "unchanged generated file refused or not compared (exit $RC)" "$OUT"
	fi
	if want kernel-generated-cache; then
		# (this cache is shared: other runs' scratch directories may be there)
		[ "$(cd "$OC" && find . -printf '%p %s %T@\n' | sort | sha1sum)" = "$O_SUM" ] &&
			! compgen -G "$KPATCH_CACHE/kpatch-build/tmp/generated-*" >/dev/null &&
			! compgen -G "$KPATCH_CACHE/kpatch-build/tmp/gen-unchanged.*" >/dev/null &&
			[ "$(ksrc_sum)" = "$K_SUM" ] &&
			pass kernel-generated-cache || fail kernel-generated-cache "the replayed generation steps changed the cached build or left scratch" "$OUT"
	fi
fi

result_summary
