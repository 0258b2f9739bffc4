#!/bin/bash
# Every file in corpus/regress meets its expect: line (a bug switch's
# reproducer, or a false positive once found on the clean model, which must
# stay clean); with its bug switches off it runs clean; the same file gives the same trace hash twice (the
# second time as the second run in one process) and in every build (with the run options its "# regress-args:" line asks for, if
# any).  In the TSan build a file marked expect_tsan: race ends in a
# ThreadSanitizer data race report instead, the same one every run.
. tests/lib/tap.sh
files=(corpus/regress/*.mmf)
plan $((4 * ${#files[@]}))
for f in "${files[@]}"; do
	name=$(basename "$f")
	if is_tsan && grep -q '^expect_tsan: race' "$f"; then
		"$MMFUZZ" run -q "$f" > "$TMP/o1" 2>&1; rc1=$?
		"$MMFUZZ" run -q "$f" > "$TMP/o2" 2>&1; rc2=$?
		grep -q 'WARNING: ThreadSanitizer: data race' "$TMP/o1"
		ok $(( $? || rc1 != 66 )) "$name: TSan reports the data race (exit $rc1)"
		# the same report: same access pairs, modulo addresses and pids
		norm() { grep -E '^ +#[0-9]+ |^  (Read|Write|Previous)' "$1" | sed -E 's/0x[0-9a-f]+//g; s/\(mmfuzz\+[^)]*\)//g; s/pid=[0-9]+//g'; }
		[ $rc2 = 66 ] && diff <(norm "$TMP/o1") <(norm "$TMP/o2") > /dev/null
		ok $? "$name: the same race report on a second run"
	else
		# a file may ask for the fuzz harness's bounds: "# regress-args: ..."
		# shellcheck disable=SC2046
		"$MMFUZZ" run -q --expect $(sed -n 's/^# regress-args: //p' "$f") "$f" > "$TMP/out" 2>&1
		ok $? "$name: meets its expect: line"
		h1=$("$MMFUZZ" run --json "$f" 2>/dev/null | sed -E 's/.*"trace_hash":"([0-9a-f]+)".*/\1/')
		# the second run in one process: nothing of the first survives it
		h2=$("$MMFUZZ" run --json "$f" "$f" 2>/dev/null | tail -1 | sed -E 's/.*"trace_hash":"([0-9a-f]+)".*/\1/')
		ref=$h1
		if [ "$BUILD" != build ] && [ -x build/mmfuzz ]; then
			ref=$(build/mmfuzz run --json "$f" 2>/dev/null | sed -E 's/.*"trace_hash":"([0-9a-f]+)".*/\1/')
		fi
		[ -n "$h1" ] && [ "$h1" = "$h2" ] && [ "$h1" = "$ref" ]
		ok $? "$name: same trace hash in a new process, on a second run in one, and as the plain build ($h1 $h2)"
	fi
	sed -e 's/^bugs:.*/bugs: none/' -e '/^expect/d' "$f" > "$TMP/off.mmf"
	"$MMFUZZ" run -q "$TMP/off.mmf" > "$TMP/out" 2>&1
	ok $? "$name: runs clean with its bug switches off"
	bug=$(sed -n 's/^bugs: *//p' "$f" | cut -d, -f1)
	if grep -q '^expect: clean' "$f"; then
		# a false positive once found on the clean model: it stays clean, and
		# its schedule still reaches that run (a decision that no longer
		# fires leaves a test that cannot fail)
		nf=$("$MMFUZZ" run --json "$f" 2>/dev/null | sed -nE 's/.*"decisions_never_fired":([0-9]+).*/\1/p')
		[ "$bug" = none ] && [ "$nf" = 0 ]
		ok $? "$name: a clean-model regression (bugs: none, expect: clean), every decision fires (${nf:-?} never fired)"
	else
		[ -n "$bug" ] && [ "$bug" != none ] && "$MMFUZZ" bugs | grep -q "^$bug "
		ok $? "$name: its switch ($bug) is in mmfuzz bugs"
	fi
done
finish
