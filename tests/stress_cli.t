#!/bin/bash
# mmfuzz stress as a user meets it: average: is per second whatever the
# sample length; -s 0 is not "until Ctrl-C" by accident (tests/cli_bad.t).
. tests/lib/tap.sh
plan 2

"$MMFUZZ" stress pcp_alloc1 -s 2 --warmup 1 --sample-ms 250 > "$TMP/o" 2> /dev/null
# the measured samples are the lines after "measurement"
want=$(awk '/^measurement$/ { m = 1; next } m && /^min:/ { split($3, t, ":"); sum += t[2]; n++ }
	END { if (n) printf "%d", sum * 1000 / (n * 250) }' "$TMP/o")
got=$(sed -n 's/^average://p' "$TMP/o")
[ -n "$want" ] && [ "$got" = "$want" ]
ok $? "--sample-ms 250: average: is the samples' mean per second ($got, want $want)"
"$MMFUZZ" stress --help | grep -q 'average: per second'
ok $? "--help says what --sample-ms does to the figures"
finish
