#!/bin/bash
# Every seed of the shipped corpus (corpus/<target>/, not corpus/regress)
# says what it expects, `expect: clean`, and meets it: a seed that fails on
# the clean model is a false positive, and one without the line would pass
# run --expect whatever happened (run refuses such a file: cli_bad.t).
. tests/lib/tap.sh
files=()
for f in corpus/*/*.mmf; do
	case $f in corpus/regress/*) ;; *) files+=("$f") ;; esac
done
plan ${#files[@]}
for f in "${files[@]}"; do
	grep -qx 'expect: clean' "$f" && "$MMFUZZ" run -q --expect "$f" > "$TMP/out" 2>&1
	ok $? "$f: expect: clean, and clean" || diag "$(head -5 "$TMP/out")"
done
finish
