#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench/seed002.sh: seed 002's table in the model (make bench-seed002).
# deferred_init1 boots 4 GiB-equivalent nodes with deferred init pending
# and times deferred_init_memmap per node on real threads; this runs it
# RUNS times (default 9) with each deferred_page_init_max_threads variant,
# interleaved (one, node_cpus, one, ...) so the machine's drift falls on
# both, on two machines:
#   - one node of the stress world's 8 CPUs (--set nodes=1): one thread
#     against the node's CPUs, which on this machine's cores can be at
#     best -(1 - 1/cores);
#   - two nodes of 4 CPUs (the workload's default): both nodes' init run
#     at once, as the kernel runs them.
# and, from the node_cpus runs of one node, padata's arithmetic for nodes
# of 8 and 80 CPUs (--sim-cpus 2,8,80: each helper's share of chunks timed
# on this machine's threads).  It prints the medians in the seed's table
# form (ms and % against one thread), every run's kernel lines and CSV
# rows, and the load average, then writes it all to
# docs/measurements/bench-seed002.md (bench/mpage.sh).
#
#   bench/seed002.sh [-r RUNS] [-b BUILD]
set -u
runs=9 build=${MMFUZZ_BUILD:-build}
while getopts "r:b:" o; do
	case $o in
	r) runs=$OPTARG ;;
	b) build=$OPTARG ;;
	*) echo "usage: bench/seed002.sh [-r RUNS] [-b BUILD]" >&2; exit 2 ;;
	esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
mmfuzz=$root/$build/mmfuzz
[ -x "$mmfuzz" ] || { echo "bench/seed002.sh: no $mmfuzz (make first)" >&2; exit 2; }
out=$root/$build/bench-seed002.out
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
load0=$(cut -d' ' -f1-3 /proc/loadavg)
ncores=$(nproc)

# one run: NAME ARGS...; its output in $tmp/NAME.N
runone() {
	local name=$1 i=$2
	shift 2
	"$mmfuzz" stress deferred_init1 "$@" > "$tmp/$name.$i" 2> "$tmp/$name.$i.err" || {
		echo "bench/seed002.sh: deferred_init1 $* failed:" >&2
		tail -5 "$tmp/$name.$i.err" >&2
		exit 1
	}
}
# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# stat NAME KEY: KEY's value of every run of NAME
stat() { local f; for f in "$tmp/$1".[0-9]*; do case $f in *.err) continue ;; esac; grep "^$2: " "$f" | head -1 | awk '{ print $2 }'; done; }
# sim NAME NODE CPUS: the simulated ms of every run
sim() { local f; for f in "$tmp/$1".[0-9]*; do case $f in *.err) continue ;; esac; grep "^deferred_init1.sim.node$2.cpus$3: " "$f" | sed 's/.* ms \([0-9.]*\).*/\1/'; done; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%+.0f%%", 100 * (b - a) / a; else print "?" }'; }

for ((i = 1; i <= runs; i++)); do
	runone one1 $i --set nodes=1 --variant one
	runone cpus1 $i --set nodes=1 --variant node_cpus --sim-cpus 2,8,80
	runone one2 $i --variant one
	runone cpus2 $i --variant node_cpus
done

{
	echo "== bench-seed002: $build, deferred_init1, $runs runs a row (medians), $ncores cores, load average $load0 at the start =="
	o1=$(stat one1 deferred_init1.node0.ms | median)
	c1=$(stat cpus1 deferred_init1.node0.ms | median)
	t1=$(stat cpus1 deferred_init1.node0.threads | median)
	oc1=$(stat one1 deferred_init1.node0.cpu_ms | median)
	cc1=$(stat cpus1 deferred_init1.node0.cpu_ms | median)
	pages=$(stat one1 deferred_init1.node0.pages | median)
	s1=$(sim cpus1 0 1 | median)
	s2=$(sim cpus1 0 2 | median)
	s8=$(sim cpus1 0 8 | median)
	s80=$(sim cpus1 0 80 | median)
	o2a=$(stat one2 deferred_init1.node0.ms | median)
	o2b=$(stat one2 deferred_init1.node1.ms | median)
	c2a=$(stat cpus2 deferred_init1.node0.ms | median)
	c2b=$(stat cpus2 deferred_init1.node1.ms | median)
	t2=$(stat cpus2 deferred_init1.node0.threads | median)
	echo
	echo "| | model, 1 node of $t1 CPUs on $ncores cores | model, 2 nodes of $t2 CPUs on $ncores cores (node 0, node 1) | simulated 2-CPU node | simulated 8-CPU node | simulated 80-CPU node |"
	echo "|---|---|---|---|---|---|"
	echo "| threads | ms (%) | ms (%) | ms (%) | ms (%) | ms (%) |"
	echo "| 1 | $o1 (0%) | $o2a, $o2b (0%) | $s1 (0%) | $s1 (0%) | $s1 (0%) |"
	echo "| cpus | $c1 ($(pct "$o1" "$c1")) | $c2a ($(pct "$o2a" "$c2a")), $c2b ($(pct "$o2b" "$c2b")) | $s2 ($(pct "$s1" "$s2")) | $s8 ($(pct "$s1" "$s8")) | $s80 ($(pct "$s1" "$s80")) |"
	echo
	echo "pages initialised a node: $pages ($(awk -v p="$pages" 'BEGIN { printf "%.2f", p * 4096 / 2^30 }') GiB of 4 KiB pages)"
	echo "one thread, 1 node: $(awk -v m="$o1" -v p="$pages" 'BEGIN { printf "%.1f ns a page, %.2f ms per GiB", m * 1e6 / p, m / (p * 4096 / 2^30) }') (seed 002's kernels: 1.80-3.86 ms per GiB)"
	echo "CPU time of the init, 1 node: one $oc1 ms, node_cpus $cc1 ms (their ratio is what the helpers cost beyond the work)"
	echo "wall over CPU time, 1 node, one thread: $(awk -v w="$o1" -v c="$oc1" 'BEGIN { printf "%.2f", w / c }') (1.00: the thread had a core throughout)"
	echo "simulated nodes (node_cpus runs' chunk costs):"
	grep -h '^deferred_init1.sim.node0' "$tmp"/cpus1.1
	echo
	echo "commands:"
	echo "  1 node, one:        $build/mmfuzz stress deferred_init1 --set nodes=1 --variant one"
	echo "  1 node, node_cpus:  $build/mmfuzz stress deferred_init1 --set nodes=1 --variant node_cpus --sim-cpus 2,8,80"
	echo "  2 nodes, one:       $build/mmfuzz stress deferred_init1 --variant one"
	echo "  2 nodes, node_cpus: $build/mmfuzz stress deferred_init1 --variant node_cpus"
	echo
	echo "every run's kernel lines and CSV rows:"
	for n in one1 cpus1 one2 cpus2; do
		for ((i = 1; i <= runs; i++)); do
			echo "-- $n run $i"
			grep -h '^node [0-9]* deferred\|^csv,\|^stress.rss_peak_mib' "$tmp/$n.$i"
		done
	done
	echo
	echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out"
cat "$out"
"$root/bench/mpage.sh" -n bench-seed002 -c "make bench-seed002" -l "$load0" -f "$out" \
	-t "Seed 002 (docs/seed002.md): medians of $runs runs a row; one and node_cpus interleaved."
