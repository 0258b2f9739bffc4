#!/bin/bash
# The files CI services read (.github/workflows, .gitlab-ci.yml,
# .clusterfuzzlite/project.yaml) parse and name only what exists:
# ci/workflows passes on the tree and fails on a broken copy.
. tests/lib/tap.sh
if ! python3 -c 'import yaml' 2> /dev/null; then
	echo "1..0 # SKIP no python3-yaml (make deps installs it)"
	exit 0
fi
plan 12
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
# N5: no CI file or script names a hard-coded target list: they loop over
# mmfuzz targets (the registry) or the Makefile's FUZZ_TARGETS
hard=$(grep -nE '(for [a-z]+ in|in) ("?fuzz_)?mm"? ("?fuzz_)?pagealloc|mm pagealloc text|mm \| pagealloc' \
	ci/* fuzz/campaign .github/workflows/*.yml .gitlab-ci.yml .clusterfuzzlite/build.sh 2> /dev/null)
[ -z "$hard" ] && grep -q 'mmfuzz targets\|targets --programs\|targets |' ci/tsan-replay &&
	grep -q 'targets' ci/clusterfuzzlite-local && grep -q 'targets' ci/fuzz-matrix &&
	grep -q 'FUZZ_TARGETS' .clusterfuzzlite/build.sh
ok $? "the CI scripts and files loop over the registered targets, none names its own list" || diag "$hard"

# the matrix's engines and sanitizers are the ones fuzz --help offers
opt_values() {	# the values of fuzz --help's option $1, parentheses dropped
	"$MMFUZZ" fuzz --help | sed -n "s/^  $1 [A-Z] *//p" |
		sed -e 's/ ([^)]*)//g' -e 's/ (.*//' -e 's/,/ /g' -e 's/ or / /g' | tr -s ' ' '\n' | grep . | sort
}
me=$(sed -n 's/^engines="\(.*\)"$/\1/p' ci/fuzz-matrix | tr ' ' '\n' | sort)
ms=$(sed -n 's/^sanitizers="\(.*\)"$/\1/p' ci/fuzz-matrix | tr ' ' '\n' | sort)
he=$(opt_values --engine) hs=$(opt_values --sanitizer)
[ -n "$he" ] && [ "$me" = "$he" ] && [ -n "$hs" ] && [ "$ms" = "$hs" ]
ok $? "ci/fuzz-matrix runs every engine and sanitizer fuzz --help offers" ||
	diag "matrix: $me / $ms; help: $he / $hs"

# ci/fuzz-matrix and ci/fuzz-smoke on a fake mmfuzz (and a make that does
# nothing): the matrix runs every combination fuzz does not refuse and
# cleans up; a switch not found fails fuzz-smoke, which keeps its directory
f=$TMP/f
mkdir -p "$f/ci" "$f/build" "$f/bin"
cp ci/fuzz-matrix ci/fuzz-smoke "$f/ci/"
printf '#!/bin/sh\nexit 0\n' > "$f/bin/make"
cat > "$f/build/mmfuzz" <<'FAKE'
#!/bin/sh
case $1 in
targets) printf 'mm x\npagealloc x\nnewlayer x\ntext x\n' ;;
bugs) echo "some_switch what it does" ;;
fuzz)
	shift; e= s= t= o= inj=
	while [ $# -gt 0 ]; do
		case $1 in --engine) e=$2 ;; --sanitizer) s=$2 ;; --target) t=$2 ;; --out) o=$2 ;; --inject) inj=$2 ;; esac
		shift
	done
	echo "$e/$s/$t${inj:+/$inj}" >> "$FAKE_LOG"
	mkdir -p "$o/logs" "$o/crashes"
	if [ "$e" = libfuzzer ] && [ "$s" = none ]; then echo "mmfuzz fuzz: the libFuzzer builds are address or thread" >&2; exit 2; fi
	if [ "$e" = random ] && { [ "$t" != mm ] || [ "$s" != none ]; }; then
		echo "mmfuzz fuzz: the random engine runs the mm seeds in this process (--target mm, --sanitizer none)" >&2; exit 2; fi
	echo '{"run":1,"execs":42,"exit":0}' > "$o/logs/r1-summary.json"
	[ -z "$inj" ] || { echo crash > "$o/crashes/r1-crash-1"; exit 0; }
	exit 0 ;;
esac
FAKE
chmod +x "$f/build/mmfuzz" "$f/bin/make" "$f/ci/fuzz-matrix" "$f/ci/fuzz-smoke"
FAKE_LOG=$TMP/fake.log PATH=$f/bin:$PATH "$f/ci/fuzz-matrix" 1 > "$TMP/out" 2>&1; rc=$?
n=$(grep -c . "$TMP/fake.log")
[ $rc = 0 ] && [ "$n" = 36 ] && grep -qx 'afl/thread/newlayer' "$TMP/fake.log" &&
	grep -q '^ci/fuzz-matrix: 21 combination(s) ran; refused' "$TMP/out" && [ ! -e "$f/build/fuzz-matrix" ]
ok $? "ci/fuzz-matrix: every engine x sanitizer x registered target tried (a new one included), refusals listed" ||
	diag "exit $rc, $n tried: $(cat "$TMP/out")"
: > "$TMP/fake.log"
FAKE_LOG=$TMP/fake.log PATH=$f/bin:$PATH "$f/ci/fuzz-smoke" 1 > "$TMP/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "some_switch not found" "$TMP/out" && [ -e "$f/build/fuzz-smoke/some_switch/crashes/r1-crash-1" ]
ok $? "ci/fuzz-smoke: a failure keeps its campaign directory (the crash files) for the upload" ||
	diag "exit $rc: $(cat "$TMP/out")"

python3 - <<'PY' > "$TMP/out" 2>&1
import yaml, sys
gh = yaml.safe_load(open(".github/workflows/ci.yml"))
steps = gh["jobs"]["fuzz-smoke"]["steps"]
up = [s for s in steps if "upload-artifact" in s.get("uses", "")]
assert up and up[0].get("if") == "failure()" and "build/fuzz-smoke" in up[0]["with"]["path"], "github: no upload of build/fuzz-smoke on failure"
assert "ci/fuzz-matrix" in gh["jobs"]["ci"]["strategy"]["matrix"]["script"], "github: no ci/fuzz-matrix job"
gl = yaml.safe_load(open(".gitlab-ci.yml"))
a = gl["fuzz-smoke"]["artifacts"]
assert a["when"] == "on_failure" and any("build/fuzz-smoke" in p for p in a["paths"]), "gitlab: no fuzz-smoke artifacts on failure"
assert "ci/fuzz-matrix" in gl["fuzz-matrix"]["script"], "gitlab: no fuzz-matrix job"
PY
ok $? "the nightly fuzz-smoke jobs upload its directory on failure; both services run ci/fuzz-matrix" || diag "$(cat "$TMP/out")"

python3 - <<'PY' > "$TMP/out" 2>&1
import yaml
gl = yaml.safe_load(open(".gitlab-ci.yml"))
def job(name):
    j = dict(gl[name])
    while "extends" in j:
        base = dict(gl[j.pop("extends")]); base.update(j); j = base
    return j
for name in ("clusterfuzzlite", "clusterfuzzlite-corpus"):
    j = job(name)
    assert "docker:dind" in j.get("services", []), name + ": no docker:dind service"
    assert j.get("variables", {}).get("DOCKER_HOST") == "tcp://docker:2375", name + ": no DOCKER_HOST"
for name, j in gl.items():
    if isinstance(j, dict) and not name.startswith(".") and "image" in job(name) and "debian" in str(job(name)["image"]):
        assert "DOCKER_HOST" not in job(name).get("variables", {}), name + ": DOCKER_HOST outside ClusterFuzzLite"
PY
ok $? "GitLab's ClusterFuzzLite jobs have the docker:dind service and DOCKER_HOST, the others not" || diag "$(cat "$TMP/out")"
grep -q 'docker:dind' docs/ci.md && grep -q 'DOCKER_HOST' docs/ci.md
ok $? "docs/ci.md says so"
finish
