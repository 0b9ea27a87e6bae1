#!/bin/bash
# endbr-kept.sh KO CONFIG FUNC...: on an IBT kernel (CONFIG_X86_KERNEL_IBT=y in
# CONFIG), each FUNC of the patch module KO must begin with endbr64 and must not be
# listed in .ibt_endbr_seal (the module loader would overwrite it with a nop, and
# an indirect call to it would then fault). Used by the zoo's NN-name.check files.
set -euo pipefail
ko=$1 config=$2; shift 2
if ! grep -qx 'CONFIG_X86_KERNEL_IBT=y' "$config"; then
	echo "no IBT in this kernel: nothing to check"
	exit 0
fi
for f in "$@"; do
	insn=$(objdump -d --no-show-raw-insn --disassemble="$f" "$ko" |
		awk -v f="<$f>:" '$2 == f { getline; sub(/^[^:]*:[ \t]*/, ""); print; exit }')
	[ "$insn" = endbr64 ] || { echo "$f: first instruction is '${insn:-none}', not endbr64"; exit 1; }
done
# the targets of .ibt_endbr_seal as "section:offset" (a section symbol's name is
# its section's), and the functions as the same
sealed=$(readelf -rW "$ko" | awk '
	/^Relocation section/ { in_seal = ($3 == "'"'"'.rela.ibt_endbr_seal'"'"'") ; next }
	in_seal && NF >= 7 { a = $7; sub(/^0x/, "", a); print $5, ($6 == "+" ? a : "-" a) }')
for f in "$@"; do
	if echo "$sealed" | awk -v f="$f" '$1 == f && ($2 == "0" || $2 == "-0") { found = 1 } END { exit !found }'; then
		echo "$f: its endbr64 is listed in .ibt_endbr_seal"; exit 1
	fi
	read -r ndx val < <(readelf -sW "$ko" | awk -v f="$f" '$8 == f && $4 == "FUNC" { print $7, $2; exit }')
	sec=$(readelf -SW "$ko" | sed -n "s/^ *\[ *$ndx\] \([^ ]*\) .*/\1/p")
	if echo "$sealed" | awk -v s="$sec" -v v="$val" 'function z(x) { sub(/^0+/, "", x); return x == "" ? "0" : x }
		$1 == s && z($2) == z(v) { found = 1 } END { exit !found }'; then
		echo "$f: its endbr64 ($sec+0x$val) is listed in .ibt_endbr_seal"; exit 1
	fi
done
echo "endbr64 kept (not sealed): $*; $(echo "$sealed" | grep -c . || true) other endbr64 sealed"
