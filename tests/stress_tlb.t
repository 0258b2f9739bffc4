#!/bin/bash
# mmfuzz stress on the address space layer: will-it-scale's page_fault1,
# brk1, mmap1 and tlb_flush2 in process mode (an mm each) and thread mode
# (one mm), in every build: clean (invariant_violations: 0, no sanitizer
# report, tlb_flush_pending back to 0), with the counters a user reads to
# see what a flush costs; seed 001's leak (tlb_pending_leak) shows as a
# violation at the first check, and without checks as what it costs:
# tlb_flush_pending left high and a full flush every munmap.
. tests/lib/tap.sh
plan 17

FAST="--warmup 1 --sample-ms 250 --stall-ms 20000"
stat() { grep "^$2: " "$1" | head -1 | cut -d' ' -f2; }
san() { grep -q 'ThreadSanitizer\|AddressSanitizer\|runtime error' "$1"; }

for w in page_fault1 brk1 mmap1 tlb_flush2; do
	for m in process thread; do
		o="$TMP/$w.$m"
		"$MMFUZZ" stress $w -t 2 --mode $m -s 2 $FAST > "$o" 2> "$o.err"; rc=$?
		[ $rc = 0 ] && [ "$(stat "$o" invariant_violations)" = 0 ] &&
			[ "$(stat "$o" model.tlb_flush_pending)" = 0 ] &&
			[ "$(grep ^average: "$o" | cut -d: -f2)" -gt 0 ] &&
			[ "$(stat "$o" model.invariant_checks)" -ge 3 ] &&
			[ "$(stat "$o" config.mode)" = $m ] && ! san "$o.err"
		ok $? "$w -t 2 --mode $m: a throughput, checked at quiescence, 0 violations, tlb_flush_pending 0"
		[ $rc = 0 ] || { diag "exit $rc"; head -20 "$o.err" | diag "$(cat)"; }
	done
done

# page_fault1: every page's first write misses the TLB and faults; each
# munmap of the whole region is one full flush (above the ceiling)
o="$TMP/page_fault1.process"
awk -F': ' '$1 == "model.tlb_miss_per_op" { exit !($2 >= 1) }' "$o" &&
	[ "$(stat "$o" model.tlb_flush_requests_full)" -gt 0 ] &&
	[ "$(stat "$o" model.tlb_ipi_sent)" = 0 ]
ok $? "page_fault1 processes: a TLB miss a page, a full flush a munmap, no IPI (private mms)"

# tlb_flush2: threads of one mm send each madvise's flush to the others
# and wait; processes flush their own CPU alone
o="$TMP/tlb_flush2.thread"
[ "$(stat "$o" model.tlb_ipi_sent)" -gt 0 ] && [ "$(stat "$o" model.tlb_remote_flush_received)" -gt 0 ]
ok $? "tlb_flush2 threads: IPIs ($(stat "$o" model.tlb_ipi_sent)) and flushes received on the other CPU"
o="$TMP/tlb_flush2.process"
[ "$(stat "$o" model.tlb_ipi_sent)" = 0 ] && [ "$(stat "$o" model.tlb_local_flush_one)" -gt 0 ]
ok $? "tlb_flush2 processes: one-page flushes on the local CPU only, no IPI"

# brk1 clean: the shrink's gather finds no page: no flush at all
o="$TMP/brk1.process"
[ "$(stat "$o" model.tlb_flush_requests)" = 0 ] && [ "$(stat "$o" model.tlb_miss)" = 0 ] &&
	[ "$(stat "$o" model.tlb_gather)" -gt 0 ]
ok $? "brk1 clean: gathers ($(stat "$o" model.tlb_gather)), no flush, no TLB miss"

# seed 001: the leak is I-TLB-1 at the first check...
"$MMFUZZ" stress brk1 -t 1 -s 2 $FAST --inject tlb_pending_leak > "$TMP/o" 2> "$TMP/e"; rc=$?
{ [ $rc = 1 ] || { is_tsan && [ $rc = 66 ]; }; } &&
	grep -q "Assertion \`I-TLB-1@stress' failed" "$TMP/e" &&
	grep -q "tlb_flush_pending is [1-9][0-9]* with no gather live" "$TMP/e" &&
	[ "$(stat "$TMP/o" invariant_violations)" = 1 ]
ok $? "--inject tlb_pending_leak: I-TLB-1 at the first check, exit 1"
# ...and without checks, its price: a full flush a munmap, the loop's code
# and stack missing the TLB after it, the count never back to zero
"$MMFUZZ" stress brk1 -t 1 -s 2 $FAST --check-every 0 --inject tlb_pending_leak > "$TMP/o" 2> "$TMP/e"
rc=$?
[ $rc = 0 ] && [ "$(stat "$TMP/o" model.tlb_flush_full_per_op)" = 0.500 ] &&
	[ "$(stat "$TMP/o" model.tlb_miss_per_op)" = 1.000 ] &&
	[ "$(stat "$TMP/o" model.tlb_flush_pending)" -gt 1000 ] &&
	[ "$(stat "$TMP/o" model.tlb_gather_nested)" = "$(stat "$TMP/o" model.tlb_gather)" ] && ! san "$TMP/e"
ok $? "--check-every 0 --inject tlb_pending_leak: 0.5 full flushes an op, 1 miss an op, tlb_flush_pending $(stat "$TMP/o" model.tlb_flush_pending) at the end"

# the three kernels of seed 001 in LKP's table
"$MMFUZZ" stress --compare --inject tlb_nested_flush_miss --inject tlb_pending_leak \
	--inject none brk1 -t 1 -s 1 -r 3 $FAST --check-every 0 > "$TMP/o" 2> "$TMP/e"; rc=$?
[ $rc = 0 ] && grep -qE "^ +0\.00 +\+[0-9.e+]+% +0\.50 +\+0\.0% +0\.00 +model\.tlb_flush_full_per_op$" "$TMP/o" &&
	grep -qE "^  tlb_pending_leak: .*model\.tlb_flush_requests_full \+" "$TMP/o" &&
	grep -qE "^ +0\.00 .* 0\.00 +invariant_violations$" "$TMP/o"
ok $? "--compare of seed 001's three kernels: the leak's column alone has 0.5 full flushes an op"
[ $rc = 0 ] || { diag "exit $rc"; tail -20 "$TMP/e" | diag "$(cat)"; }

# more processes than the model has mms, or regions than the zone holds
"$MMFUZZ" stress brk1 --mode process -t 17 -s 1 > /dev/null 2> "$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q "at most 16 tasks in process mode" "$TMP/e"
ok $? "brk1 --mode process -t 17: exit 2, the model holds 16 mms"
"$MMFUZZ" stress page_fault1 -t 20 -s 1 > /dev/null 2> "$TMP/e"; rc=$?
[ $rc = 2 ] && grep -q "fewer tasks" "$TMP/e"
ok $? "page_fault1 -t 20: exit 2, the zone cannot hold 20 regions"
finish
