#!/bin/bash
# README.md's "Lines from the pages" quote the benches' pages: each quoted
# line (- PAGE.md: `LINE`) is a whole line of docs/measurements/PAGE.md as
# the bench last wrote it, so the front door never carries a figure the
# pages do not (a bench rerun that changes a figure fails here until the
# README quotes the new line).
. tests/lib/tap.sh
lines=$(sed -n '/^Lines from the pages/,/^## /p' README.md | grep -E '^- [a-z0-9-]+\.md: `.*`$')
n=$(printf '%s\n' "$lines" | grep -c .)
plan $((n + 1))
[ "$n" -gt 0 ]
ok $? "README.md quotes $n lines from docs/measurements/"
while IFS= read -r l; do
	page=$(printf '%s' "$l" | sed -E 's/^- ([a-z0-9-]+\.md): .*/\1/')
	text=$(printf '%s' "$l" | sed -E 's/^- [a-z0-9-]+\.md: `(.*)`$/\1/')
	grep -qxF -- "$text" "docs/measurements/$page"
	ok $? "README's line of $page is on the page: $text" ||
		diag "the page says: $(grep -F -- "${text%%:*}" "docs/measurements/$page" | head -2)"
done <<< "$lines"
finish
