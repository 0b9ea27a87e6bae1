# test/kpatch-build/build-cases.sh: the kpatch-build suite's cases that build
# on the fake tree: the cached original build (its failure, resumption and
# interruption), cleanup after a broken patch or an interrupt (source tree and
# cache byte-identical, no scratch left), derived names, fuzz, header changes,
# CC launchers, release checks, several patches, and the whole pipeline when
# the differ and klp-convert are built (sourced by run-tests.sh, with its
# helpers: pass/fail/skip (test/lib/result.sh), kpb, expect, want, mkpatch,
# tree_sum, have_tools, $S, $B, $STD, $S_SUM, $T, $OUT, $KPB...). It defines
# cache_sum and scratch_empty, which strict-cases.sh uses too.
# shellcheck shell=bash
cache_sum() { tree_sum "$KPATCH_CACHE/kpatch-build/orig"; }
scratch_empty() { [ -z "$(ls -A "$KPATCH_CACHE/kpatch-build/tmp" 2>/dev/null)" ] || { echo "scratch left: $(ls -A "$KPATCH_CACHE/kpatch-build/tmp")" >> "$OUT"; false; }; }
# shellcheck disable=SC2153  # (S_SUM is run-tests.sh's)
if want orig-build-failure; then
	# a failing original build: error names the step, shows the build log, tree intact
	rm -rf "$KPATCH_CACHE"
	kpb "${STD[@]}" -t vmlinux -t fail-target "$T/p/cmdline.patch"
	[ "$RC" -ne 0 ] && grep -q "error: building original kernel .*: original build failed" "$OUT" &&
		grep -q "log: " "$OUT" && [ "$(tree_sum "$S")" = "$S_SUM" ] && scratch_empty &&
		! ls "$KPATCH_CACHE"/kpatch-build/orig/*/.complete >/dev/null 2>&1 &&
		pass orig-build-failure || fail orig-build-failure "bad failure handling of the original build" "$OUT"
fi
if want orig-build-resume; then
	# an original build that failed half-way is resumed by the next run, not restarted
	FAKE_FAIL=modules KPATCH_CACHE=$T/cache2 kpb "${STD[@]}" -n res1 "$T/p/cmdline.patch"
	r1=$RC; o1=$(cat "$OUT")
	KPATCH_CACHE=$T/cache2 kpb "${STD[@]}" -n res2 "$T/p/cmdline.patch"
	[ "$r1" -ne 0 ] && grep -q 'forced failure of modules' <<<"$o1" && grep -q 'resuming an interrupted build' "$OUT" &&
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
	if [ "$RC" -ne 0 ] && grep -q 'interrupted' "$OUT" && ! pgrep -f "$S/scripts/fakebuild.sh" >/dev/null &&
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
	[ "$RC" -ne 0 ] && grep -q "error: building patched objects: 1 affected: compiling the patched fs/proc/cmdline.o failed" "$OUT" &&
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
	[ "$RC" -ne 0 ] && grep -q 'kpatch-build: interrupted' "$OUT" && [ "$(tree_sum "$S")" = "$S_SUM" ] &&
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
if want progress-patched; then
	# a patched build that lasts (a header's: hundreds of objects) reports the
	# objects compiled of the affected while it runs (a launcher slows each compile)
	printf '#!/bin/sh\nsleep 1.5\nexec "$@"\n' > "$T/slowcc"; chmod +x "$T/slowcc"
	CC="$T/slowcc gcc" KPATCH_PROGRESS_SECONDS=1 kpb "${STD[@]}" -n slowhdr "$T/p/header.patch"
	[ "$RC" -eq 0 ] && grep -qE 'patched build: [0-3]/3 objects \([0-9]+%\), 0m0[0-9]s' "$OUT" &&
		pass progress-patched || fail progress-patched "no progress line during a slow patched build" "$OUT"
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
	[ "$RC" -ne 0 ] && grep -q "original build (-s source, -c config) is kernel release 6.1.0-fake, but the booted kernel's tree .* is 6.1.0-other" "$OUT" &&
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
	[ "$RC" -ne 0 ] && grep -q 'on-top.patch does not apply' "$OUT" && pass patch-on-patch-alone || fail patch-on-patch-alone "dependent patch applied alone" "$OUT"
	rm -rf "$KPATCH_CACHE"/kpatch-build/tmp/*
fi
if want fake-full-flow; then
	# the whole pipeline on the fake tree: differ, template "kbuild", klp-convert
	if have_tools; then
		kpb "${STD[@]}" -n full "$T/p/cmdline.patch"
		[ "$RC" -eq 0 ] && grep -q 'diffing fs/proc/cmdline.o: 1 function(s) changed' "$OUT" &&
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
		[ "$RC" -eq 0 ] && [ -f "$T/o/livepatch-clustered.ko" ] && grep -q 'scratch directory kept' "$OUT" &&
			grep -q 'not cached: .*-j1,' "$OUT" && grep -q 'template: KPATCH_REPLACE=0' "$lg" &&
			pass getopt-forms || fail getopt-forms "-dRj1 -nNAME -sDIR --vmlin --out= not parsed like getopt" "$OUT"
		rm -rf "$T/cache4"
	else
		skip getopt-forms "create-diff-object or klp-convert not built"
	fi
fi
