#!/usr/bin/env bash
# The GPU check: on a machine with an NVIDIA GPU and nuri installed in .venv (make python; make gpu
# adds the toolkit wheels for the SASS counts), runs scripts/gpu_check.py and writes one JSON file
# (default build/gpu/gpu-check.json): the real-driver self-test, a planted 40-bit search,
# `nuri bench keysearch --json` with the SM clock sampled, the SASS counts of the kernel that ran and
# the CTR kernel's GB/s against nuri's CPU PIPO-CTR. Exit 0 when everything passed.
#   scripts/gpu-check.sh [OUT.json] [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/gpu/gpu-check.json}
shift || true
py=${VENV:-.venv}/bin/python
[ -x "$py" ] || py=python3
exec timeout 600 "$py" scripts/gpu_check.py --out "$out" "$@"
