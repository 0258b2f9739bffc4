#!/bin/bash
# Deferred init's operations (src/prog/ops_deferred.c): the target in the
# registry and in `all`; every seed of corpus/deferred round-trips through
# the binary form (encode, decode, encode: the same bytes, the same run);
# bad text about the layer is FILE:LINE:COL, exit 2; every operation runs
# clean in a deferred world and in one with nothing deferred; hotplug does
# nothing while the init is pending; wait_init_done alone is the boot's
# own page_alloc_init_late, boot_deferred a kthread the program races.
. tests/lib/tap.sh
seeds=(corpus/deferred/*.mmf)
plan $((16 + 2 * ${#seeds[@]}))

"$MMFUZZ" targets > "$TMP/t"
grep -Eq '^deferred +layers pagealloc,kernel,deferred ' "$TMP/t"
ok $? "mmfuzz targets: deferred, with the pagealloc, kernel and deferred layers"
"$MMFUZZ" targets -v > "$TMP/tv"
for op in boot_deferred wait_init_done; do
	awk -v op="$op" '/^[a-z]/ { cur = $1; next } $2 == op { print cur }' "$TMP/tv" | sort | tr '\n' ' ' > "$TMP/in"
	[ "$(cat "$TMP/in")" = "all deferred mm " ]
	ok $? "$op is in the targets all, deferred and mm (through the registry: $(cat "$TMP/in"))"
done

for f in "${seeds[@]}"; do
	n=$(basename "$f")
	"$MMFUZZ" run -q --expect "$f" > "$TMP/out" 2>&1
	ok $? "$n: meets its expect: line" || diag "$(cat "$TMP/out")"
	"$MMFUZZ" encode "$f" -o "$TMP/a.bin" 2> /dev/null &&
		"$MMFUZZ" decode --target deferred "$TMP/a.bin" > "$TMP/a.mmf" 2> /dev/null &&
		"$MMFUZZ" encode "$TMP/a.mmf" -o "$TMP/b.bin" 2> /dev/null &&
		cmp -s "$TMP/a.bin" "$TMP/b.bin" &&
		h1=$("$MMFUZZ" run --json "$f" | sed -E 's/.*"trace_hash":"([0-9a-f]+)".*/\1/') &&
		h2=$("$MMFUZZ" run --json "$TMP/a.mmf" | sed -E 's/.*"trace_hash":"([0-9a-f]+)".*/\1/') &&
		[ -n "$h1" ] && [ "$h1" = "$h2" ]
	ok $? "$n: round trip text -> binary -> text -> binary, the same bytes and trace hash ($h1)"
done

# bad text about the layer: FILE:LINE:COL, exit 2, nothing runs
bad() {	# bad WANT LINE...: the program of those lines after a header
	local want=$1
	shift
	{ printf 'mmfuzz 1\ncpus: 2\n\ntask T0 cpu=0\n'; printf '%s\n' "$@"; } > "$TMP/bad.mmf"
	"$MMFUZZ" run "$TMP/bad.mmf" > "$TMP/o" 2> "$TMP/e"; rc=$?
	[ $rc = 2 ] && grep -q "^$TMP/bad.mmf:$want" "$TMP/e" && [ ! -s "$TMP/o" ]
}
bad "6:17: boot_deferred has no argument 'now'" "  h0 = alloc_pages order=0 mt=movable" "  boot_deferred now=1"
ok $? "boot_deferred now=1: FILE:LINE:COL, exit 2" || diag "exit $rc: $(cat "$TMP/e")"
bad "5:7: wait_init_done cannot run in interrupt context" "  irq wait_init_done"
ok $? "irq wait_init_done: FILE:LINE:COL, exit 2" || diag "exit $rc: $(cat "$TMP/e")"
bad "5:3: boot_deferred gives no handle" "  h0 = boot_deferred"
ok $? "h0 = boot_deferred: FILE:LINE:COL, exit 2" || diag "exit $rc: $(cat "$TMP/e")"
# the layer's config keys in the header
badhdr() {	# badhdr WANT LINE: that header line after cpus:
	{ printf 'mmfuzz 1\ncpus: 2\n%s\n\ntask T0 cpu=0\n  boot_deferred\n' "$2"; } > "$TMP/bad.mmf"
	"$MMFUZZ" run "$TMP/bad.mmf" > "$TMP/o" 2> "$TMP/e"; rc=$?
	[ $rc = 2 ] && grep -q "^$TMP/bad.mmf:$1" "$TMP/e" && [ ! -s "$TMP/o" ]
}
badhdr "3:16: section_shift must be between 0 and 6, not 9" "section_shift: 9"
ok $? "section_shift: 9 (a section past 64 MAX_ORDER blocks): FILE:LINE:COL, exit 2" || diag "exit $rc: $(cat "$TMP/e")"
badhdr "3:33: unknown deferred_page_init_max_threads 'bogus' (one, node_cpus)" "deferred_page_init_max_threads: bogus"
ok $? "deferred_page_init_max_threads: bogus: FILE:LINE:COL, exit 2" || diag "exit $rc: $(cat "$TMP/e")"
badhdr "3:17: memblock_holes must be between 0 and 65535, not 65536" "memblock_holes: 65536"
ok $? "memblock_holes: 65536 (a byte a node, two nodes): FILE:LINE:COL, exit 2" || diag "exit $rc: $(cat "$TMP/e")"

# Every operation clean in a world with nothing deferred (the default
# config): boot_deferred's kthread only turns the key off, a second one
# does nothing, waits from two tasks, and IRQ-context allocations beside.
cat > "$TMP/plain.mmf" <<'PROG'
mmfuzz 1
cpus: 2
expect: clean

task T0 cpu=0
  boot_deferred
  h0 = alloc_pages order=0 mt=movable
  boot_deferred
  wait_init_done
  free_pages h0
task T1 cpu=1
  h1 = irq alloc_pages order=0 mt=unmovable
  wait_init_done
  irq free_pages h1
  wait_init_done
PROG
"$MMFUZZ" run -q --expect "$TMP/plain.mmf" > "$TMP/out" 2>&1
ok $? "nothing deferred: every operation clean, twice each" || diag "$(cat "$TMP/out")"
# kernel_init is the kthread after the program's two tasks (T2): it runs
# page_alloc_init_late, the program's T0 goes on meanwhile
"$MMFUZZ" run --trace "$TMP/plain.mmf" > "$TMP/tr" 2>&1
[ "$(grep -c 'op(boot_deferred)' "$TMP/tr")" = 2 ] &&
	[ "$(grep ' kernel_init_kthread:complete' "$TMP/tr" | awk '{ print $2 }' | sort -u)" = T2 ] &&
	grep -qE '^ +[0-9]+  T2 cpu0 ' "$TMP/tr"
ok $? "boot_deferred starts one kthread (kernel_init, T2), the second does nothing" ||
	diag "$(grep -E 'boot_def|  T2 ' "$TMP/tr" | head)"

# With nothing deferred hotplug is allowed: CPU 0 down before boot_deferred
# puts kernel_init on the first online CPU (it would never run on CPU 0;
# the deferred campaign found that as a deadlock on pgdat_init_all_done_comp)
cat > "$TMP/down.mmf" <<'PROG'
mmfuzz 1
cpus: 2
expect: clean

task T0 cpu=0
  cpu_down cpu=0
  boot_deferred
task T1 cpu=1
  wait_init_done

schedule: fallback=none
PROG
"$MMFUZZ" run -q --expect "$TMP/down.mmf" > "$TMP/out" 2>&1
ok $? "CPU 0 down, then boot_deferred: kernel_init runs on CPU 1, the wait ends" || diag "$(head -3 "$TMP/out")"

# The deferred seeds: both operations, pgdatinit%d on both nodes (two
# tasks take pgdat_resize_lock in deferred_init_memmap), padata helpers
# (a task runs padata_mt_helper that is no pgdatinit), and
# deferred_grow_zone from a program task.
"$MMFUZZ" run --trace "${seeds[@]}" > "$TMP/tr" 2>&1
awk '/^== / { f = $2 } { print f "\t" $0 }' "$TMP/tr" > "$TMP/trf"
per_file_tasks() {	# the most distinct tasks at site $1 in one file
	grep -F -- "$1" "$TMP/trf" | awk -F'\t' '{ split($2, w, " "); k[$1 " " w[2]] = 1 }
		END { for (x in k) { split(x, y, " "); n[y[1]]++ } m = 0; for (f in n) if (n[f] > m) m = n[f]; print m }'
}
init=$(per_file_tasks 'deferred_init_memmap:spin_lock')
helpers=$(per_file_tasks 'padata_mt_helper:spin_lock')
miss=""
for w in 'op(boot_deferred)' 'op(wait_init_done)' 'deferred_grow_zone:spin_lock'; do
	grep -qF -- "$w" "$TMP/tr" || miss="$miss $w"
done
[ -z "$miss" ] && [ "${init:-0}" -ge 2 ] && [ "${helpers:-0}" -gt "${init:-0}" ]
ok $? "the seeds reach both operations, pgdatinit on two nodes ($init tasks), padata helpers ($helpers tasks in padata_mt_helper), deferred_grow_zone" ||
	diag "missing:$miss"

# ... and every operation of the deferred target and every yield-point type
"$MMFUZZ" run --help > "$TMP/help"
miss=""
for op in $(awk '/^[a-z]/ { cur = $1; next } cur == "deferred" { print $2 }' "$TMP/tv"); do
	grep -qF "op($op)" "$TMP/tr" || miss="$miss $op"
done
for ty in $(sed -n '/^Yield points/{n;p}' "$TMP/help"); do
	grep -Eq "[ :]$ty\(" "$TMP/tr" || miss="$miss $ty"
done
[ -z "$miss" ] && [ "$(awk '/^[a-z]/ { cur = $1; next } cur == "deferred"' "$TMP/tv" | wc -l)" -ge 14 ]
ok $? "corpus/deferred reaches every operation of the target and every yield-point type${miss:+ (missing:$miss)}"

# wait_init_done with no boot_deferred: page_alloc_init_late in the task
# itself, no kernel_init kthread
f=$(grep -L "^  boot_deferred" "${seeds[@]}" | head -1)
# (kernel_init_kthread's body runs in a program task, no kthread)
[ -n "$f" ] && "$MMFUZZ" run --trace "$f" > "$TMP/tr" 2>&1 &&
	nt=$(grep -c '^task ' "$f") &&
	grep -q ' kernel_init_kthread:complete' "$TMP/tr" &&
	grep -E ' kernel_init_kthread:complete' "$TMP/tr" | awk -v nt="$nt" '{ sub("T", "", $2); if ($2 + 0 >= nt) bad = 1 } END { exit bad }' &&
	grep -q 'op(wait_init_done)' "$TMP/tr" && grep -q 'deferred_init_memmap:spin_lock' "$TMP/tr"
ok $? "wait_init_done alone is page_alloc_init_late in the task (${f:-no such seed})"

# CPU hotplug while the deferred_pages key is on does nothing (no 6.6 boot
# takes a CPU down then); after wait_init_done it takes the CPU down
hp=$(grep -l 'cpu_down' "${seeds[@]}" | head -1)
[ -n "$hp" ] && "$MMFUZZ" run --trace "$hp" > "$TMP/tr" 2>&1 &&
	awk '/op\(cpu_down\)/ { n++ } /:cpuhp\(/ { c[n]++ } END { exit !(n >= 2 && c[1] == 0 && c[2] > 0) }' "$TMP/tr"
ok $? "cpu_down during init: no cpuhp step; after wait_init_done: the teardowns run (${hp:-no such seed})"
finish
