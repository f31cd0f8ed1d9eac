"""Runs the C benchmark harness (and peer programs, when built) and collects JSON records.

Record schema (DESIGN.md principle 7): family, impl, op, param, size, platform, metric,
median, min, max, runs. Peers measured for comparison appear as ``impl: "peer:<name>"``."""
import glob
import json
import os
import subprocess
import tempfile

from ._native import ffi, lib


def families():
    return ffi.string(lib.nuri_bench_families()).decode().split(",")


def run_c(family="all", quick=False, impl=None):
    """Runs the harness in-process; returns the list of records."""
    with tempfile.TemporaryFile(mode="w+") as f:
        rc = lib.nuri_bench_run(family.encode(), f.fileno(), 1 if quick else 0, impl.encode() if impl else ffi.NULL)
        if rc != 0:
            raise ValueError(f"unknown benchmark family {family!r} (have: {', '.join(families())})")
        f.seek(0)
        return [json.loads(line) for line in f if line.strip()]


def peer_programs():
    """Peer benchmark binaries: $NURI_PEERS_DIR, or bench/peers/**/target/release/peer_* under the CWD."""
    dirs = [os.environ.get("NURI_PEERS_DIR")] if os.environ.get("NURI_PEERS_DIR") else []
    dirs += glob.glob("bench/peers/target/release") + glob.glob("bench/peers/*/target/release")
    found = []
    for d in dirs:
        for p in sorted(glob.glob(os.path.join(d, "peer_*"))):
            if os.access(p, os.X_OK) and os.path.isfile(p) and not p.endswith(".d"):
                found.append(p)
    return found


def run_peers(family="all", quick=False):
    records = []
    for prog in peer_programs():
        args = [prog] + (["--quick"] if quick else [])
        try:
            out = subprocess.run(args, capture_output=True, text=True, timeout=600, check=True).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        for line in out.splitlines():
            line = line.strip()
            if line.startswith("{"):
                r = json.loads(line)
                if family in ("all", r.get("family")):
                    records.append(r)
    return records


def run(family="all", quick=False, impl=None, peers=True):
    records = run_c(family, quick, impl)
    if peers and not impl:
        records += run_peers(family, quick)
    return records
