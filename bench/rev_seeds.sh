#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench/rev_seeds.sh: commit REV's shipped seeds of one target, encoded by
# this tree's mmfuzz, so both trees run the same programs
# (bench/bench_icount.sh, bench/bench_exec.sh -o REV).  Each text seed of
# REVSRC's build/corpus/TARGET goes to DIR under the name REV's Makefile
# gave its binary (seed_name: DIR-NAME.bin).  A seed naming what this tree
# lost keeps the rest (encode --keep-going, the dropped decisions listed in
# DROPPED); one this tree cannot encode is left out.  Run from the tree's
# root, after build/mmfuzz is built.
#
#   bench/rev_seeds.sh REVSRC TARGET DIR LOG DROPPED
set -u
[ $# = 5 ] || { echo "usage: bench/rev_seeds.sh REVSRC TARGET DIR LOG DROPPED" >&2; exit 2; }
rev=$1 t=$2 dir=$3 log=$4 dropped=$5
mkdir -p "$dir"
for b in "$rev"/build/corpus/"$t"/*.bin; do
	[ -f "$b" ] || continue
	n=$(basename "$b" .bin)
	src=$rev/corpus/${n%%-*}/${n#*-}.mmf	# the Makefile's seed_name: DIR-NAME
	[ -f "$src" ] || continue
	build/mmfuzz encode --keep-going --dropped "$dropped" "$src" -o "$dir/$n.bin" >> "$log" 2>&1 ||
		rm -f "$dir/$n.bin"
done
