#!/bin/bash
# make bench: wall time and peak memory of create-diff-object on the largest
# objects at hand and on generated objects of 5,000 / 10,000 / 20,000
# functions, measured in one run, with the growth ratio per doubling; then
# kpatch-build's own benchmark when the reference kernel is cached.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CDO=${CDO:-$top/create-diff-object/create-diff-object}
work=$top/test/out/bench
mkdir -p "$work"
# a private copy: a rebuild elsewhere must not change the binary mid-run
cp "$CDO" "$work/create-diff-object"
CDO=$work/create-diff-object
CFLAGS=(-O2 -pg -mfentry -mrecord-mcount -ffunction-sections -fdata-sections -mcmodel=kernel -fno-pic -mno-red-zone -fno-stack-protector -c)
export BUG_STRUCT_SIZE=12 EX_STRUCT_SIZE=12 ALT_STRUCT_SIZE=12 JUMP_STRUCT_SIZE=16 \
	PARA_STRUCT_SIZE=16 ORC_STRUCT_SIZE=6 STATIC_CALL_STRUCT_SIZE=8

# instructions executed (callgrind counts them exactly, whatever the load)
instructions() {
	valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
		"$CDO" "$1" "$2" vmlinux "$3" /dev/null bench "$work/out.o" 2>&1 |
		awk '/Collected/ { gsub(",", "", $4); print $4 }'
}

# measure ORIG PATCHED SYMTAB -> "seconds maxrss_kb exit instructions"
measure() {
	local best=999999 rss=0 rc=0 t
	for _ in 1 2 3 4 5; do
		/usr/bin/time -f "%e %M" -o "$work/time.txt" \
			"$CDO" "$1" "$2" vmlinux "$3" /dev/null bench "$work/out.o" \
			>/dev/null 2>"$work/err.txt" || rc=$?
		t=$(tail -n 1 "$work/time.txt" | cut -d' ' -f1)
		rss=$(tail -n 1 "$work/time.txt" | cut -d' ' -f2)
		best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (b < a) ? b : a }')
	done
	echo "$best $rss $rc $(instructions "$1" "$2" "$3")"
}

printf '%-36s %8s %8s %9s %5s %14s\n' object sections seconds "peak KiB" exit instructions
report() {
	local name=$1 o=$2 p=$3 s=$4 r
	read -ra r <<< "$(measure "$o" "$p" "$s")"
	printf '%-36s %8s %8s %9s %5s %14s\n' "$name" \
		"$(readelf -SW "$p" | awk '/^ *\[ *[0-9]+\]/ { n++ } END { print n }')" "${r[@]}"
	echo "${r[*]}"
}

# the largest real objects at hand: the corpus, and the kernel build cache
corpus=${KPATCH_CORPUS:-$top/../shared/corpus/kpatch-unit-objs}/x86_64
if [ -d "$corpus" ]; then
	for o in $(find "$corpus" -name '*.ORIG.o' -printf '%s %p\n' | sort -rn | awk 'NR <= 3' | cut -d' ' -f2); do
		n=$(basename "$o" .ORIG.o)
		p=$corpus/$n.PATCHED.o; [ -e "$p" ] || continue
		readelf -sW "$o" > "$work/$n.symtab"
		# shellcheck disable=SC2046 # (NAME=SIZE words)
		(export $(cat "$corpus/struct-sizes.env" "$corpus/$n.env" 2>/dev/null)
		 report "corpus $n" "$o" "$p" "$work/$n.symtab") > "$work/r.txt"
		head -n 1 "$work/r.txt"
	done
fi
# the other architectures: the largest corpus pair of each, and a generated
# object of 10,000 functions built with its cross compiler and its 6.1
# code-generation flags (test/cdo/arch/ARCH.conf)
for a in aarch64 ppc64le s390x; do
	cd_=${KPATCH_CORPUS:-$top/../shared/corpus/kpatch-unit-objs}/$a
	if [ -d "$cd_" ]; then
		for o in $(find "$cd_" -name '*.ORIG.o' -printf '%s %p\n' | sort -rn | awk 'NR == 1' | cut -d' ' -f2); do
			n=$(basename "$o" .ORIG.o)
			p=$cd_/$n.PATCHED.o; [ -e "$p" ] || continue
			readelf -sW "$o" | sed 's/\[<localentry>: [0-9]*\]//' > "$work/$a-$n.symtab"
			# shellcheck disable=SC2046
			(export $(cat "$cd_/struct-sizes.env" "$cd_/$n.env" 2>/dev/null)
			 report "corpus $a/$n" "$o" "$p" "$work/$a-$n.symtab") > "$work/r.txt"
			head -n 1 "$work/r.txt"
		done
	fi
	d=$work/gen-$a-10000
	if [ ! -e "$d/patched.o" ]; then
		"$here/gen.sh" 10000 "$d"
		# shellcheck disable=SC1090
		(. "$top/test/cdo/arch/$a.conf"
		 for v in orig patched; do
			(cd "$d/$v" && "${ARCH_TOOL_PREFIX}gcc" -O2 -ffunction-sections \
				-fdata-sections -fno-stack-protector "${ARCH_CFLAGS[@]}" \
				"${ARCH_FTRACE_CFLAGS[@]}" -c gen.c -o ../$v.o)
		 done)
		readelf -sW "$d/orig.o" | sed 's/\[<localentry>: [0-9]*\]//' > "$d/symtab"
	fi
	report "generated $a, 10000 functions" "$d/orig.o" "$d/patched.o" "$d/symtab" > "$work/r.txt"
	head -n 1 "$work/r.txt"
done

# the largest object of each architecture, one row each: the largest C object
# of kpatch-build's cached -ffunction-sections original build of the arch's
# reference 6.1 kernel against itself (a full read/correlate/compare; exit 3;
# the booted vmlinux's symbols and struct sizes, as kpatch-build gives them), or
# the largest corpus pair when that is larger (aarch64: no kernel here, the corpus)
# shellcheck source=test/lib/kpb-orig.sh
. "$top/test/lib/kpb-orig.sh"
# largest_kernel_object ARCH -> "bytes object vmlinux" of the original build
# shellcheck disable=SC2153 # (KVMLINUX comes from kernel-cache.sh)
largest_kernel_object() (
	orig=$(KERNEL=6.1 kpb_orig_dir "$1") && [ -f "$orig/.complete" ] || exit 0
	env_out=$(ARCH=$1 KERNEL=6.1 "$top/integration/kernel-cache.sh" --no-build --print-env 2>/dev/null) ||
		exit 0
	eval "$env_out"
	# objects.idx: the compiled C objects; parent "-" is linked nowhere
	(cd "$orig/obj" && awk '$3 != "-" { print $1 }' ../objects.idx | xargs stat -c '%s %n' |
		sort -rn | awk 'NR == 1' | sed "s|\$| $KVMLINUX|; s| | $orig/obj/|")
)
largest_row() {
	local a=$1 c p size=0 ksize kobj kvmlinux name envs=() dwarf=()
	c=$(find "${KPATCH_CORPUS:-$top/../shared/corpus/kpatch-unit-objs}/$a" -name '*.ORIG.o' \
		-printf '%s %p\n' 2>/dev/null | sort -rn | awk 'NR == 1' | cut -d' ' -f2-) || c=
	p=${c%.ORIG.o}.PATCHED.o
	if [ -n "$c" ] && [ -e "$p" ]; then size=$(stat -c %s "$c"); else c=; fi
	# shellcheck disable=SC1090 # (the arch's default struct sizes)
	read -ra envs <<< "$(. "$top/test/cdo/arch/$a.conf"; echo "${ARCH_STRUCT_SIZES[@]}")"
	read -r ksize kobj kvmlinux < <(largest_kernel_object "$a") || ksize=0
	if [ "${ksize:-0}" -gt "$size" ]; then
		c=$kobj p=$kobj size=$ksize name="${kobj#*/obj/} (self)"
		readelf -sW "$kvmlinux" > "$work/largest-$a.symtab"
		read -ra dwarf <<< "$("$top/kpatch-build/kpatch-struct-sizes" "$kvmlinux" | tr '\n' ' ')"
	elif [ -n "$c" ]; then
		name="corpus $(basename "$c" .ORIG.o)"	# (a pair)
		readelf -sW "$c" | sed 's/\[<localentry>: [0-9]*\]//' > "$work/largest-$a.symtab"
		read -ra dwarf <<< "$(cat "$(dirname "$c")/struct-sizes.env" "${c%.ORIG.o}.env" 2>/dev/null | tr '\n' ' ')"
	else
		echo "$a: no object (no corpus, no cached kernel build)"
		return 0
	fi
	envs+=(${dwarf[@]+"${dwarf[@]}"})
	(export "${envs[@]}"; report "$a $name" "$c" "$p" "$work/largest-$a.symtab") > "$work/r.txt"
	echo "$(head -n 1 "$work/r.txt") $size"
}
printf '%-36s %8s %8s %9s %5s %14s %s\n' "largest object of each arch" sections seconds "peak KiB" exit instructions bytes
for a in x86_64 ppc64le s390x aarch64; do
	largest_row "$a"
done

declare -A secs ins
for n in 5000 10000 20000; do
	d=$work/gen-$n
	if [ ! -e "$d/patched.o" ]; then
		"$here/gen.sh" $n "$d"
		(cd "$d/orig" && gcc "${CFLAGS[@]}" gen.c -o ../orig.o)
		(cd "$d/patched" && gcc "${CFLAGS[@]}" gen.c -o ../patched.o)
		readelf -sW "$d/orig.o" > "$d/symtab"
	fi
	report "generated, $n functions" "$d/orig.o" "$d/patched.o" "$d/symtab" > "$work/r.txt"
	head -n 1 "$work/r.txt"
	secs[$n]=$(tail -n 1 "$work/r.txt" | cut -d' ' -f1)
	ins[$n]=$(tail -n 1 "$work/r.txt" | cut -d' ' -f4)
done
awk -v a="${secs[5000]}" -v b="${secs[10000]}" -v c="${secs[20000]}" 'BEGIN {
	printf "wall time per doubling:    5k->10k %.2fx, 10k->20k %.2fx\n",
	       (a > 0) ? b / a : 0, (b > 0) ? c / b : 0 }'
# the gate uses instruction counts: wall time on a shared 2-core machine
# moves with whatever else runs, instructions do not
awk -v a="${ins[5000]}" -v b="${ins[10000]}" -v c="${ins[20000]}" 'BEGIN {
	r1 = (a > 0) ? b / a : 0; r2 = (b > 0) ? c / b : 0
	printf "instructions per doubling: 5k->10k %.2fx, 10k->20k %.2fx (linear: at most 2.2x)\n", r1, r2
	exit !(r1 <= 2.2 && r2 <= 2.2)
}' && lin=ok || lin=FAIL
echo "differ linearity: $lin"

if [ -x "$top/test/bench/kpatch-build-bench.sh" ]; then
	"$top/test/bench/kpatch-build-bench.sh" || echo "kpatch-build bench: failed or skipped"
fi
[ "$lin" = ok ]
