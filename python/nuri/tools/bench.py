"""Runs the C benchmark harness (the nuri-bench program installed beside this module) and key search,
and collects JSON records; with ``peers``, also the peer programs of a checkout (nuri-dev's peers).

Record schema (docs/ARCHITECTURE.md, principle 7): family, impl, op, param, size, platform, metric,
median, min, max, runs. Peers measured for comparison appear as ``impl: "peer:<name>"``."""

import importlib.util
import json
import os
import subprocess
import tempfile


def harness():
    """The nuri-bench program installed beside this module (the C harness; the extension
    nuri._native does not link it), or $NURI_BENCH."""
    exe = os.environ.get("NURI_BENCH") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "nuri-bench")
    if not os.access(exe, os.X_OK):
        raise FileNotFoundError(f"benchmark harness {exe} not found (reinstall the package: make python)")
    return exe


def families():
    fams = subprocess.run([harness(), "--families"], capture_output=True, text=True, check=True).stdout.strip()
    return fams.split(",") + (["keysearch"] if importlib.util.find_spec("nuri.keysearch") else [])


def run_c(family="all", quick=False, impl=None):
    """Runs the C harness (one thread); returns the list of records."""
    if family != "all" and family not in families():
        raise ValueError(f"unknown benchmark family {family!r} (have: {', '.join(families())})")
    args = [harness(), family] + (["--quick"] if quick else []) + (["--impl", impl] if impl else [])
    with tempfile.TemporaryFile(mode="w+") as f:
        subprocess.run(args, stdout=f, check=True)
        f.seek(0)
        return [json.loads(line) for line in f if line.strip().startswith("{")]


def run_keysearch(quick=False, impl=None):
    """Key search is measured in Python threads (all cores), not by the one-thread C harness."""
    from ..keysearch import bench as ks_bench

    names = [e for e in ks_bench.usable_engines() if not impl or impl in e]
    return ks_bench.run(quick=quick, engines=names) if names else []


def run_fea_per_call(quick=False, impl=None):
    """One 16-digit string per nuri.fea.encrypt_digits call, in a loop (the per-value use from
    Python: argument checks, the cached key schedule, one C call). Values/s on wall time and on the
    thread's CPU time (wall time on a shared machine also counts other processes' slices)."""
    import platform
    import statistics
    import time

    from .. import fea

    # impl filters by substring, as in the C harness: the first matching implementation
    name = next((i for i in fea.implementations() if impl in i), None) if impl else fea.default_implementation()
    if not name:
        return []
    impl = name
    key, s, n, runs = bytes(range(16)), "1234567890123456", 2000 if quick else 20000, 3 if quick else 7
    records = []
    for variant in (1, 2):
        fea.encrypt_digits(key, s, variant=variant, impl=impl)  # builds and caches the key schedule
        wall, cpu = [], []
        for _ in range(runs):
            w, c = time.perf_counter(), time.thread_time()
            for _ in range(n):
                fea.encrypt_digits(key, s, variant=variant, impl=impl)
            wall.append(n / (time.perf_counter() - w))
            cpu.append(n / max(time.thread_time() - c, 1e-9))
        for op, v in (("python-digits-per-call", wall), ("python-digits-per-call-cpu", cpu)):
            records.append(
                {
                    "family": "fea",
                    "impl": name,
                    "op": op,
                    "param": f"FEA-{variant}/128 16 digits",
                    "size": 1,
                    "platform": platform.machine(),
                    "metric": "values_per_s",
                    "median": statistics.median(v),
                    "min": min(v),
                    "max": max(v),
                    "runs": runs,
                }
            )
    return records


def peer_toolkit():
    """nuri-dev's peer runner (a checkout's bench/peers); NeedsCheckout where it is not installed."""
    from . import dev_toolkit

    return dev_toolkit("peers", "measuring the peer programs (bench/peers)")


def run(family="all", quick=False, impl=None, peers=False, status=None):
    """nuri's records family by family; with peers (a checkout's, built), each family with its peer side
    by side (the compared measurements' runs alternate, nuri, peer, nuri, ..., so that a busy spell of the
    shared machine hits both), then peers of other families."""
    if family == "keysearch":
        return run_keysearch(quick, impl)
    fams = families() if family == "all" else [family]
    P = peer_toolkit() if peers and not impl else None
    progs = P.peer_programs() if P else []
    peer_family = P.PEER_FAMILY if P else {}
    records = []
    done = set()
    for fam in fams:
        if fam == "keysearch":  # not in the C harness: nuri.keysearch times itself (no peer)
            records += run_keysearch(quick, impl)
            continue
        mine = [p for p in progs if peer_family.get(os.path.basename(p)) == fam]
        peer_recs = []
        try:
            if mine:  # the family's first peer runs side by side with nuri, runs alternating
                if fam not in families():
                    raise ValueError(f"unknown benchmark family {fam!r} (have: {', '.join(families())})")
                got, peer_recs = P.run_interleaved(
                    [harness(), fam] + (["--quick"] if quick else []), mine[0], family, quick, status
                )
                records += got
            else:
                records += run_c(fam, quick, impl)
            if fam == "fea":  # per-value calls from Python (the cached key schedule and one C call)
                records += run_fea_per_call(quick, impl)
        except ValueError as e:
            if family != "all":
                raise
            if status is not None:  # one family failing does not hide the others
                status.append((f"benchmarks {fam}", "failed", str(e)))
        records += peer_recs
        for prog in mine[1:]:
            records += P.run_one_peer(prog, family, quick, status)
        done.update(mine)
    for prog in progs:
        if prog not in done and (family == "all" or peer_family.get(os.path.basename(prog)) in (None, family)):
            records += P.run_one_peer(prog, family, quick, status)
    return records
