#!/bin/bash
# tools/fix-world-includes.sh: the include lines of files written before
# src/world and src/kernel/ktorture.[ch] existed are rewritten by where the
# file is; nothing else changes, a second run changes nothing, and the tree
# as it is needs no change.  Needs no build: runs once, in the plain pass.
. tests/lib/tap.sh
if [ "$BUILD" != build ]; then
	echo "1..0 # SKIP a script over files, no build: run once, in the plain pass"
	exit 0
fi
plan 7
fix=$PWD/tools/fix-world-includes.sh
t=$TMP/t
mkdir -p $t/src/mm $t/src/kernel $t/src/world $t/src/prog $t/tests $t/docs
printf '#include "config.h"\n#include "layer.h"\n# include "ktorture.h"\n#include "mm.h"\n/* config.h */\n' \
	> $t/src/mm/new.c
printf '#include "../mm/ktorture.h"\n#include "../mm/layer.h"\n' > $t/src/kernel/k.c
printf '#include "../mm/config.h"\n' > $t/src/world/w.c
printf '#include "../mm/config.h"\n#include "../mm/ktorture.h"\n#include "../mm/mm.h"\n' > $t/src/prog/o.c
printf '#include "../src/mm/layer.h"\n#include "mm/config.h"\n#include "mm/internal.h"\n' > $t/tests/x.c
printf '<!-- docs_code:\n#include "mm/layer.h"\n-->\nsrc/mm/config.h in prose\n' > $t/docs/x.md
cp -r $t $TMP/orig

(cd $t && "$fix" -n src/mm/new.c) > $TMP/dry
cmp -s $t/src/mm/new.c $TMP/orig/src/mm/new.c && grep -q '^+#include "../world/config.h"' $TMP/dry
ok $? "-n shows the change and makes none"

(cd $t && "$fix" src/mm/new.c src/kernel/k.c src/world/w.c src/prog/o.c tests/x.c docs/x.md) > $TMP/out
[ "$(wc -l < $TMP/out)" = 6 ]
ok $? "each changed file named once" || diag "$(cat $TMP/out)"

[ "$(cat $t/src/mm/new.c)" = "$(printf '#include "../world/config.h"\n#include "../world/layer.h"\n# include "../kernel/ktorture.h"\n#include "mm.h"\n/* config.h */')" ]
ok $? "src/mm: config.h, layer.h to ../world/, ktorture.h to ../kernel/, the rest alone" ||
	diag "$(cat $t/src/mm/new.c)"

[ "$(cat $t/src/kernel/k.c $t/src/world/w.c)" = "$(printf '#include "ktorture.h"\n#include "../world/layer.h"\n#include "config.h"')" ]
ok $? "src/kernel and src/world: their own headers by their own names" ||
	diag "$(cat $t/src/kernel/k.c $t/src/world/w.c)"

[ "$(cat $t/src/prog/o.c $t/tests/x.c $t/docs/x.md)" = "$(printf '#include "../world/config.h"\n#include "../kernel/ktorture.h"\n#include "../mm/mm.h"\n#include "../src/world/layer.h"\n#include "world/config.h"\n#include "mm/internal.h"\n<!-- docs_code:\n#include "world/layer.h"\n-->\nsrc/mm/config.h in prose')" ]
ok $? "elsewhere: ../mm/, ../src/mm/ and mm/ (-Isrc) paths; prose and mm's own headers alone" ||
	diag "$(cat $t/src/prog/o.c $t/tests/x.c $t/docs/x.md)"

cp -r $t $TMP/once
(cd $t && "$fix" src/mm/new.c src/kernel/k.c src/world/w.c src/prog/o.c tests/x.c docs/x.md) > $TMP/out2
[ ! -s $TMP/out2 ] && diff -r $TMP/once $t > /dev/null
ok $? "a second run changes nothing"

# the tree's files (a copy without git: every .c, .h and .md under it)
files=$(git ls-files '*.c' '*.h' '*.md' 2> /dev/null) ||
	files=$(find src tests stress fuzz bench tools docs -name '*.[ch]' -o -name '*.md')
# shellcheck disable=SC2086
"$fix" -n $files > $TMP/tree 2>&1
[ $? = 0 ] && [ ! -s $TMP/tree ]
ok $? "the tree's own files need no change" || diag "$(cat $TMP/tree)"
finish
