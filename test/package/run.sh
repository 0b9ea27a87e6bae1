#!/bin/bash
# test/package/run.sh: the Debian package. Builds it with `dpkg-buildpackage -us -uc -b`
# in a copy of the tree, runs lintian (no errors allowed), checks its contents,
# installs it on this machine (dpkg -i), verifies the systemd units
# (systemd-analyze verify), the man pages and the bash completions, builds the demo
# patch (examples/cmdline.patch, copied to an empty directory) with the installed
# kpatch-build from that directory with nothing of the repository on PATH or in the
# environment, shows that its log names no path into the repository, and boots the
# module in qemu, loaded and unloaded by the installed kpatch. Then the kpatch-build
# suite (test/kpatch-build/run-tests.sh --installed /usr, about two minutes) runs
# against the installed tools, from an empty directory outside the repository with
# its inputs copied there (a clean environment as for the demo): every case of it,
# --report and --report-dot included, counts here (its passes and failures add to
# this suite's; its log is test/out/package/kpatch-build-suite.log). `make check`
# runs that suite only here, or in the repository when the package suite does not
# run (SKIP_PACKAGE, SKIP_INTEGRATION; test/run-all.sh).
# The package is removed again at the end unless KPATCH_KEEP_PACKAGE=1.
# Output: test/out/package/. Each check (the kpatch-build suite's too) through
# test/lib/result.sh; last line "package: N passed, N failed, N skipped".
set -euo pipefail
# shellcheck source=test/lib/grepq.sh
. "$(dirname "$0")/../lib/grepq.sh"
export LC_ALL=C
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${KPATCH_TEST_OUT:-$TOP/test/out/package}
VERSION=$(sed -n '1s/^kpatch-ng (\([^)]*\)).*/\1/p' "$TOP/debian/changelog")
DEB=kpatch-ng_${VERSION}_amd64.deb
# shellcheck source=test/lib/result.sh
. "$TOP/test/lib/result.sh"
check() {	# NAME CMD...: CMD succeeds
	local n=$1; shift
	if "$@" > "$OUT/check.out" 2>&1; then pass "$n"; else fail "$n" "$(head -n 3 "$OUT/check.out" | paste -sd' ')"; fi
}
[ "$(id -u)" = 0 ] || { result_init package "$OUT"; fail root "dpkg -i needs root"; result_summary; exit 1; }
rm -rf "$OUT"
result_init package "$OUT"

# ---- build, in a copy of the tracked and new files (the tree stays clean)
src=$OUT/build/kpatch-ng-$VERSION
mkdir -p "$src"
git -C "$TOP" ls-files -co --exclude-standard -z | (cd "$TOP" && xargs -0 cp --parents -t "$src")
t0=$SECONDS
if (cd "$src" && dpkg-buildpackage -us -uc -b -J"$(nproc)") > "$OUT/dpkg-buildpackage.log" 2>&1 && [ -f "$OUT/build/$DEB" ]; then
	pass dpkg-buildpackage "-us -uc -b: $DEB ($((SECONDS - t0)) s, $(stat -c %s "$OUT/build/$DEB") bytes)"
else
	fail dpkg-buildpackage "$(tail -n 5 "$OUT/dpkg-buildpackage.log" | paste -sd' ')"; result_summary; exit 1
fi
deb=$OUT/build/$DEB

# ---- lintian: no errors (warnings and infos -I are listed)
lintian -I "$OUT/build/kpatch-ng_${VERSION}_amd64.changes" > "$OUT/lintian.txt" 2>&1 || true
ne=$(grep -c '^E: ' "$OUT/lintian.txt" || true)
nw=$(grep -c '^W: ' "$OUT/lintian.txt" || true)
ni=$(grep -c '^I: ' "$OUT/lintian.txt" || true)
if [ "$ne" = 0 ]; then pass lintian "0 errors, $nw warnings, $ni infos"
else fail lintian "$ne errors: $(grep '^E: ' "$OUT/lintian.txt" | paste -sd' ')"; fi
grep -E '^(E|W|I): ' "$OUT/lintian.txt" | sed 's/^/    /' || true

# ---- contents
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' > "$OUT/contents.txt"
for f in /usr/bin/kpatch-build /usr/bin/create-diff-object /usr/bin/klp-convert /usr/sbin/kpatch \
	/usr/libexec/kpatch-ng/kpatch-build /usr/libexec/kpatch-ng/kpatch-cc \
	/usr/libexec/kpatch-ng/kpatch-struct-sizes /usr/libexec/kpatch-ng/lib/module.sh \
	/usr/share/kpatch-ng/kmod/patch/Kbuild /usr/share/kpatch-ng/kmod/include/kpatch-macros.h \
	/usr/share/man/man1/kpatch-build.1.gz /usr/share/man/man1/create-diff-object.1.gz \
	/usr/share/man/man1/klp-convert.1.gz /usr/share/man/man8/kpatch.8.gz \
	/lib/systemd/system/kpatch.service /lib/systemd/system/kpatch@.service \
	/usr/share/bash-completion/completions/kpatch /usr/share/bash-completion/completions/kpatch-build; do
	if grep -qxF "$f" "$OUT/contents.txt"; then pass "contents$f"; else fail "contents$f" missing; fi
done
deps=$(dpkg-deb -f "$deb" Depends)
for d in gcc make binutils patch flex bison bc libelf-dev kmod libdwarf1 libelf1; do
	case ", $deps," in *", $d"[\ ,]*) pass "depends-$d" ;; *) fail "depends-$d" "Depends: $deps" ;; esac
done

# ---- install on this machine
if dpkg -i "$deb" > "$OUT/dpkg-i.log" 2>&1; then pass dpkg-i "$DEB"
else fail dpkg-i "$(tail -n 3 "$OUT/dpkg-i.log" | paste -sd' ')"; result_summary; exit 1; fi
cleanup() { [ -n "${KPATCH_KEEP_PACKAGE:-}" ] || dpkg -P kpatch-ng > "$OUT/dpkg-P.log" 2>&1 || true; }
trap cleanup EXIT
check dpkg-s-installed sh -c "dpkg -s kpatch-ng | grep -qx 'Status: install ok installed'"
check systemd-analyze-verify \
	systemd-analyze verify /lib/systemd/system/kpatch.service /lib/systemd/system/kpatch@livepatch-cmdline.service
man_ok() {	# the page is installed and man renders it without a warning
	man -w "$1" | grepq '^/usr/share/man/' || return 1
	! MANWIDTH=80 man --warnings=all "$1" 2>&1 >/dev/null | grep .
}
for m in kpatch-build create-diff-object klp-convert kpatch; do check "man-$m" man_ok "$m"; done
comp() {	# completion of WORDS... (the last one is being completed): COMPREPLY
	PATH=/usr/sbin:/usr/bin:/bin bash -c '. /usr/share/bash-completion/completions/$1
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); "_${COMP_WORDS[0]//-/_}"; echo "${COMPREPLY[*]}"' comp "$@" 2>&1
}
for t in "kpatch lo|load" "kpatch unload --|--wait --all" "kpatch-build --skip|--skip-cleanup --skip-compiler-check --skip-gcc-check"; do
	read -ra words <<<"${t%|*}"
	c=$(comp "${words[@]}" || true)
	n=completion-$(tr ' ' _ <<<"${t%|*}")
	if [ "$c" = "${t#*|}" ]; then pass "$n" "${t%|*} -> $c"
	else fail "$n" "${t%|*}: got '$c', want '${t#*|}'"; fi
done

# ---- the demo patch, built with the installed tools from another directory
kenv=$("$TOP/integration/kernel-cache.sh" --print-env) || { echo "package: the kernel (integration/kernel-cache.sh) is not available" >&2; exit 1; }
eval "$kenv"
# the kernel's options: Debian's stock kernel by its release (KERNEL=debian-6.1,
# make check), a reference kernel by its source, config and vmlinux
ROOT=$TOP
# shellcheck source=integration/lib/build.sh
. "$ROOT/integration/lib/build.sh"
kp_kernel_args
work=$(mktemp -d /tmp/kpatch-ng-installed.XXXXXX)
cp "$TOP/examples/cmdline.patch" "$work/"
t0=$SECONDS
# (the run's PID names its log, NAME-DATE-PID.log: env and kpatch-build are exec'd
# in this subshell; another run of the same name may be going on beside it)
if (cd "$work" && echo "$BASHPID" > "$work/pid" && exec env -i HOME="$HOME" PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	KPATCH_CACHE="$KPATCH_CACHE" kpatch-build "${KP_KERNEL_ARGS[@]}" -n cmdline cmdline.patch) \
	> "$OUT/kpatch-build.log" 2>&1 &&
	[ -f "$work/livepatch-cmdline.ko" ]; then
	pass installed-build "kpatch-build in $work: livepatch-cmdline.ko ($((SECONDS - t0)) s)"
else
	fail installed-build "$(tail -n 3 "$OUT/kpatch-build.log" | paste -sd' ')"; result_summary; exit 1
fi
cp "$work/livepatch-cmdline.ko" "$OUT/"
# its log lists the commands it ran (the log of this run: its PID, not the newest
# one named cmdline, which may be another suite's)
log=$(find "$KPATCH_CACHE/kpatch-build/logs" -name "cmdline-*-$(cat "$work/pid").log" | head -n 1)
if [ -z "$log" ]; then
	fail no-repository-path "no log of the run (PID $(cat "$work/pid")) in $KPATCH_CACHE/kpatch-build/logs"
	log=/dev/null
elif grep -qF "$TOP" "$OUT/kpatch-build.log" "$log"; then
	fail no-repository-path "$(grep -hF "$TOP" "$log" | head -n 2 | paste -sd' ')"
else
	pass no-repository-path "no path into the repository ($TOP) in the output and the log of the run"
fi
cp "$log" "$OUT/kpatch-build-trace.log"
# the commands it ran (its log): the installed wrapper with the installed headers,
# the installed differ and klp-convert
# (patched compile: /usr/libexec/kpatch-ng/kpatch-cc -idirafter /usr/share/kpatch-ng/kmod/include)
check patched-compile \
	grep -qF "/usr/libexec/kpatch-ng/kpatch-cc -idirafter /usr/share/kpatch-ng/kmod/include" "$log"
for t in create-diff-object klp-convert; do
	ran=$(grep -oE "^\+ (\[[0-9.]*s\] )?[^ ]*/$t " "$log" | head -n 1 | awk '{ print $NF }' || true)
	if [ -n "$ran" ] && [ "$(realpath -m "$ran")" = "/usr/bin/$t" ]; then pass "ran-$t" "$ran (= /usr/bin/$t)"
	else fail "ran-$t" "got '$ran', not /usr/bin/$t"; fi
done
# the same lookups kpatch-build makes (also those whose result is cached or not logged)
lookup() {	# FUNCTION ARG: what the installed checks.sh answers
	# shellcheck disable=SC2016  # expanded by the inner bash
	env -i PATH=/usr/bin:/bin bash -c 'SELF_DIR=/usr/libexec/kpatch-ng; . "$SELF_DIR/lib/checks.sh"; "$1" "$2"' sh "$@" || true
}
for t in kpatch-cc:/usr/libexec/kpatch-ng/kpatch-cc kpatch-struct-sizes:/usr/libexec/kpatch-ng/kpatch-struct-sizes \
	create-diff-object:/usr/bin/create-diff-object klp-convert:/usr/bin/klp-convert; do
	f=$(lookup find_tool "${t%%:*}")
	if [ -n "$f" ] && [ "$(realpath -m "$f")" = "${t#*:}" ]; then pass "finds-${t%%:*}" "${t#*:}"
	else fail "finds-${t%%:*}" "got '$f', not ${t#*:}"; fi
done
f=$(lookup find_kmod_template "")
if [ "$f" = /usr/share/kpatch-ng/kmod/patch ]; then pass finds-template "$f"
else fail finds-template "got '$f'"; fi
dash /usr/sbin/kpatch info "$work/livepatch-cmdline.ko" > "$OUT/info.txt" 2>&1 || true
check kpatch-info-installed grep -qx '    cmdline_proc_show' "$OUT/info.txt"
rm -rf "$work"

# ---- boot it: loaded and unloaded by the installed kpatch
if "$TOP/integration/run-guest.sh" --timeout 180 --log "$OUT/guest.log" --file /usr/sbin/kpatch:/bin/kpatch \
	"$KBZIMAGE" "$TOP/test/package/guest-installed.sh" "$OUT/livepatch-cmdline.ko" > "$OUT/run-guest.out" 2>&1; then
	pass boot "$(grep -c 'KPTEST-PASS' "$OUT/guest.log") guest checks passed"
else
	fail boot "$(head -n 3 "$OUT/run-guest.out" | paste -sd' ')"
fi
sed -n 's/.*KPTEST-INFO guest-installed /    guest: /p' "$OUT/guest.log"

# ---- the kpatch-build suite against the installed tools, from outside the repository
# (its passes and failures are this suite's; a non-zero exit without a failure or
# a report case that did not run is one more failure)
suite_dir=$(mktemp -d /tmp/kpatch-ng-suite.XXXXXX)
t0=$SECONDS src=0
(cd "$suite_dir" && env -i HOME="$HOME" PATH=/usr/sbin:/usr/bin:/sbin:/bin KPATCH_CACHE="$KPATCH_CACHE" \
	${KPATCH_CHECK_TIER:+KPATCH_CHECK_TIER="$KPATCH_CHECK_TIER"} \
	"$TOP/test/kpatch-build/run-tests.sh" --installed /usr) > "$OUT/kpatch-build-suite.log" 2>&1 || src=$?
rmdir "$suite_dir" 2>/dev/null || true
slog=$OUT/kpatch-build-suite.log
line=$(grep -E '^([A-Za-z0-9_.-]+: )?[0-9]+ passed, [0-9]+ failed' "$slog" | tail -n 1 || true)
if [ -z "$line" ]; then
	fail kpatch-build-suite "no summary (exit $src): $(tail -n 3 "$slog" | paste -sd' ')"
else
	# its checks are this suite's: each one again under kpatch-build/ (its
	# passes counted, not printed again)
	while read -r verdict check reason; do
		case $verdict in
		PASS) RESULT_QUIET_PASS=1 pass "kpatch-build/${check%:}" ;;
		FAIL) fail "kpatch-build/${check%:}" "$reason" ;;
		SKIP) skip "kpatch-build/${check%:}" "$reason" ;;
		esac
	done < <(grep -E '^(PASS|FAIL|SKIP) ' "$slog")
	echo "     kpatch-build suite --installed /usr, from $suite_dir: $line ($((SECONDS - t0)) s, log $slog)"
	sf=$(grep -oE '[0-9]+ failed' <<<"$line"); sf=${sf%% *}
	[ "$src" = 0 ] || [ "$sf" != 0 ] || fail kpatch-build-suite "exit $src with 0 failed"
	# (the kernel cases run where a reference kernel may: not in make check's quick tier)
	rc_cases="report-success report-dot report-refused"
	[ "${KPATCH_CHECK_TIER:-}" = quick ] || rc_cases+=" kernel-report kernel-report-dot kernel-report-refused"
	for c in $rc_cases; do
		grep -qE "^(PASS|FAIL) $c(:|\$)" "$slog" || fail "kpatch-build-suite/$c" "did not run"
	done
fi
result_summary
