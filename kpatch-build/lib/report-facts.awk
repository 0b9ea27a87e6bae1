# kpatch-build/lib/report-facts.awk: reads what report_write (lib/report.sh)
# feeds the report writers: key=value lines, "@@facts", then the facts. Parses the
# differ's --debug lines of each object:
#   patched: F (REASON) sympos N      new: G      included: H (REASON)
#   klp: x -> .klp.sym.OBJ.x,POS      exported: y
#   create-diff-object: OBJ: SYMBOL: REASON   (a refusal, when the differ exits 2)
# The writers (report-json.awk, report-dot.awk) only have END blocks.

BEGIN { FS = "\t" }
!facts && $0 == "@@facts" { facts = 1; next }
!facts {
	k = substr($0, 1, index($0, "=") - 1); v = substr($0, index($0, "=") + 1)
	if (k == "patch") { npatch++; patch_path[npatch] = $1; sub(/^patch=/, "", patch_path[npatch]); patch_sum[npatch] = $2 }
	else if (k == "changed_file") changed[++nchanged] = v
	else M[k] = v
	next
}
$1 == "step" { nstep++; step_name[nstep] = $2; step_ms[nstep] = $3; step_cached[nstep] = $4; next }
$1 == "warning" { warnings[++nwarn] = $2; next }
$1 == "header" {	# the header filter: headers, its counts, the kept, mode, why
	nhdr++; hdr_files[nhdr] = $2; hdr_textual[nhdr] = $3; hdr_compiled[nhdr] = $4
	hdr_cand[nhdr] = $5; hdr_vml[nhdr] = $6; hdr_mods[nhdr] = $7; hdr_est[nhdr] = $8
	hdr_kept[nhdr] = $9; hdr_mode[nhdr] = $10; hdr_why[nhdr] = $11
	next
}
$1 == "obj" {
	o = $2; objs[++nobj] = o; obj_parent[o] = $3
	obj_result[o] = $4 == 0 ? "changed" : $4 == 3 ? "unchanged" : $4 == 2 ? "refused" : "error"
	next
}
$1 == "ref" {
	o = $2; k = ++nref[o]; ref_from[o, k] = $3; ref_to[o, k] = $4; ref_kind[o, k] = $5
	if (!((o, $4) in caller)) caller[o, $4] = $3
	if ($5 == "special") { k = ++nspecial[o]; special_fn[o, k] = $3; special_sec[o, k] = $4 }
	next
}
$1 == "cdo" { cdo_line($2, $3) }
$1 == "refusal" { nrefusal++; ref_obj[nrefusal] = $2; ref_sym[nrefusal] = $3; ref_why[nrefusal] = $4; next }

function user_of(o, f) { return ((o, f) in caller) ? caller[o, f] : "" }
function after_prefix(s, p) { return substr(s, length(p) + 1) }
function cdo_line(o, l,   k, r, i, name, pos) {
	if (l ~ /^patched: /) {
		k = ++npatched[o]; r = after_prefix(l, "patched: ")
		i = index(r, " ("); patched_fn[o, k] = substr(r, 1, i - 1); r = substr(r, i + 2)
		i = match(r, /\) sympos [0-9]+$/)
		patched_why[o, k] = i ? substr(r, 1, i - 1) : r
		patched_pos[o, k] = i ? substr(r, i + 9) + 0 : 0
	} else if (l ~ /^new: /) {
		new_fn[o, ++nnew[o]] = after_prefix(l, "new: ")
	} else if (l ~ /^included: /) {
		k = ++nincl[o]; r = after_prefix(l, "included: ")
		i = index(r, " (")
		incl_sym[o, k] = i ? substr(r, 1, i - 1) : r
		incl_why[o, k] = i ? substr(r, i + 2, length(r) - i - 2) : ""
	} else if (l ~ /^klp: .* -> \.klp\.sym\./) {
		k = ++nklp[o]; r = after_prefix(l, "klp: ")
		i = index(r, " -> "); klp_sym[o, k] = substr(r, 1, i - 1)
		name = substr(r, i + 4); klp_name[o, k] = name
		r = after_prefix(name, ".klp.sym.")
		i = index(r, "."); klp_obj[o, k] = substr(r, 1, i - 1)
		pos = match(r, /,[0-9]+$/); klp_pos[o, k] = pos ? substr(r, pos + 1) + 0 : 0
		klp_target[o, k] = pos ? substr(r, i + 1, pos - i - 1) : substr(r, i + 1)
		klp_from[o, k] = o; klpall[++nklpall] = o SUBSEP k
	} else if (l ~ /^exported: /) {
		exp_sym[o, ++nexp[o]] = after_prefix(l, "exported: ")
	} else if (l ~ /^create-diff-object: warning: /) {
		warnings[++nwarn] = o ": " after_prefix(l, "create-diff-object: warning: ")
	} else if (l ~ /^create-diff-object: / && obj_result[o] == "refused") {
		r = after_prefix(l, "create-diff-object: ")
		i = index(r, ": "); r = substr(r, i + 2)		# the differ's object name
		nrefusal++; ref_obj[nrefusal] = o
		i = index(r, ": ")
		ref_sym[nrefusal] = i ? substr(r, 1, i - 1) : ""
		ref_why[nrefusal] = i ? substr(r, i + 2) : r
	}
}

# a refusal of kpatch-build's own checks: "PATCH: changes WHAT FILE: REASON"
END {
	if (M["status"] == "refused" && !nrefusal && M["error"] != "") {
		r = M["error"]; nrefusal = 1; ref_sym[1] = ""; ref_obj[1] = ""; ref_why[1] = r
		i = index(r, ": changes ")
		if (i) {
			r = substr(r, i + 2); i = index(r, ": ")
			if (i) {
				what = substr(r, 1, i - 1); ref_why[1] = r
				ref_obj[1] = what; sub(/^.* /, "", ref_obj[1])
			}
		}
	}
}
