#!/bin/bash
# Every seed of the shipped corpus (corpus/<target>/, not corpus/regress)
# says what it expects, `expect: clean`, and meets it: a seed that fails on
# the clean model is a false positive, and one without the line would pass
# run --expect whatever happened (run refuses such a file: cli_bad.t); and
# its second run in one process is its first's, trace hash and steps; and
# every decision of its schedule fires (one that no longer does is a seed a
# code change moved away from its window), unless the file says which one
# "never fires on the model" and why (a seed aimed at a mutant).
. tests/lib/tap.sh
files=()
for f in corpus/*/*.mmf; do
	case $f in corpus/regress/*) ;; *) files+=("$f") ;; esac
done
plan $((3 * ${#files[@]}))
for f in "${files[@]}"; do
	grep -qx 'expect: clean' "$f" && "$MMFUZZ" run -q --expect "$f" > "$TMP/out" 2>&1
	ok $? "$f: expect: clean, and clean" || diag "$(head -5 "$TMP/out")"
	# twice in one process: the second run takes the first's path (no state
	# of the kernel's survives a run)
	"$MMFUZZ" run --json "$f" "$f" 2>/dev/null | sed -E 's/.*"trace_hash":"([0-9a-f]+)","steps":([0-9]+).*/\1 \2/' > "$TMP/h"
	[ "$(wc -l < "$TMP/h")" = 2 ] && [ "$(sort -u "$TMP/h" | wc -l)" = 1 ]
	ok $? "$f: the same trace hash and steps on its second run in one process ($(tr '\n' ' ' < "$TMP/h"))"
	nf=$("$MMFUZZ" run --json "$f" 2>/dev/null | sed -nE 's/.*"decisions_never_fired":([0-9]+).*/\1/p')
	[ "$nf" = 0 ] || { [ -n "$nf" ] && grep -q 'never fires on the model' "$f"; }
	ok $? "$f: every decision fires, or the file says why one never fires on the model (${nf:-?} never fired)"
done
finish
