#!/bin/bash
# I-ZAP and I-PROT fire: the seeds corpus/tlb/zap_reclaim_window.mmf and
# prot_reclaim_window.mmf put a MADV_DONTNEED and an mprotect inside
# try_to_unmap_one's clear, flush and put-back of a redirtied lazyfree
# page.  On the model both run clean (the PTE table lock makes each wait
# for reclaim); in a copy of the tree with that lock dropped from
# zap_pte_range (change_pte_range), make mutants' lock-drop@zap_pte_range#1
# (lock-drop@change_pte_range#1), the same seed ends in I-ZAP (I-PROT) at
# quiescence: the PTE came back behind the walk that skipped it.  And
# fault_race.mmf, two faults of one page, against the fault that checks
# and sets its PTE without that lock (lock-drop@do_anonymous_page#1):
# both install a page, the first is lost (I-CONS).  And reclaim_isolate_race.mmf,
# a zap inside reclaim's isolation of the page it found through its PTE,
# against that isolation without the lock (lock-drop@reclaim_anon_page#2):
# the zap frees the page, reclaim takes a reference on it and frees it
# again (I-PCP-1).  And range_edges.mmf,
# calls given the middle of a mapping, against a MADV_DONTNEED that runs
# to its VMA's end (clamp-drop@unmap_single_vma#2.1: I-RANGE), one that
# stops after the first VMA of its range (clamp-drop@madvise_walk_vmas#1.2:
# I-ZAP as it returns) and an mprotect that does (clamp-drop@
# do_mprotect_pkey#1.2: I-PROT, a VMA of its range left at the old flags).
# And ubc_cmpxchg_window.mmf against the reclaimer's tlb_flush_batched increment split into a load and
# a store (atomic-split@set_tlb_ubc_flush_pending#1), with the switch the
# seed makes before the increment moved between the two (the site the
# split adds, as the campaign's nudge moves it): the zap's cmpxchg succeeds
# over a deferred flush, and its zap of that page does not flush (I-TLB-4).
# And reclaim_lookup_unlink.mmf and reclaim_lookup_unlinked.mmf against
# reclaim's page lookup without the anon_vma rwsem or without its check
# for a linked VMA: munmap frees the PTE table reclaim holds the lock of.
# Each mutant is a build of its own: this runs once, in the plain pass.
. tests/lib/tap.sh
if [ "$BUILD" != build ]; then
	echo "1..0 # SKIP the mutants build their own copies: run once, in the plain pass"
	exit 0
fi
plan 28

for s in zap_reclaim_window prot_reclaim_window fault_race reclaim_isolate_race range_edges \
	ubc_cmpxchg_window reclaim_lookup_unlink reclaim_lookup_unlinked; do
	"$MMFUZZ" run -q --expect corpus/tlb/$s.mmf 2> "$TMP/$s.err"
	ok $? "$s.mmf runs clean on the model"
done

mutant() {	# mutant ID SEED SIGNATURE [SED: the seed's schedule for the mutant]
	local id=$1 seed=$2 sig=$3 tree=$TMP/tree-${1//[#.]/_} file rc
	sed -e "${4:-}" corpus/tlb/$seed > "$TMP/$seed"
	mkdir -p "$tree"
	# the plain build's objects, so that only the mutated file compiles
	# (not the whole build/: its bench and campaign directories run to GBs),
	# and its stamps: the flags stamp made again for WERROR=0 below (the
	# same flags but -Werror) and the commit stamp for the copy (no git
	# tree), each then given back its old time, or every object is rebuilt
	cp -a Makefile src stress "$tree/" && mkdir -p "$tree/build" &&
		cp -a build/src build/stress build/libmmfuzz.a build/.flags build/.git-commit build/.deps-ok \
			"$tree/build/" 2> /dev/null &&
		(cd "$tree" && make -s WERROR=0 DEPS=none build/.flags build/.git-commit &&
			touch -r "$OLDPWD/build/.flags" build/.flags &&
			touch -r "$OLDPWD/build/.git-commit" build/.git-commit) > "$TMP/stamps" 2>&1
	(cd "$tree" && perl "$OLDPWD/bench/mutgen.pl" -c "$OLDPWD/bench/mutants" apply "$id" \
		src/mm/*.c) > "$TMP/apply" 2>&1
	file=$(cut -f2 "$TMP/apply" | cut -d: -f1)
	[ -n "$file" ] && ! cmp -s "$file" "$tree/$file"
	ok $? "$id applies: $(cut -f4 "$TMP/apply")"
	# the dropped lock leaves its variable unused: built as make mutants
	# builds such a mutant, without -Werror; the mutated file, newer than
	# its object, is the one compiled, and the archive and binary made again
	(cd "$tree" && make WERROR=0 DEPS=none build/mmfuzz) > "$TMP/build" 2>&1 &&
		grep -q "^  CC      build/${file%.c}.o\$" "$TMP/build" &&
		"$tree/build/mmfuzz" run "$TMP/$seed" > "$TMP/run" 2>&1
	rc=$?
	[ $rc = 1 ] && grep -q "violation $sig (" "$TMP/run"
	rc=$?
	ok $rc "$seed with $id: $sig"
	[ "$(grep -c '^  CC ' "$TMP/build")" -le 1 ] ||
		diag "$id: more than the mutated file compiled (slow): $(grep '^  CC ' "$TMP/build" | tr -s ' ' | tr '\n' ' ')"
	[ $rc = 0 ] || cat "$TMP/build" "$TMP/run" | tail -n 8 | diag "$(cat)"
}

mutant 'lock-drop@zap_pte_range#1' zap_reclaim_window.mmf I-ZAP@quiescence
mutant 'lock-drop@change_pte_range#1' prot_reclaim_window.mmf I-PROT@quiescence
mutant 'lock-drop@do_anonymous_page#1' fault_race.mmf I-CONS@quiescence
mutant 'lock-drop@reclaim_anon_page#2' reclaim_isolate_race.mmf I-PCP-1@quiescence
mutant 'lock-drop@reclaim_anon_page#1' reclaim_lookup_unlink.mmf ptlock@pagetable_pte_dtor
mutant 'recheck-drop@reclaim_anon_page#1' reclaim_lookup_unlinked.mmf ptlock@pagetable_pte_dtor
mutant 'clamp-drop@unmap_single_vma#2.1' range_edges.mmf I-RANGE@zap_pte_range
mutant 'clamp-drop@madvise_walk_vmas#1.2' range_edges.mmf I-ZAP@madvise_dontneed
mutant 'clamp-drop@do_mprotect_pkey#1.2' range_edges.mmf I-PROT@mprotect
mutant 'atomic-split@set_tlb_ubc_flush_pending#1' ubc_cmpxchg_window.mmf I-TLB-4@tlb_finish_mmu \
	's/set_tlb_ubc_flush_pending:atomic(/set_tlb_ubc_flush_pending:racy_write(/'
finish
