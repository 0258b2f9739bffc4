#!/bin/bash
# The command line: help, bad input (FILE:LINE:COL, exit 2, nothing runs),
# any bytes as a program, decode/encode, minimize, the reports.
. tests/lib/tap.sh
plan 43

for c in run decode encode minimize bugs; do
	"$MMFUZZ" $c --help > "$TMP/h" 2>&1 && grep -q "usage: mmfuzz $c" "$TMP/h"
	ok $? "mmfuzz $c --help"
done
# mmfuzz targets: the registry's list, which the Makefile's build list,
# fuzz --help and the CI scripts must all say (a new target is registered once)
"$MMFUZZ" targets --help > "$TMP/h" 2>&1 && grep -q "usage: mmfuzz targets" "$TMP/h"
ok $? "mmfuzz targets --help"
mk=$(sed -n 's/^FUZZ_TARGETS := //p' Makefile | tr ' ' '\n' | grep . | sort)
reg=$("$MMFUZZ" targets --programs | sort)
[ -n "$reg" ] && [ "$mk" = "$reg" ]
ok $? "the Makefile's FUZZ_TARGETS is mmfuzz targets --programs" || diag "Makefile: $mk; registry: $reg"
# and docs/fuzzing.md's table of targets has a row for each of them
doc=$(sed -n 's/^| `\([a-z]*\)` | .*/\1/p' docs/fuzzing.md | sort -u)
all=$("$MMFUZZ" targets | awk '{ print $1 }' | sort)
[ -n "$all" ] && [ "$(comm -23 <(echo "$all") <(echo "$doc"))" = "" ]
ok $? "docs/fuzzing.md's targets table lists every target of mmfuzz targets" || diag "missing: $(comm -23 <(echo "$all") <(echo "$doc") | tr '\n' ' ')"
"$MMFUZZ" targets > "$TMP/t" && "$MMFUZZ" fuzz --help > "$TMP/h" &&
	line=$(grep -- '--target T' "$TMP/h") && n=0 &&
	for t in $(awk '{ print $1 }' "$TMP/t"); do
		case "$line" in *" $t,"* | *" $t "* | *" $t") n=$((n + 1)) ;; *) n=-99 ;; esac
	done && [ "$n" = "$(wc -l < "$TMP/t")" ] && [ "$n" -ge 5 ] && tail -1 "$TMP/t" | grep -q '^text '
ok $? "fuzz --help offers every target mmfuzz targets lists (text among them)" || diag "$line"
"$MMFUZZ" targets -v > "$TMP/tv" &&
	grep -q '^mm ' "$TMP/tv" &&
	nmm=$(awk '/^[a-z]/ { cur = $1; next } cur == "mm" { n++ } END { print n + 0 }' "$TMP/tv") &&
	[ "$nmm" = "$(awk '$1 == "mm" { for (i = 1; i <= NF; i++) if ($(i + 1) == "operations") print $i }' "$TMP/t")" ] &&
	awk '/^[a-z]/ { cur = $1; next } cur == "pagealloc" && $3 != "pagealloc" { bad = 1 } END { exit bad }' "$TMP/tv"
ok $? "targets -v: every operation of a target under it, the count as said, pagealloc's all of its layer"
"$MMFUZZ" targets --nope > /dev/null 2>&1; [ $? = 2 ]; ok $? "targets with a bad option: exit 2"
"$MMFUZZ" --version > "$TMP/v"; rc=$?
# the commit the build was made from, as the Makefile recorded it
c=$(cat "$BUILD/.git-commit" 2> /dev/null || git describe --always --dirty --abbrev=12 2> /dev/null || echo unknown)
b=$(case "$BUILD" in *tsan*) echo tsan;; *asan*) echo asan;; *) echo plain;; esac)
[ $rc = 0 ] && grep -qE '^mmfuzz [0-9]+\.[0-9]+' "$TMP/v" && grep -qx "commit $c" "$TMP/v" &&
	grep -qE '^compiler .*(clang|gcc|Clang)' "$TMP/v" && grep -qx "build $b" "$TMP/v"
ok $? "--version: the version, the commit built ($c), the compiler, the build" || diag "$(cat "$TMP/v")"
"$MMFUZZ" > /dev/null 2>&1; [ $? = 2 ]; ok $? "no command: exit 2"
"$MMFUZZ" frobnicate > /dev/null 2>&1; [ $? = 2 ]; ok $? "unknown command: exit 2"

# bad input: the error, exit 2, and nothing runs (not even the good file)
printf 'mmfuzz 1\ntask T0 cpu=0\n  h0 = alloc_pages order=0 mt=sideways\n' > "$TMP/bad.mmf"
"$MMFUZZ" run corpus/regress/pcp_count_apart.mmf "$TMP/bad.mmf" > "$TMP/out" 2> "$TMP/err"
rc=$?
[ $rc = 2 ] && grep -qx "$TMP/bad.mmf:3:31: mt is unmovable, movable or reclaimable" "$TMP/err" &&
	[ ! -s "$TMP/out" ] && ! grep -q VIOLATION "$TMP/err"
ok $? "a malformed program: FILE:LINE:COL message, exit 2, nothing runs"
"$MMFUZZ" run "$TMP/missing.mmf" > /dev/null 2> "$TMP/err"; rc=$?
[ $rc = 2 ] && grep -q "No such file" "$TMP/err"; ok $? "a missing file: exit 2"
"$MMFUZZ" run --sched=pct:0 corpus/regress/pcp_count_apart.mmf > /dev/null 2>&1; [ $? = 2 ]
ok $? "a bad --sched: exit 2"
"$MMFUZZ" run --inject no_such corpus/regress/pcp_count_apart.mmf > /dev/null 2> "$TMP/err"
[ $? = 2 ] && grep -q "unknown bug switch 'no_such'" "$TMP/err"; ok $? "an unknown --inject: exit 2"

# any byte string is a program: no crash, exit 0 or 1.  The bytes turn bug
# switches on; under TSan a switch's race is a report (exit 66), a finding
# and not a crash, so the TSan build runs them with the switches off.
crashed=0
nobugs=$(is_tsan && echo --no-bugs)
for i in $(seq 1 40); do
	head -c $((i * 17)) /dev/urandom > "$TMP/r.bin"
	"$MMFUZZ" run -q $nobugs "$TMP/r.bin" > /dev/null 2>&1; rc=$?
	[ $rc -le 1 ] || { crashed=$((crashed + 1)); cp "$TMP/r.bin" "$TMP/crash$i.bin"; diag "exit $rc"; }
done
[ $crashed = 0 ]; ok $? "40 random byte strings run without a crash"

# decode / encode
"$MMFUZZ" decode corpus/regress/vmstat_lost_update.mmf > "$TMP/t1"
"$MMFUZZ" encode "$TMP/t1" -o "$TMP/b1" && "$MMFUZZ" decode "$TMP/b1" > "$TMP/t2"
cmp -s "$TMP/t1" "$TMP/t2"; ok $? "decode(encode(text)) == text"
# a free that the program's own order makes a no-op is said so
printf 'mmfuzz 1\ntask T0 cpu=0\n  free_pages h0\n  h0 = alloc_pages order=0 mt=movable\n  free_pages h0\n  free_pages h0\n' > "$TMP/df.mmf"
"$MMFUZZ" decode "$TMP/df.mmf" > "$TMP/df.out" 2>&1
[ "$(grep -c 'does nothing' "$TMP/df.out")" = 2 ] &&
	grep -qP '^  free_pages h0\t# h0 is allocated below: this does nothing$' "$TMP/df.out" &&
	grep -qP '^  free_pages h0\t# h0 was freed above: this does nothing$' "$TMP/df.out" &&
	"$MMFUZZ" decode "$TMP/df.out" | cmp -s - "$TMP/df.out"
ok $? "decode marks the frees that do nothing, and reads its own text back" || diag "$(cat "$TMP/df.out")"
head -1 "$TMP/t1" | grep -qx 'mmfuzz 1' && ! head -c 8 "$TMP/b1" | grep -q mmfuzz
ok $? "the text form starts with 'mmfuzz 1', the binary does not"
# (the binary form has no expect: line: run --expect refuses it, exit 2)
"$MMFUZZ" run -q --expect "$TMP/b1" > /dev/null 2>&1; rc=$?
"$MMFUZZ" run --json "$TMP/b1" 2>/dev/null | grep -q '"result":"violation","signature":"I-BUD-4@quiescence"'
ok $(( $? || rc != 2 )) "the binary twin finds the same violation"
[ -z "$(ls "$TMP" | grep '^b1\.tmp')" ]; ok $? "encode leaves no temporary file"
# v3 holds a decision to a kernel thread (v2 could not: encode refused it)
if ! is_tsan; then
	"$MMFUZZ" encode corpus/regress/rcu_gp_early.mmf -o "$TMP/kt.bin" 2> "$TMP/kt.err" &&
		[ "$(head -c 1 "$TMP/kt.bin" | od -An -tu1 | tr -d ' ')" = 3 ] &&
		"$MMFUZZ" run --json "$TMP/kt.bin" 2> /dev/null |
		grep -q '"result":"violation","signature":"I-RCU@kt_rcu_read"'
	ok $? "encode writes v3: rcu_gp_early.mmf's decision to rcu_gp holds, its binary finds I-RCU@kt_rcu_read" ||
		diag "$(cat "$TMP/kt.err")"
	"$MMFUZZ" decode "$TMP/kt.bin" 2> /dev/null | grep -q -- '-> T3$'
	ok $? "and decodes to the decision to T3"
else
	for i in 1 2; do ok 0 "# SKIP rcu_gp_early.mmf is a data race under TSan first (expect_tsan)"; done
fi
# a decision to an id no thread had: a warning, as decode says, and written
printf 'mmfuzz 1\ntask T0 cpu=0\n  rcu_read\nschedule: fallback=none\n  at T0.0 op(rcu_read) #1 -> T9\n' > "$TMP/t9.mmf"
"$MMFUZZ" encode "$TMP/t9.mmf" -o "$TMP/t9.bin" 2> "$TMP/t9.err" &&
	grep -qx "$TMP/t9.mmf:5: warning: -> T9: no task or kernel thread of that id ran (T0..T0 did): this decision changes nothing" "$TMP/t9.err" &&
	[ -s "$TMP/t9.bin" ]
ok $? "encode: a decision to an id no thread had is a warning, and written" || diag "$(cat "$TMP/t9.err")"

# run --json and --trace
"$MMFUZZ" run --json corpus/regress/pcp_count_apart.mmf 2>/dev/null > "$TMP/j"
grep -qE '^\{"file":"corpus/regress/pcp_count_apart.mmf","result":"violation","signature":"I-READ@drain_pages_zone","trace_hash":"[0-9a-f]{16}","steps":[0-9]+,"ops":[0-9]+' "$TMP/j"
ok $? "--json: file, result, signature, trace_hash, steps, ops"
"$MMFUZZ" run --trace corpus/regress/pcp_count_apart.mmf 2>/dev/null > "$TMP/tr"
grep -qE '^ +[0-9]+  T0 cpu0 op1 +free_pages +free_unref_page:spin_unlock\(pcp->lock\) +-> T1$' "$TMP/tr"
ok $? "--trace: step, task, cpu, op, yield point, switch"

# --json with --trace: stdout holds the JSON lines only, the trace goes to stderr
"$MMFUZZ" run --json --trace corpus/regress/pcp_count_apart.mmf > "$TMP/jt" 2> "$TMP/jte"
[ "$(wc -l < "$TMP/jt")" = 1 ] && grep -qE '^\{"file":.*"trace_hash":"[0-9a-f]{16}".*\}$' "$TMP/jt" &&
	grep -q 'free_unref_page:spin_unlock(pcp->lock) *-> T1$' "$TMP/jte"
ok $? "--json --trace: one JSON object on stdout, the trace on stderr"

# a decision that never fires: a warning with its line, in run and encode,
# and decisions_never_fired in --json (the second one is passed by: T0's
# op 1 unlocks pcp->lock once)
sed 's/^\(  at T0.1 free_unref_page:spin_unlock(pcp->lock) #1 -> T1\)$/\1\n  at T0.1 free_unref_page:spin_unlock(pcp->lock) #7 -> T1/' \
	corpus/regress/pcp_count_apart.mmf > "$TMP/nf.mmf"
line=$(grep -n '#7 -> T1' "$TMP/nf.mmf" | cut -d: -f1)
"$MMFUZZ" run --json "$TMP/nf.mmf" > "$TMP/nf.json" 2> "$TMP/nf.err"
grep -qx "$TMP/nf.mmf:$line: warning: this decision never fired" "$TMP/nf.err" &&
	grep -q '"decisions_never_fired":1}$' "$TMP/nf.json"
ok $? "run: a decision that never fired is a warning (line $line) and a --json field"
"$MMFUZZ" encode "$TMP/nf.mmf" -o "$TMP/nf.bin" 2> "$TMP/nf.err"
grep -qx "$TMP/nf.mmf:$line: warning: this decision never fired: dropped" "$TMP/nf.err"
ok $? "encode says it drops it"
"$MMFUZZ" run --json corpus/regress/pcp_count_apart.mmf 2> /dev/null | grep -q '"decisions_never_fired":0}$'
ok $? "--json: decisions_never_fired 0 when every decision fired"

# the report (lockdep off: it would report lock-irq@pcp->lock first)
MMFUZZ_PROVE_LOCKING=0 "$MMFUZZ" run corpus/regress/pcp_lock_irq.mmf > /dev/null 2> "$TMP/rep"
grep -q '^mmfuzz: VIOLATION deadlock@cpu+pcp->lock$' "$TMP/rep" &&
	grep -q 'irq T1 on cpu0 waits for pcp->lock\[0\] held by T0; T0 on cpu0 waits for cpu0 held by T1' "$TMP/rep"
ok $? "a deadlock report names the wait-for cycle"
grep -q '^recent trace' "$TMP/rep" && grep -q '^program:' "$TMP/rep" && grep -q '^schedule: fallback=none' "$TMP/rep"
ok $? "the report carries the recent trace and the program with its schedule"
sed -n '/^program:/,$p' "$TMP/rep" | tail -n +2 > "$TMP/again.mmf"
MMFUZZ_PROVE_LOCKING=0 "$MMFUZZ" run -q --expect "$TMP/again.mmf" > /dev/null 2>&1; ok $? "the program in a report replays to the same violation"
if ! is_tsan; then
	"$MMFUZZ" run corpus/regress/pcp_pick_unlocked_livelock.mmf > /dev/null 2> "$TMP/rep"
	grep -q 'livelock@pick_list_rr' "$TMP/rep" && grep -q 'steps without an operation beginning' "$TMP/rep"
	ok $? "a livelock report at the step bound"
else
	ok 0 "# SKIP the livelock file is a data race under TSan first"
fi

# 6.6's own race in the drain: no finding by default; --report-known makes
# it one, and the later kernel's drain (drain: locked_count) has it no more
K=corpus/regress/known_6_6_drain.mmf
"$MMFUZZ" run -q "$K" > /dev/null 2>&1; rc1=$?
"$MMFUZZ" run --report-known "$K" > /dev/null 2> "$TMP/rep"; rc2=$?
[ $rc1 = 0 ] && [ $rc2 = 1 ] && grep -q '^mmfuzz: VIOLATION known-6.6@drain_pages_zone$' "$TMP/rep"
ok $? "a known race of the pinned kernel: clean, and known-6.6 with --report-known ($rc1, $rc2)"
sed 's/^pcp_batch: 8$/&\ndrain: locked_count/' "$K" > "$TMP/locked.mmf"
grep -q '^drain: locked_count' "$TMP/locked.mmf" && "$MMFUZZ" run -q --report-known "$TMP/locked.mmf" > /dev/null 2>&1
ok $? "drain: locked_count: clean even with --report-known"

# minimize: a reproducer padded with operations and a task it does not need.
# pcp_count_apart writes pcp->count outside pcp->lock, so under TSan some
# candidate schedules are reported as the data race they are: minimize it
# in the plain and ASan builds.
if is_tsan; then
	for i in 1 2 3 4; do ok 0 "# SKIP pcp_count_apart's candidates race under TSan"; done
	finish
fi
sed -e 's/^task T1 cpu=1$/task T1 cpu=1\n  read_counters\n  vmstat_refresh\n  h1 = alloc_pages order=2 mt=unmovable/' \
    -e 's/^schedule:/task T2 cpu=0\n  h2 = alloc_pages order=1 mt=movable\n  free_pages h2\n  drain_local\n\nschedule:/' \
    -e 's/at T0.1 /at T0.1 /' corpus/regress/pcp_count_apart.mmf > "$TMP/padded.mmf"
sed -i 's/at T0.1 free_unref_page:spin_unlock(pcp->lock) #1 -> T1/at T0.1 free_unref_page:spin_unlock(pcp->lock) #1 -> T1/' "$TMP/padded.mmf"
"$MMFUZZ" run -q --expect "$TMP/padded.mmf" > /dev/null 2>&1; ok $? "the padded program still fails the same way"
"$MMFUZZ" minimize "$TMP/padded.mmf" -o "$TMP/min.mmf" > "$TMP/mo" 2>&1; rc=$?
[ $rc = 1 ] && grep -qE 'ops [0-9]+ \(from 9\), tasks 2 \(from 3\), preemptions 1 \(bug depth\)' "$TMP/mo"
ok $? "minimize drops the task, prints the ops and preemptions left (depth 1)"
diag "$(cat "$TMP/mo")"
grep -qx 'expect: violation I-READ@drain_pages_zone' "$TMP/min.mmf" && "$MMFUZZ" run -q --expect "$TMP/min.mmf" > /dev/null 2>&1
ok $? "the minimized program keeps the signature"
after=$(sed -n '/^task/,/^schedule/p' "$TMP/min.mmf" | grep -cE '^  ')
[ "$after" -le 3 ]; ok $? "and keeps only the ops it needs ($after, from 9)"
finish
