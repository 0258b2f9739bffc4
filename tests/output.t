#!/bin/bash
# Output paths (encode -o, minimize -o): a new name or a regular file is
# replaced atomically; a character device, a FIFO or /dev/stdout is written
# in place and stays what it is; a symbolic link is followed, never
# replaced; a directory or a link to nothing is refused (exit 2).
. tests/lib/tap.sh
plan 13
cd "$TMP" || exit 1
M=$MMFUZZ
R=$OLDPWD/corpus/regress

# Device nodes of our own when we may make them (as root a rename over
# /dev/null would replace the system's: the tool before this test did);
# otherwise the system's, which a user other than root cannot replace.
if mknod null c 1 3 2> /dev/null && mknod full c 1 7 2> /dev/null; then
	null=$TMP/null full=$TMP/full
else
	null=/dev/null full=/dev/full
fi

"$M" encode "$R/pcp_count_apart.mmf" -o "$null"; rc=$?
[ $rc = 0 ] && [ -c "$null" ]
ok $? "encode -o a null device: exit 0, still a character device"
"$M" encode "$R/pcp_count_apart.mmf" -o "$full" 2> err; rc=$?
[ $rc = 2 ] && [ -c "$full" ] && grep -q "^$full: No space left on device$" err
ok $? "encode -o a full device: its error, exit 2, still a character device"
# (vmstat_lost_update: pcp_count_apart's candidates race under TSan, exit 66)
"$M" minimize "$R/vmstat_lost_update.mmf" -o "$null" > /dev/null; rc=$?
[ $rc = 1 ] && [ -c "$null" ]
ok $? "minimize -o a null device: written in place (exit $rc)"

mkfifo fifo
timeout 20 cat fifo > from-fifo &	# (a FIFO renamed over would leave it waiting)
"$M" encode "$R/pcp_count_apart.mmf" -o fifo; rc=$?
wait
"$M" encode "$R/pcp_count_apart.mmf" -o plain.bin
[ $rc = 0 ] && [ -p fifo ] && cmp -s from-fifo plain.bin
ok $? "encode -o a FIFO: the bytes go through it, it stays a FIFO"
# /dev/stdout is such a link; a link of our own, so that a regression
# replaces it and not the system's
ln -s /proc/self/fd/1 stdout
"$M" encode "$R/pcp_count_apart.mmf" -o stdout > from-stdout; rc=$?
[ $rc = 0 ] && cmp -s from-stdout plain.bin && [ -L stdout ]
ok $? "encode -o a link to /proc/self/fd/1 (as /dev/stdout): the bytes on stdout"

echo old > target
chmod 600 target
ln -s target link
"$M" encode "$R/pcp_count_apart.mmf" -o link; rc=$?
[ $rc = 0 ] && [ -L link ] && [ "$(readlink link)" = target ] && cmp -s target plain.bin
ok $? "encode -o a symbolic link: the link stays, its target gets the program"
[ "$(stat -c %a target)" = 600 ]
ok $? "the replaced file keeps its mode"
ln -s nowhere dangling
"$M" encode "$R/pcp_count_apart.mmf" -o dangling 2> err; rc=$?
[ $rc = 2 ] && [ -L dangling ] && [ ! -e nowhere ] && grep -qx "dangling: a symbolic link to nothing: not replaced" err
ok $? "a link to nothing: refused, exit 2, the link stays"
mkdir adir
"$M" minimize "$R/pcp_count_apart.mmf" -o adir > /dev/null 2> err; rc=$?
[ $rc = 2 ] && [ -d adir ] && grep -qx "adir: is a directory: not written" err
ok $? "minimize -o a directory: refused before minimizing, exit 2"
"$M" encode "$R/pcp_count_apart.mmf" -o missing/x.bin 2> err; rc=$?
[ $rc = 2 ] && grep -qx "missing/x.bin: No such file or directory" err
ok $? "an output in a missing directory: its path and the reason, exit 2"

echo old > regular
ln regular hardlink
"$M" encode "$R/pcp_count_apart.mmf" -o regular; rc=$?
[ $rc = 0 ] && cmp -s regular plain.bin && [ "$(cat hardlink)" = old ]
ok $? "a regular file is replaced by rename (its other hard link keeps the old bytes)"
"$M" encode "$R/pcp_count_apart.mmf" -o new.bin && cmp -s new.bin plain.bin
ok $? "a new name"
[ -z "$(ls -A | grep -v -x -e null -e full -e fifo -e from-fifo -e stdout -e from-stdout -e plain.bin \
	-e target -e link -e dangling -e adir -e err -e regular -e hardlink -e new.bin)" ]
ok $? "no temporary file left behind: $(ls -A | tr '\n' ' ')"
finish
