#!/bin/bash
# The SLUB layer's operations from programs (docs/layer-slub.md): every seed
# of corpus/slub round-trips through text and binary and runs clean; the
# seeds reach every operation of the layer; the header's caches line is
# parsed and printed back, malformed ones are FILE:LINE:COL and exit 2; a
# handle that is gone folds onto a live object handle or does nothing;
# binary bytes of any value decode to a program that runs.
. tests/lib/tap.sh
plan 13

# every seed: decode's canonical text decodes to itself, and its binary to
# it (aim: is no part of the binary form)
bad=""
for f in corpus/slub/*.mmf; do
	"$MMFUZZ" decode "$f" > "$TMP/a.mmf" 2> /dev/null &&
		"$MMFUZZ" decode "$TMP/a.mmf" > "$TMP/b.mmf" 2> /dev/null &&
		cmp -s "$TMP/a.mmf" "$TMP/b.mmf" &&
		"$MMFUZZ" encode "$f" -o "$TMP/a.bin" 2> /dev/null &&
		"$MMFUZZ" decode "$TMP/a.bin" > "$TMP/c.mmf" 2> /dev/null &&
		grep -v '^aim: ' "$TMP/a.mmf" | cmp -s - "$TMP/c.mmf" || bad="$bad $f"
done
[ -z "$bad" ]; ok $? "corpus/slub: text and binary round trips${bad:+ (not:$bad)}"

"$MMFUZZ" run -q --expect corpus/slub/*.mmf > "$TMP/out" 2>&1
ok $? "corpus/slub: every seed runs clean" || diag "$(head -5 "$TMP/out")"

# every operation of the layer is reached by the seeds
"$MMFUZZ" run --trace corpus/slub/*.mmf > "$TMP/trace" 2>&1
"$MMFUZZ" targets -v > "$TMP/targets" 2>&1
missing=""
n=0
for op in kmem_cache_alloc kmem_cache_free kmalloc kfree kmem_cache_alloc_bulk \
	kmem_cache_free_bulk kfree_rcu rcu_lookup slabinfo slab_validate kmem_cache_shrink \
	kmem_cache_destroy; do
	n=$((n + 1))
	grep -q "op($op)" "$TMP/trace" || missing="$missing $op"
done
[ -z "$missing" ] && [ $n = 12 ]
ok $? "the seeds reach the layer's 12 operations${missing:+ (missing:$missing)}"
for site in "__slab_free:" "put_cpu_partial:local_lock" "get_partial_node:spin_lock(n->list_lock)" \
	"flush_all_cpus_locked:point(flush_cpu_slab)" "kvfree_call_rcu:" "rcu_lookup" \
	"__slab_alloc_node:cmpxchg_double" "do_slab_free:cmpxchg_double" \
	"kvfree_call_rcu:synchronize_rcu()" "slab_lock:bit_spin_lock(slab_lock)" \
	"queue_rcu_work:call_rcu(" "krc_kthread_fn:kthread(" "count_partial:racy_read(n->partial.next)"; do
	grep -qF "$site" "$TMP/trace" || missing="$missing $site"
done
[ -z "$missing" ]
ok $? "... and the paths they are for: __slab_free, the CPU partial list, the node's list, flush_all on each CPU, kfree_rcu (its batches, kthread and inline fallback), readers, both fast paths, slab_lock, the slabinfo walk${missing:+ (missing:$missing)}"

# the caches line: parsed, printed in canonical form (an order equal to
# calculate_order's is the default), and the target lists the layer
printf 'mmfuzz 1\ncaches: 64 order=5, 24  typesafe_by_rcu  debug , 1024 order=10\ntask T0 cpu=0\n  s0 = kmem_cache_alloc cache=2\n  kfree s0\n' > "$TMP/h.mmf"
"$MMFUZZ" decode "$TMP/h.mmf" > "$TMP/h.out" 2>&1
grep -qx 'caches: 64, 24 debug typesafe_by_rcu, 1024 order=10' "$TMP/h.out"
ok $? "caches: parsed and printed canonically" || diag "$(cat "$TMP/h.out")"
grep -Eq '^slub +layers pagealloc,kernel,slub' "$TMP/targets"
ok $? "mmfuzz targets lists slub with its layers"

# malformed caches lines: FILE:LINE:COL and exit 2
bad=0
while IFS='|' read -r line want; do
	printf 'mmfuzz 1\n%s\ntask T0 cpu=0\n  s0 = kmalloc size=8\n' "$line" > "$TMP/bad.mmf"
	"$MMFUZZ" run "$TMP/bad.mmf" > /dev/null 2> "$TMP/err"; rc=$?
	[ $rc = 2 ] && grep -qF "$TMP/bad.mmf:2:$want" "$TMP/err" ||
		{ bad=1; diag "'$line': exit $rc: $(cat "$TMP/err")"; }
done <<'EOF'
caches: 4|9: cache size 4: expected 8..1024
caches: 2000|9: cache size 2000: expected 8..1024
caches: 64 order=2|18: order 2 for a 64-byte cache: expected 5..10
caches: 64 order=x|18: order: expected a number
caches: 64 huge|12: 'huge': expected order=N, debug or typesafe_by_rcu
caches: 8, 16, 24, 32, 40|24: more than 4 caches
caches: 8,|11: caches: a cache expected after ','
caches:|8: caches: expected a cache's size
caches: x|9: a cache's size: expected a number of bytes
EOF
[ $bad = 0 ]; ok $? "malformed caches lines: FILE:LINE:COL, the reason, exit 2"
# slub_debug (6.6's slub_debug=F or =FU for the debug caches): printed
# back, a value it has not is FILE:LINE:COL and exit 2
printf 'mmfuzz 1\nslub_debug: store_user\ncaches: 48 debug\ntask T0 cpu=0\n  s0 = kmem_cache_alloc\n' > "$TMP/su.mmf"
"$MMFUZZ" decode "$TMP/su.mmf" 2>&1 | grep -qx 'slub_debug: store_user' &&
	sed 's/store_user/FU/' "$TMP/su.mmf" > "$TMP/su_bad.mmf" &&
	{ "$MMFUZZ" run "$TMP/su_bad.mmf" > /dev/null 2> "$TMP/err"; [ $? = 2 ]; } &&
	grep -q "^$TMP/su_bad.mmf:2:13: " "$TMP/err"
ok $? "slub_debug: store_user printed back; slub_debug: FU is FILE:LINE:COL, exit 2" || diag "$(cat "$TMP/err")"
# malformed operations of the layer: FILE:LINE:COL and exit 2
bad=0
while IFS='|' read -r line want; do
	printf 'mmfuzz 1\ntask T0 cpu=0\n  %s\n' "$line" > "$TMP/badop.mmf"
	"$MMFUZZ" run "$TMP/badop.mmf" > /dev/null 2> "$TMP/err"; rc=$?
	[ $rc = 2 ] && grep -qF "$TMP/badop.mmf:3:$want" "$TMP/err" ||
		{ bad=1; diag "'$line': exit $rc: $(cat "$TMP/err")"; }
done <<'EOF2'
s0 = kmalloc size=257|21: size must be between 1 and 256, not 257
b0 = kmem_cache_alloc_bulk nr=9|33: nr must be between 1 and 8, not 9
s0 = kmem_cache_alloc cache=x|31: 'x' is not a number (cache)
kfree_rcu|12: kfree_rcu needs a handle
irq kmem_cache_alloc_bulk nr=2|7: kmem_cache_alloc_bulk cannot run in interrupt context
irq slabinfo|7: slabinfo cannot run in interrupt context
EOF2
[ $bad = 0 ]; ok $? "malformed operations of the layer (a size, nr or cache out of range, a missing handle, interrupt context where 6.6 forbids it): FILE:LINE:COL, exit 2"
printf 'mmfuzz 1\ncaches: 8\ncaches: 16\ntask T0 cpu=0\n  s0 = kmalloc size=8\n' > "$TMP/twice.mmf"
"$MMFUZZ" run "$TMP/twice.mmf" > /dev/null 2> "$TMP/err"; rc=$?
[ $rc = 2 ] && grep -qF "$TMP/twice.mmf:3:1: 'caches' given twice" "$TMP/err"
ok $? "caches given twice: FILE:LINE:COL, exit 2" || diag "exit $rc: $(cat "$TMP/err")"

# folding: s0 freed twice with s1 live frees s1 the second time (its free
# path runs); with nothing live a free does nothing; a lookup of a freed
# object finds its slot cleared and reads nothing
cat > "$TMP/fold.mmf" <<'EOF'
mmfuzz 1
caches: 24
task T0 cpu=0
  s0 = kmem_cache_alloc
  s1 = kmem_cache_alloc
  kmem_cache_free s0
  kmem_cache_free s0
  kfree s1
  rcu_lookup s1
EOF
"$MMFUZZ" run --trace "$TMP/fold.mmf" > "$TMP/ft" 2>&1; rc=$?
f3=$(awk '$4 == "op3" && /do_slab_free/' "$TMP/ft" | wc -l)
f4=$(awk '$4 == "op4" && /do_slab_free|__slab_free/' "$TMP/ft" | wc -l)
l5=$(awk '$4 == "op5" && /point\(rcu_lookup\)/' "$TMP/ft" | wc -l)
[ $rc = 0 ] && [ "$f3" -gt 0 ] && [ "$f4" = 0 ] && [ "$l5" = 0 ]
ok $? "a gone handle: the second free of s0 frees s1 (clean, no double free), a third does nothing, a lookup finds the freed object's slot empty" ||
	diag "exit $rc, op3 $f3, op4 $f4, op5 $l5: $(grep -m3 VIOL "$TMP/ft")"
cat > "$TMP/fold2.mmf" <<'EOF'
mmfuzz 1
caches: 24
task T0 cpu=0
  s0 = kmem_cache_alloc
  b0 = kmem_cache_alloc_bulk nr=3
  kmem_cache_free_bulk b0
  kmem_cache_free_bulk b0
  kmem_cache_destroy
  s1 = kmem_cache_alloc
task T1 cpu=1
  rcu_lookup s0
EOF
"$MMFUZZ" run --trace "$TMP/fold2.mmf" > "$TMP/ft2" 2>&1; rc=$?
f3=$(awk '$4 == "op3" && /_slab_free/' "$TMP/ft2" | wc -l)
[ $rc = 0 ] && [ "$f3" = 0 ]
ok $? "a bulk handle freed twice: the second does nothing; destroy with an object out is 6.6's leak, and the next allocation takes a kmalloc cache" ||
	diag "exit $rc, op3 $f3: $(grep -m3 VIOL "$TMP/ft2")"

# any bytes decode to a program of the layer that runs: random bytes as
# the slub target's binary (mmfuzz run --target)
fails=0
for s in 1 2 3 4 5 6 7 8; do
	head -c 300 /dev/urandom > "$TMP/r$s.bin"
	printf '\003' | dd of="$TMP/r$s.bin" bs=1 count=1 conv=notrunc 2> /dev/null
	"$MMFUZZ" run -q --target slub "$TMP/r$s.bin" > "$TMP/rout" 2>&1; rc=$?
	[ $rc = 0 ] || { fails=$((fails + 1)); cp "$TMP/r$s.bin" "/tmp/slub-t-r$s.bin"; diag "r$s: exit $rc: $(head -3 "$TMP/rout")"; }
done
[ $fails = 0 ]; ok $? "8 random binaries (v3) as the slub target: each decodes and runs clean"
finish
