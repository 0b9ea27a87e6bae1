# test/kpatch-build/kernel-cases.sh: the kpatch-build suite's part 2, its
# cases on the reference kernel (integration/kernel-cache.sh): patches of
# vmlinux, of an in-tree and an out-of-tree module, refusals, reports, the
# generated-file checks, and the guest boots of the modules built (sourced by
# run-tests.sh once it has found the kernel and the tools, with its helpers:
# pass/fail/skip (test/lib/result.sh), kpb, want, tree_sum, report_ok,
# kept_dir, done_seconds, $ENV (the kernel's, from kernel-cache.sh), $T, $OUT...).
# shellcheck shell=bash
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
	if [ "$RC" -eq 0 ] && [ -f "$ko_file" ] && grep -q 'diffing fs/proc/cmdline.o: 1 function(s) changed' "$OUT" &&
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
	[ "$RC" -eq 0 ] && [ -n "$t1" ] && [ -n "$t2" ] && cmp -s "$T/keepk1.ko" "$T/ko/livepatch-keepk.ko" &&
		grep -q 'diffing fs/proc/cmdline.o: 1 function(s) changed' "$OUT" && ! grep -q 'building patched objects' "$OUT" &&
		awk -v a="$t1" -v b="$t2" 'BEGIN { exit !(b < a) }' &&
		pass "kernel-keep-from-diff (${t1}s, then ${t2}s)" || fail kernel-keep-from-diff "exit $RC; another module, or not faster (${t1:-?}s, then ${t2:-?}s)" "$OUT"
	# the template objects that hold no module name come from the template
	# cache, not a compile per patch (kpatch-build/lib/template.sh): copied, and
	# holding neither the run's name nor the template build's placeholder
	if want kernel-template-shared; then
		if [ -n "$KK" ] && grep -q '^+ kpatch-hook.o: the template cache' "$KK/prebuild.log" &&
			! grep -q '^+ \[.*kpatch-hook\.c' "$KK/prebuild.log" && [ -f "$KK/module/kpatch-hook.o" ] &&
			! grep -qE 'keepk|kpngtemplatename' "$KK/module/kpatch-hook.o"; then
			pass kernel-template-shared
		else
			fail kernel-template-shared "kpatch-hook.o compiled for the patch or holding its name (${KK:-no kept directory})" "$OUT"
		fi
	fi
	[ -z "$KK" ] || rm -rf "$KK"
fi
if want kernel-lines-only; then
	kpb "${KSTD[@]}" "$HERE/patches/cmdline-lines-only.patch"
	# a later run with another patch reuses the original build (even
	# when the first kernel case of this run had to build it)
	grep -q 'building original kernel (cached' "$OUT" && pass kernel-cache-reused ||
		fail kernel-cache-reused "original not cached on a second run" "$OUT"
	[ "$RC" -ne 0 ] && grep -q 'diffing fs/proc/cmdline.o: no function changed' "$OUT" &&
		grep -q 'error: diffing 1 object(s): no function changed' "$OUT" && pass kernel-lines-only || fail kernel-lines-only "a lines-only patch pulled in functions" "$OUT"
fi
if want kernel-lines-only-LINE; then
	# kernel/params.c: param_sysfs_init() (__init) prints __LINE__; shifting it is no change
	kpb "${KSTD[@]}" "$HERE/patches/params-lines-only.patch"
	[ "$RC" -ne 0 ] && grep -q 'diffing kernel/params.o: no function changed' "$OUT" &&
		! grep -q 'cannot be live-patched' "$OUT" && pass kernel-lines-only-LINE || fail kernel-lines-only-LINE "__LINE__ shift treated as a change" "$OUT"
fi
if want kernel-macros; then
	# #include "kpatch-macros.h" works without any CC/KCFLAGS help; the callback is kept
	kpb "${KSTD[@]}" "$HERE/patches/cmdline-macros.patch"
	ko_file=$T/ko/livepatch-cmdline-macros.ko
	[ "$RC" -eq 0 ] && readelf -SW "$ko_file" | grep -qE '\.kpatch\.callbacks\.post_patch +PROGBITS +[0-9a-f]+ [0-9a-f]+ 000010' &&
		pass kernel-macros || fail kernel-macros "kpatch-macros.h patch failed" "$OUT"
	[ -f "$ko_file" ] && boot kernel-macros-boot "$HERE/guest/cmdline-macros.sh" "$ko_file"
fi
if want kernel-refusal; then
	# the differ refuses (changed __init code): exit 2, its reason on one line
	kpb "${KSTD[@]}" "$HERE/patches/cmdline-init-refused.patch"
	[ "$RC" -eq 2 ] && grep -q 'error: fs/proc/cmdline.o cannot be live-patched: .*proc_cmdline_init: .*__init' "$OUT" &&
		pass kernel-refusal || fail kernel-refusal "differ refusal not reported (exit $RC)" "$OUT"
fi
if want kernel-module; then
	kpb "${KSTD[@]}" "$HERE/patches/module-kobject-example.patch"
	ko_file=$T/ko/livepatch-module-kobject-example.ko
	[ "$RC" -eq 0 ] && [ -f "$ko_file" ] && grep -q 'diffing samples/kobject/kobject-example.o: 1 function(s) changed' "$OUT" &&
		pass kernel-module || fail kernel-module "in-tree module patch failed" "$OUT"
	[ -f "$ko_file" ] && boot kernel-module-boot "$HERE/guest/module-kobject-example.sh" "$KOBJ/samples/kobject/kobject-example.ko" "$ko_file"
fi
if want kernel-two-parents; then
	kpb "${KSTD[@]}" -n two-parents "$HERE/patches/cmdline-string.patch" "$HERE/patches/module-kobject-example.patch"
	ko_file=$T/ko/livepatch-two-parents.ko
	[ "$RC" -eq 0 ] && grep -q 'diffing fs/proc/cmdline.o: 1 function' "$OUT" &&
		grep -q 'diffing samples/kobject/kobject-example.o: 1 function' "$OUT" &&
		pass kernel-two-parents || fail kernel-two-parents "vmlinux + module patch failed" "$OUT"
	[ -f "$ko_file" ] && boot kernel-two-parents-boot "$HERE/guest/two-parents.sh" "$KOBJ/samples/kobject/kobject-example.ko" "$ko_file"
fi
if want kernel-oot; then
	EXTMOD_SUM=$(tree_sum "$EXTMOD")
	if oot_ko=$(KOBJ=$KOBJ "$REPO/integration/build-extmod.sh" "$EXTMOD" "$T/oot-booted" 2>"$OUT"); then
		kpb -c "$KCONFIG" -v "$KVMLINUX" -o "$T/ko" --oot-module "$oot_ko" --oot-module-src "$EXTMOD" "$HERE/patches/oot-kptest-smoke.patch"
		ko_file=$T/ko/livepatch-oot-kptest-smoke.ko
		[ "$RC" -eq 0 ] && [ -f "$ko_file" ] && grep -q 'diffing kptest_smoke.o: 1 function(s) changed' "$OUT" &&
			[ "$(tree_sum "$EXTMOD")" = "$EXTMOD_SUM" ] &&
			pass kernel-oot || fail kernel-oot "out-of-tree module patch failed (or its source dir was written)" "$OUT"
		# a second run: the original module build is the cached one, and only
		# the object the patch changed is diffed
		first_out=$(cat "$OUT")
		rm -f "$ko_file"
		kpb -c "$KCONFIG" -v "$KVMLINUX" -o "$T/ko" --oot-module "$oot_ko" --oot-module-src "$EXTMOD" "$HERE/patches/oot-kptest-smoke.patch"
		[ "$RC" -eq 0 ] && [ -f "$ko_file" ] &&
			grep -q 'building original out-of-tree module kptest_smoke (cached: ' "$OUT" &&
			grep -q '1 object(s) changed: kptest_smoke.o' "$OUT" &&
			grep -q 'diffing kptest_smoke.o: 1 function(s) changed' "$OUT" &&
			grep -qE 'building original out-of-tree module kptest_smoke (from|\(cached)' <<<"$first_out" &&
			pass kernel-oot-cached || fail kernel-oot-cached "the second run did not use the cached original module build" "$OUT"
		# kept, then from the differ on: the same module (original and patched are one step)
		kpb -c "$KCONFIG" -v "$KVMLINUX" -o "$T/ko" --keep-tmp --oot-module "$oot_ko" --oot-module-src "$EXTMOD" "$HERE/patches/oot-kptest-smoke.patch"
		KO=$(kept_dir); cp "$ko_file" "$T/oot1.ko" 2>/dev/null; rm -f "$ko_file"
		kpb -c "$KCONFIG" -v "$KVMLINUX" -o "$T/ko" --from diff --oot-module "$oot_ko" --oot-module-src "$EXTMOD" "$HERE/patches/oot-kptest-smoke.patch"
		[ "$RC" -eq 0 ] && [ -n "$KO" ] && grep -q "resuming from step diff in $KO (kept: original, patched)" "$OUT" &&
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
	[ "$RC" -eq 0 ] && report_ok kernel-report "$T/k.json" '
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
' || { [ "$RC" -eq 0 ] || fail kernel-report "build failed (exit $RC)" "$OUT"; }
	if want kernel-report-dot && ! command -v dot >/dev/null; then
		skip kernel-report-dot "graphviz (dot) not installed"
	elif want kernel-report-dot && [ "$RC" -eq 0 ]; then
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
	[ "$RC" -eq 2 ] && report_ok kernel-report-refused "$T/kr.json" '
assert r["status"] == "refused" and r["exit_code"] == 2 and r["module"] is None
f = r["refusals"][0]
assert f["object"] == "fs/proc/cmdline.o" and f["symbol"] == "proc_cmdline_init" and "__init" in f["reason"], r["refusals"]
' || { [ "$RC" -eq 2 ] || fail kernel-report-refused "exit $RC, expected 2" "$OUT"; }
fi
if want kernel-broken-cleanup; then
	OC=$(compgen -G "$KPATCH_CACHE/kpatch-build/orig/*/" | head -n1)
	O_SUM=$(cd "$OC" && find . -printf '%p %s %T@\n' | sort | sha1sum)
	kpb "${KSTD[@]}" "$HERE/patches/cmdline-broken.patch"
	[ "$RC" -ne 0 ] && grep -q 'compiling the patched fs/proc/cmdline.o failed' "$OUT" &&
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
	[ "$RC" -eq 1 ] && [ "$(grep -c 'error:' "$OUT")" = 1 ] &&
		grep -q 'error: arch/x86/kernel/asm-offsets.c changes include/generated/asm-offsets.h (generated from arch/x86/kernel/asm-offsets.s): TASK_kpatch_pid [0-9]* added;' "$OUT" &&
		pass kernel-generated-asm-offsets || fail kernel-generated-asm-offsets "new asm-offsets constant not refused (exit $RC)" "$OUT"
fi
if want kernel-generated-struct; then
	# a field added to a struct asm-offsets.c measures: the offset that moves, old and new
	kpb "${KSTD[@]}" "$HERE/patches/generated-struct.patch"
	[ "$RC" -eq 1 ] &&
		grep -qE 'error: arch/x86/include/asm/processor.h changes include/generated/asm-offsets.h \(generated from arch/x86/kernel/asm-offsets.s\): TASK_threadsp [0-9]+ -> [0-9]+; code built against' "$OUT" &&
		pass kernel-generated-struct || fail kernel-generated-struct "moved asm-offsets constant not refused (exit $RC)" "$OUT"
fi
if want kernel-generated-syscall; then
	kpb "${KSTD[@]}" "$HERE/patches/generated-syscall.patch"
	[ "$RC" -eq 1 ] && grep -q 'error: arch/x86/entry/syscalls/syscall_64.tbl changes the generated arch/x86/include/generated/asm/syscalls_64.h' "$OUT" &&
		pass kernel-generated-syscall || fail kernel-generated-syscall "syscall table change not refused (exit $RC)" "$OUT"
fi
if want kernel-generated-unchanged; then
	# a header asm-offsets.c includes, changed without changing an offset, and the
	# cmdline change: asm-offsets regenerated and compared, the module built
	kpb "${KSTD[@]}" -n gen-unchanged "$HERE/patches/generated-unchanged.patch" "$HERE/patches/cmdline-string.patch"
	[ "$RC" -eq 0 ] && [ -f "$T/ko/livepatch-gen-unchanged.ko" ] &&
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
