#!/usr/bin/env bash
# The shared library exports exactly the public API: the set of dynamic symbols it defines equals
# the set of functions declared with NURI_API in the installed public headers (both directions:
# nothing internal leaks, nothing declared is missing), as libsodium's SODIUM_EXPORT and
# mlkem-native's namespace check do. With --list FILE (a build of every family), the set must also
# equal the committed list of the stable ABI (tests/abi/exports.txt, '#' lines are comments): a
# symbol removed or renamed, or one added without updating the list, fails the check.
#   check_exports.sh [--list exports.txt] <libnuri.so> <header>...
set -euo pipefail
list=""
if [ "${1:-}" = --list ]; then list=$2; shift 2; fi
lib=$1; shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk 'NF==3 {print $3}' | sort -u > "$tmp/exported"
# A declaration starts with NURI_API; the function name is the first nuri_ word before a '('.
sed -n 's/^NURI_API .*[^a-z0-9_]\(nuri_[a-z0-9_]*\)(.*/\1/p' "$@" | sort -u > "$tmp/declared"
nd=$(wc -l < "$tmp/declared"); ne=$(wc -l < "$tmp/exported")
leaked=$(comm -23 "$tmp/exported" "$tmp/declared"); missing=$(comm -13 "$tmp/exported" "$tmp/declared")
if [ "$nd" -eq 0 ]; then echo "check_exports: no NURI_API declarations found in $*"; echo "check_exports: 0 passed, 1 failed"; exit 1; fi
fail=0
if [ -n "$leaked" ]; then echo "exported by $lib but not declared NURI_API:"; echo "$leaked"; fail=1; fi
if [ -n "$missing" ]; then echo "declared NURI_API but not exported by $lib:"; echo "$missing"; fail=1; fi
if [ -n "$list" ]; then
  grep -v '^#' "$list" | sed '/^$/d' | sort -u > "$tmp/listed"
  gone=$(comm -13 "$tmp/exported" "$tmp/listed"); added=$(comm -23 "$tmp/exported" "$tmp/listed")
  if [ -n "$gone" ]; then echo "in the stable ABI ($list) but no longer exported (an incompatible change):"; echo "$gone"; fail=1; fi
  if [ -n "$added" ]; then echo "exported but not in $list (add the new API there):"; echo "$added"; fail=1; fi
fi
if [ $fail -ne 0 ]; then echo "check_exports: 0 passed, 1 failed"; exit 1; fi
echo "check_exports: $ne exported symbols = $nd NURI_API declarations${list:+ = $list}"
echo "check_exports: 1 passed, 0 failed"
