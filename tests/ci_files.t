#!/bin/bash
# The files CI services read (.github/workflows, .gitlab-ci.yml,
# .clusterfuzzlite/project.yaml) parse and name only what exists:
# ci/workflows passes on the tree and fails on a broken copy.
. tests/lib/tap.sh
if ! python3 -c 'import yaml' 2> /dev/null; then
	echo "1..0 # SKIP no python3-yaml (make deps installs it)"
	exit 0
fi
plan 5
ci/workflows > "$TMP/out" 2>&1
ok $? "ci/workflows: the tree's files parse and name what exists" || diag "$(cat "$TMP/out")"

# a copy to break
mkdir -p "$TMP/t"
cp -r ci docs fuzz bench tests .github .clusterfuzzlite .gitlab-ci.yml "$TMP/t/"
"$TMP/t/ci/workflows" > /dev/null 2>&1
ok $? "the copy passes too"
sed -i 's|script: \[ci/regress\]|script: [ci/regress-nope]|' "$TMP/t/.gitlab-ci.yml"
"$TMP/t/ci/workflows" > "$TMP/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "gitlab-ci.yml: names ci/regress-nope, which does not exist" "$TMP/out"
ok $? "a script that does not exist: named, exit 1"
cp .gitlab-ci.yml "$TMP/t/.gitlab-ci.yml"
printf '  - oops: [\n' >> "$TMP/t/.github/workflows/ci.yml"
"$TMP/t/ci/workflows" > "$TMP/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "workflows/ci.yml: does not parse" "$TMP/out"
ok $? "a workflow that does not parse: exit 1"
cp .github/workflows/ci.yml "$TMP/t/.github/workflows/ci.yml"
chmod -x "$TMP/t/ci/regress"
"$TMP/t/ci/workflows" > "$TMP/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "runs ci/regress, which is not executable" "$TMP/out"
ok $? "a script that is not executable: exit 1"
finish
