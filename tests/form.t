#!/bin/bash
# Text or binary: a text program is recognised at its line 'mmfuzz 1' after
# a byte order mark, blank lines and comments; text without that line, an
# empty file and /dev/null are errors (exit 2), never a random binary
# program; --text and --binary force a form.
. tests/lib/tap.sh
plan 15

prog='task T0 cpu=0
  h0 = alloc_pages order=0 mt=movable
  free_pages h0'
runs() {	# FILE [OPTIONS]: exit status and the first line of stderr
	"$MMFUZZ" run -q "$@" > /dev/null 2> "$TMP/err"
	echo "$? $(head -1 "$TMP/err")"
}

printf 'mmfuzz1\n%s\n' "$prog" > "$TMP/m1.mmf"
[ "$(runs "$TMP/m1.mmf")" = "2 $TMP/m1.mmf:1:1: text without the line 'mmfuzz 1' that starts a program (--binary reads it as a binary program)" ]
ok $? "'mmfuzz1' as the first line: FILE:1:1, exit 2"
printf 'mmfuzz 2\n%s\n' "$prog" > "$TMP/m2.mmf"
[ "$(runs "$TMP/m2.mmf")" = "2 $TMP/m2.mmf:1:1: text without the line 'mmfuzz 1' that starts a program (--binary reads it as a binary program)" ]
ok $? "'mmfuzz 2': exit 2"
printf 'cpus: 2\n%s\n' "$prog" > "$TMP/nomagic.mmf"
[ "$(runs "$TMP/nomagic.mmf")" = "2 $TMP/nomagic.mmf:1:1: text without the line 'mmfuzz 1' that starts a program (--binary reads it as a binary program)" ]
ok $? "a forgotten header line: exit 2, nothing runs"
printf '# a comment\n\nmmfuzz1\n%s\n' "$prog" > "$TMP/m3.mmf"
r=$(runs "$TMP/m3.mmf"); [ "${r%% *}" = 2 ] && case $r in *"m3.mmf:3:1: text without"*) true;; *) false;; esac
ok $? "'mmfuzz1' after a comment: the error is at its line ($r)"
: > "$TMP/empty"
[ "$(runs "$TMP/empty")" = "2 $TMP/empty: empty: not a program (--binary runs it as the empty binary program)" ]
ok $? "an empty file: exit 2"
[ "$(runs /dev/null)" = "2 /dev/null: empty: not a program (--binary runs it as the empty binary program)" ]
ok $? "/dev/null: exit 2"
bad=0
for c in decode "encode -o $TMP/x.bin" "minimize -o $TMP/x.mmf"; do
	# shellcheck disable=SC2086
	"$MMFUZZ" $c "$TMP/nomagic.mmf" > /dev/null 2>&1; [ $? = 2 ] || bad=1
done
[ $bad = 0 ] && [ ! -e "$TMP/x.bin" ] && [ ! -e "$TMP/x.mmf" ]
ok $? "decode, encode, minimize refuse it too"

# forcing a form
# clean or a violation (what the bytes mean: its switches, the header mms
# of bytes 60..63), but run, not refused
r=$(runs --binary "$TMP/nomagic.mmf"); [ "${r%% *}" = 0 ] || [ "${r%% *}" = 1 ]
ok $? "--binary runs text-looking bytes as a binary program ($r)"
"$MMFUZZ" encode corpus/pagealloc/drain.mmf -o "$TMP/drain.bin"
r=$(runs --text "$TMP/drain.bin"); [ "${r%% *}" = 2 ] && case $r in "2 $TMP/drain.bin:1:"*) true;; *) false;; esac
ok $? "--text on a binary program: a parse error, exit 2"
r=$(runs "$TMP/drain.bin"); [ "${r%% *}" = 0 ]
ok $? "a binary program is still told apart by itself"
r=$(runs --binary "$TMP/empty"); [ "${r%% *}" = 0 ]
ok $? "--binary runs an empty file as the empty binary program"

# before the magic line: a UTF-8 byte order mark, blank lines, comments
printf '\357\273\277mmfuzz 1\n%s\n' "$prog" > "$TMP/bom.mmf"
r=$(runs "$TMP/bom.mmf"); [ "${r%% *}" = 0 ]
ok $? "a byte order mark before 'mmfuzz 1' ($r)"
printf '# a reproducer\n\n   # indented\nmmfuzz 1   # the magic\n%s\n' "$prog" > "$TMP/lead.mmf"
r=$(runs "$TMP/lead.mmf"); [ "${r%% *}" = 0 ]
ok $? "comments and blank lines before 'mmfuzz 1' ($r)"
printf 'mmfuzz 1\n%s\n' "$prog" > "$TMP/plain.mmf"
"$MMFUZZ" decode "$TMP/lead.mmf" > "$TMP/lead.out" 2> /dev/null &&
	"$MMFUZZ" decode "$TMP/plain.mmf" > "$TMP/plain.out" && cmp -s "$TMP/lead.out" "$TMP/plain.out"
ok $? "decode of it prints the same canonical text as without them"
printf '# c\n\n\357\273\277mmfuzz 1\n%s\n' "$prog" > "$TMP/bomlate.mmf"
r=$(runs "$TMP/bomlate.mmf"); [ "${r%% *}" = 2 ] && case $r in "2 $TMP/bomlate.mmf:1:1: text without"*) true;; *) false;; esac
ok $? "a byte order mark anywhere but first: text, not a program, exit 2 ($r)"
finish
