#!/bin/bash
# SPDX-License-Identifier: MIT
#
# make bench-icount: the instructions one fuzz execution costs, this tree
# against commit REV, on the same text programs: REV's shipped seeds of
# each program target both trees have, encoded by each tree's own mmfuzz
# (a seed naming what this tree lost keeps the rest, as a campaign keeps
# it), replayed by bench/bench_replay (decode and run, every checker on, no
# engine) under valgrind --tool=callgrind.  An execution's cost is
#
#   (Ir of 3 rounds over the seeds - Ir of 1 round) / (2 x seeds)
#
# so start-up (the registries, the first world) cancels out.  Instruction
# counts do not move with the machine's load, so this is the figure to
# compare two trees by on a shared machine; executions per second under an
# engine are make bench-exec's (bench/bench_exec.sh -o REV).
#
#   bench/bench_icount.sh [-o REV] [-g "TARGETS"] [-w DIR] [-m PAGEDIR]
#
# REV defaults to ffa4832 (issue 20 keeps every target within 10% of it);
# TARGETS to every program target of this tree that REV ships seeds for;
# DIR to build/bench-icount (REV is built there once, from git archive);
# PAGEDIR to docs/measurements: the page bench-icount.md, by bench/mpage.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=ffa4832 targets="" work=build/bench-icount pagedir=""
cmdline="bench/bench_icount.sh $*"
while getopts "o:g:w:m:" o; do
	case $o in
	o) rev=$OPTARG ;; g) targets=$OPTARG ;; w) work=$OPTARG ;; m) pagedir=$OPTARG ;;
	*) echo "usage: $0 [-o REV] [-g TARGETS] [-w DIR] [-m PAGEDIR]" >&2; exit 2 ;;
	esac
done
command -v valgrind > /dev/null || { echo "bench-icount: no valgrind (apt-get install valgrind)" >&2; exit 2; }
git rev-parse -q --verify "$rev^{commit}" > /dev/null ||
	{ echo "bench-icount: no commit '$rev'" >&2; exit 2; }
load0=$(cut -d' ' -f1-3 /proc/loadavg)
mkdir -p "$work"
work=$(cd "$work" && pwd)
log=$work/bench-icount.log
: > "$log"
say() { echo "bench-icount: $*" >&2; }

make -s -j2 build/mmfuzz build/bench/bench_replay >> "$log" 2>&1
old=$work/rev-$rev
if [ ! -x "$old/build/bench/bench_replay" ] || [ ! -d "$old/build/corpus" ]; then
	say "building $rev in $old (once)"
	rm -rf "$old"
	mkdir -p "$old"
	git archive "$rev" | tar -x -C "$old"
	make -s -C "$old" -j2 build/mmfuzz build/bench/bench_replay corpus >> "$log" 2>&1
fi
if [ -z "$targets" ]; then
	for t in $(build/mmfuzz targets --programs); do
		[ -d "$old/build/corpus/$t" ] && targets="$targets $t"
	done
fi

out=$work/figures
: > "$out"
printf '%-10s %6s %14s %14s %8s\n' target seeds "this Ir/exec" "$rev Ir/exec" "this/$rev" | tee -a "$out"
for t in $targets; do
	[ -d "$old/build/corpus/$t" ] || { echo "bench-icount: $rev has no seeds of target '$t'" >&2; exit 2; }
	rm -rf "$work/old-$t" "$work/new-$t"
	mkdir -p "$work/old-$t"
	bench/rev_seeds.sh "$old" "$t" "$work/new-$t" "$log" "$work/dropped.txt"
	for b in "$work/new-$t"/*.bin; do	# REV's binary of each seed both trees run
		if [ -f "$b" ]; then cp "$old/build/corpus/$t/$(basename "$b")" "$work/old-$t/"; fi
	done
	seeds=$(find "$work/new-$t" -name '*.bin' | wc -l)
	[ "$seeds" -gt 0 ] || { echo "bench-icount: no seed of target '$t' encodes" >&2; exit 2; }
	for side in old new; do
		bin=$PWD/build/bench/bench_replay
		[ $side = new ] || bin=$old/build/bench/bench_replay
		for r in 1 3; do
			valgrind --tool=callgrind --callgrind-out-file="$work/cg.$side.$t.$r" \
				"$bin" "$work/$side-$t" $r "$t" >> "$log" 2>&1
		done
		eval "ir_$side=\$(( (\$(sed -n 's/^summary: //p' \"\$work/cg.\$side.\$t.3\") - \
			\$(sed -n 's/^summary: //p' \"\$work/cg.\$side.\$t.1\")) / (2 * seeds) ))"
	done
	awk -v t="$t" -v s="$seeds" -v a="$ir_new" -v b="$ir_old" \
		'BEGIN { printf "%-10s %6d %14d %14d %8.3f\n", t, s, a, b, a / b }' | tee -a "$out"
done

bench/mpage.sh -n bench-icount -c "$cmdline" -l "$load0" -f "$out" ${pagedir:+-o "$pagedir"} \
	-t "Ir/exec: callgrind instructions per execution of bench_replay over $rev's seeds of the target, each tree's own encoding; this/$rev above 1 means this tree costs more per execution." >&2
