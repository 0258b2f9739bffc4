#!/bin/bash
# make mutants, small: the catalogue's mutants have stable ids, apply
# changes one place, and bench/mutants.sh on three of them reports a kill
# (a dropped zone->lock, caught by lockdep), a mutant that does not compile
# apart, and a survivor excluded from the score by its written equivalence.
# The campaigns build their own targets, so this runs once, in the plain pass.
. tests/lib/tap.sh
if [ "$BUILD" != build ]; then
	echo "1..0 # SKIP the campaigns build their own targets: run once, in the plain pass"
	exit 0
fi
plan 9

bench/mutgen.pl list src/mm/*.c > "$TMP/l1" && bench/mutgen.pl list src/mm/*.c > "$TMP/l2"
n=$(wc -l < "$TMP/l1")
[ "$n" -ge 20 ] && cmp -s "$TMP/l1" "$TMP/l2" && [ "$(cut -f1 "$TMP/l1" | sort -u | wc -l)" = "$n" ]
ok $? "bench/mutgen.pl lists $n mutants, the same twice, each id once"
missing=
for c in lock-drop counter-unlocked counter-yield atomic-split recheck-drop clamp-drop \
	list-count-swap racy-trusted; do
	cut -f3 "$TMP/l1" | grep -qx "$c" || missing="$missing $c"
done
[ -z "$missing" ]
ok $? "every class of the catalogue has mutants${missing:+ (none of:$missing)}"

# ids do not move when another function changes: a line added at the top
# of page_alloc_pcp.c shifts every line, and a statement added to
# nr_pcp_free changes nothing outside it
mkdir -p "$TMP/src"
cp src/mm/*.c "$TMP/src/"
sed -i '1i /* shifted */' "$TMP/src/page_alloc_pcp.c"
sed -i '/^static int nr_pcp_free/,/^}/ s/^\(\tint min_nr_free.*\)$/\1\n\t(void)0;/' "$TMP/src/page_alloc_pcp.c"
(cd "$TMP/src" && "$OLDPWD/bench/mutgen.pl" -c "$OLDPWD/bench/mutants" list ./*.c) |
	cut -f1 > "$TMP/ids2"
cut -f1 "$TMP/l1" | diff - "$TMP/ids2" > /dev/null
ok $? "the ids stay when lines shift and another function changes"

mkdir -p "$TMP/a"
cp src/mm/*.c "$TMP/a/"
id=$(grep $'\tsrc/mm/vmstat.c:' "$TMP/l1" | grep -m1 $'\tatomic-split\t' | cut -f1)
(cd "$TMP/a" && "$OLDPWD/bench/mutgen.pl" -c "$OLDPWD/bench/mutants" apply "$id" ./*.c) > /dev/null
changed=$(for f in src/mm/*.c; do cmp -s "$f" "$TMP/a/$(basename "$f")" || echo "$f"; done)
diff "src/mm/vmstat.c" "$TMP/a/vmstat.c" | grep -q '^> .*atomic_long_set(.*atomic_long_read(' &&
	[ "$changed" = src/mm/vmstat.c ]
ok $? "apply $id: one file changed, atomic_long_add became a read and a set"

# a catalogue with one rule that cannot compile (its keep form is no C)
# beside the real one
sed '/^lock  \\bmutex_lock/s/  -  -$/  no such call($1)  -/' \
	bench/mutants/*.cat > "$TMP/cat"
grep -q 'no such call' "$TMP/cat"
ok $? "a test catalogue whose mutex rule does not compile"
printf '%s\n' "# ID  reason" \
	"list-count-swap@add_to_free_list#1  under zone->lock, no yield point between them" \
	> "$TMP/equiv"
bench/mutants.sh -t 10 -c "$TMP/cat" -e "$TMP/equiv" -o "$TMP/m" \
	-m '^(lock-drop@rmqueue_bulk#1|lock-drop@zone_pcp_set_high_batch#1|list-count-swap@add_to_free_list#1)$' \
	> "$TMP/out" 2>&1
rc=$?
[ $rc = 0 ] && grep -q '^lock-drop@rmqueue_bulk#1 .* killed by lockdep@' "$TMP/out"
ok $? "the dropped zone->lock of rmqueue_bulk is killed by lockdep (exit $rc)"
sed -n '/^not counted/,/^$/p' "$TMP/out" | grep -q 'lock-drop@zone_pcp_set_high_batch#1 .* no-compile'
ok $? "the mutant that does not compile is reported apart"
grep -q '^list-count-swap@add_to_free_list#1 .* survived, equivalent: under zone->lock' "$TMP/out"
ok $? "the survivor listed in the equivalences is shown with its reason"
grep -q '^mutants 3: killed 1, survived 0, equivalent 1, not counted 1$' "$TMP/out" &&
	grep -q '^score: 1 / 1 = 100.0%$' "$TMP/out"
ok $? "score 1 / 1: the equivalent and the uncompiled are not counted"
[ $_failed = 0 ] || sed 's/^/# /' "$TMP/out"
finish
