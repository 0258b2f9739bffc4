#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/linesim.sh [-b 64|128] [-m MIN] [STRESS ARGS...]
#
# The cache lines the tasks of a stress run trade (tools/linesim.c): builds
# mmfuzz with clang's TSan instrumentation against the linesim runtime in
# build-linesim/, runs `mmfuzz stress STRESS ARGS` (default: pcp_alloc1 -t 2
# -s 6), counts from 2 s to 6 s after the start, and prints each block two
# threads traded at least MIN times (default 1000) with the code that traded
# it.  Exit 0 when no block was traded that often, 1 when some were, 2 on
# a usage or build error.
set -u
bytes=128 min=1000
while getopts b:m:h opt; do
	case $opt in
	b) bytes=$OPTARG;;
	m) min=$OPTARG;;
	*) sed -n '3,12s/^# \{0,1\}//p' "$0"; exit 2;;
	esac
done
shift $((OPTIND - 1))
case $bytes in 64|128) ;; *) echo "linesim: -b is 64 or 128, not '$bytes'" >&2; exit 2;; esac
case $min in ''|*[!0-9]*) echo "linesim: bad -m '$min'" >&2; exit 2;; esac
[ $# -gt 0 ] || set -- pcp_alloc1 -t 2 -s 6

cd "$(dirname "$0")/.." || exit 2
CC=${LINESIM_CC:-clang-19}
B=build-linesim
command -v "$CC" >/dev/null || { echo "linesim: $CC not found (make deps installs it)" >&2; exit 2; }
mkdir -p $B/obj || exit 2
flags="-std=c11 -D_GNU_SOURCE -O2 -g -fno-pie -fsanitize=thread -Isrc"
objs=""
for f in src/sched/*.c src/world/*.c src/kernel/*.c src/bugs/*.c src/mm/*.c src/check/*.c src/prog/*.c \
	 src/cli/*.c stress/*.c src/sched/*.S; do
	o=$B/obj/$(echo "$f" | tr / _).o
	objs="$objs $o"
	# rebuild when the source or any header is newer than the object
	if [ ! -e "$o" ] || [ "$f" -nt "$o" ] ||
	   [ -n "$(find src stress -name '*.h' -newer "$o" | head -1)" ]; then
		$CC $flags -c "$f" -o "$o" || exit 2
	fi
done
$CC -O2 -g -c tools/linesim.c -o $B/linesim.o || exit 2
urcu=$(pkg-config --libs liburcu-memb 2>/dev/null || echo -lurcu-memb -lurcu-common)
$CC -no-pie -o $B/mmfuzz $objs $B/linesim.o -lpthread -lm $urcu || exit 2

LINESIM_BYTES=$bytes LINESIM_MIN=$min $B/mmfuzz stress "$@" > $B/stress.out 2> $B/linesim.err
rc=$?
grep -q '^linesim: blocks shared' $B/linesim.err || {
	echo "linesim: the run ended before the window closed (exit $rc); give it -s 6 or more" >&2
	exit 2
}
grep '^average:' $B/stress.out | sed 's/^/stress /'
# symbolize: each pc becomes function (file:line)
grep '^linesim: block 0x' $B/linesim.err | while read -r _ _ addr _ n rest; do
	pcs=$(echo "$rest" | sed 's/.* pc//')
	where=$(for pc in $pcs; do
		addr2line -f -s -e $B/mmfuzz "$pc" | paste -sd' ' | sed 's/ \(.*\)/ (\1)/'
	done | sort -u | paste -sd';' | sed 's/;/; /g')
	printf '%s %10s  %s\n' "$addr" "$n" "$where"
done
summary=$(grep '^linesim: blocks shared' $B/linesim.err)
echo "$summary"
case $summary in *"shared: 0,"*) exit 0;; *) exit 1;; esac
