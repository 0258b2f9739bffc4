#!/bin/bash
# mmfuzz stress as a user meets it: average: is per second whatever the
# sample length; -s 0 is not "until Ctrl-C" by accident (tests/cli_bad.t).
. tests/lib/tap.sh
plan 18

"$MMFUZZ" stress pcp_alloc1 -s 2 --warmup 1 --sample-ms 250 > "$TMP/o" 2> /dev/null
# the measured samples are the lines after "measurement"
want=$(awk '/^measurement$/ { m = 1; next } m && /^min:/ { split($3, t, ":"); sum += t[2]; n++ }
	END { if (n) printf "%d", sum * 1000 / (n * 250) }' "$TMP/o")
got=$(sed -n 's/^average://p' "$TMP/o")
[ -n "$want" ] && [ "$got" = "$want" ]
ok $? "--sample-ms 250: average: is the samples' mean per second ($got, want $want)"
"$MMFUZZ" stress --help | grep -q 'average: per second'
ok $? "--help says what --sample-ms does to the figures"

# the workloads register themselves (STRESS_WORKLOAD in their own files)
"$MMFUZZ" stress --list | awk '{ print $1 }' > "$TMP/wl"
LC_ALL=C sort -u "$TMP/wl" | cmp -s - "$TMP/wl" && grep -qx pcp_alloc1 "$TMP/wl" &&
	grep -qx tlb_flush2 "$TMP/wl" && grep -qx ktorture1 "$TMP/wl"
ok $? "--list: each registered workload once, by name ($(wc -l < "$TMP/wl") of them)"

# --set KEY=VALUE: any key of the config table; the hand-written options
# are its aliases; bad keys and values are exit 2 with the key named
emit() { "$MMFUZZ" stress "$@" --emit-config; }
emit pcp_alloc1 --set pcp_high=20 > "$TMP/set" 2> "$TMP/err"
grep -qx 'pcp_high: 20' "$TMP/set"
ok $? "--set pcp_high=20 is the machine's pcp_high"
emit pcp_alloc1 --pcp-high 20 > "$TMP/alias"
cmp -s "$TMP/set" "$TMP/alias"
ok $? "--pcp-high 20 is an alias of --set pcp_high=20"
emit pcp_alloc1 --zone-pages 4096 --pcp-batch 7 > "$TMP/alias2"
emit pcp_alloc1 --set zone_pages=4096 --set pcp_batch=7 > "$TMP/set2"
cmp -s "$TMP/set2" "$TMP/alias2" && grep -qx 'pcp_high: 42' "$TMP/set2"
ok $? "--zone-pages and --pcp-batch are aliases; pcp_high follows the batch set (6 * 7)"
emit pcp_alloc1 --set pcp_high=30 --set pcp_high=40 | grep -qx 'pcp_high: 40'
ok $? "the last --set of a key counts"
emit pcp_alloc1 --set variant=pick_outside | grep -qx 'variant: pick_outside'
ok $? "an enumerated key takes its value's name"
emit brk1 --set mm_pages=4096 | grep -qx 'mm_pages: 4096'
ok $? "a key the workload sizes (brk1's mm_pages) takes the value set"
"$MMFUZZ" stress pcp_alloc1 -s 1 --warmup 0 --sample-ms 100 --set pcp_batch=31 > "$TMP/run" 2>&1
grep -qx 'config.pcp_batch: 31' "$TMP/run" && grep -qx 'config.pcp_high: 186' "$TMP/run"
ok $? "a run's machine has the keys set (config.pcp_batch: 31, config.pcp_high: 186)"

bad() {	# bad WANT-IN-MESSAGE ARGS...: exit 2, the message on stderr, nothing on stdout
	local want=$1; shift
	"$MMFUZZ" stress pcp_alloc1 "$@" > "$TMP/out" 2> "$TMP/err"
	local rc=$?
	[ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && grep -q -- "$want" "$TMP/err" || {
		diag "rc $rc: $(cat "$TMP/err")"; return 1; }
}
bad "no config key 'no_such'" --set no_such=1
ok $? "an unknown key: exit 2, the key named"
bad "pcp_high is a number from 0 to" --set pcp_high=many
ok $? "a value that is not a number: exit 2"
bad "pcp_high is a number from 0 to" --set pcp_high=99999
ok $? "a value out of the key's range: exit 2"
bad "variant is one of: single_pass" --set variant=4.16
ok $? "an enumerated key's unknown name: exit 2, the names listed"
bad "zone_pages (1000) must be a multiple of 1024" --set zone_pages=1000
ok $? "a value out of the range the other keys leave (whole max-order blocks): exit 2"
bad "KEY=VALUE" --set pcp_high
ok $? "--set without =VALUE: exit 2"
bad "do not go together" --variant locked_rr --set variant=pick_outside
ok $? "--variant and --set variant=: exit 2 (the --set would win over every column)"
bad "simulated CPUs are fixed" --set cpus=2
ok $? "--set cpus: exit 2 (the runner's CPUs; --cpu-stride places the tasks)"

finish
