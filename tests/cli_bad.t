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
# PCP_BATCH_SCALE_MAX: Kconfig's range 0..6
printf 'mmfuzz 1\npcp_batch_scale_max: 7\n%s\n' "$prog" > scale7.mmf
printf 'mmfuzz 1\npcp_batch_scale_max: 5x\n%s\n' "$prog" > scale_x.mmf
: > empty
# the header's mms: two tasks, then a header line each
two='task T0 cpu=0
task T1 cpu=1'
mms() { printf 'mmfuzz 1\n%s\n%s\n' "$2" "$two" > "$1"; }
mms mms_in_two.mmf 'mms: T0, T1 T0'
mms mms_twice_in_one.mmf 'mms: T0 T1 T1'
mms mms_no_such_task.mmf 'mms: T0 T2'
mms mms_past_max.mmf 'mms: T0 T8'
mms mms_empty_mm.mmf 'mms: T0,, T1'
mms mms_trailing.mmf 'mms: T0 T1,'
mms mms_nothing.mmf 'mms:'
mms mms_not_a_task.mmf 'mms: T0 thread1'
printf 'mmfuzz 1\nmms: T0\nmms: T1\n%s\n' "$two" > mms_key_twice.mmf
# a handle is named by its kind's prefix and a number (N9)
printf 'mmfuzz 1\ntask T0 cpu=0\n  h0 = mmap pages=4\n  access h0 page=0\n' > h_range.mmf
printf 'mmfuzz 1\ntask T0 cpu=0\n  r0 = alloc_pages order=0 mt=movable\n' > r_page.mmf
printf 'mmfuzz 1\ntask T0 cpu=0\n  r99999999999 = mmap pages=4\n' > r_huge.mmf
printf 'mmfuzz 1\ntask T0 cpu=0\n  r256 = mmap pages=4\n' > r_256.mmf
printf 'mmfuzz 1\ntask T0 cpu=0\n  r-1 = mmap pages=4\n' > r_neg.mmf
printf 'mmfuzz 1\ntask T0 cpu=0\n  r = mmap pages=4\n' > r_bare.mmf
printf 'mmfuzz 1\ntask T0 cpu=0\n  page0 = alloc_pages order=0 mt=movable\n' > h_word.mmf
# an expect: signature is printable ASCII (N4)
printf 'mmfuzz 1\nexpect: violation I-READ@drain\377zone\n%s\n' "$prog" > sig_byte.mmf
printf 'mmfuzz 1\nexpect: violation I-READ@drain\001\n%s\n' "$prog" > sig_ctl.mmf
# a decision's target is a task or a kernel thread the program may start (N2)
printf 'mmfuzz 1\n%s\nschedule: fallback=none\n  at start -> T5\n' "$two" > dec_t5.mmf
printf 'mmfuzz 1\n%s\nschedule: fallback=none\n  at T3.0 op(exit) #1 -> T0\n' "$two" > dec_from_t3.mmf
# (a kernel program: T9 may be a kernel thread, but none ran)
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
bad run 'nul.mmf:3:1: NUL byte in text' nul.mmf
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
bad run 'mms_in_two.mmf:2:13: T0 is in two mms: a task runs in one address space' mms_in_two.mmf
bad run 'mms_twice_in_one.mmf:2:12: T1 named twice in one mm' mms_twice_in_one.mmf
bad run "mms_no_such_task.mmf:2:9: mms: T2, but the program's tasks are T0..T1" mms_no_such_task.mmf
bad run 'mms_past_max.mmf:2:10: task must be between 0 and 7, not 8' mms_past_max.mmf
bad run 'scale7.mmf:2:22: pcp_batch_scale_max must be between 0 and 6, not 7' scale7.mmf
bad run "scale_x.mmf:2:22: '5x' is not a number (pcp_batch_scale_max)" scale_x.mmf
bad run 'mms_empty_mm.mmf:2:9: an mm without tasks: expected a task like T0' mms_empty_mm.mmf
bad run 'mms_trailing.mmf:2:12: an mm without tasks: expected a task like T0' mms_trailing.mmf
bad run "mms_nothing.mmf:2:5: mms: expected the tasks of each mm, like 'mms: T0 T1, T2'" mms_nothing.mmf
bad run 'mms_not_a_task.mmf:2:9: expected a task like T0' mms_not_a_task.mmf
bad run "mms_key_twice.mmf:3:1: 'mms' given twice" mms_key_twice.mmf
bad encode "mms_no_such_task.mmf:2:9: mms: T2, but the program's tasks are T0..T1" mms_no_such_task.mmf -o x.bin
bad run "h_range.mmf:3:3: a range handle is named rN, not 'h0'" h_range.mmf
bad run "r_page.mmf:3:3: a page handle is named hN, not 'r0'" r_page.mmf
bad run "r_huge.mmf:3:4: a handle's number is from 0 to 255, not '99999999999'" r_huge.mmf
bad run "r_256.mmf:3:4: a handle's number is from 0 to 255, not '256'" r_256.mmf
bad run "r_neg.mmf:3:3: a range handle is named rN, not 'r-1'" r_neg.mmf
bad run "r_bare.mmf:3:3: a range handle is named rN, not 'r'" r_bare.mmf
bad decode "h_word.mmf:3:3: a page handle is named hN, not 'page0'" h_word.mmf
bad run 'sig_byte.mmf:2:31: a signature is printable ASCII, not the byte 0xff' sig_byte.mmf
bad decode 'sig_ctl.mmf:2:31: a signature is printable ASCII, not the byte 0x01' sig_ctl.mmf
bad run "dec_t5.mmf:5:15: T5 is not a task of the program (T0..T1) and none of its operations starts a kernel thread" dec_t5.mmf
bad encode "dec_from_t3.mmf:5:6: T3 is not a task of the program (T0..T1) and none *" dec_from_t3.mmf -o x.bin

# decode
bad decode 'mmfuzz decode: no FILE given (mmfuzz decode --help)'
bad decode "mmfuzz decode: one FILE only, not 'good.mmf' too" good.mmf good.mmf
bad decode 'missing.mmf: No such file or directory' missing.mmf
bad decode 'adir: is a directory, not a program' adir
bad decode 'empty: empty: not a program *' empty
bad decode 'bad.mmf:3:31: mt is unmovable, movable or reclaimable' bad.mmf
bad decode "nomagic.mmf:1:1: text without the line 'mmfuzz 1' *" nomagic.mmf
bad decode 'good.bin:1:*: NUL byte in text' --text good.bin
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
bad encode 'nul.mmf:3:1: NUL byte in text' nul.mmf -o x.bin
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

# triage
mkdir cdir && echo 'run x engine=libfuzzer' > cdir/campaign
bad triage 'mmfuzz triage: no DIR given (mmfuzz triage --help)'
bad triage 'mmfuzz triage: missingdir: No such file or directory' missingdir
bad triage "mmfuzz triage: good.mmf: not a directory (a campaign's --out DIR)" good.mmf
bad triage "mmfuzz triage: /dev/null: not a directory (a campaign's --out DIR)" /dev/null
bad triage "mmfuzz triage: one DIR only, not 'adir' too" adir adir
bad triage "mmfuzz: unknown bug switch 'nope' (mmfuzz bugs lists them)" --inject nope adir
bad triage 'mmfuzz triage: good.mmf: not a directory' --out good.mmf adir
bad triage 'mmfuzz triage: cannot make the directory nodir/x: No such file or directory' --out nodir/x adir
bad triage 'mmfuzz triage: --sanitizer-bin nobin: No such file or directory' --sanitizer-bin nobin adir
bad triage "mmfuzz triage: unknown option '--frob' (mmfuzz triage --help)" --frob adir
bad triage 'mmfuzz triage: --out needs a value' adir --out
bad triage 'cdir/campaign:1: not a campaign run line' cdir

# fuzz: everything is checked before a directory is made or anything built
mkdir ldir && echo "pid $$ host $(hostname) run 3" > ldir/lock
bad fuzz "mmfuzz fuzz: --engine is libfuzzer, afl or random, not 'honggfuzz'" --engine honggfuzz
bad fuzz "mmfuzz fuzz: bad --time '0': a number from 1 to 31536000" --time 0
bad fuzz "mmfuzz fuzz: bad --time '9223372036854775808': a number from 1 to 31536000" --time 9223372036854775808
bad fuzz "mmfuzz fuzz: bad --jobs '0': a number from 1 to 64" --jobs 0
bad fuzz "mmfuzz fuzz: bad --jobs '65': a number from 1 to 64" --jobs 65
bad fuzz "mmfuzz fuzz: bad --seed '4294967296': a number from 0 to 4294967295" --seed 4294967296
bad fuzz "mmfuzz fuzz: bad --seed '-1': a number from 0 to 4294967295" --seed -1
bad fuzz "mmfuzz: unknown bug switch 'no_such' (mmfuzz bugs lists them)" --inject no_such
bad fuzz "mmfuzz fuzz: --target is one of all (default), deferred, kernel, mm, pagealloc, slub, tlb, text (mmfuzz targets), not 'nope'" --target nope
bad fuzz "mmfuzz fuzz: --sanitizer is address, thread or none, not 'memory'" --sanitizer memory
bad fuzz "mmfuzz fuzz: unexpected argument 'stray' (mmfuzz fuzz --help)" stray
bad fuzz 'mmfuzz fuzz: the random engine runs the mm seeds in this process *' --engine random --sanitizer address
bad fuzz 'mmfuzz fuzz: the libFuzzer builds are address or thread' --sanitizer none
bad fuzz 'mmfuzz fuzz: good.mmf: not a directory' --out good.mmf
bad fuzz 'mmfuzz fuzz: cannot make the directory nodir/x: No such file or directory' --out nodir/x
bad fuzz "mmfuzz fuzz: unknown option '--frob' (mmfuzz fuzz --help)" --frob
bad fuzz 'mmfuzz fuzz: --time needs a value' --time
bad fuzz "mmfuzz fuzz: ldir is in use by campaign 3, pid $$ on $(hostname) (ldir/lock); one campaign a directory at a time" --engine random --out ldir
# the target's libFuzzer options file (fuzz/fuzz_<target>.options) is read
# before anything runs: a tree whose file is missing or bad says where
mkdir -p oroot/fuzz && touch oroot/Makefile
export MMFUZZ_ROOT=oroot
bad fuzz 'mmfuzz fuzz: oroot/fuzz/fuzz_all.options: No such file or directory' --out odir
printf '[libfuzzer]\nmax_len = 512\nmax_len 3\n' > oroot/fuzz/fuzz_all.options
bad fuzz "oroot/fuzz/fuzz_all.options:3:1: expected 'key = value'" --out odir
printf '[libfuzzer]\n  max len = 3\n' > oroot/fuzz/fuzz_all.options
bad fuzz 'oroot/fuzz/fuzz_all.options:2:3: expected a libFuzzer flag name' --out odir
printf '[libfuzzer]\nmax_len =  \n' > oroot/fuzz/fuzz_all.options
bad fuzz 'oroot/fuzz/fuzz_all.options:2:12: expected a value' --out odir
unset MMFUZZ_ROOT

# stress
bad stress 'mmfuzz stress: no WORKLOAD given (mmfuzz stress --list)'
bad stress "mmfuzz stress: unknown workload 'nope'; there are:" nope
bad stress "mmfuzz stress: one WORKLOAD only, not 'drain1'" pcp_alloc1 drain1
bad stress "mmfuzz stress: bad -s '0': a number from 1 to 1000000" pcp_alloc1 -s 0
bad stress "mmfuzz stress: bad -s 'abc': a number from 1 to 1000000" pcp_alloc1 -s abc
bad stress "mmfuzz stress: bad -t '0': a number from 1 to *" pcp_alloc1 -t 0
bad stress "mmfuzz stress: bad -t '99999': a number from 1 to *" pcp_alloc1 -t 99999
bad stress "mmfuzz stress: bad --sample-ms '5': a number from 10 to 60000" pcp_alloc1 --sample-ms 5
bad stress "mmfuzz stress: unknown bug switch 'nope' (mmfuzz bugs lists them)" pcp_alloc1 --inject nope
bad stress "mmfuzz stress: unknown variant 'nope' *" pcp_alloc1 --variant nope
bad stress 'mmfuzz stress: --mode both is for --scaling' pcp_alloc1 --mode both
bad stress 'mmfuzz stress: -m and -n do not go together' pcp_alloc1 -m -n
bad stress "mmfuzz stress: -o 'a'b.csv': a quote or line end gnuplot cannot take" --scaling pcp_alloc1 -o "a'b.csv"
bad stress 'mmfuzz stress: -o adir: not a regular file *' --scaling pcp_alloc1 -o adir
bad stress 'mmfuzz stress: --compare needs --variant, --drain or --inject configurations' --compare pcp_alloc1
bad stress "mmfuzz stress: unknown drain 'locked' (racy_count, locked_count)" --drain locked pcp_alloc1
bad stress "mmfuzz stress: bad -r '2': a number from 3 to 1000" --compare --variant locked_rr pcp_alloc1 -r 2
bad stress "mmfuzz stress: unknown option '--frob' (mmfuzz stress --help)" pcp_alloc1 --frob
bad stress 'mmfuzz stress: -s needs a value' pcp_alloc1 -s

# no command, an unknown one
bad '' "mmfuzz: unknown command '' (mmfuzz --help lists them)"
bad frobnicate "mmfuzz: unknown command 'frobnicate' (mmfuzz --help lists them)"

[ ! -e x.bin ] && [ ! -e x.mmf ] && [ -z "$(ls -A adir)" ] && [ ! -e missingdir ] &&
	[ ! -e nodir ] && [ ! -e findings ] && [ "$(ls -A ldir)" = lock ]
ok $? "nothing was written, no directory made"
finish
