#!/bin/bash
# The header's mms from the command line: seed 001's predecessor with its
# two threads named in the header finds the bug, the same program with T2
# in an mm of its own does not, and minimize keeps the header valid when
# it drops a task between the two threads (the mms renumbered with the
# tasks).
. tests/lib/tap.sh
plan 5
cat > "$TMP/hdr.mmf" <<'PROG'
mmfuzz 1
cpus: 2
mms: T0 T2, T1
bugs: tlb_nested_flush_miss
expect: violation I-TLB-3@tlb_finish_mmu

task T0 cpu=0
  r0 = mmap pages=4
  access r0 page=0 write=1
  access r0 page=1 write=1
  madvise_dontneed r0 pages=2
task T1 cpu=0
  r1 = mmap pages=2
  access r1 page=0 write=1
task T2 cpu=1
  access r0 page=0
  access r0 page=1 write=1
  madvise_dontneed r0 pages=2

schedule: fallback=none
  at start -> T0
  at T0.3 op(madvise_dontneed) #1 -> T2
  at T2.2 zap_pte_range:spin_unlock(ptl) #1 -> T0
PROG
"$MMFUZZ" run -q --expect "$TMP/hdr.mmf" > /dev/null 2>&1
ok $? "mms: T0 T2, T1: T0 and T2 are threads of one process, the nested gather's missed flush is found"
sed -e 's/^mms: T0 T2, T1$/mms: T0, T1, T2/' -e 's/^expect: .*/expect: clean/' "$TMP/hdr.mmf" > "$TMP/apart.mmf"
grep -q '^mms: T0, T1, T2$' "$TMP/apart.mmf" && "$MMFUZZ" run -q --expect "$TMP/apart.mmf" > /dev/null 2>&1
ok $? "mms: T0, T1, T2: three processes, T2's madvise is in its own mm, nothing to miss"
"$MMFUZZ" minimize "$TMP/hdr.mmf" -o "$TMP/min.mmf" > "$TMP/mo" 2>&1
grep -qE 'tasks 2 \(from 3\)' "$TMP/mo"
ok $? "minimize drops T1 ($(grep -o 'ops.*' "$TMP/mo" | head -1))"
grep -qx 'mms: T0 T1' "$TMP/min.mmf"
ok $? "the minimized header names the two threads as T0 T1"
diag "$(sed -n '/^mms/p;/^task/,$p' "$TMP/min.mmf")"
"$MMFUZZ" run -q --expect "$TMP/min.mmf" > /dev/null 2>&1
ok $? "and the minimized program parses and keeps the signature"
finish
