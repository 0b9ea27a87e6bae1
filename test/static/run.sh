#!/bin/bash
# Static checks of the C tools' structure, on a compile of their sources of
# its own (-O0, into test/out/static; no build directory needed):
#
#   modules       the .c files depend on each other (the functions and data
#                 one uses that another defines, read with nm) without a
#                 cycle, and the library (lib/, arch/) on no tool's file
#   declarations  every function a header of the tools declares is defined
#                 (gcc -aux-info lists the declarations with their header),
#                 and every such header is compiled
#   passes        no file of the differ but main.c calls a pass's entry point
#                 (the functions of main.c's pass table, and emit): a pass
#                 reads what the ones before it left, it does not run them
#   library-exits nothing in lib/ or arch/ calls exit(), abort(), err() or
#                 die(): the library returns its errors and each tool decides
#                 (lib/util.c's die() is there for the tools; its
#                 allocators' out-of-memory exit is the one exit allowed)
#   sizes         no C source or header of the tools (lib/, arch/,
#                 create-diff-object/, klp-convert/, kpatch-build/; not kmod/)
#                 over 800 lines; none of their functions over 60 lines
#                 (kernel style: from a "{" at column 0 after the definition
#                 to the "}" at column 0, both counted; each offender as
#                 "file:line name N lines"); no shell script under
#                 kpatch-build/, test/, integration/, scripts/ or kpatch/
#                 (*.sh, or a sh/bash "#!" line) over 800 lines, none of
#                 their functions over 60 (a here-document's text not counted)
#
# usage: run.sh [-g|--graph] — with -g, also print the module graph (one
# "user -> provider" line per dependency). The last line is
# "static: N passed, N failed, N skipped" (test/lib/result.sh).
set -uo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top" || exit 1
graph=0
[ "${1:-}" = -g ] || [ "${1:-}" = --graph ] && graph=1
out=$top/test/out/static
rm -rf "$out"
# shellcheck source=test/lib/result.sh
. "$here/../lib/result.sh"
result_init static "$out"

# the library every tool links (libkp.a) and the programs built on it
LIB=(lib/*.c arch/*.c arch/*/*.c)
declare -A PROGRAMS=(
	[create-diff-object]="$(echo create-diff-object/*.c)"
	[klp-convert]="$(echo klp-convert/*.c)"
	[kpatch-struct-sizes]=kpatch-build/struct-sizes.c
	[kpatch-binary-match]=kpatch-build/binary-match.c
	[kpatch-dwarf-units]=kpatch-build/dwarf-units.c
	[kpatch-pp-compare]="$(echo kpatch-build/pp-compare/*.c)"
	[kpatch-ident]="$(echo kpatch-build/ident/*.c)"
	[elf-roundtrip]=test/elf/roundtrip.c
	[mutate-run]=test/fuzz/mutate-run.c
)
# the headers of the tools (kmod/include's other headers are the kernel's side)
HEADERS=(lib/*.h arch/*.h arch/*/*.h create-diff-object/*.h klp-convert/*.h
	 kpatch-build/pp-compare/*.h kpatch-build/ident/*.h kmod/include/kpatch-formats.h)

# every source of the programs, one a line
program_sources() { local p; for p in "${!PROGRAMS[@]}"; do tr ' ' '\n' <<<"${PROGRAMS[$p]}"; done; }

# every source compiled to $out/obj/SOURCE.o (SOURCE without .c), their
# directories made by one mkdir; then their symbol tables
compile() {
	local src o rc=0 srcs dirs=()

	mapfile -t srcs < <(printf '%s\n' "${LIB[@]}"; program_sources)
	for src in "${srcs[@]}"; do
		o=$out/obj/${src%.c}.o
		dirs+=("${o%/*}")
	done
	mkdir -p "${dirs[@]}"
	for src in "${srcs[@]}"; do
		o=$out/obj/${src%.c}.o
		gcc -std=gnu11 -I. -D_GNU_SOURCE -O0 -w -c -o "$o" -MMD \
			-aux-info "${o%.o}.aux" "$src" 2>>"$out/compile.log" || rc=1
	done
	[ $rc = 0 ] && symbol_tables "${srcs[@]}"
}

# symbol_tables SOURCE...: "symbol source" lines of what each object defines
# ($out/defined.all: nm's global defined symbols, the third field of its
# three-field lines) and of what it uses ($out/undefined.all: the second field
# of nm -u), by one nm run each for all the objects: a run costs ~0.1 s of CPU
# before it reads a file (it loads the LTO plugins, libLLVM among them), and
# the checks read the objects ~170 times
symbol_tables() {
	local src objs=()
	# (-A: each line is "OBJECT:" and the line nm prints for that object)
	# shellcheck disable=SC2016  # (an awk program)
	local split='{ i = index($0, ".o:"); f = substr($0, length(pre) + 1, i - length(pre) - 1) ".c"
		$0 = substr($0, i + 3) }'
	for src; do
		objs+=("$out/obj/${src%.c}.o")
	done
	nm -A --defined-only -g "${objs[@]}" |
		awk -v pre="$out/obj/" "$split"' NF == 3 { print $3, f }' > "$out/defined.all" &&
	nm -A -u "${objs[@]}" |
		awk -v pre="$out/obj/" "$split"' { print $2, f }' > "$out/undefined.all"
}

# "symbol file" lines: what each of @files defines, and what it uses
defined() { symbols_of "$out/defined.all" "$@"; }
undefined() { symbols_of "$out/undefined.all" "$@"; }
# symbols_of TABLE FILE...: the lines of TABLE of those files, sorted
symbols_of() {
	local table=$1
	shift
	awk -v files="$*" 'BEGIN { n = split(files, f, " "); for (i = 1; i <= n; i++) want[f[i]] = 1 }
		$2 in want' "$table" | sort
}

# "user provider" lines: the library's among its own files, each program's
# among its files and the library's
edges() {
	local p

	join <(undefined "${LIB[@]}") <(defined "${LIB[@]}") | awk '{ print $2, $3 }'
	for p in "${!PROGRAMS[@]}"; do
		# shellcheck disable=SC2086
		join <(undefined ${PROGRAMS[$p]}) \
		     <(defined ${PROGRAMS[$p]} "${LIB[@]}") | awk '{ print $2, $3 }'
	done
}

check_modules() {
	local log=$out/modules.txt lib_tools srcs

	edges | sort -u > "$out/graph.txt"
	# tsort names each cycle it meets: the files of one on its lines after
	# "input contains a loop"
	tsort "$out/graph.txt" 2>&1 >/dev/null |
		awk '/contains a loop/ { if (c) print c; c = "cycle:"; next }
		     { sub(/^tsort: /, ""); c = c " " $0 }
		     END { if (c) print c }' > "$log"
	# a library file using a symbol only a tool defines
	mapfile -t srcs < <(program_sources)
	lib_tools=$(join <(undefined "${LIB[@]}") <(defined "${srcs[@]}") |
		awk '{ print "library depends on a tool: " $2 " uses " $1 " of " $3 }')
	[ -z "$lib_tools" ] || echo "$lib_tools" >> "$log"
	if [ -s "$log" ]; then fail modules "the .c files' dependencies have a cycle ($log)" "$log"
	else pass modules "the .c files' dependencies have no cycle ($(wc -l < "$out/graph.txt") dependencies)"; fi
}

# function names of "/* FILE:LINE:NK */ decl;" lines of the .aux files
aux_names() {
	cat "$out"/obj/*.aux "$out"/obj/*/*.aux "$out"/obj/*/*/*.aux 2>/dev/null |
		awk -v want="$1" 'match($0, /^\/\* [^ ]*:[0-9]+:[INO][CF] \*\//) {
			hdr = substr($0, 4, RLENGTH - 6); kind = substr(hdr, length(hdr))
			sub(/:[0-9]+:[INO][CF]$/, "", hdr); sub(/^\.\//, "", hdr)
			rest = substr($0, RLENGTH + 1)
			if (!match(rest, /[A-Za-z_][A-Za-z0-9_]* \(/)) next
			name = substr(rest, RSTART, RLENGTH - 2)
			if (want == "F" && kind == "F") print name
			if (want == "C" && kind == "C") print name, hdr }' | sort -u
}

check_declarations() {
	local log=$out/declarations.txt h

	aux_names F > "$out/definitions.txt"
	aux_names C | awk '$2 ~ /\.h$/ && $2 !~ /^\//' > "$out/declared.txt"
	join -v 1 "$out/declared.txt" "$out/definitions.txt" |
		awk '{ print $2 ": " $1 " is declared, and defined nowhere" }' | sort -u > "$log"
	# a header may declare no function (list.h), but some source includes it
	find "$out/obj" -name '*.d' -exec cat {} + | tr -s ' \134' '\n' |
		sed -n 's|^\(\./\)\{0,1\}\([^/].*\.h\):\{0,1\}$|\2|p' | sort -u > "$out/included.txt"
	local -A included=()
	while IFS= read -r h; do
		included[$h]=1
	done < "$out/included.txt"
	for h in "${HEADERS[@]}"; do
		[ -n "${included[$h]:-}" ] ||
			echo "$h: no source of the tools includes it" >> "$log"
	done
	if [ -s "$log" ]; then fail declarations "a function a header declares is not defined ($log)" "$log"
	else pass declarations "every function a header declares is defined ($(wc -l < "$out/declared.txt") declarations)"; fi
}

check_passes() {
	local log=$out/passes.txt entries f others=()

	# main.c's table: { "name", function },
	entries=$(sed -n '/} passes\[\] = {/,/^};/p' create-diff-object/main.c |
		sed -n 's/^[[:space:]]*{ "[^"]*", \([a-z_0-9]*\) },.*/\1/p'; echo emit)
	for f in create-diff-object/*.c; do
		[ "$f" = create-diff-object/main.c ] || others+=("$f")
	done
	undefined "${others[@]}" |
		awk -v entries="$entries" 'BEGIN { n = split(entries, e, "\n")
			for (i = 1; i <= n; i++) entry[e[i]] = 1 }
		     $1 in entry { print $2 " calls the pass entry point " $1 }' > "$log"
	[ "$(echo "$entries" | wc -l)" -gt 10 ] || echo "main.c: no pass table found" >> "$log"
	if [ -s "$log" ]; then fail passes "not only main.c runs a pass ($log)" "$log"
	else pass passes "only main.c runs a pass ($(echo "$entries" | wc -l) entry points)"; fi
}

check_library_exits() {
	local log=$out/library-exits.txt

	undefined "${LIB[@]}" |
		awk '$1 ~ /^(exit|_exit|_Exit|abort|err|errx|verr|verrx|die|error|error_at_line)$/ &&
		     !($2 == "lib/util.c" && $1 == "exit") { print $2 " calls " $1 }' > "$log"
	if [ -s "$log" ]; then fail library-exits "the library does not return its errors ($log)" "$log"
	else pass library-exits "the library returns its errors"; fi
}

# the tools' C sources and headers (kmod/ is the kernel's side)
size_c_files() {
	find lib arch create-diff-object klp-convert kpatch-build -name '*.[ch]' -type f |
		awk '!/^kpatch-build\// || /^kpatch-build\/[^\/]*\.c$/ || /^kpatch-build\/.*\/.*\.[ch]$/' | sort
}

# the shell scripts: *.sh, or a "#!" line of sh or bash (test/out: the suites'
# output; a first line read with builtins: ~800 files)
size_scripts() {
	local f first shebang='^#! *(/usr)?/bin/(env +)?(ba)?sh( |$)'

	find kpatch-build test integration scripts kpatch -path test/out -prune -o -type f -print |
		sort | while read -r f; do
			case $f in
			*.sh) echo "$f" ;;
			*)
				first=""
				IFS= read -r first 2>/dev/null < "$f"
				[[ "$first" =~ $shebang ]] && echo "$f"
				;;
			esac
		done
}

# "file:line name N lines" for each kernel-style function of @files over 60 lines
long_functions() {
	awk 'FNR == 1 { body = 0; def = "" }
	     /^[A-Za-z_]/ && !body { def = $0; defline = FNR }
	     /^\{/ && !body && def != "" {
		body = 1; start = FNR
		name = def; sub(/\(.*/, "", name); sub(/.*[^A-Za-z0-9_]/, "", name)
		next
	     }
	     /^\}/ && body {
		if (FNR - start + 1 > 60)
			print FILENAME ":" defline " " name " " FNR - start + 1 " lines"
		body = 0; def = ""
	     }
	     /^[;}]/ && !body { def = "" }' "$@"
}

# "file:line name N lines" for each shell function of @files over 60 lines
# ("name() {" at column 0 to "}" at column 0; a here-document's text, data
# such as a usage text, not counted)
long_shell_functions() {
	awk 'FNR == 1 { body = 0; doc = "" }
	     doc != "" { if ($0 ~ "^\t*" doc "$") doc = ""; next }
	     !body && /^[A-Za-z_][A-Za-z0-9_-]*\(\) *\{/ {
		body = 1; start = FNR; n = 0; name = $0; sub(/\(.*/, "", name)
		if ($0 ~ /\}[ \t]*$/) body = 0	# (a one-line function)
	     }
	     body { n++ }
	     body && /<<-?\047?[A-Za-z_]+\047?/ {
		doc = $0; sub(/.*<<-?\047?/, "", doc); sub(/[^A-Za-z_].*/, "", doc)
	     }
	     body && /^\}/ {
		if (n > 60) print FILENAME ":" start " " name " " n " lines"
		body = 0
	     }' "$@"
}

check_sizes() {
	local log=$out/sizes.txt cfiles scripts

	mapfile -t cfiles < <(size_c_files)
	mapfile -t scripts < <(size_scripts)
	{
		wc -l "${cfiles[@]}" | awk '$2 != "total" && $1 > 800 { print $2 ": " $1 " lines (C, at most 800)" }'
		long_functions "${cfiles[@]}"
		wc -l "${scripts[@]}" | awk '$2 != "total" && $1 > 800 { print $2 ": " $1 " lines (shell, at most 800)" }'
		long_shell_functions "${scripts[@]}"
	} > "$log"
	if [ -s "$log" ]; then fail sizes "$(wc -l < "$log") file(s) or function(s) too long ($log)" "$log"
	else pass sizes "${#cfiles[@]} C files of at most 800 lines, their functions of at most 60, ${#scripts[@]} shell scripts of at most 800, their functions of at most 60"; fi
}

if ! compile; then
	fail compile "the tools' sources ($out/compile.log)" "$out/compile.log"
	result_summary
	exit 1
fi
check_modules
check_declarations
check_passes
check_library_exits
check_sizes
[ $graph = 0 ] || sed 's/ / -> /' "$out/graph.txt"
result_summary
