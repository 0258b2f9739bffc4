#!/bin/bash
# make test-long (run by .ci/run after make test): moved out of
# tests/fuzz.t for make test's time, the AFL++ TSan build (about a minute
# here) and a campaign on it.
. tests/lib/tap.sh
if [ "$BUILD" != build ]; then
	echo "1..0 # SKIP the campaign builds its own target: run once, with the plain build"
	exit 0
fi
plan 1

# AFL++ with TSan: its fork server forks after LLVMFuzzerInitialize, and
# TSan in the child lost what ordered the fibers made before the fork (every
# execution "raced" on the executor's fields, crash files that reproduced
# nowhere); the harness makes them again in the child.  (The AFL++ TSan
# build: about a minute here.)
# (the all target: SLUB's operations with the page allocator's, the
# kernel's and TLB gather's)
"$MMFUZZ" fuzz --engine afl --sanitizer thread --time 6 --seed 1 --out "$TMP/afltsan" -q \
	> "$TMP/out" 2>&1; rc=$?
j=$TMP/afltsan/logs/r1-summary.json
[ $rc = 0 ] && grep -q '"crash_files":0,"signatures":0,"not_reproduced":0,' "$j" &&
	! grep -q '"execs":0,' "$j"
ok $? "AFL++ with TSan, clean model (all target), 6 s: no crash file, exit 0 (exit $rc)" ||
	diag "$(grep -v '^\[' "$TMP/out"; cat "$j")"
finish
