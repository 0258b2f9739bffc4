#!/bin/bash
# Every seed of the shipped corpus (corpus/<target>/, not corpus/regress)
# says what it expects, `expect: clean`, and meets it: a seed that fails on
# the clean model is a false positive, and one without the line would pass
# run --expect whatever happened (run refuses such a file: cli_bad.t); and
# its second run in one process is its first's, trace hash and steps.
. tests/lib/tap.sh
files=()
for f in corpus/*/*.mmf; do
	case $f in corpus/regress/*) ;; *) files+=("$f") ;; esac
done
plan $((2 * ${#files[@]}))
for f in "${files[@]}"; do
	grep -qx 'expect: clean' "$f" && "$MMFUZZ" run -q --expect "$f" > "$TMP/out" 2>&1
	ok $? "$f: expect: clean, and clean" || diag "$(head -5 "$TMP/out")"
	# twice in one process: the second run takes the first's path (no state
	# of the kernel's survives a run)
	"$MMFUZZ" run --json "$f" "$f" 2>/dev/null | sed -E 's/.*"trace_hash":"([0-9a-f]+)","steps":([0-9]+).*/\1 \2/' > "$TMP/h"
	[ "$(wc -l < "$TMP/h")" = 2 ] && [ "$(sort -u "$TMP/h" | wc -l)" = 1 ]
	ok $? "$f: the same trace hash and steps on its second run in one process ($(tr '\n' ' ' < "$TMP/h"))"
done
finish
