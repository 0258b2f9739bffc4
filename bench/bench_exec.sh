#!/bin/bash
# SPDX-License-Identifier: MIT
# make bench-exec: executions per second of the `mm` fuzz target (ASan+UBSan)
# under libFuzzer and AFL++, this tree against an older commit (default
# 80487fb, where the issue that opened the layers started), side by side on
# the same programs; and the other program targets of this tree (-g, default
# tlb) beside its mm target, each on its own seeds grown the same way.
#
#   bench/bench_exec.sh [-t SECONDS] [-r ROUNDS] [-e "libfuzzer afl"] [-o REV]
#                       [-n GROW_RUNS] [-w DIR] [-g "TARGETS"]
#
# The corpus: the old tree's libFuzzer target grows the shipped seeds with
# a fixed seed and a fixed number of runs (deterministic: -seed=1 -runs=N),
# once, kept in DIR.  The old build decodes each grown input to text and
# this tree encodes it, so both sides start from the same programs whatever
# their binary formats (a yield site renamed since is renamed in the text).
# Each round runs each side for SECONDS from a fresh copy of its corpus, old
# and new alternating; the figures are the medians of the rounds.
#
# libFuzzer runs each side with the options its tree ships for the target
# (fuzz/fuzz_<target>.options, as a campaign runs it); the old target is run
# a second time with this tree's options, so that the line "same engine
# options" tells the model's share of the ratio from the engine's.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=30 rounds=3 engines="libfuzzer afl" old=80487fb grow=200000 work=build/bench-exec
targets=tlb
while getopts "t:r:e:o:n:w:g:" o; do
	case $o in
	t) secs=$OPTARG ;; r) rounds=$OPTARG ;; e) engines=$OPTARG ;; o) old=$OPTARG ;;
	n) grow=$OPTARG ;; w) work=$OPTARG ;; g) targets=$OPTARG ;;
	*) echo "usage: $0 [-t S] [-r N] [-e ENGINES] [-o REV] [-n RUNS] [-w DIR] [-g TARGETS]" >&2; exit 2 ;;
	esac
done
mkdir -p "$work"
work=$(cd "$work" && pwd)
log=$work/bench-exec.log
: > "$log"
say() { echo "bench-exec: $*" >&2; }

# ---- the two trees ----
oldsrc=$work/old-$old
if [ ! -x "$oldsrc/build/mmfuzz" ]; then
	say "building $old in $oldsrc (once)"
	rm -rf "$oldsrc"
	mkdir -p "$oldsrc"
	git archive "$old" | tar -x -C "$oldsrc"
	make -s -C "$oldsrc" -j2 build/mmfuzz >> "$log" 2>&1
	make -s -C "$oldsrc" -j2 corpus >> "$log" 2>&1
fi
for e in $engines; do
	say "building the $e targets (old and new)"
	make -s -C "$oldsrc" -j2 ENGINE=$e SANITIZER=address,undefined fuzz-bins >> "$log" 2>&1
	make -s -j2 ENGINE=$e SANITIZER=address,undefined fuzz-bins >> "$log" 2>&1
done
make -s -j2 build/mmfuzz >> "$log" 2>&1
opts() {	# opts old|new|TARGET: the libFuzzer options the tree ships for it
	local root=$PWD t=mm
	case $1 in old) root=$oldsrc ;; new|same) ;; *) t=$1 ;; esac
	[ -f "$root/fuzz/fuzz_$t.options" ] || return 0
	awk '/^\[/ { s = ($0 == "[libfuzzer]"); next }
	     s && /=/ && !/^[ \t]*[#;]/ { gsub(/[ \t]/, ""); print "-" $0 }' "$root/fuzz/fuzz_$t.options"
}
bin() {	# bin old|new|same|TARGET ENGINE: old and new are the mm target (same: old's)
	local root=$PWD t=mm
	case $1 in old|same) root=$oldsrc ;; new) ;; *) t=$1 ;; esac
	echo "$root/build-fuzz-$2-address-undefined/fuzz/fuzz_$t"
}

# ---- the corpus, grown once and converted ----
if [ ! -s "$work/corpus-new.done" ]; then
	say "growing the corpus: the old libFuzzer target, -seed=1 -runs=$grow"
	rm -rf "$work/corpus-old" "$work/corpus-new" "$work/corpus-text"
	mkdir -p "$work/corpus-old" "$work/corpus-new" "$work/corpus-text"
	cp "$oldsrc"/build/corpus/mm/*.bin "$work/corpus-old/"
	make -s -C "$oldsrc" -j2 ENGINE=libfuzzer SANITIZER=address,undefined fuzz-bins >> "$log" 2>&1
	"$(bin old libfuzzer)" -seed=1 -runs="$grow" -dict="$oldsrc/fuzz/mm.dict" \
		"$work/corpus-old" >> "$log" 2>&1 || true
	say "converting $(ls "$work/corpus-old" | wc -l) programs to this tree's format"
	bad=0
	for f in "$work"/corpus-old/*; do
		n=$(basename "$f")
		"$oldsrc/build/mmfuzz" decode "$f" 2>/dev/null |
			sed -e 's/exec_op:point(migrate)/do_migrate:point(migrate)/' \
			    -e 's/exec_op:preempt_enable()/do_drain_local:preempt_enable()/' \
			> "$work/corpus-text/$n.mmf"
		build/mmfuzz encode "$work/corpus-text/$n.mmf" -o "$work/corpus-new/$n" \
			>> "$log" 2>&1 || { bad=$((bad + 1)); cp "$f" "$work/corpus-new/$n"; }
	done
	[ $bad = 0 ] || say "$bad programs did not convert (kept as bytes)"
	ls "$work/corpus-new" | wc -l > "$work/corpus-new.done"
fi

# ---- the other targets' corpora: this tree's target grows its own seeds ----
make -s -j2 corpus >> "$log" 2>&1
make -s -j2 ENGINE=libfuzzer SANITIZER=address,undefined fuzz-bins >> "$log" 2>&1
for t in $targets; do
	[ ! -s "$work/corpus-$t.done" ] || continue
	say "growing the $t corpus: this tree's libFuzzer target, -seed=1 -runs=$grow"
	rm -rf "$work/corpus-$t"
	mkdir -p "$work/corpus-$t"
	cp build/corpus/"$t"/*.bin "$work/corpus-$t/"
	"$(bin "$t" libfuzzer)" -seed=1 -runs="$grow" -dict=fuzz/mm.dict \
		"$work/corpus-$t" >> "$log" 2>&1 || true
	ls "$work/corpus-$t" | wc -l > "$work/corpus-$t.done"
done

# ---- rounds ----
rate() {	# rate old|new|same|TARGET ENGINE ROUND: executions per second
	local side=$1 e=$2 r=$3 dir=$work/run-$1-$2 b c=$1
	b=$(bin "$side" "$e")
	[ "$side" != same ] || c=old
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -r "$work/corpus-$c" "$dir/in"
	if [ "$e" = libfuzzer ]; then
		# shellcheck disable=SC2046
		"$b" $(opts "$side") -seed="$r" -max_total_time="$secs" -print_final_stats=1 \
			-artifact_prefix="$dir/" "$dir/in" > "$dir/log" 2>&1 || true
		if grep -q '^MMFUZZ-SIGNATURE: ' "$dir/log"; then
			# a finding stops libFuzzer: on a corpus without bug switches
			# that is a false positive, which the figure must not hide
			say "$side $e round $r stopped at a finding: $(sed -n 's/^MMFUZZ-SIGNATURE: //p' "$dir/log" | head -1) (see $dir/log)"
			echo 0
			return
		fi
		sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log"
	else
		AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_FAST_CAL=1 \
		AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_SUPPRESS_WARNINGS=1 \
		AFL_SKIP_CRASHES=1 AFL_IGNORE_SEED_PROBLEMS=1 \
			afl-fuzz -i "$dir/in" -o "$dir/out" -s "$r" -V "$secs" -m none -- "$b" \
			> "$dir/log" 2>&1 || true
		sed -n 's/^execs_per_sec *: *//p' "$dir/out/default/fuzzer_stats" 2>/dev/null |
			cut -d. -f1
	fi
}
median() { sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }'; }
say "$rounds rounds of $secs s per side and engine, old and new alternating (corpus: $(cat "$work/corpus-new.done") programs)"
for e in $engines; do
	: > "$work/$e.old"
	: > "$work/$e.new"
	: > "$work/$e.same"
	for t in $targets; do : > "$work/$e.$t"; done
	for r in $(seq 1 "$rounds"); do
		rate old "$e" "$r" >> "$work/$e.old"
		rate new "$e" "$r" >> "$work/$e.new"
		[ "$e" != libfuzzer ] || rate same "$e" "$r" >> "$work/$e.same"
		for t in $targets; do rate "$t" "$e" "$r" >> "$work/$e.$t"; done
	done
	o=$(median < "$work/$e.old")
	n=$(median < "$work/$e.new")
	echo "$e exec/s new: $n old: $o ratio: $(awk -v n="$n" -v o="$o" 'BEGIN { printf "%.2f", o ? n / o : 0 }')" \
	     "(rounds new: $(paste -sd' ' "$work/$e.new"); old: $(paste -sd' ' "$work/$e.old"))"
	if [ "$e" = libfuzzer ]; then
		m=$(median < "$work/$e.same")
		echo "$e exec/s new: $n old, same engine options: $m ratio: $(awk -v n="$n" -v o="$m" 'BEGIN { printf "%.2f", o ? n / o : 0 }')" \
		     "(rounds: $(paste -sd' ' "$work/$e.same"); options: $(opts new | paste -sd' ' -))"
	fi
	for t in $targets; do
		x=$(median < "$work/$e.$t")
		echo "$e exec/s $t: $x mm: $n ratio $t/mm: $(awk -v x="$x" -v n="$n" 'BEGIN { printf "%.2f", n ? x / n : 0 }')" \
		     "(rounds $t: $(paste -sd' ' "$work/$e.$t"); corpus: $(cat "$work/corpus-$t.done") programs)"
	done
done
