#!/usr/bin/env bash
# House style: clang-format (.clang-format) over the C sources, ruff (pyproject.toml) over all
# Python. Generated files (scripts/autogen --outputs) are left as their generators write them.
#   scripts/check-format.sh          check; exit 1 naming what differs
#   scripts/check-format.sh --fix    rewrite the files in place
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${VENV:-.venv}/bin
fix=0; [ "${1:-}" = "--fix" ] && fix=1
mapfile -t generated < <(scripts/autogen --outputs)
mapfile -t cfiles < <(git ls-files -co --exclude-standard '*.c' '*.h' '*.cpp' | grep -vxF -f <(printf '%s\n' "${generated[@]}") || true)
if [ $fix = 1 ]; then
    "$bin/clang-format" -i "${cfiles[@]}"
    "$bin/ruff" format -q .
    "$bin/ruff" check -q --fix .
    exit 0
fi
rc=0
"$bin/clang-format" --dry-run -Werror "${cfiles[@]}" 2>/tmp/nuri-format.$$ || { rc=1; grep -o '^[^:]*' /tmp/nuri-format.$$ | sort -u | sed 's/^/check-format: not clang-formatted: /'; }
rm -f /tmp/nuri-format.$$
"$bin/ruff" format --check -q . || rc=1
"$bin/ruff" check -q . || rc=1
[ $rc = 0 ] && echo "check-format: ${#cfiles[@]} C files (clang-format) and the Python tree (ruff) are in house style"
exit $rc
