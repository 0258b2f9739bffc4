#!/bin/bash
# Every corpus file on one node (as it is: nodes defaults to 1) and on two
# (nodes: 2 added, and cpus: 2 where it had one CPU, as two nodes need two):
# on one node it meets its expect: line; on two, a file that expects clean
# is clean, and a bug switch's reproducer runs clean with its switches off.
# Whether two nodes still reproduce a switch is said, not tested: the
# schedule was found for one node's zonelist.
. tests/lib/tap.sh
files=(corpus/*/*.mmf)
plan $((2 * ${#files[@]} + 2))
found=0 bugs=0
for f in "${files[@]}"; do
	args=$(sed -n 's/^# regress-args: //p' "$f")
	if is_tsan && grep -q '^expect_tsan: race' "$f"; then
		# its ThreadSanitizer report is regress.t's to check
		ok 0 "$f: one node: # SKIP ends in a TSan report here (regress.t)"
	else
		# shellcheck disable=SC2086
		"$MMFUZZ" run -q --expect $args "$f" > "$TMP/out" 2>&1
		ok $? "$f: one node: meets its expect: line" || diag "$(head -5 "$TMP/out")"
	fi
	sed -e '/^nodes:/d' -e '/^mmfuzz 1/a nodes: 2' -e 's/^cpus: 1$/cpus: 2/' "$f" > "$TMP/n2.mmf"
	if grep -qx 'expect: clean' "$f"; then
		# shellcheck disable=SC2086
		"$MMFUZZ" run -q --expect $args "$TMP/n2.mmf" > "$TMP/out" 2>&1
		ok $? "$f: two nodes: clean" || diag "$(head -5 "$TMP/out")"
	else
		sed -e 's/^bugs:.*/bugs: none/' -e '/^expect/d' "$TMP/n2.mmf" > "$TMP/off.mmf"
		"$MMFUZZ" run -q "$TMP/off.mmf" > "$TMP/out" 2>&1
		ok $? "$f: two nodes: clean with its bug switches off" || diag "$(head -5 "$TMP/out")"
		bugs=$((bugs + 1))
		# shellcheck disable=SC2086
		"$MMFUZZ" run -q --expect $args "$TMP/n2.mmf" > /dev/null 2>&1 && found=$((found + 1))
	fi
done
diag "two nodes: $found of $bugs switch reproducers still find their bug"

# the key's bad values: FILE:LINE:COL, exit 2
printf 'mmfuzz 1\ncpus: 1\nnodes: 2\n' > "$TMP/bad.mmf"
"$MMFUZZ" run "$TMP/bad.mmf" > "$TMP/out" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "bad.mmf:3:8: nodes must be between 1 and 1, not 2 (at most one node per CPU" "$TMP/out"
ok $? "nodes: 2 on one CPU: FILE:LINE:COL, the reason, exit 2 ($(cat "$TMP/out"))"
printf 'mmfuzz 1\nnodes: 3\n' > "$TMP/bad.mmf"
"$MMFUZZ" run "$TMP/bad.mmf" > "$TMP/out" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "bad.mmf:2:8: nodes must be between 1 and 2, not 3" "$TMP/out"
ok $? "nodes: 3: out of range, exit 2"
finish
