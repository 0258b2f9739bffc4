#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench-bugs: time to first detection of each bug switch, from the
# shipped seed corpus, one engine process (one core) per run.
#
#   bench/bench_bugs.sh [-r RUNS] [-c CAP] [-e "ENGINES"] [-b "SWITCHES"] [-t TARGET]
#                       [-a "ENGINE ARGS"] [-o CSV] [-m PAGE]
#
# TARGET: the fuzz target of every run; by default each switch's own: the
# target named after the switch's layer (mmfuzz bugs -v) when there is one
# (the tlb switches run on the tlb target), mm otherwise.  The random engine
# runs the mm seeds whatever the target (it has no other).
#
# ENGINE ARGS: words passed on to every engine run (mmfuzz fuzz --engine-arg),
# after the campaign's own: -a "-entropic=1" measures an engine option against
# the defaults.
#
# ENGINES: libfuzzer (with interleaving coverage, the default engine),
# libfuzzer-noilv, afl, random (the seeded random scheduler on the seeds, no
# coverage guidance: the XNU-fibers style baseline).  A run that finds
# nothing within CAP seconds counts as CAP (the median is then a lower
# bound, printed as ">CAP").  Each run gets its own seed (1, 2, 3, ...), so
# the figures are reproducible up to the machine's timing.
#
# A detection counts only if every reproducer the run wrote runs clean with
# the switch off (mmfuzz run --no-bugs); one that does not is a false
# positive of the clean model, reported loudly and counted as not found.
#
# Output: CSV lines "switch,engine,run,seed,seconds,found" in the CSV file,
# then a table of medians with the ratio random/engine for each switch, and
# for each engine the slowest switch (the largest median).  The same, with
# the command, commit, date, machine and load, is written atomically to PAGE
# (default docs/measurements/bench-bugs.md).
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
mmfuzz=${MMFUZZ:-$here/build/mmfuzz}
runs=3
cap=300
engines="libfuzzer libfuzzer-noilv afl random"
switches=""
target=""
csv=$here/build/bench-bugs.csv
eargs=""
page=$here/docs/measurements/bench-bugs.md
cmdline="bench/bench_bugs.sh $*"

while getopts r:c:e:b:t:a:o:m: opt; do
	case $opt in
	r) runs=$OPTARG ;;
	c) cap=$OPTARG ;;
	e) engines=$OPTARG ;;
	b) switches=$OPTARG ;;
	t) target=$OPTARG ;;
	a) for w in $OPTARG; do eargs="$eargs --engine-arg=$w"; done ;;
	o) csv=$OPTARG ;;
	m) page=$OPTARG ;;
	*) echo "usage: $0 [-r RUNS] [-c CAP] [-e ENGINES] [-b SWITCHES] [-t TARGET] [-a ARGS] [-o CSV] [-m PAGE]" >&2; exit 2 ;;
	esac
done
[ -n "$switches" ] || switches=$("$mmfuzz" bugs | awk '{ print $1 }')

# The program fuzz targets (the Makefile's list) and each switch's layer.
targets=$(sed -n 's/^FUZZ_TARGETS := //p' "$here/Makefile")
switch_target() {
	[ -z "$target" ] || { echo "$target"; return; }
	l=$("$mmfuzz" bugs -v | awk -v b="$1" '
		$1 == b { want = 1; next }
		want { for (i = 1; i <= NF; i++) if ($i == "layer") { sub(/,$/, "", $(i + 1)); print $(i + 1) }; exit }')
	for t in $targets; do
		[ "$t" = "$l" ] && { echo "$t"; return; }
	done
	echo mm
}

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-bugs.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

load0=$(cut -d' ' -f1-3 /proc/loadavg)
total=0
for b in $switches; do for e in $engines; do total=$((total + runs)); done; done
echo "== make bench-bugs: $runs run(s) per switch and engine, capped at ${cap}s; $total runs =="
echo "switch,engine,run,seed,seconds,found" > "$csv"

# The engines' builds happen once, before any clock starts.
for e in $engines; do
	case $e in
	libfuzzer*) make -s -C "$here" ENGINE=libfuzzer fuzz-bins >/dev/null ;;
	afl) make -s -C "$here" ENGINE=afl SANITIZER=address,undefined fuzz-bins >/dev/null ;;
	esac
done

n=0
for b in $switches; do
	t=$(switch_target "$b")
	for e in $engines; do
		case $e in
		libfuzzer) args="--engine libfuzzer --target $t" ;;
		libfuzzer-noilv) args="--engine libfuzzer --no-ilv --target $t" ;;
		afl) args="--engine afl --target $t" ;;
		random) args="--engine random" ;;
		*) echo "bench-bugs: unknown engine '$e'" >&2; exit 2 ;;
		esac
		r=1
		while [ "$r" -le "$runs" ]; do
			n=$((n + 1))
			out=$work/$b-$e-$r
			# shellcheck disable=SC2086
			s=$("$mmfuzz" fuzz $args $eargs --inject "$b" --time "$cap" --until-found \
				--seed "$r" --out "$out" -q 2>"$out.log" |
				sed -n 's/^first_finding_seconds: //p') || true
			if [ -z "$s" ]; then
				echo "bench-bugs: $b/$e run $r failed; its log:" >&2
				tail -5 "$out.log" >&2
				exit 1
			fi
			found=1
			case $s in -*) s=$cap; found=0 ;; esac
			# a detection counts only if its reproducers replay and run
			# clean without the switch: a finding of the clean model would
			# be a false positive, not the switch
			if [ $found = 1 ]; then
				for f in "$out"/*.mmf; do
					[ -e "$f" ] || continue
					if ! "$mmfuzz" run -q --no-bugs "$f" > /dev/null 2>&1; then
						echo "bench-bugs: FALSE POSITIVE: $f fails without $b" >&2
						cp "$f" "$work/../bench-bugs-fp-$b-$e-$r.mmf" 2>/dev/null || true
						found=0
						s=$cap
					fi
				done
			fi
			echo "$b,$e,$r,$r,$s,$found" >> "$csv"
			printf '[%d/%d] %-22s %-16s %-9s run %d: %s\n' "$n" "$total" "$b" "$e" \
				"$([ "$e" = random ] && echo mm || echo "$t")" "$r" \
				"$([ $found = 1 ] && echo "${s}s" || echo "not found in ${cap}s")" >&2
			rm -rf "$out"
			r=$((r + 1))
		done
	done
done

echo "CSV: $csv"
load1=$(cut -d' ' -f1-3 /proc/loadavg)
awk -F, -v cap="$cap" -v engines="$engines" '
function median(key,    i, j, k, t, a) {
	k = cnt[key]
	for (i = 1; i <= k; i++) a[i] = v[key, i]
	for (i = 2; i <= k; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
function show(key, m) {
	return m >= cap ? sprintf(">%d", cap) : sprintf("%.1f", m)
}
NR > 1 {
	key = $1 SUBSEP $2
	cnt[key]++; v[key, cnt[key]] = $5; if ($6 == 0) nf[key]++
	if (!($1 in seen)) { seen[$1] = 1; order[++ns] = $1 }
}
END {
	ne = split(engines, eng, " ")
	printf "%-22s", "median seconds"
	for (i = 1; i <= ne; i++) printf " %16s", eng[i]
	for (i = 1; i <= ne; i++) if (eng[i] != "random") printf " %14s", "random/" eng[i]
	printf "\n"
	for (s = 1; s <= ns; s++) {
		b = order[s]
		printf "%-22s", b
		for (i = 1; i <= ne; i++) { med[i] = median(b SUBSEP eng[i]); printf " %16s", show(b SUBSEP eng[i], med[i]) }
		r = 0
		for (i = 1; i <= ne; i++) if (eng[i] == "random") r = med[i]
		for (i = 1; i <= ne; i++) {
			if (eng[i] == "random") continue
			if (!r) { printf " %14s", "-"; continue }
			x = r / (med[i] > 0.05 ? med[i] : 0.05)
			printf " %14s", (r >= cap ? ">=" : "") sprintf("%.1f", x)
		}
		printf "\n"
	}
	printf "(a median at the cap is printed >%d; a ratio against a capped baseline is a lower bound, >=)\n", cap
	for (i = 1; i <= ne; i++) {
		worst = -1
		for (s = 1; s <= ns; s++) {
			m = median(order[s] SUBSEP eng[i])
			if (m > worst) { worst = m; wb = order[s] }
		}
		if (worst >= 0)
			printf "slowest with %s: %s, median %s s\n", eng[i], wb, show(wb SUBSEP eng[i], worst)
	}
}' "$csv" > "$work/table"
cat "$work/table"

mkdir -p "$(dirname "$page")"
tmp=$(mktemp "$(dirname "$page")/.bench-bugs.XXXXXX")
{
	echo "# make bench-bugs"
	echo
	echo "Written by \`bench/bench_bugs.sh\` (\`make bench-bugs\`); do not edit by hand."
	echo
	echo "- command: \`$cmdline\`"
	echo "- commit: $(git -C "$here" describe --always --dirty --abbrev=12 2> /dev/null || echo unknown)"
	echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name[ \t]*: //p' /proc/cpuinfo | head -1)"
	echo "- load average (1, 5, 15 min): $load0 at the start, $load1 at the end"
	echo "- parameters: $runs run(s) per switch and engine (seeds 1 to $runs), capped at ${cap}s;" \
	     "engines: $engines; switches: $(echo $switches | wc -w)${target:+; target $target}${eargs:+; engine args$eargs}"
	echo
	echo "Seconds from the campaign's start to its first finding, the median of the"
	echo "runs; a run that finds nothing counts as the cap (printed >CAP), and a"
	echo "detection whose reproducer fails without the switch counts as none.  The"
	echo "ratio random/ENGINE is how many times faster than the unguided baseline an"
	echo "engine finds the switch.  Other processes shared the CPUs when the load"
	echo "average is above $(nproc)."
	echo
	echo '```'
	cat "$work/table"
	echo '```'
} > "$tmp"
mv -f "$tmp" "$page"
echo "page: $page"
