#!/usr/bin/env bash
# Every exported symbol of libnuri starts with nuri_ (docs/ARCHITECTURE.md, principle 5, as liboqs checks).
set -euo pipefail
lib=$1
bad=$(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF==3 {print $3}' | grep -v '^nuri_' || true)
n=$(nm -g --defined-only "$lib" | awk 'NF==3' | wc -l)
if [ -n "$bad" ]; then
  echo "symbols without the nuri_ prefix in $lib:"; echo "$bad"
  echo "check_symbols: 0 passed, 1 failed"; exit 1
fi
echo "check_symbols: $n exported symbols, all prefixed nuri_"
echo "check_symbols: 1 passed, 0 failed"
