# shellcheck shell=bash
# integration/lib/checklib.sh: what a test's host-side check (NN-name.check,
# lib/patchspec.sh) may source, as ". "$KP_CHECK_LIB"": readers of the built
# livepatch module and one comparison.
# shellcheck source=test/lib/grepq.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../test/lib/grepq.sh"

# lp_funcs KO: the functions KO replaces, "name objname" pairs from .kpatch.strings
lp_funcs() { readelf -p .kpatch.strings "$1" 2>/dev/null | sed -n 's/^ *\[ *[0-9a-f]*\] *//p' | paste -sd' '; }
# lp_klp_syms KO: its klp symbols (.klp.sym.<obj>.<name>,<sympos>)
lp_klp_syms() { readelf -sW "$1" | grep -o '\.klp\.sym\.[^ ]*' | sort -u | paste -sd' '; }
# want WHAT HAVE NEEDLE...: every NEEDLE is a word of HAVE (one line either way)
want() {
	local what=$1 have=" $2 " n; shift 2
	for n in "$@"; do
		case $have in *" $n "*) ;; *) echo "$what lacks '$n' (has:$have)"; return 1 ;; esac
	done
	echo "$what: $*"
}
