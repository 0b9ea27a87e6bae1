# kpatch-build/lib/report-dot.awk: the build report as a Graphviz graph
# (--report-dot), read after report-facts.awk. One cluster per object with its
# patched (red), new (green) and included (grey) symbols and the special-section
# entries that come with them (notes), edges saying why each was pulled in (the
# differ's reasons, and the references of its output); one cluster per target
# object with the klp references into it; refusals as red octagons.
# Node ids: "OBJECT:SYMBOL", "OBJECT:section:NAME", "klp:TARGET:SYMBOL,POS".

function q(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/[\001-\037]/, " ", s); return "\"" s "\"" }
function lbl(a, b) { return b == "" ? q(a) : substr(q(a), 1, length(q(a)) - 1) "\\n" substr(q(b), 2) }
function node(id, label, attrs) {
	if (id in have) return
	have[id] = 1
	printf "    %s [label=%s%s];\n", q(id), label, attrs
}
function edge(a, b, label, attrs) {
	if ((a, b) in linked) return
	linked[a, b] = 1
	printf "  %s -> %s [label=%s%s];\n", q(a), q(b), q(label), attrs
}
function is_special(s) { return s ~ /^(__|\.)/ && s !~ /^\.(text|rodata|data|bss)/ }
function user_node(o, u) {	# the node of a user named in a reason
	if ((o ":" u) in have) return o ":" u
	if (is_special(u)) { node(o ":section:" u, lbl(u, "section entries"), ", shape=note, fillcolor=\"#fff3b0\""); return o ":section:" u }
	node(o ":" u, q(u), "")
	return o ":" u
}
function ref_label(o, from, t, kind,   l) {	# a reference of the output from -> t
	if (kind != "call") return "uses"
	l = ((o, t) in is_new) ? "new" : "calls"
	if (index(t, from ".") == 1 && t ~ /\.cold$/) l = ".cold part" (l == "new" ? " (new)" : "")
	return l
}
function why_label(w) { sub(/,? *needed by .*$/, "", w); return w == "" ? "needed by" : w }

END {
	printf "digraph kpatch_report {\n"
	printf "  graph [rankdir=LR, fontname=\"monospace\", labelloc=t, label=%s];\n", q("livepatch-" M["name"] ": " M["status"])
	printf "  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"monospace\", fontsize=10];\n"
	printf "  edge [fontname=\"monospace\", fontsize=9];\n"
	for (i = 1; i <= nobj; i++) {
		o = objs[i]
		printf "  subgraph %s {\n    label=%s;\n", q("cluster_obj_" i), q(o " -> " obj_parent[o] " (" obj_result[o] ")")
		for (k = 1; k <= npatched[o]; k++)
			node(o ":" patched_fn[o, k], lbl(patched_fn[o, k], "patched: " patched_why[o, k] (patched_pos[o, k] ? ", sympos " patched_pos[o, k] : "")), ", fillcolor=\"#f4a6a6\"")
		for (k = 1; k <= nnew[o]; k++) {
			is_new[o, new_fn[o, k]] = 1
			node(o ":" new_fn[o, k], lbl(new_fn[o, k], "new"), ", fillcolor=\"#b7e4b0\"")
		}
		for (k = 1; k <= nincl[o]; k++)
			node(o ":" incl_sym[o, k], lbl(incl_sym[o, k], incl_why[o, k]), ", fillcolor=\"#dddddd\"")
		for (k = 1; k <= nspecial[o]; k++)
			node(o ":section:" special_sec[o, k], lbl(special_sec[o, k], "section entries"), ", shape=note, fillcolor=\"#fff3b0\"")
		for (r = 1; r <= nrefusal; r++)
			if (ref_obj[r] == o)
				node(o ":refused:" r, lbl(ref_sym[r] == "" ? o : ref_sym[r], "REFUSED: " ref_why[r]), ", shape=octagon, fillcolor=\"#e03030\", fontcolor=white")
		printf "  }\n"
	}
	for (i = 1; i <= nklpall; i++) {
		split(klpall[i], kk, SUBSEP); o = kk[1]; k = kk[2]
		t = klp_obj[o, k]
		if (!(t in klpcluster)) klpcluster[t] = ++nklpc
		members[t] = members[t] SUBSEP klp_name[o, k]
		klpnode[o, klp_name[o, k]] = "klp:" t ":" klp_target[o, k] "," klp_pos[o, k]
		klplabel["klp:" t ":" klp_target[o, k] "," klp_pos[o, k]] = lbl(klp_target[o, k], "sympos " klp_pos[o, k])
	}
	for (t in klpcluster) {
		printf "  subgraph %s {\n    label=%s; style=dashed;\n", q("cluster_klp_" klpcluster[t]), q("klp references into " t)
		for (id in klplabel) if (index(id, "klp:" t ":") == 1) node(id, klplabel[id], ", shape=ellipse, fillcolor=\"#cfe2ff\"")
		printf "  }\n"
	}
	for (r = 1; r <= nrefusal; r++)
		if (!((ref_obj[r] ":refused:" r) in have))
			node("refused:" r, lbl(ref_obj[r] == "" ? "refused" : ref_obj[r], "REFUSED: " ref_why[r]), ", shape=octagon, fillcolor=\"#e03030\", fontcolor=white")
	# why each symbol is there: the differ's reasons
	for (i = 1; i <= nobj; i++) {
		o = objs[i]
		for (k = 1; k <= nincl[o]; k++) {
			s = incl_sym[o, k]; w = incl_why[o, k]
			if (w ~ /needed by /) { u = w; sub(/^.*needed by /, "", u); edge(user_node(o, u), o ":" s, why_label(w), "") }
			else if (w ~ /^part of /) { u = substr(w, 9); edge(user_node(o, u), o ":" s, s ~ /\.cold/ ? ".cold part" : "part", ", style=dashed") }
			else if (w ~ /^its part .* changed$/) { u = substr(w, 10); sub(/ changed$/, "", u); edge(o ":" s, user_node(o, u), u ~ /\.cold/ ? ".cold part (changed)" : "part (changed)", ", style=dashed") }
		}
		# and the references of the output
		for (k = 1; k <= nref[o]; k++) {
			f = o ":" ref_from[o, k]; t = ref_to[o, k]; kind = ref_kind[o, k]
			if (kind == "special-klp") f = o ":section:" ref_from[o, k]
			if (!(f in have)) continue
			if (kind == "special-klp" && ((o, t) in klpnode)) { edge(f, klpnode[o, t], "refers to", ", color=\"#3060c0\", style=dotted"); continue }
			if (kind == "special") edge(f, o ":section:" t, "entry", ", style=dotted")
			else if (kind == "klp" && ((o, t) in klpnode)) edge(f, klpnode[o, t], "klp", ", color=\"#3060c0\"")
			else if ((o ":" t) in have) edge(f, o ":" t, ref_label(o, ref_from[o, k], t, kind), "")
		}
	}
	printf "}\n"
}
