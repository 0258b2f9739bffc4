#!/bin/bash
# mmfuzz stress --host: will-it-scale's own testcase of a model workload on
# the machine's kernel, in both modes, with the model's sampling; exit 2
# with the reason where the kernel or machine cannot run it; --scaling
# --host writes the model's and the kernel's columns in one CSV.
. tests/lib/tap.sh
plan 15

FAST="--warmup 1 --sample-ms 250"
stat() { grep "^$2: " "$1" | head -1 | cut -d' ' -f2-; }
san() { grep -q 'ThreadSanitizer\|AddressSanitizer\|runtime error' "$1"; }

for w in page_fault1 brk1 mmap1 tlb_flush2; do
	for m in process thread; do
		o="$TMP/$w.$m"
		"$MMFUZZ" stress $w --host -t 1 -s 1 --mode $m $FAST > "$o" 2> "$o.err"; rc=$?
		# will-it-scale's shape: testcase:, warmup, a sample, measurement, a sample, average:
		[ $rc = 0 ] && [ "$(sed -n 2p "$o")" = warmup ] && grep -qx measurement "$o" &&
			[ "$(grep -c '^min:[0-9]* max:[0-9]* total:[0-9]*$' "$o")" = 2 ] &&
			[ "$(grep ^average: "$o" | cut -d: -f2)" -gt 0 ] &&
			[ "$(stat "$o" config.target)" = host ] && [ "$(stat "$o" config.mode)" = $m ] &&
			[ "$(stat "$o" config.host_testcase)" = "will-it-scale tests/$w.c" ] &&
			! grep -q '^invariant_violations\|^model\.' "$o" && ! san "$o.err"
		ok $? "$w --host --mode $m: the kernel's figures in will-it-scale's form"
		[ $rc = 0 ] || { diag "exit $rc"; head -5 "$o.err" | diag "$(cat)"; }
	done
done

# what a flush costs the kernel, beside model.tlb_ipi_sent (x86's TLB: line)
if grep -q '^ *TLB:' /proc/interrupts; then
	grep -q '^host\.tlb_shootdowns: [0-9]*$' "$TMP/tlb_flush2.thread" &&
		grep -q '^host\.tlb_shootdowns_per_op: [0-9.]*$' "$TMP/tlb_flush2.thread"
	ok $? "tlb_flush2 --host: the kernel's TLB shootdown IPIs over the run, and per op"
else
	ok 0 "# SKIP no TLB: line in /proc/interrupts"
fi

"$MMFUZZ" stress pcp_alloc1 --host -t 1 -s 1 > "$TMP/o" 2> "$TMP/e"; rc=$?
[ $rc = 2 ] && [ ! -s "$TMP/o" ] && grep -q 'pcp_alloc1 has no will-it-scale counterpart' "$TMP/e"
ok $? "--host on a workload without a counterpart: exit 2, says which have one"

n=$(nproc)
"$MMFUZZ" stress brk1 --host -t $((n + 1)) -s 1 > "$TMP/o" 2> "$TMP/e"; rc=$?
[ $rc = 2 ] && [ ! -s "$TMP/o" ] && grep -q "pinned one per core" "$TMP/e"
ok $? "--host, more tasks than CPUs to pin them to: exit 2, says why"

"$MMFUZZ" stress brk1 --host --set pcp_high=12 -s 1 > "$TMP/o" 2> "$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q -- "--set is the model's" "$TMP/e"
ok $? "--host with a model option: exit 2, not silently ignored"

# a kernel that refuses the testcase's mmap (an address-space limit below
# 128 MiB) is said before anything runs (sanitizers reserve more than that)
case "$BUILD" in
*asan*|*tsan*) ok 0 "# SKIP ulimit -v under a sanitizer" ;;
*)	(ulimit -v 98304; "$MMFUZZ" stress page_fault1 --host -s 1 > "$TMP/o" 2> "$TMP/e"); rc=$?
	[ $rc = 2 ] && [ ! -s "$TMP/o" ] &&
		grep -q 'page_fault1: mmap of 128 MiB of anonymous memory: Cannot allocate memory' "$TMP/e"
	ok $? "--host where mmap of 128 MiB fails: exit 2, says which call failed" ;;
esac

cd "$TMP" || exit 1
"$MMFUZZ" stress --scaling --host mmap1 --max-tasks 2 --mode thread -s 1 $FAST \
	-o both.csv > out.csv 2> err; rc=$?
head -1 both.csv | grep -qx 'tasks,processes,processes_idle,threads,threads_idle,linear,host_processes,host_processes_idle,host_threads,host_threads_idle,host_linear' &&
	[ "$(sed -n 2p both.csv)" = "0,0,100,0,100,0,0,100,0,100,0" ] &&
	awk -F, 'NR > 2 { if ($4 <= 0 || $9 <= 0 || NF != 11) bad = 1; n++ } END { exit bad || n != 2 }' both.csv &&
	cmp -s both.csv out.csv && [ $rc = 0 ] && ! san err
ok $? "--scaling --host: one CSV with the model's and the kernel's columns, rows 1 and 2"
[ $rc = 0 ] || head -5 err | diag "$(cat)"
grep -q '^  threads   2 tasks: model [0-9.]*  host [0-9.]*  model/host [0-9.]*$' err &&
	grep -q 'load average' err
ok $? "--scaling --host: the fidelity figure (2 tasks over 1, model and host) with the load"
finish
