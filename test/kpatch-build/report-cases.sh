# test/kpatch-build/report-cases.sh: the kpatch-build suite's cases of
# --report/--report-dot and the progress lines (sourced by run-tests.sh, with
# its helpers: pass/fail/skip (test/lib/result.sh), kpb, expect, want, $T, $OUT, $KPB...).
# shellcheck shell=bash
VALIDATE=$HERE/validate-report.py
# report_ok NAME FILE PYTHON-ASSERTIONS: FILE valid against the schema, and the
# assertions (python3, the report is r) hold
report_ok() {
	local name=$1 f=$2 code=$3
	"$VALIDATE" "$SCHEMA" "$f" >> "$OUT" 2>&1 || { fail "$name" "report does not validate" "$OUT"; return 1; }
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
def objs(): return {o["object"]: o for o in r["objects"]}
exec(sys.argv[2])' "$f" "$code" >> "$OUT" 2>&1 || { fail "$name" "report content" "$OUT"; return 1; }
	pass "$name"
}
mkpatch rich.patch fs/proc/cmdline.c 's/^int cmdline_proc_show/static __attribute__((noinline)) int cmdline_extra(struct seq_file *m) { seq_puts(m, "extra"); return 1; }\nint cmdline_proc_show/; s/\treturn 0;/\treturn cmdline_extra(m) - 1;/'
mkpatch datainit.patch kernel/fork.c 's/^int nr_forks;/int nr_forks = 5;/; s/nr_forks++;/nr_forks += 2;/'
if have_tools; then
	if want report-success; then
		ls "$KPATCH_CACHE"/kpatch-build/orig/*/.complete >/dev/null 2>&1 || kpb "${STD[@]}" -n warm-report "$T/p/cmdline.patch"
		kpb "${STD[@]}" --report "$T/rich.json" --report-dot="$T/rich.dot" "$T/p/rich.patch"
		[ "$RC" -eq 0 ] && report_ok report-success "$T/rich.json" '
o = objs()["fs/proc/cmdline.o"]
assert r["status"] == "success" and r["exit_code"] == 0 and r["error"] is None, r["status"]
assert [p["function"] for p in o["patched"]] == ["cmdline_proc_show"], o["patched"]
assert o["patched"][0]["reason"].startswith("changed at offset 0x"), o["patched"]
assert [n["function"].split(".")[0] for n in o["new"]] == ["cmdline_extra"], o["new"]
assert o["new"][0]["used_by"] == "cmdline_proc_show", o["new"]
assert {"symbol": "seq_puts", "object": "vmlinux", "sympos": 0, "from_object": "fs/proc/cmdline.o"} in r["klp_references"]
assert r["module"]["path"].endswith("/livepatch-rich.ko") and r["module"]["replace"] is True
assert r["tool"]["version"] and r["kernel"]["version"] == "6.1.0-fake"
names = [s["name"] for s in r["steps"]]
assert names[0] == "checks" and names[-1].startswith("done: "), names
assert any(s["cached"] for s in r["steps"] if s["name"].startswith("building original kernel (cached")), r["steps"]
assert "diffing fs/proc/cmdline.o" in names, names
' && python3 -c 'import json, sys, hashlib
r = json.load(open(sys.argv[1]))
assert r["module"]["sha256"] == hashlib.sha256(open(r["module"]["path"], "rb").read()).hexdigest()
assert r["patches"][0]["sha256"] == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
assert r["kernel"]["config_sha256"] == hashlib.sha256(open(sys.argv[3], "rb").read()).hexdigest()' \
			"$T/rich.json" "$T/p/rich.patch" "$B/.config" && pass report-hashes || fail report-hashes "module, patch or config hash wrong" "$OUT"
		[ "$RC" -eq 0 ] || fail report-success "build failed (exit $RC)" "$OUT"
	fi
	if want report-dot && ! command -v dot >/dev/null; then
		skip report-dot "graphviz (dot) not installed"
	elif want report-dot; then
		if dot -Tsvg "$T/rich.dot" > "$T/rich.svg" 2>> "$OUT"; then
			n=0
			x=fs/proc/cmdline.o:$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["objects"][0]["new"][0]["function"])' "$T/rich.json")
			for t in 'fs/proc/cmdline.o:cmdline_proc_show' "$x" 'klp:vmlinux:seq_puts,0' \
				"fs/proc/cmdline.o:cmdline_proc_show&#45;&gt;$x" "$x&#45;&gt;klp:vmlinux:seq_puts,0"; do
				grep -qF "<title>$t</title>" "$T/rich.svg" && n=$((n + 1)) || echo "missing node/edge $t" >> "$OUT"
			done
			[ $n = 5 ] && grep -q '>patched: changed at offset' "$T/rich.svg" && grep -q 'klp references into vmlinux' "$T/rich.svg" &&
				pass report-dot || fail report-dot "graph of the known patch lacks nodes or edges" "$OUT"
		else
			fail report-dot "dot -Tsvg failed" "$OUT"
		fi
	fi
	if want report-refused; then
		kpb "${STD[@]}" --report "$T/refused.json" --report-dot "$T/refused.dot" "$T/p/datainit.patch"
		[ "$RC" -eq 2 ] && dot -Tsvg "$T/refused.dot" 2>> "$OUT" | grep -q '>REFUSED: changed initializer' &&
			report_ok report-refused "$T/refused.json" '
assert r["status"] == "refused" and r["exit_code"] == 2 and r["module"] is None, r["status"]
assert r["refusals"] == [{"object": "kernel/fork.o", "symbol": "nr_forks",
	"reason": "changed initializer of existing data cannot be live-patched; use a callback or shadow variable"}], r["refusals"]
assert objs()["kernel/fork.o"]["result"] == "refused"
assert r["error"]["step"] == "diffing kernel/fork.o", r["error"]
' || { [ "$RC" -eq 2 ] || fail report-refused "exit $RC, expected 2" "$OUT"; }
	fi
	if want report-refused-file; then
		kpb "${STD[@]}" --report "$T/asm.json" "$T/p/asm.patch"
		[ "$RC" -eq 1 ] && report_ok report-refused-file "$T/asm.json" '
assert r["status"] == "refused" and r["objects"] == [] and r["module"] is None
assert r["refusals"][0]["object"] == "arch/x86/entry/entry_64.S", r["refusals"]
assert "assembly cannot be live-patched" in r["refusals"][0]["reason"]
assert [s["name"] for s in r["steps"]] == ["checks"], r["steps"]
'
	fi
	if want report-failed; then
		kpb "${STD[@]}" --report "$T/broken.json" "$T/p/broken.patch"
		[ "$RC" -eq 1 ] && report_ok report-failed "$T/broken.json" '
assert r["status"] == "failed" and r["refusals"] == [] and r["module"] is None
assert r["error"]["step"] == "building patched objects: 1 affected", r["error"]
assert "compiling the patched fs/proc/cmdline.o failed" in r["error"]["message"]
'
	fi
	if want report-validator; then
		# the validator rejects what the schema forbids (it can fail)
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); r["status"] = "maybe"; r["objects"][0]["patched"][0]["sympos"] = -1
r["kernel"]["config_sha256"] = "xyz"; r["surplus"] = 1; del r["steps"]
json.dump(r, open(sys.argv[2], "w"))' "$T/rich.json" "$T/bad.json"
		"$VALIDATE" "$SCHEMA" "$T/bad.json" > "$OUT" 2>&1; rc=$?
		[ $rc -eq 1 ] && [ "$(grep -c 'bad.json: /' "$OUT")" -eq 5 ] && pass report-validator ||
			fail report-validator "the validator accepted (or missed part of) a report that breaks the schema" "$OUT"
	fi
else
	skip reports "create-diff-object or klp-convert not built"
fi
if want progress; then
	# the original build reports objects done of the total (the booted tree's 5),
	# a line per KPATCH_PROGRESS_SECONDS at most, while it runs
	OUT=$T/progress.out; : > "$OUT"
	FAKE_OBJ_SLEEP=1.5 KPATCH_PROGRESS_SECONDS=2 KPATCH_CACHE=$T/cache5 "$KPB" "${STD[@]}" -n prog "$T/p/cmdline.patch" >> "$OUT" 2>&1 &
	pid=$!
	for _ in $(seq 1 100); do grep -q 'original build: [0-9]/5 objects' "$OUT" && break; sleep 0.1; done
	grep -q 'original build complete' "$OUT"; streamed=$?	# (1: the line came while building)
	wait $pid
	stamps=$(sed -n 's/^kpatch-build: \[ *\([0-9.]*\)s\]   original build: [0-9]*\/5 objects.*/\1/p' "$OUT")
	spaced=$(awk 'NR > 1 && $1 - prev < 1.5 { bad = 1 } { prev = $1 } END { print (NR >= 2 && !bad) ? 1 : 0 }' <<< "$stamps")
	[ $streamed = 1 ] && [ "$spaced" = 1 ] && grep -qE 'original build: [1-5]/5 objects \([0-9]+%\), 0m0[0-9]s, about 0m[0-9]+s left' "$OUT" &&
		grep -q 'original build complete' "$OUT" && pass progress || fail progress "no progress lines while building, too many, or no estimate" "$OUT"
	OUT=$T/out; rm -rf "$T/cache5"
fi
if want progress-lock-wait; then
	# another kernel build holds the machine's lock: the progress says so
	# (the holder lets go once the build has said it waits a second or more:
	# a fixed hold is too short when a loaded machine takes long to get there)
	mkdir -p "$T/cache6"
	# shellcheck disable=SC2016  # ($1 is the inner shell's)
	flock "$T/cache6/.kernel-build.lock" sh -c 'while [ ! -e "$1" ]; do sleep 0.1; done' - "$T/cache6.release" &
	lpid=$!; sleep 0.3
	KPATCH_PROGRESS_SECONDS=1 KPATCH_CACHE=$T/cache6 "$KPB" "${STD[@]}" -n lockwait "$T/p/cmdline.patch" > "$OUT" 2>&1 &
	kpid=$!
	for _ in $(seq 1 1200); do
		grep -q 'waiting for another kernel build (lock .*), 0m0[1-9]s' "$OUT" && break
		sleep 0.1
	done
	touch "$T/cache6.release"; wait $lpid
	wait $kpid; RC=$?
	[ "$RC" -eq 0 ] || grep -q 'original build complete' "$OUT" &&
		grep -q 'original build: waiting for another kernel build (lock .*cache6/.kernel-build.lock), 0m0[1-3]s' "$OUT" &&
		pass progress-lock-wait || fail progress-lock-wait "waiting for the kernel build lock not reported" "$OUT"
	rm -rf "$T/cache6" "$T/cache6.release"
fi
if want attribution; then
	idx=$(compgen -G "$KPATCH_CACHE/kpatch-build/orig/*/objects.idx" | head -n1)
	grep -q "^fs/proc/cmdline.o $S/fs/proc/cmdline.c vmlinux$" "$idx" &&
		grep -q "^drivers/foo/foo.o $S/drivers/foo/foo.c foo$" "$idx" &&
		pass attribution || fail attribution "objects.idx: $(tr '\n' ';' < "$idx")" "$OUT"
fi
if want source-changed-rebuild; then
	# an in-place edit of the source after the cached build is noticed
	cp -a "$S" "$T/src2"
	kpb -s "$T/src2" -c "$B/.config" -v "$B/vmlinux" -o "$T/o" -n s2b "$T/p/cmdline.patch"
	sleep 1; touch "$T/src2/kernel/fork.c"
	kpb -s "$T/src2" -c "$B/.config" -v "$B/vmlinux" -o "$T/o" -n s2c "$T/p/cmdline.patch"
	grep -q "kernel/fork.c changed after the cached original build; rebuilding" "$OUT" &&
		pass source-changed-rebuild || fail source-changed-rebuild "in-place source change not detected" "$OUT"
	rm -rf "$T/src2"
fi
if want lock-concurrent; then
	# two runs on one cache: both finish; the cache is built once
	rm -rf "$KPATCH_CACHE/kpatch-build/orig"
	"$KPB" "${STD[@]}" -n c1 "$T/p/cmdline.patch" > "$T/c1" 2>&1 &
	"$KPB" "${STD[@]}" -n c2 "$T/p/cmdline.patch" > "$T/c2" 2>&1 &
	wait
	n=$(cat "$T/c1" "$T/c2" | grep -c 'building original kernel (not cached')
	[ "$n" = 1 ] && pass lock-concurrent || { cat "$T/c1" "$T/c2" > "$OUT"; fail lock-concurrent "$n builds of the original" "$OUT"; }
fi
[ "$(tree_sum "$S")" = "$S_SUM" ] && pass fake-tree-untouched || fail fake-tree-untouched "the source tree changed" "$OUT"
