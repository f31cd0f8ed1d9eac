#!/bin/sh
# DuckDB's C extension headers (duckdb.h, duckdb_extension.h) for building db/duckdb, taken at
# build time from the source distribution of the `duckdb` Python package at the version that
# scripts/deps/db.pip pins (so the extension targets the DuckDB it is loaded into). Nothing of
# DuckDB is committed. Usage: get_headers.sh PIP OUTDIR   (does nothing when OUTDIR is current)
set -eu
pip=$1
out=$2
here=$(cd "$(dirname "$0")/../.." && pwd)
ver=$(sed -n 's/^duckdb==\([0-9][0-9.]*\)[[:space:]]*$/\1/p' "$here/scripts/deps/db.pip")
[ -n "$ver" ] || { echo "get_headers.sh: scripts/deps/db.pip does not pin duckdb==X.Y.Z" >&2; exit 1; }
if [ -f "$out/VERSION" ] && [ "$(cat "$out/VERSION")" = "$ver" ]; then exit 0; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# --no-binary duckdb: the sdist (the wheels carry no headers); pip prepares its metadata, ~1 min
"$pip" download -q --no-deps --no-binary duckdb "duckdb==$ver" -d "$tmp" >&2
tar -xzf "$tmp/duckdb-$ver.tar.gz" -C "$tmp" "duckdb-$ver/external/duckdb/src/include/duckdb.h" \
    "duckdb-$ver/external/duckdb/src/include/duckdb_extension.h"
mkdir -p "$out"
cp "$tmp/duckdb-$ver/external/duckdb/src/include/duckdb.h" "$tmp/duckdb-$ver/external/duckdb/src/include/duckdb_extension.h" "$out/"
echo "$ver" > "$out/VERSION"
