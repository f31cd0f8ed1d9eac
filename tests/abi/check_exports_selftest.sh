#!/usr/bin/env bash
# check_exports.sh must fail on a list that differs from the library: a symbol missing from the
# list (an addition nobody recorded) and a listed symbol the library lacks (a removal); and pass on
# the committed list.   check_exports_selftest.sh <exports.txt> <libnuri.so> <header>...
set -euo pipefail
here=$(dirname "$0"); list=$1; shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
passed=0; failed=0
args=("$@")
run() { local want=$1 what=$2 l=$3; if "$here/check_exports.sh" --list "$l" "${args[@]}" >"$tmp/out" 2>&1; then got=0; else got=1; fi
  if [ "$got" = "$want" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "not as expected: $what"; cat "$tmp/out"; fi; }
run 0 "the committed list" "$list"
grep -v '^nuri_esch256$' "$list" > "$tmp/missing"
run 1 "a symbol exported but not listed" "$tmp/missing"
{ cat "$list"; echo nuri_removed_function; } > "$tmp/extra"
run 1 "a listed symbol the library lacks" "$tmp/extra"
echo "check_exports_selftest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
