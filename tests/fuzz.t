#!/bin/bash
# Fuzzing campaigns and triage: mmfuzz fuzz on the clean model finds
# nothing, with a bug switch on it finds the bug and leaves a minimized
# reproducer that replays; mmfuzz triage groups crash files by signature;
# a campaign killed at any moment loses nothing.  The campaigns build their
# own instrumented targets, so this runs once, in the plain pass.
. tests/lib/tap.sh
if [ "$BUILD" != build ]; then
	echo "1..0 # SKIP the campaigns build their own targets: run once, in the plain pass"
	exit 0
fi
plan 48

for c in fuzz triage; do
	"$MMFUZZ" $c --help > "$TMP/h" 2>&1 && grep -q "usage: mmfuzz $c" "$TMP/h"
	ok $? "mmfuzz $c --help"
done
bad=0
for args in "--engine honggfuzz" "--time 0" "--jobs 0" "--inject no_such" "--target nope" \
	"--sanitizer memory" "stray" "--engine random --sanitizer address"; do
	# shellcheck disable=SC2086
	"$MMFUZZ" fuzz $args --out "$TMP/never" > /dev/null 2> "$TMP/err"; rc=$?
	[ $rc = 2 ] && [ -s "$TMP/err" ] || { bad=1; diag "fuzz $args: exit $rc"; }
done
[ $bad = 0 ] && [ ! -e "$TMP/never" ]
ok $? "bad fuzz options: a message, exit 2, nothing started"

# The seed corpus reaches every operation and every yield-point type.
"$MMFUZZ" run --trace $(find corpus -name '*.mmf' -not -path 'corpus/regress/*') > "$TMP/trace" 2>&1
missing=""
"$MMFUZZ" run --help > "$TMP/help"
for op in $(sed -n '/^Operations/,/^$/s/^  \([a-z_]*\) .*/\1/p' "$TMP/help"); do
	grep -q "op($op)" "$TMP/trace" || missing="$missing $op"
done
for ty in $(sed -n '/^Yield points/{n;p}' "$TMP/help"); do
	grep -Eq "[ :]$ty\(" "$TMP/trace" || missing="$missing $ty"
done
[ -z "$missing" ] && grep -q "op(alloc_pages)" "$TMP/trace"
ok $? "the seed corpus reaches every operation and yield type${missing:+ (missing:$missing)}"

# The slub target (its own seeds, corpus/slub) on the clean model: nothing.
"$MMFUZZ" fuzz --target slub --time 10 --seed 1 --out "$TMP/slub" -q > "$TMP/out" 2>&1; rc=$?
[ $rc = 0 ] && ! ls "$TMP/slub"/*.mmf > /dev/null 2>&1
ok $? "libFuzzer on the slub target, clean model, 10 s: exit 0, no finding" ||
	diag "exit $rc: $(grep -v '^\[' "$TMP/out" | tail -5)"

# The random baseline on the clean model: nothing.
"$MMFUZZ" fuzz --engine random --time 3 --seed 1 --out "$TMP/r" -q > "$TMP/out" 2>&1; rc=$?
[ $rc = 0 ] && ! ls "$TMP/r"/*.mmf > /dev/null 2>&1
ok $? "random baseline, clean model, 3 s: exit 0, no finding" ||
	diag "exit $rc: $(grep -v '^\[' "$TMP/out" | tail -5; head -c 3000 "$TMP/r"/*.mmf 2> /dev/null)"

# libFuzzer (ASan+UBSan) on the clean model: nothing, and progress is shown.
"$MMFUZZ" fuzz --time 15 --seed 1 --out "$TMP/clean" > "$TMP/out" 2>&1; rc=$?
[ $rc = 0 ] && ! ls "$TMP/clean"/*.mmf > /dev/null 2>&1 && grep -q "0 signature(s)" "$TMP/out"
ok $? "libFuzzer, clean model, 15 s: exit 0, no finding" || tail -5 "$TMP/out" | diag "$(cat)"
grep -Eq '^\[ *[0-9]+s\] execs [0-9]+ \([0-9]+/s\) cov [0-9]+ ft [0-9]+ interleavings [0-9]+ \| findings: none' "$TMP/out"
ok $? "progress lines: execs, rate, coverage, interleavings, findings"
rate=$(grep -m1 -E '^\[ *[0-9]+s\] execs' "$TMP/out" | sed -E 's/.*\(([0-9]+)\/s\).*/\1/')
[ "${rate:-0}" -gt 0 ]; ok $? "the first progress line has a rate (${rate:-none}/s)"
n=$(sed -n 's/.*interleavings \([0-9]*\).*/\1/p' "$TMP/out" | tail -1)
[ "${n:-0}" -gt 100 ]; ok $? "interleaving coverage grows (${n:-0} edges seen)"
# ... run with fuzz/fuzz_all.options: max_len given, entropic off, and
# len_control on (the custom mutator turns it off unless asked): the first
# new input's length limit is the longest seed's, not max_len's 512
log=$TMP/clean/logs/r1-engine.log
lim=$(grep -m1 -o ' lim: [0-9]*' "$log" | sed 's/ lim: //')
! grep -q 'max_len is not provided\|entropic power schedule' "$log" && [ "${lim:-512}" -lt 512 ]
ok $? "libFuzzer ran with the target's options file (no entropic, first lim ${lim:-none} < 512)"

# The deferred target (its seeds boot with deferred init pending and race
# pgdatinit, padata and deferred_grow_zone) on the clean model: nothing.
"$MMFUZZ" fuzz --target deferred --time 10 --seed 1 --out "$TMP/def" > "$TMP/out" 2>&1; rc=$?
[ $rc = 0 ] && ! ls "$TMP/def"/*.mmf > /dev/null 2>&1 && grep -q "0 signature(s)" "$TMP/out"
ok $? "libFuzzer, deferred target, clean model, 10 s: exit 0, no finding" ||
	tail -5 "$TMP/out" | diag "$(cat)"

# The switch nudge: a seed whose one switch lands a yield point before the
# window (SLUB's ABA: T0 parked before its read of the head's next, where
# freelist_reuse_parked parks it at the cmpxchg_double after that read) is
# one nudge from it.  The kernel target (built by the campaign above) on
# that seed alone, with cmpxchg_double_one_word on, finds the ABA; without
# the nudge, 3 x 20,000 runs found nothing.
mkdir -p "$TMP/nudge"
sed 's/kt_fl_alloc:cmpxchg_double(kt->cpu_fl->freelist) #1/kt_fl_alloc:racy_read(object->next) #1/' \
	corpus/kernel/freelist_reuse_parked.mmf > "$TMP/early.mmf"
"$MMFUZZ" run -q --inject cmpxchg_double_one_word "$TMP/early.mmf" &&
	"$MMFUZZ" encode "$TMP/early.mmf" -o "$TMP/nudge/early" &&
	MMFUZZ_INJECT=cmpxchg_double_one_word build-fuzz-libfuzzer-address-undefined/fuzz/fuzz_kernel \
		-seed=1 -runs=20000 -artifact_prefix="$TMP/" "$TMP/nudge" > "$TMP/out" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "^MMFUZZ-SIGNATURE: I-FREELIST@" "$TMP/out"
ok $? "a seed one yield point off SLUB's ABA: the nudge finds it (exit $rc, $(grep -oE '^#[0-9]+' "$TMP/out" | tail -1) runs)"

# The preemption mutation: SLUB's typesafe free (a reader parked inside
# its RCU section while the other task frees enough to discard slabs) is
# one preemption at one of the reader's 31 steps; the program of its
# reproducer without the schedule, alone, with typesafe_free_no_gp on, is
# found by the mutation's draws over the reader's stretch (measured: seeds
# 2, 3, 4 at runs 9375, 9745, 7639; without it, MMFUZZ_PREEMPT_MUTATOR=0,
# seed 2 at run 2476 and seeds 3, 4 not in 10000).
mkdir -p "$TMP/preempt"
sed -e '/^schedule:/,$d' -e '/^bugs:/d' -e '/^expect/d' corpus/regress/typesafe_free_no_gp.mmf > "$TMP/ts.mmf"
echo "schedule: fallback=none" >> "$TMP/ts.mmf"
"$MMFUZZ" run -q --inject typesafe_free_no_gp "$TMP/ts.mmf" &&
	"$MMFUZZ" encode "$TMP/ts.mmf" -o "$TMP/preempt/ts" &&
	MMFUZZ_INJECT=typesafe_free_no_gp build-fuzz-libfuzzer-address-undefined/fuzz/fuzz_slub \
		-seed=4 -runs=15000 -mutate_depth=1 -artifact_prefix="$TMP/" "$TMP/preempt" > "$TMP/out" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "^MMFUZZ-SIGNATURE: I-RCU-TYPESAFE@free_slab" "$TMP/out"
ok $? "the typesafe free's program without its schedule: a bounded-preemption schedule finds it (exit $rc, $(grep -oE '^#[0-9]+' "$TMP/out" | tail -1) runs)"

# The header's expect_tsan flag is a byte the engines mutate: the harness
# saves a model violation's crash file without it, though the input had it.
sed 's/^expect: .*/&\nexpect_tsan: race/' corpus/regress/pcp_count_apart.mmf > "$TMP/flag.mmf"
mkdir -p "$TMP/flag-in" "$TMP/flag-crashes"
"$MMFUZZ" encode "$TMP/flag.mmf" -o "$TMP/flag-in/in" &&
	MMFUZZ_INJECT=pcp_count_apart MMFUZZ_CRASHES="$TMP/flag-crashes" \
	build-fuzz-libfuzzer-address-undefined/fuzz/fuzz_mm -runs=1 "$TMP/flag-in/in" > "$TMP/out" 2>&1
saved=$(ls "$TMP/flag-crashes"/crash-* 2> /dev/null | head -1)
[ $(( $(od -An -tu1 -j7 -N1 "$TMP/flag-in/in") & 1 )) = 1 ] && [ -n "$saved" ] &&
	[ $(( $(od -An -tu1 -j7 -N1 "$saved") & 1 )) = 0 ]
ok $? "a crash file the harness saves has no expect_tsan flag, though its input had it"

# fuzz/campaign takes any registered target: a bad -T names them all
fuzz/campaign afl -T nope -t 1 -o "$TMP/camp" > /dev/null 2> "$TMP/err"; rc=$?
[ $rc = 2 ] && grep -q "bad -T 'nope': one of .*kernel.* tlb text (mmfuzz targets)" "$TMP/err" && [ ! -e "$TMP/camp" ]
ok $? "fuzz/campaign -T: the registry's targets (kernel and tlb among them), a bad one refused" || diag "exit $rc: $(cat "$TMP/err")"

# The engine's floor (make bench-exec): MMFUZZ_FLOOR=1 decodes each input
# and runs nothing, so the same binary on a reproducer finds nothing.
mkdir -p "$TMP/floor"
"$MMFUZZ" encode corpus/regress/pcp_count_apart.mmf -o "$TMP/floor/in" 2> /dev/null
b=build-fuzz-libfuzzer-address-undefined/fuzz/fuzz_mm
MMFUZZ_INJECT=pcp_count_apart "$b" "$TMP/floor/in" > "$TMP/out" 2>&1; rc1=$?
MMFUZZ_FLOOR=1 MMFUZZ_INJECT=pcp_count_apart "$b" "$TMP/floor/in" > "$TMP/out2" 2>&1; rc2=$?
[ $rc1 != 0 ] && grep -q '^MMFUZZ-SIGNATURE: ' "$TMP/out" && [ $rc2 = 0 ] && ! grep -q 'MMFUZZ-SIGNATURE' "$TMP/out2"
ok $? "MMFUZZ_FLOOR=1: the target decodes and runs nothing (the reproducer fails without it: $rc1, not with it: $rc2)"

# make bench-bugs writes its page: the command, commit, date, machine, load,
# the medians and the slowest switch (a 2-second run of the random engine)
MMFUZZ=$MMFUZZ bench/bench_bugs.sh -r 1 -c 10 -e random -b pcp_count_apart -o "$TMP/bb.csv" \
	-m "$TMP/bb.md" > "$TMP/out" 2>&1; rc=$?
[ $rc = 0 ] && grep -q '^- command: `bench/bench_bugs.sh -r 1 ' "$TMP/bb.md" &&
	grep -q '^- commit: ' "$TMP/bb.md" && grep -q '^- date: 20' "$TMP/bb.md" &&
	grep -q '^- machine: [0-9]* CPUs' "$TMP/bb.md" && grep -q '^- load average' "$TMP/bb.md" &&
	grep -Eq '^pcp_count_apart +[0-9.]+' "$TMP/bb.md" &&
	grep -q '^slowest with random: pcp_count_apart, median ' "$TMP/bb.md" && ! ls -a "$TMP" | grep -q '^\.bench-bugs'
ok $? "bench-bugs: its page has the command, commit, date, machine, load, medians and the slowest switch" ||
	diag "exit $rc: $(cat "$TMP/out")"

# The TSan build on the fibers (clang 19): the clean model yields no report
# (a false race is as bad as a missed one), the missing lock is a data race.
# On the tlb target (the page allocator, the kernel primitives and TLB
# gather) and on the all target (SLUB's operations with them: the orders
# the kernel has are told to TSan, docs/layer-slub.md).
"$MMFUZZ" fuzz --sanitizer thread --target tlb --time 15 --seed 1 --out "$TMP/tsan" \
	> "$TMP/out" 2>&1; rc=$?
[ $rc = 0 ] && grep -q "0 signature(s)" "$TMP/out"
ok $? "libFuzzer+TSan, clean model (tlb target), 15 s: no report" || tail -5 "$TMP/out" | diag "$(cat)"
"$MMFUZZ" fuzz --sanitizer thread --time 15 --seed 1 --out "$TMP/tsan-all" > "$TMP/out" 2>&1; rc=$?
[ $rc = 0 ] && grep -q "0 signature(s)" "$TMP/out"
ok $? "libFuzzer+TSan, clean model (all target), 15 s: no report (exit $rc)" ||
	diag "$(grep -v '^\[' "$TMP/out" | grep -v '^    #' | head -30)"
# (the checkers may see it too: the data race must be among the signatures)
"$MMFUZZ" fuzz --sanitizer thread --inject pcp_free_nolock --time 15 --seed 1 \
	--out "$TMP/tsan2" > "$TMP/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "^data-race@" "$TMP/out"
ok $? "libFuzzer+TSan, pcp_free_nolock: reported as a data race" || diag "$(grep -v '^\[' "$TMP/out")"

# AFL++ with TSan on the clean model (its own build, about a minute, and
# a campaign): tests/long/fuzz_afl_tsan.t, in make test-long.

# AFL++ (persistent mode, shared-memory test cases) finds a switch too.
"$MMFUZZ" fuzz --engine afl --inject pcp_count_apart --until-found --time 120 --seed 1 \
	--out "$TMP/afl" > "$TMP/out" 2>&1; rc=$?
[ $rc = 1 ] && ls "$TMP/afl"/I-*@*.mmf > /dev/null 2>&1
ok $? "AFL++, pcp_count_apart: found ($(sed -n 's/first_finding_seconds: //p' "$TMP/out") s)"

# Crash files that reproduce nowhere (the harness aborts at its 200th
# execution, whatever the input: a state carried between executions) are
# an outcome of their own, never a clean exit 0: a line said even with -q,
# exit 3, and the count in DIR/logs/rN-summary.json.
MMFUZZ_TEST_ABORT_AT=200 "$MMFUZZ" fuzz --time 4 --seed 1 --out "$TMP/unrepro" -q \
	> "$TMP/out" 2>&1; rc=$?
j=$TMP/unrepro/logs/r1-summary.json
[ $rc = 3 ] && grep -Eq "^mmfuzz fuzz: [1-9][0-9]* crash file\(s\) did not reproduce alone" "$TMP/out" &&
	grep -Eq '"signatures":0,"not_reproduced":[1-9][0-9]*,"interrupted":false,"exit":3}' "$j"
ok $? "crash files that do not reproduce: said, exit 3, counted in the summary JSON (exit $rc)" ||
	diag "$(grep -v '^\[' "$TMP/out"; cat "$j")"
"$MMFUZZ" fuzz --engine random --time 1 --seed 1 --out "$TMP/sumclean" -q > /dev/null 2>&1; rc=$?
[ $rc = 0 ] && grep -Eq '^\{"run":1,"engine":"random","target":"all","sanitizer":"none","inject":"none","seconds":[0-9.]+,"execs":[1-9][0-9]*,"crash_files":0,"signatures":0,"not_reproduced":0,"interrupted":false,"exit":0\}$' \
	"$TMP/sumclean/logs/r1-summary.json"
ok $? "a clean campaign's summary JSON: its run, engine, executions, zero counts, exit 0" ||
	diag "$(cat "$TMP/sumclean/logs/r1-summary.json")"

# The text target: any input parsed or rejected, never a crash.
"$MMFUZZ" fuzz --target text --time 5 --seed 1 --out "$TMP/text" > "$TMP/out" 2>&1; rc=$?
n=$(sed -n 's/^\[ *[0-9]*s\] execs \([0-9]*\) .*/\1/p' "$TMP/out" | tail -1)
[ $rc = 0 ] && [ "${n:-0}" -gt 1000 ]
ok $? "libFuzzer on the text parser, 5 s: ${n:-0} executions, no crash"

# An engine that fails is an error, not a clean campaign.
"$MMFUZZ" fuzz --target text --time 5 --out "$TMP/broken" --engine-arg=-dict=/etc/passwd \
	> "$TMP/out" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "the engine stopped early without a finding" "$TMP/out" &&
	grep -q "ParseDictionaryFile" "$TMP/out"
ok $? "an engine that stops early: its last words and exit 2"

# A regression at an edge of the kernel's ranges (nr_pcp_free forgetting
# the boot pageset, whose high is below its batch): the default campaign
# finds it from the shipped seeds, which carry the edges.
"$MMFUZZ" fuzz --inject pcp_free_boot_pageset --time 60 --until-found --seed 1 --out "$TMP/edge" \
	> "$TMP/out" 2>&1; rc=$?
[ $rc = 1 ] && ls "$TMP/edge"/I-PCP-2@*.mmf > /dev/null 2>&1
ok $? "pcp_free_boot_pageset, an edge's regression: found in $(sed -n 's/first_finding_seconds: //p' "$TMP/out") s"

# A bug switch: found, minimized, the reproducer replays and says so.
"$MMFUZZ" fuzz --inject pcp_count_apart --time 120 --until-found --seed 1 --out "$TMP/f" \
	> "$TMP/out" 2> "$TMP/err"; rc=$?
[ $rc = 1 ] && grep -Eq '^first_finding_seconds: [0-9]+\.[0-9]+$' "$TMP/out"
ok $? "pcp_count_apart: found (exit 1, $(sed -n 's/first_finding_seconds: //p' "$TMP/out") s)"
repro=$(ls "$TMP/f"/*.mmf 2> /dev/null | head -1)
[ -n "$repro" ] && grep -q "^bugs: pcp_count_apart$" "$repro" && grep -q "^expect: violation " "$repro" &&
	grep -Fq "$repro" "$TMP/out"
ok $? "a readable reproducer with its bugs: and expect: lines, named in the summary"
"$MMFUZZ" run --expect -q "$repro" > /dev/null 2>&1
ok $? "the reproducer meets its expect: line"
"$MMFUZZ" run --no-bugs -q "$repro" > /dev/null 2>&1
ok $? "the reproducer runs clean without the switch"
ops=$(grep -c '^  ' "$repro")
[ "$ops" -le 12 ]; ok $? "the reproducer is minimized ($ops lines of operations and decisions)"
! ls -a "$TMP/f" "$TMP/f/crashes" | grep -q '^\.tmp'
ok $? "no temporary files left behind"

# The crash files carry the campaign's switch: each replays and decodes
# alone.  DIR/campaign lists the campaign, its logs are its own.
crash=$(ls "$TMP/f/crashes"/r1-crash-* 2> /dev/null | head -1)
"$MMFUZZ" run -q "$crash" > /dev/null 2>&1; rc=$?
[ $rc = 1 ] && "$MMFUZZ" decode "$crash" 2> /dev/null | grep -qx 'bugs: pcp_count_apart'
ok $? "a crash file replays alone with the campaign's switch (${crash##*/})"
grep -q '^run 1 engine=libfuzzer target=all sanitizer=address inject=pcp_count_apart ' "$TMP/f/campaign" &&
	[ -s "$TMP/f/logs/r1-engine.log" ] && [ -e "$TMP/f/logs/r1-build.log" ] &&
	grep -Fq "$TMP/f/logs/r1-engine.log" "$TMP/err" && [ ! -e "$TMP/f/lock" ]
ok $? "DIR/campaign lists it, its logs are DIR/logs/r1-*.log (named in the progress output)"
# A clean campaign on the same directory: a line of its own, logs of its
# own, and triage still runs the first one's crash files with its switch.
"$MMFUZZ" fuzz --engine random --time 2 --out "$TMP/f" -q > /dev/null 2>&1; rc=$?
[ $rc = 0 ] && grep -q '^run 2 engine=random .* inject=none ' "$TMP/f/campaign" &&
	[ -s "$TMP/f/logs/r1-engine.log" ] && [ -e "$TMP/f/logs/r2-build.log" ]
ok $? "a second, clean campaign on it: run 2, the first one's logs kept"
n=$(ls "$TMP/f/crashes" | wc -l)
"$MMFUZZ" triage --out "$TMP/f2" "$TMP/f" > "$TMP/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "^$n crash file(s), [1-9][0-9]* signature(s)$" "$TMP/out"
ok $? "triage then: all $n crash files reproduce with the first campaign's switch" || diag "$(cat "$TMP/out")"

# No user string reaches a shell: an --out with quotes and a ';', a crash
# file's path handed to the sanitizer binary.
q="$TMP/q'x;touch injected;'"
(cd "$TMP" && "$MMFUZZ" fuzz --engine random --time 1 --out "$q" -q > /dev/null 2>&1); rc=$?
[ $rc = 0 ] && [ ! -e "$TMP/injected" ] && [ -e "$q/logs/r1-build.log" ]
ok $? "fuzz --out with quotes and ';': built and ran, no shell saw it"
d="$TMP/t'q;touch injected2;'"
mkdir -p "$d"
"$MMFUZZ" encode corpus/pagealloc/alloc_free.mmf -o "$d/crash-clean"
printf '#!/bin/sh\necho "MMFUZZ-SIGNATURE: fake@bin $#"\n' > "$TMP/fakebin"
chmod +x "$TMP/fakebin"
(cd "$TMP" && "$MMFUZZ" triage --sanitizer-bin "$TMP/fakebin" --out "$TMP/fo" "$d" > "$TMP/out" 2>&1)
[ ! -e "$TMP/injected2" ] && grep -q '^fake@bin 1 ' "$TMP/out"
ok $? "triage hands a quoted path to the sanitizer binary as one argument" || diag "$(cat "$TMP/out")"

# One campaign a directory: a lock left by a process that is gone is taken
# over; Ctrl-C writes the reproducers of what was found and exits 130.
mkdir -p "$TMP/s" && sh -c 'echo "pid $$ host $(hostname) run 7" > "$1/lock"' sh "$TMP/s"
"$MMFUZZ" fuzz --engine random --time 1 --out "$TMP/s" > /dev/null 2> "$TMP/err"; rc=$?
[ $rc = 0 ] && grep -q "campaign 7 (pid [0-9]*) is gone; taking its lock" "$TMP/err" && [ ! -e "$TMP/s/lock" ]
ok $? "a stale lock is taken over, and released at the end"
"$MMFUZZ" fuzz --inject pcp_count_apart --time 120 --seed 3 --out "$TMP/i" > "$TMP/iout" 2>&1 &
pid=$!
for i in $(seq 1 900); do
	ls "$TMP/i/crashes"/r1-crash-* > /dev/null 2>&1 && break
	sleep 0.1
done
sleep 1
kill -INT $pid
wait $pid; rc=$?
# (pcp_count_apart is caught by I-READ at a drain's look at pcp->count, or I-PCP-1)
[ $rc = 130 ] && ls "$TMP/i"/I-PCP-1@*.mmf "$TMP/i"/I-READ@*.mmf 2> /dev/null | grep -q . &&
	grep -q "interrupted: " "$TMP/iout" &&
	[ ! -e "$TMP/i/lock" ]
ok $? "Ctrl-C: the reproducers of what was found, the lock released, exit 130 (exit $rc)" ||
	diag "$(grep -v '^\[' "$TMP/iout")"

# triage: crash files grouped by signature, one reproducer each
mkdir -p "$TMP/t"
"$MMFUZZ" encode corpus/regress/pcp_count_apart.mmf -o "$TMP/t/crash-a"
cp "$TMP/t/crash-a" "$TMP/t/crash-a2"
"$MMFUZZ" encode corpus/regress/vmstat_lost_update.mmf -o "$TMP/t/crash-b"
"$MMFUZZ" encode corpus/pagealloc/alloc_free.mmf -o "$TMP/t/crash-clean"
head -c 100 /dev/urandom > "$TMP/t/crash-noise"
"$MMFUZZ" triage --inject pcp_count_apart --inject vmstat_lost_update --out "$TMP/to" "$TMP/t" \
	> "$TMP/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "^5 crash file(s), 2 signature(s)" "$TMP/out" && [ "$(ls "$TMP/to"/*.mmf | wc -l)" = 2 ]
ok $? "triage: 5 crash files, 2 signatures, 2 reproducers" || diag "$(cat "$TMP/out")"
grep -q "I-BUD-4@quiescence" "$TMP/out" && grep -Eq "I-PCP-1@|I-READ@" "$TMP/out"
ok $? "triage names each signature"
"$MMFUZZ" run --expect -q "$TMP/to"/*.mmf > /dev/null 2>&1
ok $? "every triaged reproducer meets its expect: line"
mkdir -p "$TMP/t2" && cp "$TMP/t/crash-clean" "$TMP/t2/"
"$MMFUZZ" triage "$TMP/t2" > "$TMP/out" 2>&1; rc=$?
[ $rc = 3 ] && grep -q "^1 crash file(s), 0 signature(s), 1 did not reproduce alone" "$TMP/out" &&
	! ls "$TMP/t2"/*.mmf > /dev/null 2>&1
ok $? "triage of a crash file that runs clean: said, exit 3, nothing written" || diag "exit $rc: $(cat "$TMP/out")"
# an empty crash file is the unit libFuzzer writes when TSan reports its
# warnings at exit (after a finding, halt_on_error=0): said, not a failure
mkdir -p "$TMP/t3" && : > "$TMP/t3/crash-da39a3ee5e6b4b0d3255bfef95601890afd80709"
"$MMFUZZ" triage "$TMP/t3" > "$TMP/out" 2>&1; rc=$?
[ $rc = 0 ] && grep -q "^1 crash file(s), 0 signature(s), 1 empty" "$TMP/out"
ok $? "triage of an empty crash file: said as empty, exit 0" || diag "exit $rc: $(cat "$TMP/out")"

# Killed at any moment, a campaign loses nothing: its crash files stay
# and triage turns them into the same reproducers afterwards.
"$MMFUZZ" fuzz --inject pcp_count_apart --time 120 --seed 2 --out "$TMP/k" -q > /dev/null 2>&1 &
pid=$!
for i in $(seq 1 600); do
	ls "$TMP/k/crashes"/r1-crash-* > /dev/null 2>&1 && break
	sleep 0.1
done
exec 3>&2 2> /dev/null	# no "Killed" notice from the shell
pkill -KILL -P $pid; kill -KILL $pid
pkill -KILL -f "fuzz_mm.*$TMP/k"
wait $pid
exec 2>&3 3>&-
ls "$TMP/k/crashes"/r1-crash-* > /dev/null 2>&1
ok $? "a killed campaign: its crash files are on disk"
"$MMFUZZ" triage "$TMP/k" > "$TMP/out" 2>&1; rc=$?
[ $rc = 1 ] && ls "$TMP/k"/*.mmf > /dev/null 2>&1 && "$MMFUZZ" run --expect -q "$TMP/k"/*.mmf > /dev/null 2>&1
ok $? "triage after the kill: the reproducers, with the switch from DIR/campaign"
finish
