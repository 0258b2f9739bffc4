#!/bin/bash
# Bad invocations of every subcommand, a table each: exit 2, the first line
# of stderr as given (a bash pattern; FILE:LINE:COL for bad input), no
# sanitizer report, and nothing written.  In the ASan build with leak
# detection on: every error path frees what it took.
. tests/lib/tap.sh
export ASAN_OPTIONS=detect_leaks=1:exitcode=86 UBSAN_OPTIONS=halt_on_error=1:exitcode=87
nbad=$(grep -c '^bad ' "$0")
cd "$TMP" || exit 1
M=$MMFUZZ
C=$OLDPWD/corpus

# bad CMD 'FIRST-LINE-PATTERN' ARGS...: one test
bad() {
	local cmd=$1 want=$2 rc first
	shift 2
	"$M" "$cmd" "$@" > out 2> err < /dev/null
	rc=$?
	first=$(head -1 err)
	# shellcheck disable=SC2053
	if [ $rc = 2 ] && [[ $first == $want ]] && ! grep -q 'Sanitizer\|runtime error' err &&
		[ ! -s out ]; then
		ok 0 "$cmd $*: $first"
	else
		ok 1 "$cmd $*: exit $rc, '$first' (want 2, '$want')"
		diag "$(head -5 err)"
	fi
}

# inputs
prog='task T0 cpu=0
  h0 = alloc_pages order=0 mt=movable'
printf 'mmfuzz 1\n%s\n' "$prog" > good.mmf
printf 'mmfuzz 1\ntask T0 cpu=0\n  h0 = alloc_pages order=0 mt=sideways\n' > bad.mmf
printf 'cpus: 2\n%s\n' "$prog" > nomagic.mmf
printf 'mmfuzz1\n%s\n' "$prog" > m1.mmf
printf 'mmfuzz 1\ncpus: 2\n\0\n' > nul.mmf
: > empty
mkdir adir
ln -s nowhere dangling
"$M" encode good.mmf -o good.bin

plan $((nbad + 1))

# run
bad run 'mmfuzz run: no FILE given (mmfuzz run --help)'
bad run 'missing.mmf: No such file or directory' missing.mmf
bad run 'adir: is a directory, not a program' adir
bad run 'empty: empty: not a program *' empty
bad run '/dev/null: empty: not a program *' /dev/null
bad run 'bad.mmf:3:31: mt is unmovable, movable or reclaimable' good.mmf bad.mmf
bad run "nomagic.mmf:1:1: text without the line 'mmfuzz 1' that starts a program *" nomagic.mmf
bad run "m1.mmf:1:1: text without the line 'mmfuzz 1' *" m1.mmf
bad run 'nul.mmf:*: NUL byte in a text program' nul.mmf
bad run "mmfuzz run: bad --sched 'pct:3:abc': the seed is a number from 0 to 18446744073709551615" --sched=pct:3:abc good.mmf
bad run "mmfuzz run: bad --sched 'pct:0': the PCT depth is a number from 1 to 8" --sched=pct:0 good.mmf
bad run "mmfuzz run: bad --sched 'random:': the seed is *" --sched=random: good.mmf
bad run "mmfuzz run: bad --sched 'fifo': input, pct:DEPTH\[:SEED\], random:SEED or rr" --sched=fifo good.mmf
bad run "mmfuzz run: bad --max-steps '0': a number from 1 to 1000000000" --max-steps 0 good.mmf
bad run "mmfuzz run: bad --max-steps '18446744073709551616': a number from 1 to 1000000000" --max-steps 18446744073709551616 good.mmf
bad run "mmfuzz run: bad --max-steps '-5': a number from 1 to 1000000000" --max-steps -5 good.mmf
bad run "mmfuzz run: --max-steps needs a value" good.mmf --max-steps
bad run "mmfuzz: unknown bug switch 'no_such' (mmfuzz bugs lists them)" --inject no_such good.mmf
bad run "mmfuzz run: unknown option '--frob' (mmfuzz run --help)" --frob good.mmf
bad run "mmfuzz run: '--trace=1': an unknown option, or one that takes no value *" --trace=1 good.mmf
bad run "good.mmf: no expect: line, nothing for --expect to check" --expect good.mmf
bad run "mmfuzz run: --text and --binary do not go together" --text --binary good.mmf

# decode
bad decode 'mmfuzz decode: no FILE given (mmfuzz decode --help)'
bad decode "mmfuzz decode: one FILE only, not 'good.mmf' too" good.mmf good.mmf
bad decode 'missing.mmf: No such file or directory' missing.mmf
bad decode 'adir: is a directory, not a program' adir
bad decode 'empty: empty: not a program *' empty
bad decode 'bad.mmf:3:31: mt is unmovable, movable or reclaimable' bad.mmf
bad decode "nomagic.mmf:1:1: text without the line 'mmfuzz 1' *" nomagic.mmf
bad decode 'good.bin:1:1: *' --text good.bin
bad decode "mmfuzz decode: unknown option '-x' (mmfuzz decode --help)" -x good.mmf
bad decode "mmfuzz decode: --text and --binary do not go together" --binary --text good.mmf

# encode
bad encode 'mmfuzz encode: no FILE given (mmfuzz encode --help)' -o x.bin
bad encode 'mmfuzz encode: no -o OUT given (mmfuzz encode --help)' good.mmf
bad encode 'mmfuzz encode: -o needs a value' good.mmf -o
bad encode "mmfuzz encode: one FILE only, not 'good.mmf' too" good.mmf good.mmf -o x.bin
bad encode 'missing.mmf: No such file or directory' missing.mmf -o x.bin
bad encode 'bad.mmf:3:31: mt is unmovable, movable or reclaimable' bad.mmf -o x.bin
bad encode 'empty: empty: not a program *' empty -o x.bin
bad encode "nomagic.mmf:1:1: text without the line 'mmfuzz 1' *" nomagic.mmf -o x.bin
bad encode "mmfuzz encode: unknown option '--out' (mmfuzz encode --help)" good.mmf --out x.bin
bad encode 'nul.mmf:*: NUL byte in a text program' nul.mmf -o x.bin
bad encode 'adir: is a directory: not written' good.mmf -o adir
bad encode 'dangling: a symbolic link to nothing: not replaced' good.mmf -o dangling
bad encode 'nodir/x.bin: No such file or directory' good.mmf -o nodir/x.bin
bad encode 'mmfuzz: an empty output path' good.mmf -o ''

# minimize
bad minimize 'mmfuzz minimize: no FILE given (mmfuzz minimize --help)' -o x.mmf
bad minimize 'mmfuzz minimize: no -o OUT given (mmfuzz minimize --help)' good.mmf
bad minimize "mmfuzz minimize: bad --max-runs '0': a number from 1 to 100000000" --max-runs 0 good.mmf -o x.mmf
bad minimize "mmfuzz minimize: bad --max-runs '1e6': a number from 1 to 100000000" --max-runs 1e6 good.mmf -o x.mmf
bad minimize "mmfuzz minimize: bad --sched 'rr:2': input, pct:DEPTH\[:SEED\], random:SEED or rr" --sched=rr:2 good.mmf -o x.mmf
bad minimize "mmfuzz: unknown bug switch 'nope' (mmfuzz bugs lists them)" --inject nope good.mmf -o x.mmf
bad minimize 'bad.mmf:3:31: mt is unmovable, movable or reclaimable' bad.mmf -o x.mmf
bad minimize 'empty: empty: not a program *' empty -o x.mmf
bad minimize "nomagic.mmf:1:1: text without the line 'mmfuzz 1' *" nomagic.mmf -o x.mmf
bad minimize "mmfuzz minimize: one FILE only, not 'bad.mmf' too" good.mmf bad.mmf -o x.mmf
bad minimize 'adir: is a directory: not written' good.mmf -o adir

[ ! -e x.bin ] && [ ! -e x.mmf ] && [ -z "$(ls -A adir)" ]
ok $? "nothing was written"
finish
