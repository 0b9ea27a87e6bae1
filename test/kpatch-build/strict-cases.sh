# test/kpatch-build/strict-cases.sh: the kpatch-build suite's cases of the
# driver's strict mode and its kept, resumable steps (sourced by run-tests.sh,
# with its helpers: pass/fail/skip (test/lib/result.sh), kpb, expect, want, $T, $OUT, $KPB...).
# shellcheck shell=bash
# A real failure injected in the middle of a pipeline by a fake tool first on
# PATH (the ELF files, the differ and every other tool are the real ones): the
# ERR trap names the step, file:line and the failing stage; the run stops there,
# cleans up and writes no module. A copy of kpatch-build without strict mode
# goes on with the empty value and builds a module: the case tells them apart.
mkdir -p "$T/fakebin-sha" "$T/fakebin-sort"
# sha256sum fails on the identity of a vmlinux (read_parent_data's "stat | sha256sum | cut")
cat > "$T/fakebin-sha/sha256sum" <<'SH'
#!/bin/bash
[ $# -eq 0 ] || exec /usr/bin/sha256sum "$@"
in=$(mktemp); cat > "$in"
if grep -qE '^/[^ ]*/vmlinux [0-9]+ [0-9]+$' "$in"; then
	rm -f "$in"; echo "sha256sum: injected failure" >&2; exit 1
fi
/usr/bin/sha256sum < "$in"; rc=$?; rm -f "$in"; exit $rc
SH
# sort fails on the affected objects (find_affected reads them through a process substitution)
cat > "$T/fakebin-sort/sort" <<'SH'
#!/bin/bash
case "$1 ${2:-}" in "-u "*/affected) echo "sort: injected failure" >&2; exit 1 ;; esac
exec /usr/bin/sort "$@"
SH
chmod +x "$T/fakebin-sha/sha256sum" "$T/fakebin-sort/sort"
# the scratch directory a run kept; the seconds at which it was done
kept_dir() { sed -n 's/^kpatch-build: scratch directory kept: \([^ ]*\) .*/\1/p' "$OUT"; }
done_seconds() { sed -n 's/^kpatch-build: \[ *\([0-9.]*\)s\] done: .*/\1/p' "$OUT"; }
# err_line_ok FILE REGEX: one error line, matching, and its file:line is the
# line of the source that has TEXT ($3)
err_line_ok() {
	local re=$1 text=$2 loc
	[ "$(grep -c 'error:' "$OUT")" = 1 ] && grep -qE -- "$re" "$OUT" || return 1
	loc=$(sed -n 's/.*: \(lib\/[a-z]*\.sh:[0-9]*\): command failed.*/\1/p' "$OUT")
	[ -n "$loc" ] && sed -n "${loc##*:}p" "$KPB_DIR/${loc%:*}" | grep -qF -- "$text"
}
if have_tools; then
	if want strict-pipeline; then
		rm -rf "$KPATCH_CACHE"/kpatch-build/tmp/*
		PATH=$T/fakebin-sha:$PATH kpb "${STD[@]}" -n strict1 "$T/p/cmdline.patch"
		[ "$RC" -eq 1 ] && err_line_ok '^kpatch-build: error: reading symbols and special-section struct sizes of .*/vmlinux: lib/module.sh:[0-9]+: command failed \(exit 1\): sha256sum \(stage 2 of a pipeline of 3\)$' 'stat -c' &&
			! grep -q 'diffing' "$OUT" && [ ! -e "$T/o/livepatch-strict1.ko" ] && scratch_empty &&
			pass strict-pipeline || fail strict-pipeline "exit $RC: no single ERR line naming the step, lib/module.sh:LINE and sha256sum, or the run went on" "$OUT"
	fi
	if want strict-process-substitution; then
		PATH=$T/fakebin-sort:$PATH kpb "${STD[@]}" -n strict2 "$T/p/cmdline.patch"
		# shellcheck disable=SC2016  # (the command as the source has it)
		[ "$RC" -eq 1 ] && err_line_ok '^kpatch-build: error: finding objects affected by 1 changed file\(s\): lib/patched.sh:[0-9]+: command failed \(exit 1\): sort -u "\$SCRATCH/affected" \(stage 1 of a pipeline of 3\)$' 'sort -u "$SCRATCH/affected"' &&
			! grep -q 'building patched objects' "$OUT" && scratch_empty &&
			pass strict-process-substitution || fail strict-process-substitution "exit $RC: a failure inside '< <(...)' did not stop the build with one ERR line" "$OUT"
	fi
	if want strict-mode-needed; then
		# the same injection without strict mode: no error, a module built from
		# an empty parent cache key (what the cases above rule out)
		# (a copy of the driver's directory, the tools and the template where the
		# driver looks for them: the repository's layout, or the installed one)
		if [ -z "$INSTALLED" ]; then
			mkdir -p "$T/lax"
			cp -a "$REPO/kpatch-build" "$T/lax/"
			for d in create-diff-object klp-convert kmod; do ln -sfn "$REPO/$d" "$T/lax/$d"; done
			lax=$T/lax/kpatch-build/kpatch-build
		else
			mkdir -p "$T/lax/libexec"
			cp -a "$KPB_DIR" "$T/lax/libexec/"
			for d in bin share; do ln -sfn "$INSTALLED/$d" "$T/lax/$d"; done
			lax=$T/lax/libexec/kpatch-ng/kpatch-build
		fi
		sed -i -e '/^set -Eeuo pipefail$/d' -e '/^shopt -s inherit_errexit$/d' -e "/^trap 'on_err /d" "$lax"
		PATH=$T/fakebin-sha:$PATH "$lax" "${STD[@]}" -n lax "$T/p/cmdline.patch" > "$OUT" 2>&1; RC=$?
		[ "$RC" -eq 0 ] && [ -f "$T/o/livepatch-lax.ko" ] && ! grep -q 'command failed' "$OUT" &&
			pass strict-mode-needed || fail strict-mode-needed "without strict mode the injected failure did not go unnoticed (exit $RC): the strict cases prove nothing" "$OUT"
		rm -rf "$T/lax" "$KPATCH_CACHE/kpatch-build/parent/vmlinux.symtab" "$KPATCH_CACHE/kpatch-build/parent/struct-sizes"
	fi
	# ---------------------------------------------------------------- --keep-tmp, --from
	if want keep-from; then
		kpb "${STD[@]}" -n keep --keep-tmp "$T/p/cmdline.patch"
		K1=$(kept_dir); cp "$T/o/livepatch-keep.ko" "$T/keep1.ko" 2>/dev/null
		[ "$RC" -eq 0 ] && [ -d "$K1/obj" ] && [ -f "$K1/.state/convert" ] && pass keep-tmp || fail keep-tmp "exit $RC; scratch directory '$K1' not kept or incomplete" "$OUT"
		rm -f "$T/o/livepatch-keep.ko"
		kpb "${STD[@]}" -n keep --from diff "$T/p/cmdline.patch"
		[ "$RC" -eq 0 ] && grep -q "resuming from step diff in $K1 (kept: original, patched)" "$OUT" &&
			! grep -qE 'applying|building original|building patched' "$OUT" &&
			grep -q 'diffing fs/proc/cmdline.o: 1 function(s) changed' "$OUT" &&
			cmp -s "$T/keep1.ko" "$T/o/livepatch-keep.ko" && [ "$(kept_dir)" = "$K1" ] &&
			pass from-diff || fail from-diff "exit $RC; not resumed at the differ, or another module" "$OUT"
		for s in module convert patched original; do
			rm -f "$T/o/livepatch-keep.ko"
			kpb "${STD[@]}" -n keep --from "$s" --scratch "$K1" "$T/p/cmdline.patch"
			case $s in
			patched) grep -q 'building patched objects: 1 affected' "$OUT" && ! grep -q 'applying' "$OUT" ;;
			original) grep -q 'applying 1 patch' "$OUT" && ! grep -q 'resuming from step' "$OUT" ;;
			*) ! grep -q 'diffing' "$OUT" ;;
			esac && [ "$RC" -eq 0 ] && cmp -s "$T/keep1.ko" "$T/o/livepatch-keep.ko" &&
				pass "from-$s" || fail "from-$s" "exit $RC; --from $s did not rerun exactly its steps, or another module" "$OUT"
		done
	fi
	if want from-refusals; then
		expect from-unknown-step 1 "^kpatch-build: error: --from: unknown step 'frobnicate' \(the steps: original patched diff module convert; see -h\)$" \
			"${STD[@]}" -n keep --from frobnicate "$T/p/cmdline.patch"
		want from-unknown-step && { one_line_error || fail from-unknown-step-one-line "not one line" "$OUT"; }
		mkdir -p "$T/empty-scratch"
		expect from-empty-dir 1 "^kpatch-build: error: --from diff: $T/empty-scratch lacks the outputs of step original \(not a scratch directory kept with --keep-tmp\)$" \
			"${STD[@]}" -n keep --from diff --scratch "$T/empty-scratch" "$T/p/cmdline.patch"
		want from-empty-dir && { one_line_error && [ -z "$(ls -A "$T/empty-scratch")" ] || fail from-empty-dir-one-line "not one line, or the directory was written" "$OUT"; }
		# a kept run that stopped in the patched compile has no pairs to diff
		kpb "${STD[@]}" -n keepbroken --keep-tmp "$T/p/broken.patch"
		KB=$(kept_dir)
		expect from-missing-step 1 "^kpatch-build: error: --from diff: $KB lacks the outputs of step patched \(its run did not finish it\): start from patched or an earlier step$" \
			"${STD[@]}" -n keepbroken --from diff "$T/p/broken.patch"
		expect from-other-inputs 1 "^kpatch-build: error: --from diff: .* was kept by a run with other inputs \(now patch=[0-9a-f]{64}\): build it anew without --from$" \
			"${STD[@]}" -n keepbroken --from diff "$T/p/cmdline.patch"
		expect from-none-kept 1 "^kpatch-build: error: --from module: no scratch directory kept for nokept in .*/tmp \(build with --keep-tmp first, or name one with --scratch\)$" \
			"${STD[@]}" -n nokept --from module "$T/p/cmdline.patch"
		expect scratch-alone 1 "^kpatch-build: error: --scratch goes with --from STEP$" "${STD[@]}" --scratch "$T" "$T/p/cmdline.patch"
		rm -rf "$KB"
	fi
	[ -z "${K1:-}" ] || rm -rf "$K1"
else
	skip strict-mode "create-diff-object or klp-convert not built"
fi
