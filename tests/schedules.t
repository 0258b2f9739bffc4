#!/bin/bash
# The shipped corpus (every corpus/<target>/ and corpus/regress) under every schedule
# policy: the same result and trace hash twice, and in the ASan and TSan
# builds the same as in the plain build.  Under TSan a file that declares
# expect_tsan: race may end in the data race report instead (exit 66), and
# so may the files listed below under schedules other than their own.
#
# MMFUZZ_SCHED_POLICIES overrides the policies (ci/tsan-replay runs more).
. tests/lib/tap.sh
files=(corpus/*/*.mmf)
read -r -a policies <<< "${MMFUZZ_SCHED_POLICIES:-input pct:3:42 pct:2:7 random:7 random:1 rr}"
# A file whose own schedule reaches a checker first, with a switch whose
# unlocked access other schedules reach first: FILE=FUNCTION, the race TSan
# may report under any other policy.  pcp_count_apart raises pcp->count
# after dropping pcp->lock; PCT runs the drain's read against that write
# (TSan names the later of the two accesses).  pcp_free_nolock adds to the
# list without pcp->lock: its own schedule meets I-READ at the drain's racy
# read first, PCT runs the lock's validator against the list_add.
tsan_may_race=" pcp_count_apart.mmf=drain_pages_zone pcp_count_apart.mmf=pcp_count_add "
tsan_may_race+=" pcp_free_nolock.mmf=pcp_lists_valid pcp_free_nolock.mmf=free_unref_page_nolock "
# FILE@POLICY: and where it must (seen on the first runs of this test)
tsan_races=" pcp_count_apart.mmf@pct:3:42 pcp_count_apart.mmf@pct:2:7 "
tsan_races+=" pcp_free_nolock.mmf@pct:3:42 pcp_free_nolock.mmf@pct:2:7 "
plan ${#files[@]}

ref=build/mmfuzz
[ "$BUILD" = build ] || [ -x "$ref" ] || ref=""
run_json() {	# BINARY FILE POLICY: the JSON line without the file name, and the exit status
	"$1" run --json --sched="$3" "$2" 2> "$TMP/err" | sed -E 's/"file":"[^"]*",//'
	echo "exit ${PIPESTATUS[0]}"
}
for f in "${files[@]}"; do
	name=$(basename "$f")
	bad=""
	for s in "${policies[@]}"; do
		a=$(run_json "$MMFUZZ" "$f" "$s")
		if is_tsan && grep -q 'WARNING: ThreadSanitizer: data race' "$TMP/err"; then
			case "$a" in *"exit 66") ;; *) bad="$bad $s(race, ${a##* })" ;; esac
			fn=$(sed -n 's/^SUMMARY: ThreadSanitizer: data race .* in //p' "$TMP/err" | head -1)
			case "$tsan_may_race" in
			*" $name=$fn "*) [ "$s" != input ] ;;
			*) grep -q '^expect_tsan: race' "$f" ;;
			esac || bad="$bad $s(unexpected race in ${fn:-?})"
			continue
		fi
		case "$tsan_races" in *" $name@$s "*) is_tsan && bad="$bad $s(no race)" ;; esac
		b=$(run_json "$MMFUZZ" "$f" "$s")
		case "$a" in *'"trace_hash":"'*'exit '[01]) ;; *) bad="$bad $s(${a##*exit })" ;; esac
		[ "$a" = "$b" ] || bad="$bad $s(differs between two runs)"
		if [ "$BUILD" != build ] && [ -n "$ref" ]; then
			p=$(run_json "$ref" "$f" "$s")
			[ "$a" = "$p" ] || bad="$bad $s(differs from the plain build)"
		fi
	done
	[ -z "$bad" ]
	ok $? "$name: the same under ${policies[*]}${bad:+; wrong:$bad}"
done
finish
