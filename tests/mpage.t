#!/bin/bash
# bench/mpage.sh, the writer of docs/measurements/<bench>.md: the page says
# the command, the commit, the date, the machine and the load, then what the
# bench printed; it replaces the page whole (no temporary file left) and
# refuses bad usage with exit 2, leaving the old page as it was.
. tests/lib/tap.sh
plan 5

printf 'fiber_switch_ns: 7.2\ndeterministic/sequential: 1.28\n' > "$TMP/out"
bench/mpage.sh -n bench -c "make bench" -l "0.50 0.40 0.30" -f "$TMP/out" -o "$TMP/m" > "$TMP/say"
rc=$?
p=$TMP/m/bench.md
c=$(git rev-parse --short=12 HEAD)
[ $rc = 0 ] && grep -qx '| command | `make bench` |' "$p" && grep -q "^| commit | $c" "$p" &&
	grep -qE '^\| date \| [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC \|$' "$p" &&
	grep -qE "^\| machine \| $(nproc) CPUs \(nproc\), " "$p" &&
	grep -qE '^\| load average \(1, 5, 15 min\) \| 0.50 0.40 0.30 at the start, [0-9.]+ [0-9.]+ [0-9.]+ at the end \|$' "$p"
ok $? "the page names the command, commit, date, machine and load" || diag "$(cat "$p")"
sed -n '/^```text$/,/^```$/p' "$p" | sed '1d;$d' | cmp -s - "$TMP/out"
ok $? "the page holds what the bench printed, as printed"
[ "$(ls -A "$TMP/m")" = bench.md ] && grep -qx 'bench: wrote .*bench.md' "$TMP/say"
ok $? "no temporary file is left beside the page"
printf 'second run\n' > "$TMP/out2"
bench/mpage.sh -n bench -c "make bench" -l "1 1 1" -f "$TMP/out2" -o "$TMP/m" > /dev/null &&
	grep -qx 'second run' "$p" && ! grep -q fiber_switch "$p"
ok $? "a second run replaces the page"
cp "$p" "$TMP/before"
bench/mpage.sh -n 'a/b' -c x -f "$TMP/out" -o "$TMP/m" 2> /dev/null; r1=$?
bench/mpage.sh -n bench -c x -f "$TMP/missing" -o "$TMP/m" 2> /dev/null; r2=$?
[ $r1 = 2 ] && [ $r2 = 2 ] && cmp -s "$p" "$TMP/before"
ok $? "bad usage: exit 2, the page untouched"
finish
