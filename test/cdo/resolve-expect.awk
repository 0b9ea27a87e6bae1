# test/cdo/resolve-expect.awk (run by resolve_expect in test/cdo/asserts.sh):
# a case's `expect` with its `expect.ARCH` applied, "ORIGIN<TAB>LINE" a line.
#
#   awk -v arch=expect.ARCH -f resolve-expect.awk expect [expect.ARCH]
#
# The rules (README.md, "expect.ARCH") are in resolve_expect's comment; a
# removal the base does not have, or a line the base already has, is reported
# on stderr and makes the exit status 1.
function trim(s) {
	sub(/\r$/, "", s)
	gsub(/^[ \t]+|[ \t]+$/, "", s)
	return s
}
function key(s, w, n) {
	n = split(s, w, /[ \t]+/)
	if (w[1] == "exit" || w[1] == "funcs" || w[1] == "nfuncs-patched")
		return w[1]
	if ((w[1] == "size" || w[1] == "nrelocs") && n >= 2)
		return w[1] " " w[2]
	return ""
}
FNR == 1 { file++ }
{ line = trim($0) }
line == "" || line ~ /^#/ { next }
file == 1 { n++; text[n] = line; from[n] = "expect:" FNR; next }
line == "-*" { for (i = 1; i <= n; i++) delete text[i]; next }
line ~ /^-/ {
	line = trim(substr(line, 2))
	for (i = 1; i <= n; i++)
		if ((i in text) && text[i] == line)
			break
	if (i > n) {
		printf "%s:%d: removes \"%s\", which expect does not have\n",
			arch, FNR, line > "/dev/stderr"
		bad = 1
	}
	delete text[i]
	next
}
{
	for (i = 1; i <= n; i++)
		if ((i in text) && text[i] == line && from[i] ~ /^expect:/) {
			printf "%s:%d: repeats %s (only what differs belongs here)\n",
				arch, FNR, from[i] > "/dev/stderr"
			bad = 1
		}
	k = key(line)
	for (i = 1; k != "" && i <= n; i++)
		if ((i in text) && key(text[i]) == k)
			break
	if (k == "" || i > n)
		i = ++n
	text[i] = line
	from[i] = arch ":" FNR
}
END {
	for (i = 1; i <= n; i++)
		if (i in text)
			printf "%s\t%s\n", from[i], text[i]
	exit bad
}
