#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tools/fix-world-includes.sh [-n] FILE...
#
# The world moved out of src/mm: src/mm/world.c, config.[ch], layer.h and
# layers.c are in src/world/ (with the new world.h, which holds struct
# world and the world's functions), and ktorture.[ch] is in src/kernel/.
# This rewrites the old #include lines of the FILEs given to the new
# paths, in place: for a file made on a branch from before the move (a new
# layer's src/mm/*.c, a test, an ops file), after merging.  Each include
# is rewritten by where the FILE is (its includes are relative):
#
#   in src/mm/       "config.h" "layer.h"      -> "../world/config.h" ...
#                    "ktorture.h"              -> "../kernel/ktorture.h"
#   in src/kernel/   "../mm/ktorture.h"        -> "ktorture.h"
#                    "../mm/config.h" ...      -> "../world/config.h" ...
#   in src/world/    "../mm/config.h" ...      -> "config.h" ...
#   anywhere         "../mm/{config,layer}.h"  -> "../world/{config,layer}.h"
#                    "../mm/ktorture.h"        -> "../kernel/ktorture.h"
#                    "../src/mm/X.h", "mm/X.h" (tests, docs' docs_code
#                    blocks, -Isrc) the same way
#
# After merging a branch made before the move (it is idempotent: a file
# already right is left alone, so the whole tree may be given):
#
#   tools/fix-world-includes.sh $(git ls-files '*.c' '*.h' '*.md')
#
# Only #include lines change (a docs page's path in prose is the page's
# to say).  -n prints what would change (a diff) and changes nothing.
# Prints each file it changed; exit 0, or 2 on a bad argument or a file
# that is not there.
dry=0
if [ "${1:-}" = -n ]; then
	dry=1
	shift
fi
[ $# -gt 0 ] || { echo "usage: tools/fix-world-includes.sh [-n] FILE..." >&2; exit 2; }

rc=0
for f in "$@"; do
	[ -f "$f" ] || { echo "fix-world-includes: $f: no such file" >&2; rc=2; continue; }
	case $f in
	src/mm/*|*/src/mm/*) dir=mm ;;
	src/kernel/*|*/src/kernel/*) dir=kernel ;;
	src/world/*|*/src/world/*) dir=world ;;
	*) dir=other ;;
	esac
	# the include directive: "#  include" with any spaces, a quoted name
	inc='^\([[:space:]]*#[[:space:]]*include[[:space:]]*"\)'
	case $dir in
	mm) local_rules="
s%$inc\\(config\\.h\\|layer\\.h\\|world\\.h\\)\"%\\1../world/\\2\"%
s%$inc\\(ktorture\\.h\\)\"%\\1../kernel/\\2\"%" ;;
	kernel) local_rules="
s%$inc\\.\\./mm/\\(ktorture\\.h\\)\"%\\1\\2\"%" ;;
	world) local_rules="
s%$inc\\.\\./mm/\\(config\\.h\\|layer\\.h\\|world\\.h\\)\"%\\1\\2\"%" ;;
	*) local_rules= ;;
	esac
	rules="$local_rules
s%$inc\\(\\(\\.\\./\\)*\\(src/\\)\\{0,1\\}\\)mm/\\(config\\.h\\|layer\\.h\\)\"%\\1\\2world/\\5\"%
s%$inc\\(\\(\\.\\./\\)*\\(src/\\)\\{0,1\\}\\)mm/\\(ktorture\\.h\\)\"%\\1\\2kernel/\\5\"%"
	tmp=$(mktemp "${TMPDIR:-/tmp}/fix-world.XXXXXX") || exit 2
	sed "$rules" "$f" > "$tmp" || { rm -f "$tmp"; rc=2; continue; }
	if ! cmp -s "$f" "$tmp"; then
		if [ $dry = 1 ]; then
			diff -u --label "$f" --label "$f (fixed)" "$f" "$tmp"
		else
			cat "$tmp" > "$f"	# in place: the file keeps its mode
			echo "$f"
		fi
	fi
	rm -f "$tmp"
done
exit $rc
