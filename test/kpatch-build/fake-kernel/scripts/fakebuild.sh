#!/bin/bash
# fakebuild.sh SRCTREE OBJTREE vmlinux|modules KCFLAGS: compile like kbuild does
set -e
src=$1 obj=$2 what=$3 kcflags=$4
cc=${CC:-gcc}
[ -z "${FAKE_SLEEP:-}" ] || sleep "$FAKE_SLEEP"
# FAKE_OBJ_SLEEP: seconds per compile (a build long enough to report progress)
[ "${FAKE_FAIL:-}" != "$what" ] || { echo "fakebuild: forced failure of $what (FAKE_FAIL)" >&2; exit 1; }
cd "$obj"
compile() {	# compile SRC-RELATIVE-C
	local c=$1 o=${1%.c}.o d b cmd
	d=$(dirname "$o"); b=$(basename "$o")
	mkdir -p "$d"
	cmd="$cc -Wp,-MMD,$d/.$b.d -nostdinc -I$src/include -I./include -D__KERNEL__ -O2 -fno-pic -pg -mfentry -mrecord-mcount -g $kcflags -I $src/$d -I ./$d -c -o $o $src/$c"
	echo "  CC      $o"
	[ -z "${FAKE_OBJ_SLEEP:-}" ] || sleep "$FAKE_OBJ_SLEEP"
	sh -c "$cmd"
	{
		echo "cmd_$o := $cmd"
		echo
		echo "source_$o := $src/$c"
		echo
		echo "deps_$o := \\"
		sed -e 's/^[^:]*://' -e 's/\\$//' "$d/.$b.d" | tr ' ' '\n' | grep -v '^$' | grep -vx "$src/$c" |
			sed 's/^/  /; s/$/ \\/'
		echo
		echo "$o: \$(deps_$o)"
		echo
		echo "\$(deps_$o):"
	} > "$d/.$b.cmd"
	rm -f "$d/.$b.d"
}
if [ "$what" = vmlinux ]; then
	objs=()
	for c in init/main.c fs/proc/cmdline.c kernel/fork.c kernel/printk.c; do
		[ -f "$src/$c" ] || continue
		compile "$c"; objs+=("${c%.c}.o")
	done
	rm -f vmlinux.a; ar cDPrST vmlinux.a "${objs[@]}"
	ld -r -o vmlinux "${objs[@]}"
else
	compile drivers/foo/foo.c
	echo drivers/foo/foo.o > drivers/foo/foo.mod
	echo drivers/foo/foo.ko > modules.order
	ld -r -o drivers/foo/foo.ko drivers/foo/foo.o
	: > Module.symvers
fi
