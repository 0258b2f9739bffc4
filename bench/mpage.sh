#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench/mpage.sh: write a bench's measurements page, docs/measurements/NAME.md
# (make bench, make bench-stress, make mutants).  The page says what the
# figures were measured on: the command, the commit (with "+ changes" when
# the tree differs from it), the date, the machine (nproc, CPU model) and the
# load average at the start and at the end, then the bench's own output,
# figures and ratios as it printed them.  It is written whole to a temporary
# file beside the page and renamed over it, so a page is never half written
# and nobody edits one by hand: run the bench again.
#
#   bench/mpage.sh -n NAME -c COMMAND -l LOAD_AT_START -f OUTPUT [-o DIR] [-t NOTE]
#
# LOAD_AT_START is the first three fields of /proc/loadavg read before the
# bench ran; OUTPUT the file holding what the bench printed; DIR defaults to
# docs/measurements of the tree; NOTE a line said under the table.
set -u

usage() {
	echo "usage: bench/mpage.sh -n NAME -c COMMAND -l LOAD_AT_START -f OUTPUT [-o DIR] [-t NOTE]" >&2
	exit 2
}

name= cmd= load0= figures= dir= note=
while getopts "n:c:l:f:o:t:" o; do
	case $o in
	n) name=$OPTARG ;;
	c) cmd=$OPTARG ;;
	l) load0=$OPTARG ;;
	f) figures=$OPTARG ;;
	o) dir=$OPTARG ;;
	t) note=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] && [ -n "$name" ] && [ -n "$cmd" ] && [ -n "$figures" ] || usage
case $name in *[!A-Za-z0-9_-]*) echo "bench/mpage.sh: -n wants a bench name" >&2; exit 2 ;; esac
[ -r "$figures" ] || { echo "bench/mpage.sh: $figures: cannot read" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
[ -n "$dir" ] || dir=$root/docs/measurements
mkdir -p "$dir" || exit 2

commit=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && ! git -C "$root" diff --quiet HEAD -- 2>/dev/null; then
	commit="$commit + changes not committed"
fi
load1=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
ncpu=$(nproc 2>/dev/null || echo '?')

page=$dir/$name.md
tmp=$(mktemp "$dir/.$name.md.XXXXXX") || exit 2
trap 'rm -f "$tmp"' EXIT
{
	echo "# Measurements: $name"
	echo
	echo "Written by \`$cmd\` (bench/mpage.sh): run it again to renew this page, never edit it by hand."
	echo "The figures move with the machine's load; the load average below says how busy it was."
	echo
	echo "| | |"
	echo "|---|---|"
	echo "| command | \`$cmd\` |"
	echo "| commit | $commit |"
	echo "| date | $(date -u '+%Y-%m-%d %H:%M UTC') |"
	echo "| machine | $ncpu CPUs (nproc), ${cpu:-unknown CPU}, $(uname -sr) |"
	echo "| load average (1, 5, 15 min) | ${load0:-unknown} at the start, $load1 at the end |"
	[ -z "$note" ] || { echo; echo "$note"; }
	echo
	echo "What the bench printed:"
	echo
	echo '```text'
	cat "$figures"
	echo '```'
} > "$tmp" || exit 2
chmod 644 "$tmp" && mv -f "$tmp" "$page" || exit 2
trap - EXIT
echo "bench: wrote ${page#"$root"/}"
