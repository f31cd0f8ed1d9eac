#!/usr/bin/env bash
# Installs what `make demo` / `make check` need on a fresh Debian 12 machine, then the Python
# package's dependencies into .venv. Idempotent: apt-get and pip run only for what is missing.
# Usage: bootstrap.sh [GROUP...]   GROUP = a file stem in scripts/deps/ (host is always included),
#        or `all` for every group. Each component lists its packages in scripts/deps/GROUP.{apt,pip}.
set -euo pipefail
cd "$(dirname "$0")/.."
deps=scripts/deps
groups=(host)
for g in "${@:-host}"; do
  if [ "$g" = all ]; then
    for f in "$deps"/*.apt "$deps"/*.pip; do [ -e "$f" ] || continue; b=$(basename "$f"); groups+=("${b%.*}"); done
  else
    [ -e "$deps/$g.apt" ] || [ -e "$deps/$g.pip" ] || { echo "bootstrap: unknown group '$g' (see $deps/)" >&2; exit 2; }
    groups+=("$g")
  fi
done
mapfile -t groups < <(printf '%s\n' "${groups[@]}" | awk '!seen[$0]++')

names() { [ -f "$1" ] && sed -e 's/#.*//' -e 's/[[:space:]]//g' "$1" | grep -v '^$' || true; }
pkg_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

need=()
for g in "${groups[@]}"; do
  while read -r p; do pkg_installed "$p" || need+=("$p"); done < <(names "$deps/$g.apt")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "bootstrap: installing ${need[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# Python environment: what the package needs to build, test and run its CLI, per group.
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
  .venv/bin/pip install -q --upgrade pip >/dev/null
fi
pip_need=()
for g in "${groups[@]}"; do
  while read -r p; do pip_need+=("$p"); done < <(names "$deps/$g.pip")
done
if [ ${#pip_need[@]} -gt 0 ]; then
  stamp=.venv/.nuri-deps-$(printf '%s\n' "${pip_need[@]}" | sort -u | sha256sum | cut -c1-16)
  if [ ! -e "$stamp" ]; then
    .venv/bin/pip install -q "${pip_need[@]}"
    touch "$stamp"
  fi
fi
