#!/bin/bash
# What a program says of its outcome, in the files the tool writes: decode
# prints what the run found (and says so when the text said otherwise);
# expect_tsan: race only where TSan reported the race, never carried from
# a crash file's flag byte or into a minimized program it was not checked
# on; a minimized page-allocator finding names no TLB key the fuzzer
# mutated (each key is tried at its default first); a decision to a task
# id nothing had in the run is a warning.
. tests/lib/tap.sh
plan 12
R=corpus/regress

# decode: a text whose expect: the run contradicts
sed 's/^expect: .*/expect: clean/' $R/pcp_count_apart.mmf > "$TMP/wrong.mmf"
"$MMFUZZ" decode "$TMP/wrong.mmf" > "$TMP/d.out" 2> "$TMP/d.err"; rc=$?
[ $rc = 0 ] && grep -qx 'expect: violation I-READ@drain_pages_zone' "$TMP/d.out" &&
	! grep -q '^expect: clean' "$TMP/d.out"
ok $? "decode prints what the run found, not the text's expect: clean (exit $rc)"
grep -qx "$TMP/wrong.mmf:$(grep -n "^expect:" "$TMP/wrong.mmf" | cut -d: -f1): warning: expect: clean, but the run gives violation I-READ@drain_pages_zone: printed what the run found" "$TMP/d.err"
ok $? "and says so on stderr, with the expect: line" || diag "$(cat "$TMP/d.err")"
"$MMFUZZ" decode $R/pcp_count_apart.mmf > "$TMP/d.out" 2> "$TMP/d.err"
[ ! -s "$TMP/d.err" ] && grep -qx 'expect: violation I-READ@drain_pages_zone' "$TMP/d.out"
ok $? "a text the run agrees with: no warning"

# a decision to an id that may be a kernel thread's, where none ran: run
# and decode say it changes nothing
printf 'mmfuzz 1\ntask T0 cpu=0\n  rcu_read\nschedule: fallback=none\n  at T0.0 op(rcu_read) #1 -> T9\n' > "$TMP/t9.mmf"
"$MMFUZZ" run -q "$TMP/t9.mmf" > /dev/null 2> "$TMP/t9.err"; rc=$?
w="$TMP/t9.mmf:5: warning: -> T9: no task or kernel thread of that id ran (T0..T0 did): this decision changes nothing"
[ $rc = 0 ] && grep -qxF "$w" "$TMP/t9.err" && "$MMFUZZ" decode "$TMP/t9.mmf" 2>&1 > /dev/null | grep -qxF "$w"
ok $? "a decision to no task nor kernel thread that ran: run and decode warn (exit $rc)"

if is_tsan; then
	# pcp_count_apart's candidates are TSan's data races in this build
	for i in 4 5 6 7 8 9 10 11; do ok 0 "# SKIP pcp_count_apart races under TSan"; done
	finish
fi

# triage: a crash file whose flag byte says expect_tsan (a mutation) but
# whose finding is the model's own violation
sed 's/^expect: .*/&\nexpect_tsan: race/' $R/pcp_count_apart.mmf > "$TMP/flag.mmf"
mkdir "$TMP/camp"
"$MMFUZZ" encode "$TMP/flag.mmf" -o "$TMP/camp/crash-0001"
[ $(( $(od -An -tu1 -j7 -N1 "$TMP/camp/crash-0001") & 1 )) = 1 ]
ok $? "the crash file's header has the expect_tsan flag set"
"$MMFUZZ" triage --out "$TMP/out" "$TMP/camp" > "$TMP/t.out" 2>&1; rc=$?
f=$TMP/out/I-READ@drain_pages_zone.mmf
[ $rc = 1 ] && [ -f "$f" ] && ! grep -q '^expect_tsan' "$f" &&
	grep -qx 'expect: violation I-READ@drain_pages_zone' "$f"
ok $? "triage's reproducer of a model violation says nothing of TSan (exit $rc)" ||
	diag "$(cat "$TMP/t.out" "$f")"

# triage of what only a sanitizer build sees (a stand-in for the fuzz
# binary that prints a report's summary line): the flag for TSan's data
# race, and not for ASan's report, whatever the crash file's byte said
printf 'mmfuzz 1\nexpect_tsan: race\ntask T0 cpu=0\n  h0 = alloc_pages order=0 mt=movable\n' > "$TMP/clean.mmf"
for kind in asan tsan; do
	mkdir "$TMP/san-$kind"
	"$MMFUZZ" encode "$TMP/clean.mmf" -o "$TMP/san-$kind/crash-0002"
	if [ $kind = asan ]; then
		summary='SUMMARY: AddressSanitizer: heap-use-after-free a.c:1 in fake_fn'
	else
		summary='SUMMARY: ThreadSanitizer: data race a.c:1 in fake_fn'
	fi
	printf '#!/bin/sh\necho "%s"\nexit 1\n' "$summary" > "$TMP/san-$kind.sh"
	chmod +x "$TMP/san-$kind.sh"
	"$MMFUZZ" triage --sanitizer-bin "$TMP/san-$kind.sh" --out "$TMP/san-$kind-out" "$TMP/san-$kind" \
		> "$TMP/san.out" 2>&1
done
f=$(ls "$TMP"/san-asan-out/asan-*.mmf 2> /dev/null)
[ -n "$f" ] && ! grep -q '^expect_tsan' "$f"
ok $? "an ASan-only finding's reproducer: no expect_tsan, though the flag byte had it"
f=$(ls "$TMP"/san-tsan-out/data-race@*.mmf 2> /dev/null)
[ -n "$f" ] && grep -qx 'expect_tsan: race' "$f"
ok $? "a TSan data race's reproducer: expect_tsan: race"

# minimize: the smaller program was not run under TSan
"$MMFUZZ" minimize "$TMP/flag.mmf" -o "$TMP/min.mmf" > "$TMP/m.out" 2> "$TMP/m.err"; rc=$?
[ $rc = 1 ] && ! grep -q '^expect_tsan' "$TMP/min.mmf"
ok $? "minimize drops expect_tsan: race (exit $rc)"
grep -q "^$TMP/flag.mmf: warning: expect_tsan: race is not in $TMP/min.mmf" "$TMP/m.err"
ok $? "and says so" || diag "$(cat "$TMP/m.err")"

# minimize: a page allocator finding with TLB keys off their defaults (as a
# fuzzed header has them); they change nothing in its run
sed 's/^cpus: 2$/&\nmm_pages: 16\ntlb_entries: 3\ngather_batch_count: 1709\nstat_threshold: 1/' \
	$R/pcp_count_apart.mmf > "$TMP/keys.mmf"
"$MMFUZZ" run -q --expect "$TMP/keys.mmf" > /dev/null 2>&1
ok $? "the program with the TLB keys set fails as before"
"$MMFUZZ" minimize "$TMP/keys.mmf" -o "$TMP/kmin.mmf" > /dev/null 2>&1; rc=$?
[ $rc = 1 ] && ! grep -qE '^(mm_pages|tlb_entries|gather_batch_count|stat_threshold):' "$TMP/kmin.mmf" &&
	grep -qx 'expect: violation I-READ@drain_pages_zone' "$TMP/kmin.mmf" &&
	"$MMFUZZ" run -q --expect "$TMP/kmin.mmf" > /dev/null 2>&1
ok $? "minimize tries each key at its default first: none of them is left (exit $rc)" ||
	diag "$(sed -n '1,/^task/p' "$TMP/kmin.mmf")"
finish
