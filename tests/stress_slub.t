#!/bin/bash
# The SLUB workloads with what tests/stress_workloads.t leaves out: the
# slabinfo reader (--reader-hz) and long partial lists (--min-partial), at
# 1 and 2 tasks, short; each must exit 0 clean and show the paths it is
# there for in its counters: slub_alloc1 the fast paths, slub_xfree1
# __slab_free and n->list_lock taken by tasks and reader, slub_rcu1 every
# kfree_rcu() freed by the end and its typesafe-by-RCU lookups made; and the options' bad values are exit 2.
. tests/lib/tap.sh

plan 27

SHORT="-s 2 --warmup 0 --sample-ms 150 --stall-ms 20000"
stat() { grep "^$2: " "$1" | head -1 | cut -d' ' -f2; }
gt0() { awk -v v="$1" 'BEGIN { exit !(v + 0 > 0) }'; }

# run OUT ARGS...: a clean run?
run() {
	local o=$1
	shift
	"$MMFUZZ" stress "$@" $SHORT > "$o" 2> "$o.err"
	local rc=$?
	[ $rc = 0 ] && [ "$(stat "$o" invariant_violations)" = 0 ] &&
		! grep -q "Assertion\|ThreadSanitizer\|AddressSanitizer\|runtime error" "$o.err"
	local ok=$?
	[ $ok = 0 ] || { diag "exit $rc: $*"; head -5 "$o.err" | diag "$(cat)"; }
	return $ok
}

for t in 1 2; do
	o=$TMP/a$t
	run "$o" slub_alloc1 -t $t --reader-hz 200
	ok $? "slub_alloc1 -t $t --reader-hz 200: clean"
	gt0 "$(stat "$o" model.slub.alloc_fastpath)" && gt0 "$(stat "$o" model.slub.free_fastpath)"
	ok $? "slub_alloc1 -t $t: fast-path allocations and frees"

	o=$TMP/x$t
	run "$o" slub_xfree1 -t $t --reader-hz 500 --min-partial 100000
	ok $? "slub_xfree1 -t $t --reader-hz 500 --min-partial 100000: clean"
	[ "$(stat "$o" model.slub.free_fastpath)" = 0 ] && gt0 "$(stat "$o" model.slub.free_slowpath)"
	ok $? "slub_xfree1 -t $t: every free is __slab_free (another CPU's slab)"
	! grep -q "^model.slub.stat_item_\|(null)" "$o" && gt0 "$(stat "$o" model.slub.alloc_from_partial)"
	ok $? "slub_xfree1 -t $t: every stat item named; allocations from the node's partial list"
	gt0 "$(stat "$o" model.slub.list_lock.acquired)" &&
		gt0 "$(stat "$o" model.slub.list_lock.hold_ns_max)" &&
		gt0 "$(stat "$o" model.slub.free_p99_ns)"
	ok $? "slub_xfree1 -t $t: list_lock taken and timed, the frees' tail measured"
	gt0 "$(stat "$o" model.slub.slabinfo_reads)" &&
		gt0 "$(stat "$o" model.slub.slabinfo_free_objs_mean)" &&
		gt0 "$(stat "$o" model.slub.slabinfo_num_slabs_mean)" &&
		gt0 "$(stat "$o" model.slub.nr_partial)" &&
		[ "$(stat "$o" config.slub_min_partial)" = 100000 ] &&
		[ "$(stat "$o" config.slub_reader_hz)" = 500 ]
	ok $? "slub_xfree1 -t $t: the reader read partial lists ($(stat "$o" model.slub.slabinfo_reads) reads, mean nr_free $(stat "$o" model.slub.slabinfo_free_objs_mean) of $(stat "$o" model.slub.slabinfo_num_slabs_mean) slabs)"

	o=$TMP/r$t
	run "$o" slub_rcu1 -t $t --reader-hz 100
	ok $? "slub_rcu1 -t $t --reader-hz 100: clean"
	gt0 "$(stat "$o" model.rcu.kfree_rcu_calls)" &&
		[ "$(stat "$o" model.rcu.kfree_rcu_pending)" = 0 ] &&
		[ "$(stat "$o" model.rcu.callbacks_pending)" = 0 ] &&
		gt0 "$(stat "$o" model.slub.typesafe_lookups)"
	ok $? "slub_rcu1 -t $t: kfree_rcu called ($(stat "$o" model.rcu.kfree_rcu_calls)), nothing pending after the drain; $(stat "$o" model.slub.typesafe_lookups) typesafe-by-RCU lookups revalidated"
done

# the counters cover the measurement: the sum of its per-path counts is
# what the frees timed say
o=$TMP/x2
f=$(( $(stat "$o" model.slub.free_fastpath) + $(stat "$o" model.slub.free_slowpath) ))
gt0 "$f" && [ "$f" = "$(stat "$o" model.slub.frees_timed)" ]
ok $? "slub_xfree1: fast + slow frees ($f) = frees timed ($(stat "$o" model.slub.frees_timed))"

for bad in "--reader-hz x" "--reader-hz 100001" "--min-partial -1" "--cpu-partial 1001"; do
	"$MMFUZZ" stress slub_xfree1 $bad -s 1 > /dev/null 2>&1
	[ $? = 2 ]
	ok $? "stress slub_xfree1 $bad: exit 2"
done
"$MMFUZZ" stress slub_xfree1 -t 8 --reader-hz 10 -s 1 > /dev/null 2> "$TMP/err"
[ $? = 2 ] && grep -q "no simulated CPU is left for the reader" "$TMP/err"
ok $? "--reader-hz with no simulated CPU left for it: exit 2, said why"
"$MMFUZZ" stress slub_xfree1 --reader-hz 10 --host -s 1 > /dev/null 2>&1
[ $? = 2 ]
ok $? "--reader-hz --host: exit 2 (the model's option)"

# seed 004's switch count_partial_nolock (the walk without n->list_lock)
# on real threads: the slabinfo reader's walk races the tasks' list
# changes, which TSan reports (exit 66); a plain build has no checker of
# it on real threads (the fiber runs' I-SL-WALK does: test_slub_partial)
if is_tsan; then
	"$MMFUZZ" stress slub_xfree1 -t 2 --reader-hz 1000 --min-partial 100000 \
		--inject count_partial_nolock $SHORT > /dev/null 2> "$TMP/nolock.err"
	rc=$?
	# every race report has count_partial in one of its two stacks: TSan
	# names the walk's read first or the list change's write first, as
	# they met, and a race that is not the walk's is not this switch's
	[ $rc = 66 ] && awk '/WARNING: ThreadSanitizer: data race/ { n++; inrep = 1; hit = 0 }
		inrep && /count_partial/ { hit = 1 }
		inrep && /^SUMMARY: ThreadSanitizer/ { good += hit; inrep = 0 }
		END { exit !(n > 0 && good == n) }' "$TMP/nolock.err"
	ok $? "--inject count_partial_nolock under the reader: TSan's race in count_partial (exit $rc)" ||
		grep "^SUMMARY: ThreadSanitizer" "$TMP/nolock.err" | head -5 | diag "$(cat)"
else
	ok 0 "--inject count_partial_nolock under the reader # SKIP not a TSan build"
fi
# the SLUB options on another workload are refused, not ignored
"$MMFUZZ" stress pcp_alloc1 --reader-hz 10 -s 1 > /dev/null 2> "$TMP/e"
[ $? = 2 ] && grep -q "the SLUB workloads'" "$TMP/e"
ok $? "--reader-hz on a workload that is not SLUB's: exit 2"
finish
