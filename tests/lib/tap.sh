# TAP helpers for the shell tests.  MMFUZZ_BUILD names the build under test.
BUILD=${MMFUZZ_BUILD:-build}
MMFUZZ=$PWD/$BUILD/mmfuzz
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
_n=0
_failed=0
plan() { echo "1..$1"; }
ok() {	# ok CONDITION-STATUS NAME: returns the status, so `ok $? NAME || diag ...` says why
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $_n - $2"; return 0; fi
	echo "not ok $_n - $2"; _failed=$((_failed + 1)); return 1
}
todo() {	# todo CONDITION-STATUS NAME REASON: expected to fail until REASON lands
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $_n - $2 # TODO $3"; else echo "not ok $_n - $2 # TODO $3"; fi
}
diag() { echo "$*" | sed 's/^/# /'; }
is_tsan() { case "$BUILD" in *tsan*) return 0;; esac; return 1; }
finish() { exit $((_failed > 0)); }
