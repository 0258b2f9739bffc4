#!/bin/bash
# Every stress workload (mmfuzz stress --list) at 1 and 2 tasks, in thread
# and in process mode, one short sample each; the 2-task runs again with a
# busy loop beside them (a machine that is not idle: the tasks, liburcu's
# callback thread and the loop share the cores); and page_fault1's two
# processes in the smallest zone their regions fit (--zone-pages 18432),
# idle and loaded: the page tables munmap frees wait for a grace period,
# and a fault that finds the zone short must wait for them (page_alloc_slowpath.c
# reclaim_throttle), not fail with ENOMEM.  Each run must exit 0 with
# invariant_violations: 0 and no assertion or sanitizer report.
. tests/lib/tap.sh

WL=$("$MMFUZZ" stress --list | awk '{ print $1 }')
nwl=$(echo $WL | wc -w)
plan $((nwl * 6 + 3))

SHORT="-s 1 --warmup 0 --sample-ms 100 --stall-ms 20000"
stat() { grep "^$2: " "$1" | head -1 | cut -d' ' -f2; }
busy=
busy_start() { ( while :; do :; done ) & busy=$!; }
busy_stop() { [ -n "$busy" ] && kill "$busy" 2> /dev/null; wait "$busy" 2> /dev/null; busy=; }
trap 'busy_stop; rm -rf "$TMP"' EXIT

# run NAME ARGS...: one stress run, three at a time (a sanitizer build's run
# mostly waits: liburcu's grace periods, the threads' exit); check collects
# them in order
N=0
pids=()
names=()
run() {
	N=$((N + 1))
	names[$N]=$1
	shift
	echo "$*" > "$TMP/$N.args"
	( "$MMFUZZ" stress "$@" > "$TMP/$N.out" 2> "$TMP/$N.err"; echo $? > "$TMP/$N.rc" ) &
	pids+=($!)
	[ ${#pids[@]} -lt 3 ] || runs_wait
}
runs_wait() {
	[ ${#pids[@]} = 0 ] || wait "${pids[@]}"
	pids=()
}
check() {
	local i o e rc r
	for ((i = 1; i <= N; i++)); do
		o="$TMP/$i.out" e="$TMP/$i.err" rc=$(cat "$TMP/$i.rc")
		[ "$rc" = 0 ] && [ "$(stat "$o" invariant_violations)" = 0 ] &&
			grep -q '^average:' "$o" &&
			! grep -q "Assertion\|ThreadSanitizer\|AddressSanitizer\|runtime error" "$e"
		r=$?
		ok $r "${names[$i]}"
		[ $r = 0 ] && continue
		diag "exit $rc, invariant_violations: $(stat "$o" invariant_violations): $(cat "$TMP/$i.args")"
		grep -q '^average:' "$o" || diag "no average: line in its output"
		grep -v '^warning:' "$e" | grep -m 1 -A 30 "Assertion\|ThreadSanitizer\|AddressSanitizer\|runtime error\|violation\|^I-" | diag "$(cat)"
	done
}

[ "$nwl" -ge 9 ]
ok $? "stress --list names the workloads ($nwl)"

for w in $WL; do
	for m in thread process; do
		for t in 1 2; do
			run "$w -t $t --mode $m" $w -t $t --mode $m $SHORT
		done
	done
done

busy_start
for w in $WL; do
	for m in thread process; do
		run "$w -t 2 --mode $m beside a busy loop" $w -t 2 --mode $m $SHORT
	done
done
run "page_fault1 -t 2 --mode process --zone-pages 18432 beside a busy loop" \
	page_fault1 -t 2 --mode process --zone-pages 18432 -s 2 --warmup 0 --sample-ms 250 \
	--stall-ms 20000
runs_wait
busy_stop
run "page_fault1 -t 2 --mode process --zone-pages 18432" \
	page_fault1 -t 2 --mode process --zone-pages 18432 -s 2 --warmup 0 --sample-ms 250 \
	--stall-ms 20000
runs_wait
check
finish
