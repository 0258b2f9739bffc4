#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench/mutants.sh (make mutants, ci/mutants): the mutation score of the
# default campaign.  Single-point mutants of the model (src/mm, the kernel
# layer src/kernel/ktorture.c and padata, src/kernel/padata.c: MUT_SRCS)
# come from the catalogue of the kernel's concurrency mistakes
# (bench/mutants/*.cat, made by bench/mutgen.pl); each is built in its own
# copy of the tree and given to the default campaign (mmfuzz fuzz:
# libFuzzer with ASan+UBSan, the shipped seeds, target mm or the layer's
# own as the catalogue's target lines say) for a bounded time.  The table
# says which checker killed each one and when; the score is
#
#   killed / (compiled mutants - survivors shown equivalent)
#
# where bench/mutants.equiv gives the written reason for each equivalence.
# A mutant that does not compile is listed apart and not counted.  A kill
# counts only if the unchanged model runs its reproducer clean; one it does
# not is a false positive of the model, counted as a survivor and listed.
set -u
# the model's files a mutant may change (the Makefile's MODEL_SRCS, and
# padata.c: no model file, its racy reads no yield points, but its locks are)
MUT_SRCS="src/mm/*.c src/kernel/ktorture.c src/kernel/padata.c"

usage() {
	cat <<EOF
usage: bench/mutants.sh [-t SECONDS] [-m REGEX] [-s SEED] [-o DIR] [-e FILE] [-c FILE] [-p PAGE] [-k] [-l]
  -t SECONDS  campaign budget per mutant (default 120)
  -m REGEX    only the mutants whose id matches (grep -E)
  -s SEED     the campaign's seed (default 1)
  -o DIR      work directory and report (default build/mutants)
  -e FILE     the equivalences (default bench/mutants.equiv)
  -c FILE     the catalogue: a file, or a directory of *.cat read as one
              (default bench/mutants, one file per layer)
  -p PAGE     also write the report as a measurements page (make mutants:
              docs/measurements/mutants.md, bench/mpage.sh); a run of part
              of the catalogue (-m, -c) says so at its top
  -k          keep each mutant's tree (DIR/trees/ID)
  -l          list the mutants and stop
EOF
	exit 2
}

budget=120 match= seed=1 out=build/mutants equiv=bench/mutants.equiv cat=bench/mutants
keep=0 list=0 page=
cmdline=bench/mutants.sh	# as given, for the page (-p)
for a in "$@"; do
	case $a in *[!A-Za-z0-9_./=-]* | '') cmdline="$cmdline '$a'" ;; *) cmdline="$cmdline $a" ;; esac
done
while getopts "t:m:s:o:e:c:p:kl" o; do
	case $o in
	t) budget=$OPTARG ;;
	m) match=$OPTARG ;;
	s) seed=$OPTARG ;;
	o) out=$OPTARG ;;
	e) equiv=$OPTARG ;;
	c) cat=$OPTARG ;;
	p) page=$OPTARG ;;
	k) keep=1 ;;
	l) list=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || usage
case $budget in '' | *[!0-9]*) echo "bench/mutants.sh: -t wants seconds" >&2; exit 2 ;; esac
[ "$budget" -gt 0 ] || { echo "bench/mutants.sh: -t wants seconds" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
cd "$root" || exit 2
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
equiv=$(cd "$(dirname "$equiv")" && pwd)/$(basename "$equiv")
cat=$(cd "$(dirname "$cat")" && pwd)/$(basename "$cat")
# the catalogue's files (one per layer) as one, in name order, as
# bench/mutgen.pl reads a directory
if [ -d "$cat" ]; then
	cat "$cat"/*.cat > "$out/catalogue" || exit 2
	cat=$out/catalogue
fi

perl bench/mutgen.pl -c "$cat" list $MUT_SRCS > "$out/all" || exit 2
if [ -n "$match" ]; then
	awk -F'\t' -v re="$match" '$1 ~ re' "$out/all" > "$out/list"
else
	cp "$out/all" "$out/list"
fi
if [ $list = 1 ]; then
	column -t -s $'\t' "$out/list"
	exit 0
fi
n=$(wc -l < "$out/list")
[ "$n" -gt 0 ] || { echo "bench/mutants.sh: no mutant matches '$match'" >&2; exit 2; }

# ---- the pristine copy, built once: each mutant's copy rebuilds only what
# its change touches ----
base=$out/base
echo "== mutants: $n of $(wc -l < "$out/all"), ${budget}s each, seed $seed; building the unchanged tree in $base"
rm -rf "$base" "$out/trees" "$out/logs"
mkdir -p "$base" "$out/trees" "$out/logs"
if git rev-parse --git-dir > /dev/null 2>&1; then
	git ls-files -co --exclude-standard -z | tar -c --null -T - -f - | tar -x -C "$base"
else
	tar -c --exclude='./build*' --exclude=./findings -f - . | tar -x -C "$base"
fi
# the tree's own builds, when there are any, are a head start: make
# rebuilds what is out of date in the copy (never the output directory)
for d in build build-fuzz-libfuzzer-address-undefined; do
	[ -d "$d" ] || continue
	mkdir -p "$base/$d"
	for e in "$d"/* "$d"/.[!.]*; do
		[ -e "$e" ] || continue
		case "$out/" in "$root/$e"/*) continue ;; esac
		cp -a "$e" "$base/$d/"
	done
done
# the seeds alone, as a fresh clone has them: a build directory's corpus
# may hold more (entries a campaign or bench-exec grew), which would
# dilute the shipped seeds
rm -rf "$base/build/corpus"
if ! (cd "$base" && make -s build/mmfuzz && make -s corpus &&
      make -s ENGINE=libfuzzer fuzz-bins) > "$out/logs/base.build" 2>&1; then
	echo "bench/mutants.sh: the unchanged tree does not build: $out/logs/base.build" >&2
	exit 2
fi

# The campaign could not start: encoding the shipped seeds (make corpus)
# failed.  If a seed alone shows the mutant (a violation, a crash, a hang of
# the model), that is the kill: sig says how.
seed_kill() {
	local tree=$1 log=$2 f rc
	for f in "$tree"/corpus/*/*.mmf; do
		case $f in */regress/*) continue ;; esac
		# (in braces: bash's own "Segmentation fault" line goes too)
		{ timeout -k 5 60 "$tree/build/mmfuzz" run --json "$f" > "$log.seed"; } 2> /dev/null
		rc=$?
		case $rc in
		0) continue ;;
		# bad input: the seed names a yield site the mutant removed (a
		# dropped lock's), which shows nothing about the mutant
		2) continue ;;
		1) sig=$(sed -n 's/.*"signature":"\([^"]*\)".*/\1/p' "$log.seed" | head -1) ;;
		124 | 137) sig=hang ;;
		*)
			if [ $rc -gt 128 ]; then
				sig="crash($(kill -l $((rc - 128)) 2> /dev/null || echo "exit $rc"))"
			else
				sig="crash(exit $rc)"
			fi
			;;
		esac
		sig="$sig(seed:$(basename "$f"))"
		return 0
	done
	return 1
}

# ---- each mutant ----
results=$out/results
: > "$results"
i=0
while IFS=$'\t' read -r id where class desc; do
	i=$((i + 1))
	tree=$out/trees/$(echo "$id" | tr -c 'A-Za-z0-9_.#@\n-' _)
	log=$out/logs/$(basename "$tree")
	rm -rf "$tree"
	cp -a "$base" "$tree"
	(cd "$tree" && perl bench/mutgen.pl -c "$cat" apply "$id" $MUT_SRCS) > /dev/null 2> "$log.apply" || {
		printf '%s\t%s\t%s\tnot-applied\t-\t-\n' "$id" "$where" "$class" >> "$results"
		continue
	}
	diff -u "$base/${where%%:*}" "$tree/${where%%:*}" > "$log.diff"
	# a mutant may draw a warning (count = (count) once min() is gone):
	# it still compiles, built with WERROR=0 (and then so is its campaign)
	werror=1
	if ! (cd "$tree" && timeout 600 make -s build/mmfuzz) > "$log.build" 2>&1; then
		werror=0
		if grep 'error:' "$log.build" | grep -qv -- '-Werror' ||
		   ! (cd "$tree" && WERROR=0 timeout 900 make -s build/mmfuzz) >> "$log.build" 2>&1
		then
			printf '%s\t%s\t%s\tno-compile\t-\t-\n' "$id" "$where" "$class" >> "$results"
			printf '%3d/%d %-52s does not compile\n' "$i" "$n" "$id"
			rm -rf "$tree"
			continue
		fi
	fi
	# The campaign's seeds are the unchanged model's binary twins (the
	# engine's form: a program and a schedule of step counts), made newer
	# than the mutant's mmfuzz so that make corpus keeps them: a seed's
	# text names yield sites, and a mutant that removes one (a dropped
	# lock, an atomic split into a load and a store) cannot encode it,
	# which would stop its whole campaign before it starts.
	[ -d "$tree/build/corpus" ] && find "$tree/build/corpus" -type f -exec touch {} +
	# A seed whose text the mutant still parses is encoded again by the
	# mutant's mmfuzz: its schedule names yield sites, and the step counts
	# of the unchanged model's twin are off by the sites the mutant removed
	# (a dropped lock's down_read moves a switch "at the reader's section"
	# past the section).  The others keep the unchanged model's twin, and
	# the log says which.
	for f in "$tree"/corpus/*/*.mmf; do
		case $f in */regress/*) continue ;; esac
		name=$(basename "$(dirname "$f")")-$(basename "$f" .mmf)
		for bin in "$tree"/build/corpus/*/"$name.bin"; do
			[ -f "$bin" ] || continue
			if "$tree/build/mmfuzz" encode "$f" -o "$bin.new" 2>> "$log.seeds"; then
				mv "$bin.new" "$bin"
			else
				rm -f "$bin.new"
				echo "kept the unchanged model's twin of $name" >> "$log.seeds"
			fi
		done
	done
	# the layer's own target for its files (the catalogue's target lines)
	target=$(awk -v f="${where%%:*}" '$1 == "target" && f ~ $2 { print $3; exit }' "$cat")
	target=${target:-mm}
	start=$(date +%s)
	WERROR=$werror timeout -k 10 $((budget + 300)) "$tree/build/mmfuzz" fuzz --time "$budget" \
		--target "$target" --until-found -q --seed "$seed" --out "$tree/out" \
		> "$log.out" 2> "$log.err"
	rc=$?
	secs=$(sed -n 's/^first_finding_seconds: //p' "$log.out")
	sig=$(awk '/ found / { print $1; exit }' "$log.out")
	case $rc in
	1)
		result=killed
		[ -n "$sig" ] || sig=$(ls "$tree/out/crashes" 2> /dev/null | head -1)
		# a kill counts only if the unchanged model runs the reproducer
		# clean: else the campaign met a false positive of the model
		# (exit 2: the reproducer's schedule names a yield site only
		# the mutant has, as an atomic split into racy_read and
		# racy_write does: the unchanged model has no such schedule,
		# and the kill stands)
		repro=$(ls "$tree"/out/*.mmf 2> /dev/null | head -1)
		if [ -n "$repro" ]; then
			{ timeout -k 5 120 "$base/build/mmfuzz" run -q "$repro" > /dev/null 2> "$log.replay"; } 2> /dev/null
			rrc=$?
			if [ $rrc = 2 ] && grep -q 'unknown yield site' "$log.replay"; then
				rrc=0
			fi
			case $rrc in
			0) ;;
			*)
				result=clean-model-finding
				cp "$repro" "$out/logs/clean-model-finding@$(basename "$repro")"
				;;
			esac
		fi
		;;
	0) result=survived sig=- secs=- ;;
	124 | 137) result=hang sig=- secs=$(( $(date +%s) - start )) ;;
	*)
		sig=- secs=-
		if grep -q 'error:' "$tree/out/build.log" 2> /dev/null; then
			result=no-compile
		elif seed_kill "$tree" "$log"; then
			result=killed secs=0
		else
			result=error
		fi
		;;
	esac
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$where" "$class" "$result" "${sig:--}" "${secs:--}" \
		>> "$results"
	printf '%3d/%d %-52s %-9s %s%s\n' "$i" "$n" "$id" "$result" "${sig:--}" \
		"$([ "${secs:--}" = - ] || echo " ${secs}s")"
	[ -d "$tree/out" ] && cp -r "$tree/out" "$log.campaign" 2> /dev/null
	[ $keep = 1 ] || rm -rf "$tree"
done < "$out/list"

# ---- the table and the score ----
echo
echo "mutation score: default campaign (libFuzzer ASan+UBSan; target mm, or the layer's own: $(awk '$1 == "target" { printf "%s%s for %s", n++ ? "; " : "", $3, $2 }' "$cat")), ${budget}s per mutant, seed $seed"
awk -F'\t' -v equiv="$equiv" '
BEGIN {
	while ((getline line < equiv) > 0) {
		if (line ~ /^[ \t]*(#|$)/)
			continue
		split(line, f, /[ \t]+/)
		reason = line
		sub(/^[^ \t]+[ \t]+/, "", reason)
		eq[f[1]] = reason
	}
}
{
	id = $1; res = $4
	if (res == "clean-model-finding") {
		survived++
		clean[++nclean] = $5
		printf "%-50s %-28s %-16s survived? the campaign stopped at %s in %ss, which the unchanged model shows too\n", \
			id, $2, $3, $5, $6
	} else if (res == "killed") {
		killed++
		printf "%-50s %-28s %-16s killed by %s in %ss%s\n", id, $2, $3, $5, $6, \
			(id in eq) ? "  (listed as equivalent: the reason is wrong)" : ""
	} else if (res == "no-compile" || res == "not-applied") {
		apart[++napart] = sprintf("%-50s %-28s %-16s %s", id, $2, $3, res)
	} else if (id in eq) {
		equivalent++
		printf "%-50s %-28s %-16s %s, equivalent: %s\n", id, $2, $3, res, eq[id]
	} else {
		survived++
		printf "%-50s %-28s %-16s %s\n", id, $2, $3, res
	}
	counted += (res != "no-compile" && res != "not-applied")
}
END {
	if (nclean) {
		print ""
		print "found on the unchanged model too (a false positive to fix; the reproducers are in logs/clean-model-finding@*):"
		for (i = 1; i <= nclean; i++)
			print "  " clean[i]
	}
	if (napart) {
		print ""
		print "not counted (did not compile or apply):"
		for (i = 1; i <= napart; i++)
			print "  " apart[i]
	}
	den = counted - equivalent
	printf "\nmutants %d: killed %d, survived %d, equivalent %d, not counted %d\n", \
		NR, killed, survived, equivalent, napart
	if (den > 0)
		printf "score: %d / %d = %.1f%%\n", killed, den, 100 * killed / den
	else
		print "score: -"
}' "$results" | tee "$out/report"
[ $keep = 1 ] || rm -rf "$base"
if [ -n "$page" ]; then
	partial=
	if [ -n "$match" ] || [ "$cat" != "$root/bench/mutants.cat" ]; then
		partial="A partial run (only the mutants matching \`${match:-.}\` of \`${cat#"$root"/}\`): not the mutation score of the catalogue."
	fi
	bench/mpage.sh -n "$(basename "$page" .md)" -o "$(dirname "$page")" \
		-c "$cmdline" \
		-l "$load0" -f "$out/report" -t "$partial" || exit 2
fi
exit 0
