#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench/seed004.sh: seed 004's figures (docs/seed004.md): slub_xfree1 at 2
# tasks with long partial lists (--min-partial keeps empty slabs on them)
# and a slabinfo reader at a few rates, for each of seed 004's variants the
# tree has (--variant count_partial | partial_counters |
# partial_counters_atomic; without them, 6.6's count_partial alone).  The
# runs are interleaved (every variant and rate once, then again), and each
# row is the median of its runs: throughput, n->list_lock's hold time
# (mean, max) and contention, the frees' latency tail, what a slabinfo read
# costs.  With the variants, the LKP --compare table of the three at the
# highest rate follows.  make bench-seed004 writes what this prints to
# docs/measurements/bench-seed004.md (bench/mpage.sh).
#
#   bench/seed004.sh [-r RUNS] [-s SECONDS] [-z "RATES"] [-m MIN_PARTIAL] MMFUZZ
set -u

runs=5 secs=5 rates="0 10 100 1000" minp=100000
while getopts "r:s:z:m:" o; do
	case $o in
	r) runs=$OPTARG ;;
	s) secs=$OPTARG ;;
	z) rates=$OPTARG ;;
	m) minp=$OPTARG ;;
	*) echo "usage: bench/seed004.sh [-r RUNS] [-s SECONDS] [-z RATES] [-m MIN_PARTIAL] MMFUZZ" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || { echo "usage: bench/seed004.sh [-r RUNS] [-s SECONDS] [-z RATES] [-m MIN_PARTIAL] MMFUZZ" >&2; exit 2; }
mmfuzz=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

base="slub_xfree1 -t 2 --min-partial $minp -s $secs --warmup 2"
variants=
for v in count_partial partial_counters partial_counters_atomic; do
	"$mmfuzz" stress slub_xfree1 --variant $v -s 1 --warmup 0 --sample-ms 100 > /dev/null 2>&1 &&
		variants="$variants $v"
done
variants=${variants# }
# none selectable: the tree's count_partial (6.6's walk) alone
[ -n "$variants" ] || variants=6.6

keys="average model.slub.list_lock.hold_ns_per_acquire model.slub.list_lock.hold_ns_max
model.slub.list_lock.contended% model.slub.free_p99_ns model.slub.free_p999_ns
model.slub.free_p9999_ns model.slub.slabinfo_read_ns model.slub.slabinfo_read_ns_max
model.slub.slabinfo_free_objs_mean model.slub.nr_partial stress.task_cpu% invariant_violations"

echo "== bench-seed004: $mmfuzz stress $base, reader rates: $rates; variants: $variants; $runs runs each, interleaved =="
fail=0
for ((i = 1; i <= runs; i++)); do
	for v in $variants; do
		for z in $rates; do
			va=
			[ "$v" = 6.6 ] || va="--variant $v"
			out=$tmp/$v.$z.$i
			"$mmfuzz" stress $base $va --reader-hz $z > "$out" 2> "$out.err"
			rc=$?
			if [ $rc != 0 ]; then
				echo "run failed (exit $rc): mmfuzz stress $base $va --reader-hz $z"
				head -3 "$out.err"
				fail=1
			fi
			for k in $keys; do
				sed -n "s/^$k: *//p" "$out" | head -1 >> "$tmp/$v.$z.$k"
			done
		done
	done
done

med() { sort -g "$1" 2> /dev/null | awk '{ a[NR] = $1 } END { if (!NR) { print "-"; exit } print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
echo
echo "| variant | reader Hz | ops/s | list_lock hold ns mean | hold ns max | contended % | free p99 ns | p99.9 | p99.99 | slabinfo read ns (mean, max) | nr_free read | nr_partial | task CPU % | violations |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for v in $variants; do
	for z in $rates; do
		p=$tmp/$v.$z
		printf "| %s | %s | %.0f | %s | %s | %s | %s | %s | %s | %s, %s | %s | %s | %s | %s |\n" "$v" "$z" \
			"$(med "$p.average")" "$(med "$p.model.slub.list_lock.hold_ns_per_acquire")" \
			"$(med "$p.model.slub.list_lock.hold_ns_max")" "$(med "$p.model.slub.list_lock.contended%")" \
			"$(med "$p.model.slub.free_p99_ns")" "$(med "$p.model.slub.free_p999_ns")" \
			"$(med "$p.model.slub.free_p9999_ns")" "$(med "$p.model.slub.slabinfo_read_ns")" \
			"$(med "$p.model.slub.slabinfo_read_ns_max")" "$(med "$p.model.slub.slabinfo_free_objs_mean")" \
			"$(med "$p.model.slub.nr_partial")" "$(med "$p.stress.task_cpu%")" \
			"$(sort -gr "$p.invariant_violations" | head -1)"
	done
done
echo
echo "Each row: the median of $runs runs of"
for v in $variants; do
	va=
	[ "$v" = 6.6 ] || va=" --variant $v"
	echo "    mmfuzz stress $base$va --reader-hz RATE"
done
if [ "$variants" != 6.6 ] && [ "$(echo $variants | wc -w)" -gt 1 ]; then
	z=${rates##* }
	va=
	for v in $variants; do va="$va --variant $v"; done
	echo
	echo "== mmfuzz stress --compare$va $base --reader-hz $z -r 3 =="
	"$mmfuzz" stress --compare$va $base --reader-hz $z -r 3 || fail=1
fi
exit $fail
