#!/bin/bash
# SPDX-License-Identifier: MIT
#
# make bench-search: the search power of the default campaign, without the
# seeds written for the bug (issue 19 item 1).  Every seed of corpus/DIR
# (regress excepted) says what it was written for in its aim: header
# (bug switches, catalogue mutants CLASS@FUNCTION#N, windows = yield sites;
# "none" for a generic seed).  For every bug switch (mmfuzz bugs) and every
# catalogue mutant that is not a written equivalence (bench/mutants.equiv),
# this runs the default campaign
#
#   aimed removed  with every seed whose aim names that bug, or a window
#                  (yield site) that a seed aimed at that bug names, left out
#   no seeds       from no seed at all
#
# and prints per bug the time to first detection (median of RUNS campaign
# seeds, a run that finds nothing counts as CAP), the fraction found within
# 60 s and within CAP, and the medians per layer; it writes the table to
# PAGE (docs/measurements/bench-search.md) atomically, with the command,
# commit, date, machine, load and parameters.
#
# The campaigns are bench/bench_bugs.sh's (switches: libFuzzer, ASan+UBSan,
# the switch's layer's target, a finding counts only if its reproducers run
# clean with the switch off) and bench/mutants.sh's (mutants: each built in
# its own copy of the tree, a kill counts only if the unchanged model runs
# the reproducer clean); the seeds reach them as MMFUZZ_SEEDS_DIR (mmfuzz
# fuzz --help), which both pass on to mmfuzz fuzz unchanged.
set -u

usage() {
	cat <<EOF
usage: bench/bench_search.sh [-r RUNS] [-c CAP] [-b SWITCHES] [-m REGEX] [-S] [-N] [-o PAGE] [-w DIR] [-T]
  -r RUNS      campaign seeds per bug and configuration (default 3)
  -c CAP       seconds per campaign (default 600)
  -b SWITCHES  the bug switches, space apart (default every one; none: no switch)
  -m REGEX     the mutants whose id matches (grep -E; default every one that is
               not a written equivalence; none: no mutant)
  -S           no "aimed removed" campaigns
  -N           no "no seeds" campaigns
  -o PAGE      the page written (default docs/measurements/bench-search.md)
  -w DIR       work directory (default: a temporary one, removed at the end)
  -T           no campaigns: the table and the page again from -w DIR's results
EOF
	exit 2
}

runs=3 cap=600 switches= mutants= do_aimed=1 do_none=1 page= work= table_only=0
cmdline="bench/bench_search.sh $*"
while getopts "r:c:b:m:SNo:w:T" o; do
	case $o in
	r) runs=$OPTARG ;;
	c) cap=$OPTARG ;;
	b) switches=$OPTARG ;;
	m) mutants=$OPTARG ;;
	S) do_aimed=0 ;;
	N) do_none=0 ;;
	o) page=$OPTARG ;;
	w) work=$OPTARG ;;
	T) table_only=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || usage
for v in "$runs" "$cap"; do
	case $v in '' | *[!0-9]* | 0) echo "bench/bench_search.sh: -r and -c want a positive number" >&2; exit 2 ;; esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
page=${page:-$root/docs/measurements/bench-search.md}
mmfuzz=${MMFUZZ:-$root/build/mmfuzz}
make -s build/mmfuzz || exit 2
if [ $table_only = 1 ]; then
	[ -n "$work" ] && [ -s "$work/facts" ] && [ -f "$work/results" ] || {
		echo "bench/bench_search.sh: -T wants -w DIR of an earlier run" >&2; exit 2; }
fi
if [ -z "$work" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/bench-search.XXXXXX") || exit 2
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work" || exit 2
work=$(cd "$work" && pwd)

results=$work/results	# kind name config run seconds found
if [ $table_only = 0 ]; then
# ---- the bugs ----
[ -n "$switches" ] || switches=$("$mmfuzz" bugs | awk '{ print $1 }')
[ "$switches" = none ] && switches=
# each switch's layer (mmfuzz bugs -v: "layer L, in ...")
"$mmfuzz" bugs -v | awk '
	/^[^ ]/ { b = $1; next }
	{ for (i = 1; i <= NF; i++) if ($i == "layer") { l = $(i + 1); sub(/,$/, "", l); print b, l } }' \
	> "$work/layers"
mlist=
if [ "$mutants" != none ]; then
	bench/mutants.sh -l -o "$work/mutl" > "$work/mutants.all" || exit 2
	awk -v re="${mutants:-.}" '$1 ~ re { print $1 }' "$work/mutants.all" > "$work/mutants.some"
	# the written equivalences are no bugs
	awk 'FNR == NR { if ($0 !~ /^[ \t]*(#|$)/) eq[$1] = 1; next } !($1 in eq)' \
		bench/mutants.equiv "$work/mutants.some" > "$work/mutants"
	mlist=$(cat "$work/mutants")
	# a mutant's layer: the fuzz target the catalogue's target lines give
	# its file (bench/mutants.sh runs it there), pagealloc for mm
	awk 'FNR == NR { m[$1] = 1; next } $1 in m { print $1, $2 }' "$work/mutants" "$work/mutants.all" |
	while read -r id where; do
		t=$(cat bench/mutants/*.cat | awk -v f="${where%%:*}" '$1 == "target" && f ~ $2 { print $3; exit }')
		[ "${t:-mm}" = mm ] && t=pagealloc
		echo "$id $t"
	done >> "$work/layers"
fi
nb=$(echo $switches $mlist | wc -w)
[ "$nb" -gt 0 ] || { echo "bench/bench_search.sh: no bug selected" >&2; exit 2; }

# ---- the seeds and their aims ----
# the seed directories as the Makefile's SEED_DIRS: every corpus/DIR but
# regress (the replayed findings), each a layer's target
seed_dirs=$(for d in corpus/*/; do d=${d%/}; [ "$d" = corpus/regress ] || echo "$d"; done)
# "FILE<TAB>item<TAB>item..." for every seed
for f in $(for d in $seed_dirs; do ls "$d"/*.mmf; done); do
	printf '%s\t%s\n' "$f" "$(sed -n 's/^aim:[ \t]*//p' "$f" | head -1 | sed 's/[ \t]*#[^0-9].*//; s/, */\t/g')"
done > "$work/aims"
# removed BUG: the seeds aimed at BUG or at a window a seed aimed at BUG names
removed() {
	awk -F'\t' -v bug="$1" '
	{ file[NR] = $1; n[NR] = NF; for (i = 2; i <= NF; i++) item[NR, i] = $i }
	END {
		for (r = 1; r <= NR; r++)
			for (i = 2; i <= n[r]; i++)
				if (item[r, i] == bug)
					for (j = 2; j <= n[r]; j++)
						if (item[r, j] ~ /[:(]/)
							win[item[r, j]] = 1
		for (r = 1; r <= NR; r++) {
			hit = 0
			for (i = 2; i <= n[r]; i++)
				if (item[r, i] == bug || (item[r, i] in win))
					hit = 1
			if (hit)
				print file[r]
		}
	}' "$work/aims"
}
# seeds DIR [REMOVED-LIST]: DIR/<target>/ as make corpus lays them out (mm
# takes every seed, a layer's target its own directory's), DIR-NAME.mmf
seeds() {
	local d=$1 f t name
	rm -rf "$d"
	mkdir -p "$d/mm" "$d/all"
	for t in $seed_dirs; do mkdir -p "$d/${t#corpus/}"; done
	[ -n "${2:-}" ] || return 0
	for f in $(for t in $seed_dirs; do ls "$t"/*.mmf; done); do
		grep -qxF "$f" "$2" && continue
		t=$(basename "$(dirname "$f")")
		name=$t-$(basename "$f")
		cp "$f" "$d/mm/$name"
		cp "$f" "$d/all/$name"
		cp "$f" "$d/$t/$name"
	done
}
all_seeds=$(wc -l < "$work/aims")

# ---- the campaigns ----
load0=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)
: > "$results"
configs=
[ $do_aimed = 1 ] && configs="$configs aimed"
[ $do_none = 1 ] && configs="$configs none"
[ -n "$configs" ] || { echo "bench/bench_search.sh: -S and -N leave nothing to run" >&2; exit 2; }
echo "== make bench-search: $(echo $switches | wc -w) switch(es), $(echo $mlist | wc -w) mutant(s), $runs run(s) each, cap ${cap}s, configurations:$configs =="
nrem() { removed "$1" > "$work/removed.$2"; wc -l < "$work/removed.$2"; }
for b in $switches; do
	: > "$work/rem-switch-$b"
	for cfg in $configs; do
		if [ $cfg = aimed ]; then
			echo "$b $(nrem "$b" "$b")" >> "$work/nremoved"
			seeds "$work/seeds" "$work/removed.$b"
		else
			seeds "$work/seeds"
		fi
		echo "-- $b ($cfg): $(find "$work/seeds/mm" -name '*.mmf' | wc -l) of $all_seeds seeds kept (a layer's target: those of its directory)" >&2
		MMFUZZ_SEEDS_DIR=$work/seeds MMFUZZ=$mmfuzz bench/bench_bugs.sh -r "$runs" -c "$cap" \
			-e libfuzzer -b "$b" -o "$work/bugs.csv" -m "$work/bugs.md" > /dev/null || {
			echo "bench/bench_search.sh: bench_bugs.sh failed on $b ($cfg)" >&2; exit 1; }
		awk -F, -v cfg=$cfg 'NR > 1 { print "switch", $1, cfg, $3, $5, $6 }' "$work/bugs.csv" >> "$results"
	done
done
for m in $mlist; do
	for cfg in $configs; do
		if [ $cfg = aimed ]; then
			echo "$m $(nrem "$m" m)" >> "$work/nremoved"
			seeds "$work/seeds" "$work/removed.m"
		else
			seeds "$work/seeds"
		fi
		r=1
		while [ $r -le "$runs" ]; do
			echo "-- $m ($cfg) run $r: $(find "$work/seeds/mm" -name '*.mmf' | wc -l) of $all_seeds seeds kept (a layer's target: those of its directory)" >&2
			re=$(printf '%s' "$m" | sed 's/[][\\.^$*+?(){}|]/\\&/g')
			MMFUZZ_SEEDS_DIR=$work/seeds bench/mutants.sh -t "$cap" -s "$r" -m "^$re\$" \
				-o "$work/mut" > "$work/mut.out" 2>&1 || {
				echo "bench/bench_search.sh: mutants.sh failed on $m ($cfg); $work/mut.out" >&2; exit 1; }
			awk -F'\t' -v cfg=$cfg -v r=$r -v cap="$cap" '{
				found = $4 == "killed"
				print "mutant", $1, cfg, r, found ? $6 : cap, found }' "$work/mut/results" >> "$results"
			r=$((r + 1))
		done
	done
done
secs=$(( $(date +%s) - start ))
load1=$(cut -d' ' -f1-3 /proc/loadavg)
commit=$(git rev-parse --short HEAD 2> /dev/null || echo unknown)
git diff --quiet HEAD 2> /dev/null || commit="$commit (with uncommitted changes)"
# what the page says of this run, for -T
{
	declare -p cmdline commit secs load0 load1 runs cap configs all_seeds
	echo "nsw=$(echo $switches | wc -w) nmut=$(echo $mlist | wc -w) when='$(date -u '+%Y-%m-%d %H:%M UTC')'"
} > "$work/facts"
fi	# table_only
# shellcheck disable=SC1091
. "$work/facts"

# ---- the table ----
table=$work/table
awk -v cap="$cap" -v configs="$configs" -v layers="$work/layers" -v nrem="$work/nremoved" '
function median(list,    a, k, i, j, t) {
	k = split(list, a, " ")
	for (i = 2; i <= k; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
	return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
function show(m) { return m + 0 >= cap + 0 ? ">" cap : sprintf("%.1f", m) }
BEGIN {
	while ((getline l < layers) > 0) { split(l, f, " "); layer[f[1]] = f[2] }
	while ((getline l < nrem) > 0) { split(l, f, " "); removed[f[1]] = f[2] }
	nc = split(configs, cf, " ")
}
{
	key = $2 SUBSEP $3
	if (!($2 in seen)) { seen[$2] = 1; order[++nb] = $2; kind[$2] = $1 }
	t[key] = t[key] " " $5; n[key]++
	# a finding the campaign reports just past the cap is not within it
	if ($6 == 1 && $5 + 0 <= cap + 0) { fcap[key]++; if ($5 + 0 <= 60) f60[key]++ }
}
END {
	# a cap of 60 s or less: the found-within-60-s column would repeat the cap column
	two = cap + 0 > 60
	printf "| bug | kind | layer | seeds removed |"
	for (c = 1; c <= nc; c++) {
		printf " %s: median s |", cf[c] == "aimed" ? "aimed removed" : "no seeds"
		if (two) printf " found <= 60 s |"
		printf " found <= %d s |", cap
	}
	printf "\n|---|---|---|---|"
	for (c = 1; c <= nc; c++) printf two ? "---|---|---|" : "---|---|"
	printf "\n"
	for (i = 1; i <= nb; i++) {
		b = order[i]; l = (b in layer) ? layer[b] : "?"
		printf "| `%s` | %s | %s | %s |", b, kind[b], l, (b in removed) ? removed[b] : "-"
		for (c = 1; c <= nc; c++) {
			key = b SUBSEP cf[c]
			if (!n[key]) { printf two ? " - | - | - |" : " - | - |"; continue }
			m = median(t[key])
			printf " %s |", show(m)
			if (two) printf " %d/%d |", f60[key], n[key]
			printf " %d/%d |", fcap[key], n[key]
			lm[l, c] = lm[l, c] " " m; ln[l, c]++
			all[c] = all[c] " " m; na[c]++
			if (fcap[key] * 2 > n[key]) found[c]++
			if (!(l in lseen)) { lseen[l] = 1; lorder[++nl] = l }
		}
		printf "\n"
	}
	printf "\nPer layer (the median of the bugs medians; the bugs found in most runs within %d s):\n\n", cap
	printf "| layer | bugs |"
	for (c = 1; c <= nc; c++) printf " %s: median s | found |", cf[c] == "aimed" ? "aimed removed" : "no seeds"
	printf "\n|---|---|"
	for (c = 1; c <= nc; c++) printf "---|---|"
	printf "\n"
	for (i = 1; i <= nl; i++) {
		l = lorder[i]
		printf "| %s | %d |", l, ln[l, 1] ? ln[l, 1] : ln[l, 2]
		for (c = 1; c <= nc; c++) {
			k = split(lm[l, c], a, " "); fl = 0
			for (j = 1; j <= k; j++) if (a[j] + 0 < cap + 0) fl++
			printf " %s | %d/%d |", k ? show(median(lm[l, c])) : "-", fl, k
		}
		printf "\n"
	}
	printf "\n"
	for (c = 1; c <= nc; c++)
		printf "%s: %d of %d bugs found in most runs within %d s (%.0f%%), median of the medians %s s%s\n\n", \
			cf[c] == "aimed" ? "Aimed seeds removed" : "From no seeds", found[c], na[c], cap, \
			na[c] ? 100 * found[c] / na[c] : 0, na[c] ? show(median(all[c])) : "-", \
			cf[c] == "aimed" ? " (issue 19 target: at least 80% within 600 s, median under 60 s)" : ""
}' "$results" > "$table"
cat "$table"

# ---- the page, written atomically ----
mkdir -p "$(dirname "$page")" || exit 2
cpu=$(sed -n 's/^model name[ \t]*: //p' /proc/cpuinfo | head -1)
{
	echo "# bench-search: search power without the aimed seeds"
	echo
	echo "Written by \`make bench-search\` (bench/bench_search.sh); do not edit by hand."
	echo
	echo "- command: \`$cmdline\`"
	echo "- commit: $commit"
	echo "- date: $when, ${secs} s of campaigns"
	echo "- machine: $(uname -srm), $(nproc) CPU(s)${cpu:+, $cpu}"
	echo "- load average (1, 5, 15 min): $load0 before, $load1 after"
	# the campaigns inherit MMFUZZ_* (MMFUZZ_PREEMPT_MUTATOR=0, MMFUZZ_STATE=0:
	# a control run): the page says which were set
	envs=$(env | grep '^MMFUZZ_' | grep -v '^MMFUZZ_SEEDS_DIR=' | sort | tr '\n' ' ')
	echo "- environment: ${envs:-no MMFUZZ_* variable set}"
	echo "- parameters: $runs run(s) per bug and configuration (libFuzzer seeds 1..$runs), cap ${cap} s (a run that finds nothing counts as the cap), configurations:$configs; $nsw switch(es), $nmut mutant(s)"
	echo "- campaigns: the default one (libFuzzer, ASan+UBSan, one job; a switch on its layer's target as bench/bench_bugs.sh picks it, a mutant on its catalogue's target as bench/mutants.sh does)"
	echo "- aimed removed: every seed whose \`aim:\` names the bug, or names a window (yield site) that a seed aimed at the bug names, is left out; the column says how many of the $all_seeds seeds"
	echo "- no seeds: the campaign starts from nothing"
	[ $table_only = 0 ] || echo "- the table rendered again from that run's results (\`bench/bench_search.sh -T\`)"
	echo
	cat "$table"
} > "$page.tmp.$$" && mv "$page.tmp.$$" "$page" || { rm -f "$page.tmp.$$"; exit 2; }
echo "page: $page"
