#!/bin/bash
# SPDX-License-Identifier: MIT
# make bench-exec: executions per second of every program fuzz target
# (ASan+UBSan) under libFuzzer and AFL++, each beside its engine's floor
# measured in the same run: the same binary, engine, options, dictionary,
# coverage and interleaving maps with MMFUZZ_FLOOR=1, where the harness
# decodes each input and runs nothing (fuzz/fuzz_prog.c).  The floor is the
# limit; target/floor is the figure to improve.  Then where an execution's
# time goes, from perf samples of the target: the model (src/mm, src/kernel,
# src/bugs, src/world), its fibers and scheduler (src/sched), the checkers (src/check),
# the executor and harness (src/prog, fuzz/), the engine, the sanitizer
# runtime, libc and the kernel.
#
#   bench/bench_exec.sh [-t SECONDS] [-r ROUNDS] [-e "libfuzzer afl"]
#                       [-g "TARGETS"] [-n GROW_RUNS] [-p PERF_SECONDS]
#                       [-o REV] [-w DIR] [-m PAGE]
#
# TARGETS: default every program target (mmfuzz targets --programs).
# The corpus of each target: its shipped seeds (build/corpus/<target>), or
# with -n N those grown once by its libFuzzer target (-seed=1 -runs=N, kept
# in DIR).  Each round runs target and floor from a fresh copy of it, one
# after the other; the figures are the medians of the rounds.  libFuzzer
# gets the target's options file (fuzz/fuzz_<target>.options, as a campaign
# runs it) and fuzz/mm.dict; AFL++ the dictionary.
#
# -o REV: also the same targets built from commit REV (a worktree of it in
# DIR, built once), on REV's own seeds, with the ratio this/REV (issue 20
# asks every target within 10% of ffa4832); and this tree on REV's seeds
# (REV's text seeds encoded by this tree's mmfuzz: bench/rev_seeds.sh, as
# bench/bench_icount.sh runs them), so a ratio on the
# same programs stands beside the one on each tree's own corpus.  A target
# REV does not have gets "-".  Without perf, -p 0 or a perf that cannot
# sample, the shares are "-".
#
# The page: PAGE (default docs/measurements/bench-exec.md), written
# atomically, with the command, commit, date, machine, load and the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
secs=30 rounds=3 engines="libfuzzer afl" targets="" grow=0 psecs=10 old="" work=build/bench-exec
page=docs/measurements/bench-exec.md
cmdline="bench/bench_exec.sh $*"
while getopts "t:r:e:g:n:p:o:w:m:" o; do
	case $o in
	t) secs=$OPTARG ;; r) rounds=$OPTARG ;; e) engines=$OPTARG ;; g) targets=$OPTARG ;;
	n) grow=$OPTARG ;; p) psecs=$OPTARG ;; o) old=$OPTARG ;; w) work=$OPTARG ;; m) page=$OPTARG ;;
	*) echo "usage: $0 [-t S] [-r N] [-e ENGINES] [-g TARGETS] [-n RUNS] [-p S] [-o REV] [-w DIR] [-m PAGE]" >&2
	   exit 2 ;;
	esac
done
for v in "$secs" "$rounds" "$grow" "$psecs"; do
	case $v in '' | *[!0-9]*) echo "bench-exec: -t, -r, -n, -p take numbers" >&2; exit 2 ;; esac
done
[ "$secs" -gt 0 ] && [ "$rounds" -gt 0 ] || { echo "bench-exec: -t and -r at least 1" >&2; exit 2; }
for e in $engines; do
	case $e in libfuzzer | afl) ;; *) echo "bench-exec: unknown engine '$e'" >&2; exit 2 ;; esac
done
mkdir -p "$work"
work=$(cd "$work" && pwd)
log=$work/bench-exec.log
: > "$log"
say() { echo "bench-exec: $*" >&2; }
load0=$(cut -d' ' -f1-3 /proc/loadavg)

make -s -j2 build/mmfuzz corpus >> "$log" 2>&1
[ -n "$targets" ] || targets=$(build/mmfuzz targets --programs | paste -sd' ' -)
for t in $targets; do
	build/mmfuzz targets --programs | grep -qxF "$t" ||
		{ echo "bench-exec: no program target '$t' (mmfuzz targets)" >&2; exit 2; }
done
for e in $engines; do
	say "building the $e targets"
	make -s -j2 ENGINE=$e SANITIZER=address,undefined fuzz-bins >> "$log" 2>&1
done

# ---- REV, on request ----
oldsrc=""
if [ -n "$old" ]; then
	oldsrc=$work/rev-$old
	if [ ! -x "$oldsrc/build/mmfuzz" ]; then
		say "building $old in $oldsrc (once)"
		rm -rf "$oldsrc"
		mkdir -p "$oldsrc"
		git archive "$old" | tar -x -C "$oldsrc"
		make -s -C "$oldsrc" -j2 build/mmfuzz corpus >> "$log" 2>&1
	fi
	for e in $engines; do
		make -s -C "$oldsrc" -j2 ENGINE=$e SANITIZER=address,undefined fuzz-bins >> "$log" 2>&1
	done
fi

opts() {	# opts ROOT TARGET: the libFuzzer options the tree ships for it
	[ -f "$1/fuzz/fuzz_$2.options" ] || return 0
	awk '/^\[/ { s = ($0 == "[libfuzzer]"); next }
	     s && /=/ && !/^[ \t]*[#;]/ { gsub(/[ \t]/, ""); print "-" $0 }' "$1/fuzz/fuzz_$2.options"
}
bin() { echo "$1/build-fuzz-$3-address-undefined/fuzz/fuzz_$2"; }	# bin ROOT TARGET ENGINE

# ---- the corpora ----
for t in $targets; do
	if [ "$grow" = 0 ]; then
		rm -rf "$work/corpus-$t"
		mkdir -p "$work/corpus-$t"
		cp build/corpus/"$t"/*.bin "$work/corpus-$t/"
	elif [ "$(cat "$work/corpus-$t.grown" 2> /dev/null)" != "$grow" ]; then
		say "growing the $t corpus: its libFuzzer target, -seed=1 -runs=$grow"
		rm -rf "$work/corpus-$t"
		mkdir -p "$work/corpus-$t"
		cp build/corpus/"$t"/*.bin "$work/corpus-$t/"
		make -s -j2 ENGINE=libfuzzer SANITIZER=address,undefined fuzz-bins >> "$log" 2>&1
		# shellcheck disable=SC2046
		"$(bin "$root" "$t" libfuzzer)" $(opts "$root" "$t") -seed=1 -runs="$grow" \
			-dict=fuzz/mm.dict "$work/corpus-$t" >> "$log" 2>&1 || true
		echo "$grow" > "$work/corpus-$t.grown"
	fi
	if [ -n "$oldsrc" ]; then
		rm -rf "$work/corpus-rev-$t" "$work/corpus-same-$t"
		mkdir -p "$work/corpus-rev-$t"
		cp "$oldsrc"/build/corpus/"$t"/*.bin "$work/corpus-rev-$t/" 2> /dev/null || true
		bench/rev_seeds.sh "$oldsrc" "$t" "$work/corpus-same-$t" "$log" "$work/dropped.txt"
	fi
done

# ---- one run ----
run() {	# run ROOT TARGET ENGINE FLOOR(0|1) ROUND CORPUS SECONDS [PERF.data]: exec/s
	local r=$1 t=$2 e=$3 fl=$4 rd=$5 corpus=$6 s=$7 pd=${8:-} b dir pre=()
	b=$(bin "$r" "$t" "$e")
	dir=$work/run-$e-$t-$fl
	[ -x "$b" ] && [ -d "$corpus" ] && [ -n "$(ls "$corpus")" ] || { echo 0; return; }
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -r "$corpus" "$dir/in"
	[ -z "$pd" ] || pre=(perf record -q -F 499 -o "$pd" --)
	if [ "$e" = libfuzzer ]; then
		# shellcheck disable=SC2046
		MMFUZZ_FLOOR=$fl "${pre[@]}" "$b" $(opts "$r" "$t") -dict="$r/fuzz/mm.dict" -seed="$rd" \
			-max_total_time="$s" -print_final_stats=1 -artifact_prefix="$dir/" "$dir/in" \
			> "$dir/log" 2>&1 || true
		if grep -q '^MMFUZZ-SIGNATURE: ' "$dir/log"; then
			# a finding stops libFuzzer: on the clean model that is a false
			# positive, which the figure must not hide
			say "$t $e round $rd stopped at a finding: $(sed -n 's/^MMFUZZ-SIGNATURE: //p' "$dir/log" | head -1) (see $dir/log)"
			echo 0
			return
		fi
		sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -1
	else
		MMFUZZ_FLOOR=$fl AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_FAST_CAL=1 \
		AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_SUPPRESS_WARNINGS=1 \
		AFL_SKIP_CRASHES=1 AFL_IGNORE_SEED_PROBLEMS=1 \
			"${pre[@]}" afl-fuzz -i "$dir/in" -o "$dir/out" -s "$rd" -V "$s" -m none -t 10000 \
			-x "$r/fuzz/mm.dict" -- "$b" > "$dir/log" 2>&1 || true
		# the average over the run, as libFuzzer's figure (AFL++'s
		# execs_per_sec is of its last minutes)
		awk '$1 == "execs_done" { n = $3 } $1 == "run_time" { t = $3 }
		     END { printf("%d\n", (t > 0 ? n / t : 0)) }' "$dir/out/default/fuzzer_stats" 2> /dev/null || echo 0
	fi
}
median() { sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }'; }

# ---- where the time goes: perf samples by the source file of their symbol ----
have_perf=0
if [ "$psecs" -gt 0 ] && command -v perf > /dev/null 2>&1 &&
	perf record -q -F 499 -o "$work/probe.data" -- true > /dev/null 2>&1; then
	have_perf=1
fi
shares() {	# shares BINARY PERF.data: model fibers checkers harness engine sanitizer libc kernel other (%)
	local b=$1 pd=$2
	[ -s "$pd" ] || { echo "- - - - - - - - -"; return; }
	[ -s "$b.symfiles" ] && [ "$b.symfiles" -nt "$b" ] ||
		nm -C -l --defined-only "$b" 2> /dev/null | awk -F'\t' 'NF == 2 {
			split($1, a, " "); name = substr($1, length(a[1]) + length(a[2]) + 3)
			f = $2; sub(/:[0-9]+$/, "", f)
			while (sub(/[^\/]+\/\.\.\//, "", f)) ;
			print name "\t" f }' > "$b.symfiles"
	perf report -i "$pd" --stdio --no-children --sort dso,sym -F overhead,dso,sym 2> /dev/null |
	awk -v map="$b.symfiles" -v bname="$(basename "$b")" '
	BEGIN { FS = "\t"; while ((getline l < map) > 0) { split(l, p, "\t"); file[p[1]] = p[2] } FS = " " }
	/^#/ || NF < 4 { next }
	{
		pct = $1; sub(/%/, "", pct); dso = $2
		s = $0; sub(/^[^\]]*\] /, "", s)	# the symbol, after "[.] "
		f = file[s]; c = "other"
		if (dso ~ /^\[kernel/) c = "kernel"
		else if (dso ~ /^lib(c|m|pthread)[.-]|^ld-linux/) c = "libc"
		else if (dso ~ /afl-fuzz/) c = "engine"
		else if (f ~ /\/src\/(mm|kernel|bugs|world)\//) c = "model"
		else if (f ~ /\/src\/sched\// || s ~ /^mmfuzz_ctx|^fiber_/) c = "fibers"
		else if (f ~ /\/src\/check\//) c = "checkers"
		else if (f ~ /\/src\/prog\// || f ~ /\/fuzz\/[^\/]*$/ || s ~ /^LLVMFuzzer/) c = "harness"
		else if (s ~ /^(__asan|__ubsan|__sanitizer|__lsan|__interception|__interceptor|__tsan)/ || f ~ /lib\/(asan|ubsan|sanitizer_common|lsan|interception)\//) c = "sanitizer"
		else if (s ~ /^fuzzer::|^__afl|^afl_|^__sanitizer_cov/ || f ~ /lib\/fuzzer\/|aflpp_driver|afl-compiler-rt/) c = "engine"
		else if (dso != bname) c = "libc"
		sum[c] += pct; tot += pct
	}
	END {
		n = split("model fibers checkers harness engine sanitizer libc kernel other", k, " ")
		for (i = 1; i <= n; i++) printf("%s%.0f", (i > 1 ? " " : ""), (tot ? 100 * sum[k[i]] / tot : 0))
		printf "\n"
	}'
}

# ---- rounds ----
say "$rounds round(s) of ${secs}s per target, engine and side (target, floor$([ -z "$old" ] || echo ", $old")); targets: $targets"
rows=$work/rows
: > "$rows"
for e in $engines; do
	for t in $targets; do
		: > "$work/$e.$t.target"
		: > "$work/$e.$t.floor"
		: > "$work/$e.$t.rev"
		: > "$work/$e.$t.same"
		for rd in $(seq 1 "$rounds"); do
			run "$root" "$t" "$e" 0 "$rd" "$work/corpus-$t" "$secs" >> "$work/$e.$t.target"
			run "$root" "$t" "$e" 1 "$rd" "$work/corpus-$t" "$secs" >> "$work/$e.$t.floor"
			[ -z "$oldsrc" ] || [ ! -x "$(bin "$oldsrc" "$t" "$e")" ] || {
				run "$oldsrc" "$t" "$e" 0 "$rd" "$work/corpus-rev-$t" "$secs" >> "$work/$e.$t.rev"
				run "$root" "$t" "$e" 0 "$rd" "$work/corpus-same-$t" "$secs" >> "$work/$e.$t.same"
			}
		done
		x=$(median < "$work/$e.$t.target")
		f=$(median < "$work/$e.$t.floor")
		v=- same=-
		[ ! -s "$work/$e.$t.rev" ] || v=$(median < "$work/$e.$t.rev")
		[ ! -s "$work/$e.$t.same" ] || same=$(median < "$work/$e.$t.same")
		sh="- - - - - - - - -"
		if [ $have_perf = 1 ]; then
			run "$root" "$t" "$e" 0 1 "$work/corpus-$t" "$psecs" "$work/perf-$e-$t.data" > /dev/null
			sh=$(shares "$(bin "$root" "$t" "$e")" "$work/perf-$e-$t.data")
		fi
		echo "$t $e ${x:-0} ${f:-0} ${v:--} $sh $(paste -sd, "$work/$e.$t.target") $(paste -sd, "$work/$e.$t.floor") $same" >> "$rows"
		say "$e $t: $x exec/s, floor $f$([ -z "$oldsrc" ] || echo ", $old $v, this on $old's seeds $same")"
	done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- the table, on stdout and on the page ----
table() {
	awk -v old="$old" '
	function ratio(a, b) { return b > 0 ? sprintf("%.3f", a / b) : "-" }
	BEGIN {
		printf "| target | engine | exec/s | floor exec/s | target/floor |%s model %% | fibers %% | checkers %% | harness %% | engine %% | sanitizer %% | libc %% | kernel %% | other %% | rounds (target; floor) |\n",
			(old != "" ? " " old " exec/s | this/" old " | this on " old "\047s seeds | same seeds this/" old " |" : "")
		printf "|---|---|---:|---:|---:|%s---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n", (old != "" ? "---:|---:|---:|---:|" : "")
	}
	{
		printf "| %s | %s | %d | %d | %s |", $1, $2, $3, $4, ratio($3, $4)
		if (old != "") printf " %s | %s | %s | %s |", $5, $5 == "-" ? "-" : ratio($3, $5),
			$17, ($17 == "-" || $5 == "-") ? "-" : ratio($17, $5)
		for (i = 6; i <= 14; i++) printf " %s |", $i
		printf " %s; %s |\n", $15, $16
	}' "$rows"
}
table

mkdir -p "$(dirname "$page")"
tmp=$(mktemp "$(dirname "$page")/.bench-exec.XXXXXX")
{
	echo "# make bench-exec"
	echo
	echo "Written by \`bench/bench_exec.sh\` (\`make bench-exec\`); do not edit by hand."
	echo
	echo "- command: \`$cmdline\`"
	echo "- commit: $(git describe --always --dirty --abbrev=12 2> /dev/null || echo unknown)"
	echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name[ \t]*: //p' /proc/cpuinfo | head -1)"
	echo "- load average (1, 5, 15 min): $load0 at the start, $load1 at the end"
	echo "- parameters: $rounds round(s) of ${secs}s per target, engine and side; engines: $engines;" \
	     "corpus: $([ "$grow" = 0 ] && echo "the shipped seeds (build/corpus/TARGET)" || echo "the seeds grown by -runs=$grow");" \
	     "shares: $([ $have_perf = 1 ] && echo "perf record -F 499 over ${psecs}s of the target" || echo "no perf")" \
	     "$([ -z "$old" ] || echo "; against $old on its own seeds, and this tree on $old's seeds encoded by this tree")"
	echo
	echo "exec/s: the median of the rounds (libFuzzer's average_exec_per_sec, AFL++'s"
	echo "execs_done / run_time: both the average over the whole run, start-up included).  The floor is the same binary, engine, options and maps with"
	echo "MMFUZZ_FLOOR=1: each input decoded, nothing run; target/floor is the share of"
	echo "the engine's own limit a target reaches, the figure to improve.  The shares"
	echo "are of the perf samples of a target run, by the source file of the sampled"
	echo "function: model (src/mm, src/kernel, src/bugs, src/world), fibers (src/sched), checkers"
	echo "(src/check), harness (src/prog, fuzz/), engine (libFuzzer, AFL++ and its"
	echo "driver, afl-fuzz itself), sanitizer (the ASan/UBSan runtime), libc, kernel,"
	echo "other (what has no source file and no known name)."
	echo "Other processes shared the CPUs when the load average is above $(nproc)."
	echo
	table
} > "$tmp"
mv -f "$tmp" "$page"
say "the page: $page"
