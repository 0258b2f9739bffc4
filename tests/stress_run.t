#!/bin/bash
# mmfuzz stress: every workload runs on real threads and prints
# will-it-scale's shape (testcase:, warmup, min/max/total lines,
# measurement, average:) with the model's counters and zero invariant
# violations, in every build; Ctrl-C prints what was measured; bad input
# exits 2; a missing lock is an Assertion (plain, ASan) or a TSan race.
# Samples are shortened with --sample-ms so the file stays fast.
. tests/lib/tap.sh
plan 31

FAST="--warmup 1 --sample-ms 250 --stall-ms 5000"

# will-it-scale's main.c output for W warmup samples and S measured ones:
# testcase:, warmup, W lines, measurement, S lines, average:, then key: value
shape() {	# shape FILE W S
	awk -v w="$2" -v s="$3" '
		function bad(why) { print "# line " NR ": " why ": " $0; fail = 1; exit 1 }
		NR == 1 { if ($0 !~ /^testcase:[^:]+$/) bad("not testcase:"); next }
		NR == 2 { if ($0 != "warmup") bad("not warmup"); next }
		/^ *[0-9]+ -> [0-9]+$/ { next }
		/^min:[0-9]+ max:[0-9]+ total:[0-9]+$/ { if (avg) bad("sample after average"); n++; next }
		$0 == "measurement" { if (n != w) bad("measurement after " n " samples"); m = 1; next }
		/^average:[0-9]+$/ { if (!m || n != w + s) bad("average after " n " samples"); avg = 1; next }
		/^[a-z_.%0-9-]+: [^ ].*$/ { if (!avg) bad("key before average"); keys++; next }
		{ bad("unexpected") }
		END { if (!fail && (!avg || keys < 20)) { print "# no average or too few keys"; exit 1 } }
	' "$1"
}
stat() { grep "^$2: " "$1" | head -1 | cut -d' ' -f2; }

for w in pcp_alloc1 buddy_split1 cross_free1 drain1; do
	"$MMFUZZ" stress $w -t 2 -s 2 $FAST > "$TMP/$w" 2> "$TMP/$w.err"; rc=$?
	[ $rc = 0 ] && shape "$TMP/$w" 1 2 && [ "$(stat "$TMP/$w" invariant_violations)" = 0 ] &&
		[ "$(grep ^average: "$TMP/$w" | cut -d: -f2)" -gt 0 ]
	ok $? "$w -t 2: will-it-scale's shape, a throughput, invariant_violations: 0"
	[ $rc = 0 ] || { diag "exit $rc"; head -20 "$TMP/$w.err" | diag "$(cat)"; }
done

# one task alone: cross_free1 migrates to a spare CPU, drain1 drains itself;
# three: a pair and a lone task
for args in "cross_free1 -t 1" "cross_free1 -t 3" "drain1 -t 1" "buddy_split1 -t 1"; do
	"$MMFUZZ" stress $args -s 1 $FAST > "$TMP/o" 2> /dev/null && shape "$TMP/o" 1 1 &&
		[ "$(stat "$TMP/o" invariant_violations)" = 0 ]
	ok $? "$args: clean"
done

grep -q "^model.zone_lock.acquired: [1-9]" "$TMP/drain1" &&
	grep -q "^model.pcp_drain: [1-9]" "$TMP/drain1" &&
	grep -qE "^model.zone_lock.(contended|trylock_failed|hold_ns|busy%): [0-9.]+$" "$TMP/drain1" &&
	grep -qE "^model.pcp_(alloc|free)_trylock_fallback: [0-9]+$" "$TMP/drain1" &&
	grep -qE "^model.invariant_checks: [3-9]" "$TMP/drain1"
ok $? "the counters: pcp refills and drains, zone->lock acquisitions, contention, hold time, fallbacks"
# pcp_alloc1 faults each task's region in before the start, one task after
# another: each CPU's pages are one run of pfns, the same every run, not
# runs of pcp->batch interleaved by the start race
[ "$(stat "$TMP/pcp_alloc1" model.pcp_page_runs)" = 2 ] &&
	[ "$(stat "$TMP/pcp_alloc1" model.pcp_pages)" -ge 512 ]
ok $? "pcp_alloc1 -t 2: each CPU's pages one run of pfns ($(stat "$TMP/pcp_alloc1" model.pcp_page_runs) runs)"
kind=$(stat "$TMP/pcp_alloc1" config.build)
[ "$(stat "$TMP/pcp_alloc1" config.tasks)" = 2 ] &&
	[ "$(stat "$TMP/pcp_alloc1" config.variant)" = single_pass ] &&
	case "$kind" in plain|asan|tsan) true;; *) false;; esac
ok $? "the reproducibility lines: tasks, variant, build ($kind)"

# runtest.py reads testcase: and average: with split(':')
awk -F: '/testcase:/ && NF != 2 { exit 1 } /average:/ && ($2 !~ /^[0-9]+$/) { exit 1 }' \
	"$TMP/pcp_alloc1" && [ "$(grep -c 'average' "$TMP/pcp_alloc1")" = 1 ]
ok $? "runtest.py's parse: one average: line, split(':') into two fields"

# will-it-scale's warmup arithmetic: samples 0..5 discarded, -s measured
"$MMFUZZ" stress pcp_alloc1 -s 2 --sample-ms 100 > "$TMP/o" 2> /dev/null && shape "$TMP/o" 6 2
ok $? "default warmup: six samples, measurement, then -s samples, average:"
"$MMFUZZ" stress pcp_alloc1 -t 2 -s 1 -v $FAST > "$TMP/o" 2> /dev/null &&
	[ "$(grep -cE '^   [01] -> [0-9]+$' "$TMP/o")" = 4 ]
ok $? "-v: every task's count in every sample"
if [ "$kind" = plain ]; then
	"$MMFUZZ" stress pcp_alloc1 -s 1 $FAST > /dev/null 2> "$TMP/err"; ! grep -q warning "$TMP/err"
else
	"$MMFUZZ" stress pcp_alloc1 -s 1 $FAST > /dev/null 2> "$TMP/err"
	grep -q "^warning: .*not a benchmark" "$TMP/err"
fi
ok $? "a sanitizer build says its figures are not a benchmark"

# Ctrl-C: what was measured so far, then the counters and the checks
"$MMFUZZ" stress pcp_alloc1 -t 2 --warmup 1 --sample-ms 200 > "$TMP/o" 2> "$TMP/err" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid; rc=$?
[ $rc = 130 ] && grep -qE '^average:[0-9]+$' "$TMP/o" && grep -qx 'invariant_violations: 0' "$TMP/o" &&
	grep -q interrupted "$TMP/err"
ok $? "Ctrl-C: average: over the samples so far, the counters, exit 130"

# bad input: a message and exit 2, nothing runs
bad() {	# bad "ARGS" MESSAGE-REGEX NAME
	"$MMFUZZ" stress $1 > "$TMP/o" 2> "$TMP/err"; rc=$?
	[ $rc = 2 ] && grep -qE -e "$2" "$TMP/err" && ! grep -q '^testcase:' "$TMP/o"
	ok $? "$3"
}
bad "page_fault9 -s 1" "unknown workload 'page_fault9'" "an unknown workload"
bad "pcp_alloc1 --variant sideways" "unknown variant 'sideways'" "an unknown variant"
bad "pcp_alloc1 --inject no_such" "unknown bug switch 'no_such'" "an unknown switch"
bad "pcp_alloc1 -t 0" "bad -t '0'" "zero tasks"
bad "pcp_alloc1 -t 2x" "bad -t '2x'" "a bad number"
bad "pcp_alloc1 -s -1" "bad -s '-1'" "a negative time"
bad "pcp_alloc1 -n -m" "-m and -n" "-m with -n"
bad "--compare --variant locked_rr pcp_alloc1 -r 2" "bad -r '2'" "--compare with fewer than 3 runs"
bad "" "no WORKLOAD" "no workload"

# a missing lock: the checkers catch it (an Assertion LKP counts), TSan races
if [ "$kind" = tsan ]; then
	# (real threads: on a loaded machine the two may not overlap in one
	# run, so up to three runs; one that reports is the finding)
	for w in drain1 cross_free1; do
		for try in 1 2 3; do
			"$MMFUZZ" stress $w -t 2 -s 2 $FAST --inject pcp_free_nolock > /dev/null 2> "$TMP/err"
			rc=$?
			[ $rc = 0 ] || break
		done
		[ $rc = 66 ] && grep -q "ThreadSanitizer: data race" "$TMP/err"
		ok $? "$w --inject pcp_free_nolock: a TSan data race report (exit 66)"
		[ $rc = 66 ] && [ $try = 1 ] || diag "run $try, exit $rc: $(grep -v '^warning:' "$TMP/err" | head -3)"
	done
else
	for w in drain1 cross_free1; do
		"$MMFUZZ" stress $w -t 2 -s 20 $FAST --inject pcp_free_nolock > "$TMP/o" 2> "$TMP/err"
		rc=$?
		[ $rc = 1 ] && grep -qE "^mmfuzz stress: $w: Assertion \`[^ ]+' failed\.$" "$TMP/err" &&
			grep -qE '^invariant_violations: [1-9]' "$TMP/o"
		ok $? "$w --inject pcp_free_nolock: Assertion \`...' failed, exit 1"
		[ $rc = 1 ] || diag "exit $rc: $(head -3 "$TMP/err")"
	done
fi

# --compare: LKP's table, one column per configuration
"$MMFUZZ" stress --compare --variant pick_outside pcp_alloc1 -s 2 --warmup 1 --sample-ms 150 \
	-r 3 > "$TMP/cmp" 2> "$TMP/err"; rc=$?
[ $rc = 0 ] && grep -qx '         %stddev     %change         %stddev' "$TMP/cmp" &&
	grep -qE '^            none                pick_outside $' "$TMP/cmp" &&
	grep -qE '^ {0,9}[0-9.e+]{1,10}( ±[ 0-9]{3}%|      ) +[-+][0-9.]+% +[0-9.e+]{1,10}( ±[ 0-9]{3}%|      )  will-it-scale\.per_thread_ops$' "$TMP/cmp" &&
	grep -q '^significant (LKP' "$TMP/cmp"
ok $? "--compare: the %stddev %change %stddev table, none against pick_outside"
[ $rc = 0 ] || { diag "exit $rc"; diag "$(head -30 "$TMP/cmp" "$TMP/err")"; }

# --scaling: runtest.py's CSV and a plot
"$MMFUZZ" stress --scaling pcp_alloc1 --max-tasks 2 -s 1 --warmup 1 --sample-ms 150 \
	-o "$TMP/s.csv" > "$TMP/csv" 2> "$TMP/err"; rc=$?
[ $rc = 0 ] && cmp -s "$TMP/csv" "$TMP/s.csv" &&
	[ "$(sed -n 1p "$TMP/s.csv")" = "tasks,processes,processes_idle,threads,threads_idle,linear" ] &&
	[ "$(sed -n 2p "$TMP/s.csv")" = "0,0,100,0,100,0" ] &&
	sed -n '3,4p' "$TMP/s.csv" | grep -cE '^[12],[1-9][0-9]*,[0-9]+\.[0-9]{2},[1-9][0-9]*,[0-9]+\.[0-9]{2},[1-9][0-9]*$' |
		grep -qx 2 &&
	awk -F, 'NR == 3 { l = ($2 > $4 ? $2 : $4); if ($6 != l) exit 1 } NR == 4 && $6 != 2 * l { exit 1 }' \
		"$TMP/s.csv"
ok $? "--scaling: runtest.py's CSV (header, 0-row, rows 1 and 2, linear from the 1-task row)"
if command -v gnuplot > /dev/null; then
	head -c 4 "$TMP/s.png" | grep -q PNG
	ok $? "--scaling: the PNG plot beside the CSV"
else
	ok 0 "# SKIP gnuplot is not installed"
fi
# The stress machine is a machine the text form can state: one config table.
bad=""
for wl in $("$MMFUZZ" stress --list | awk '{print $1}'); do
	# deferred_init1's 4 GiB nodes are beyond a program's zone_pages
	# (config_big_zones, stress only): its machine at a program's size
	size=
	[ "$wl" = deferred_init1 ] && size="--zone-pages 65536"
	{ "$MMFUZZ" stress "$wl" --emit-config --pcp-batch 31 $size &&
	  printf 'task T0 cpu=7\n  h0 = alloc_pages order=10 mt=movable\n  free_pages h0\n'; } > "$TMP/m.mmf"
	"$MMFUZZ" run -q "$TMP/m.mmf" > /dev/null 2>&1 || bad="$bad $wl"
	grep -q '^pcp_batch: 31$' "$TMP/m.mmf" || bad="$bad $wl(batch)"
done
[ -z "$bad" ]
ok $? "every workload's --emit-config parses and runs as a program's header${bad:+ (not:$bad)}"

finish
