#!/bin/bash
# False sharing: tools/linesim.sh builds the model with TSan's
# instrumentation against a runtime that counts the cache-line transfers a
# coherent cache would make between threads, per 128-byte pair of lines.
# pcp_alloc1's tasks keep to their own CPU's data and their own pages, so
# at two tasks they trade nothing (40 million transfers of 11 blocks in 4 s before
# the per-CPU copies were two lines apart and struct page 64 bytes);
# cross_free1's producer and consumer trade pages by design, so the tool
# must see those.  It builds its own binary, so this runs once, in the
# plain pass.
. tests/lib/tap.sh
if [ "$BUILD" != build ]; then
	echo "1..0 # SKIP linesim builds its own binary: run once, in the plain pass"
	exit 0
fi
plan 2

tools/linesim.sh pcp_alloc1 -t 2 -s 6 > "$TMP/pcp" 2> "$TMP/pcp.err"; rc=$?
[ $rc = 0 ] && grep -q '^linesim: blocks shared: 0, transfers: 0,' "$TMP/pcp"
ok $? "pcp_alloc1 -t 2: the tasks trade no 128-byte block (exit $rc)"
[ $rc = 0 ] || { head -20 "$TMP/pcp" "$TMP/pcp.err" | diag "$(cat)"; }

tools/linesim.sh cross_free1 -t 2 -s 6 > "$TMP/cross" 2> "$TMP/cross.err"; rc=$?
[ $rc = 1 ] && grep -qE '^0x[0-9a-f]+ +[0-9]+  .*(stress_|free|alloc|list)' "$TMP/cross"
ok $? "cross_free1 -t 2: the pages the producer hands the consumer are seen (exit $rc)"
[ $rc = 1 ] || { head -20 "$TMP/cross" "$TMP/cross.err" | diag "$(cat)"; }
finish
