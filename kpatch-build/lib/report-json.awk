# kpatch-build/lib/report-json.awk: the JSON build report (--report), from the
# key=value lines and facts report_write (lib/report.sh) feeds it. The layout is
# documented by kpatch-build/report-schema.json; keep the two in step.
# Shared parsing of the facts (the differ's --debug lines) is in report-facts.awk.

function js(s) {	# a JSON string
	gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s)
	gsub(/[\001-\037]/, "", s)
	return "\"" s "\""
}
function jsn(s) { return s == "" ? "null" : js(s) }	# a string or null
function num(s) { return s == "" ? "null" : s + 0 }
function secs(ms) { return sprintf("%.3f", ms / 1000) }
function list(a, n,   i, out) {	# a JSON array of the already-encoded a[1..n]
	if (!n) return "[]"
	out = "[\n"
	for (i = 1; i <= n; i++) out = out "        " a[i] (i < n ? ",\n" : "\n")
	return out "      ]"
}

END {
	printf "{\n"
	printf "  \"schema\": \"kpatch-ng-build-report/1\",\n"
	printf "  \"status\": %s,\n  \"exit_code\": %d,\n", js(M["status"]), M["exit_code"]
	printf "  \"name\": %s,\n  \"started\": %s,\n  \"seconds\": %s,\n", jsn(M["name"]), jsn(M["started"]), M["seconds"] + 0
	printf "  \"tool\": { \"name\": \"kpatch-build\", \"version\": %s, \"compiler\": %s },\n", js(M["version"]), jsn(M["compiler"])
	printf "  \"patches\": ["
	for (i = 1; i <= npatch; i++) printf "%s\n    { \"path\": %s, \"sha256\": %s }", (i > 1 ? "," : ""), js(patch_path[i]), js(patch_sum[i])
	printf "%s],\n", npatch ? "\n  " : ""
	printf "  \"changed_files\": ["
	for (i = 1; i <= nchanged; i++) printf "%s%s", (i > 1 ? ", " : ""), js(changed[i])
	printf "],\n"
	printf "  \"kernel\": {\n    \"release\": %s,\n    \"version\": %s,\n", jsn(M["release"]), jsn(M["kernelversion"])
	printf "    \"source\": %s,\n    \"kbuild_dir\": %s,\n", jsn(M["source"]), jsn(M["kbuild"])
	printf "    \"config\": %s,\n    \"config_sha256\": %s,\n", jsn(M["config"]), jsn(M["config_sha256"])
	printf "    \"vmlinux\": %s,\n    \"vmlinux_build_id\": %s,\n", jsn(M["vmlinux"]), jsn(M["build_id"])
	printf "    \"oot_module\": %s,\n    \"original_build_cache_key\": %s\n  },\n", jsn(M["oot_module"]), jsn(M["cache_key"])
	printf "  \"module\": "
	if (M["module"] == "") printf "null,\n"
	else printf "{ \"path\": %s, \"sha256\": %s, \"replace\": %s },\n", js(M["module"]), js(M["module_sha256"]), M["replace"]
	printf "  \"steps\": ["
	for (i = 1; i <= nstep; i++)
		printf "%s\n    { \"name\": %s, \"seconds\": %s, \"cached\": %s }", (i > 1 ? "," : ""), js(step_name[i]), secs(step_ms[i]), step_cached[i]
	printf "%s],\n", nstep ? "\n  " : ""
	printf "  \"objects\": ["
	for (i = 1; i <= nobj; i++) {
		o = objs[i]
		printf "%s\n    {\n", (i > 1 ? "," : "")
		printf "      \"object\": %s,\n      \"parent\": %s,\n      \"result\": %s,\n", js(o), js(obj_parent[o]), js(obj_result[o])
		n = 0
		for (k = 1; k <= npatched[o]; k++) { key = o SUBSEP k
			a[++n] = sprintf("{ \"function\": %s, \"reason\": %s, \"sympos\": %d }", js(patched_fn[key]), js(patched_why[key]), patched_pos[key]) }
		printf "      \"patched\": %s,\n", list(a, n)
		n = 0
		for (k = 1; k <= nnew[o]; k++) { key = o SUBSEP k
			a[++n] = sprintf("{ \"function\": %s, \"used_by\": %s }", js(new_fn[key]), jsn(user_of(o, new_fn[key]))) }
		printf "      \"new\": %s,\n", list(a, n)
		n = 0
		for (k = 1; k <= nincl[o]; k++) { key = o SUBSEP k
			a[++n] = sprintf("{ \"symbol\": %s, \"reason\": %s }", js(incl_sym[key]), js(incl_why[key])) }
		printf "      \"included\": %s,\n", list(a, n)
		n = 0
		for (k = 1; k <= nklp[o]; k++) { key = o SUBSEP k
			a[++n] = sprintf("{ \"symbol\": %s, \"object\": %s, \"sympos\": %d, \"klp_symbol\": %s }", js(klp_sym[key]), js(klp_obj[key]), klp_pos[key], js(klp_name[key])) }
		printf "      \"klp\": %s,\n", list(a, n)
		n = 0
		for (k = 1; k <= nexp[o]; k++) a[++n] = js(exp_sym[o SUBSEP k])
		printf "      \"exported\": %s,\n", list(a, n)
		n = 0
		for (k = 1; k <= nspecial[o]; k++) { key = o SUBSEP k
			a[++n] = sprintf("{ \"section\": %s, \"function\": %s }", js(special_sec[key]), js(special_fn[key])) }
		printf "      \"special_entries\": %s\n    }", list(a, n)
	}
	printf "%s],\n", nobj ? "\n  " : ""
	printf "  \"klp_references\": ["
	for (i = 1; i <= nklpall; i++) {
		key = klpall[i]
		printf "%s\n    { \"symbol\": %s, \"object\": %s, \"sympos\": %d, \"from_object\": %s }", (i > 1 ? "," : ""), js(klp_sym[key]), js(klp_obj[key]), klp_pos[key], js(klp_from[key])
	}
	printf "%s],\n", nklpall ? "\n  " : ""
	printf "  \"header_filter\": ["
	for (i = 1; i <= nhdr; i++)
		printf "%s\n    { \"headers\": %s, \"textual_includers\": %d, \"compiled_includers\": %d, \"candidates\": %d, \"candidates_vmlinux\": %d, \"candidates_modules\": %d, \"estimate_seconds\": %d, \"kept\": %d, \"identifier_step\": %s, \"full_filter_why\": %s }", \
			(i > 1 ? "," : ""), js(hdr_files[i]), hdr_textual[i], hdr_compiled[i], hdr_cand[i], hdr_vml[i], hdr_mods[i], hdr_est[i], hdr_kept[i], (hdr_mode[i] == "fast" ? "true" : "false"), (hdr_mode[i] == "fast" ? "null" : js(hdr_why[i]))
	printf "%s],\n", nhdr ? "\n  " : ""
	printf "  \"refusals\": ["
	for (i = 1; i <= nrefusal; i++)
		printf "%s\n    { \"object\": %s, \"symbol\": %s, \"reason\": %s }", (i > 1 ? "," : ""), jsn(ref_obj[i]), jsn(ref_sym[i]), js(ref_why[i])
	printf "%s],\n", nrefusal ? "\n  " : ""
	printf "  \"warnings\": ["
	for (i = 1; i <= nwarn; i++) printf "%s\n    %s", (i > 1 ? "," : ""), js(warnings[i])
	printf "%s],\n", nwarn ? "\n  " : ""
	if (M["error"] == "") printf "  \"error\": null\n"
	else printf "  \"error\": { \"step\": %s, \"message\": %s }\n", js(M["error_step"]), js(M["error"])
	printf "}\n"
}
