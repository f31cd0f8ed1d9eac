#!/usr/bin/env bash
# Installs what `make demo` / `make check` need on a fresh Debian 12 machine, then the Python
# package into .venv. Idempotent: apt-get runs only for missing tools. Usage: bootstrap.sh [host|cross|all]
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-host}

need=()
have() { command -v "$1" >/dev/null 2>&1; }
pkg_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
add() { pkg_installed "$1" || need+=("$1"); }

for p in cmake ninja-build valgrind libssl-dev python3-venv python3-dev gcc pkg-config; do add "$p"; done
if [ "$what" = cross ] || [ "$what" = all ]; then
  for p in gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-misc qemu-user gcc-aarch64-linux-gnu \
           gcc-avr avr-libc simavr libsimavr-dev gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm \
           libglib2.0-dev; do add "$p"; done
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "bootstrap: installing ${need[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# Python environment: the package built from this tree (scikit-build-core + cffi), test and CLI extras.
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/pip install -q --upgrade pip >/dev/null
.venv/bin/pip install -q scikit-build-core cffi numpy pytest rich argon2-cffi pyarrow matplotlib
