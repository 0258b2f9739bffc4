#!/bin/bash
# mmfuzz stress --variant NAME: NAME is looked up among the values of the
# enumerated tune keys (config_variant_lookup), so seed 004's SLUB variants
# (key slub_partial) and the page allocator's (variant, drain) go through
# one option; the same key given by --set beside it is exit 2; an unknown
# name lists every key's values.
. tests/lib/tap.sh
plan 8

emit() { "$MMFUZZ" stress pcp_alloc1 "$@" --emit-config 2> "$TMP/err"; }
for v in partial_counters partial_counters_atomic; do
	emit --variant $v > "$TMP/o"
	grep -qx "slub_partial: $v" "$TMP/o"
	ok $? "--variant $v is the machine's slub_partial"
done
emit --variant pick_outside > "$TMP/o"
grep -qx 'variant: pick_outside' "$TMP/o" && ! grep -q '^slub_partial:' "$TMP/o"
ok $? "--variant pick_outside: the pcp key, as before"
emit --variant locked_count > "$TMP/o"
grep -qx 'drain: locked_count' "$TMP/o"
ok $? "--variant locked_count: drain's value, found by its name"
emit --variant count_partial > "$TMP/o"
! grep -q '^slub_partial:' "$TMP/o"
ok $? "--variant count_partial: the default (6.6's walk), not printed"
"$MMFUZZ" stress pcp_alloc1 --variant partial_counters --set slub_partial=count_partial \
	> /dev/null 2> "$TMP/err"
[ $? = 2 ] && grep -q -- '--variant partial_counters and --set slub_partial= do not go together' "$TMP/err"
ok $? "--variant and --set of its key: exit 2, both named"
"$MMFUZZ" stress pcp_alloc1 --variant sideways > /dev/null 2> "$TMP/err"
[ $? = 2 ] && grep -q "unknown variant 'sideways'.*slub_partial: count_partial, partial_counters, partial_counters_atomic" "$TMP/err" &&
	grep -q "variant: single_pass, pick_outside, locked_rr" "$TMP/err"
ok $? "an unknown name: exit 2, every enumerated tune key's values listed"
"$MMFUZZ" stress pcp_alloc1 --variant partial_counters --variant partial_counters_atomic \
	> /dev/null 2> "$TMP/err"
[ $? = 2 ]
ok $? "two --variant without --compare: exit 2"

finish
