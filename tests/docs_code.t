#!/bin/bash
# The C examples in docs/ compile against the tree as it is: every fenced
# ```c block of every docs/*.md page is built with the tree's headers
# (-Isrc) and the Makefile's warning flags, as errors, with -fsyntax-only.
# A failure names the doc's own line (the block is compiled under #line).
#
# An example shows a layer's registration out of its file, so it names the
# file's static functions and types.  What the block needs around it is an
# HTML comment right before the fence (invisible on the rendered page):
#
#   <!-- docs_code:
#   #include "world/layer.h"
#   static void tlb_create(struct world *w);
#   -->
#
# is C put before the block; a line "@@" in it marks where the block goes,
# and what follows "@@" comes after the block (to put statements inside a
# function).  Only declarations belong there: what the page shows is what is
# checked.
#
# ```c fragment marks a block that is deliberately not C on its own (none
# today); it is skipped and reported as a skip, so that a page may still show
# a piece of a struct in passing without the test forcing it into a whole
# translation unit.  Keep them few: every other block is compiled.
. tests/lib/tap.sh

CC=${CC:-clang}
command -v "$CC" >/dev/null || { echo "1..0 # SKIP $CC not found"; exit 0; }
command -v python3 >/dev/null || { echo "1..0 # SKIP python3 not found"; exit 0; }
# the Makefile's warning flags (its WARN), as errors
# shellcheck disable=SC2016
WARN=$(printf 'docs-code-warn:\n\t@echo $(WARN)\n' |
	make -s --no-print-directory -f Makefile -f - docs-code-warn 2>/dev/null)
case $WARN in -W*) ;; *) echo "1..1"; echo "not ok 1 - the Makefile's WARN flags read: '$WARN'"; exit 1;; esac

# docs/X.md -> $TMP/blocks/NNN.c (one translation unit a block) and a list
# "NNN.c<TAB>file:line<TAB>kind"
mkdir -p "$TMP/blocks"
python3 - "$TMP/blocks" docs/*.md > "$TMP/list" <<'PY' || { echo "1..1"; echo "not ok 1 - the blocks extracted"; exit 1; }
import re, sys
out, pages = sys.argv[1], sys.argv[2:]
n = 0
for page in pages:
    lines = open(page, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^```c(?:\s+(\S+))?\s*$", lines[i])
        if not m:
            i += 1
            continue
        start, kind = i + 1, m.group(1) or "c"
        j = start
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        body = lines[start:j]
        # the context comment ending on the line before the fence
        pre, post = [], []
        if i > 0 and lines[i - 1].strip() == "-->":
            k = i - 2
            while k >= 0 and not lines[k].startswith("<!-- docs_code:"):
                k -= 1
            if k >= 0:
                ctx = list(enumerate(lines[k + 1:i - 1], k + 2))
                at = next((x for x, (_, l) in enumerate(ctx) if l.strip() == "@@"), len(ctx))
                pre, post = ctx[:at], ctx[at + 1:]
        n += 1
        name = "%03d.c" % n
        with open(f"{out}/{name}", "w") as f:
            for no, l in pre:
                f.write(f'#line {no} "{page}"\n{l}\n')
            f.write(f'#line {start + 1} "{page}"\n' + "\n".join(body) + "\n")
            for no, l in post:
                f.write(f'#line {no} "{page}"\n{l}\n')
        print(f"{name}\t{page}:{start}\t{kind}")
        i = j + 1
PY
[ -s "$TMP/list" ] || { echo "1..1"; echo "not ok 1 - docs/*.md have \`\`\`c blocks"; exit 1; }
plan "$(wc -l < "$TMP/list")"
while IFS=$'\t' read -r name where kind; do
	if [ "$kind" = fragment ]; then
		ok 0 "$where: a fragment, not compiled # SKIP marked fragment"
		continue
	fi
	if [ "$kind" != c ]; then
		ok 1 "$where: \`\`\`c $kind: the only marker is 'fragment'"
		continue
	fi
	# shellcheck disable=SC2086
	"$CC" -std=c11 -D_GNU_SOURCE $WARN -Werror -Isrc -fsyntax-only "$TMP/blocks/$name" \
		> "$TMP/err" 2>&1
	ok $? "$where: the example compiles" || diag "$(head -20 "$TMP/err")"
done < "$TMP/list"
finish
