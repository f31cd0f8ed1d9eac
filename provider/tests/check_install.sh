#!/usr/bin/env bash
# `cmake --install` puts nuri.so in <prefix>/<NURI_OPENSSL_MODULESDIR>, and OpenSSL loads it from
# there: `openssl list -providers` shows it active and `openssl dgst -esch256` gives the Esch256
# known answer for the empty message (NIST LWC KAT Count 1).
set -euo pipefail
build=$1; modulesdir=$2
prefix=$(mktemp -d); trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" --component provider >/dev/null
case "$modulesdir" in /*) dir=$modulesdir ;; *) dir=$prefix/$modulesdir ;; esac
[ -f "$dir/nuri.so" ] || { echo "check_install: nuri.so not installed in $dir"; exit 1; }
OPENSSL_MODULES=$dir openssl list -providers -provider nuri | grep -q "status: active" \
  || { echo "check_install: the installed nuri.so does not load"; exit 1; }
got=$(: | OPENSSL_MODULES=$dir openssl dgst -esch256 -provider nuri | sed 's/.*= //')
want=c0e815d78b875dc768c6c8b3afa51987cd69e5c087d387368628a511cfad5730
[ "$got" = "$want" ] || { echo "check_install: ESCH256('') = $got, want $want"; exit 1; }
echo "provider_install: 3 passed, 0 failed"
