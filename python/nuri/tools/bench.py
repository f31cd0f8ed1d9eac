"""Runs the C benchmark harness (and peer programs, when built) and collects JSON records.

Record schema (DESIGN.md principle 7): family, impl, op, param, size, platform, metric,
median, min, max, runs. Peers measured for comparison appear as ``impl: "peer:<name>"``."""
import glob
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


def _repo_root():
    """The source tree holding bench/peers: the CWD or a parent, else the tree this package was built from
    (an editable or in-tree install), else None."""
    from .report import find_repo_file

    p = find_repo_file("bench/peers/Cargo.toml")
    if p:
        return os.path.dirname(os.path.dirname(os.path.dirname(p)))
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the nuri package
    cands = [os.path.dirname(os.path.dirname(here)), os.path.dirname(here)]
    try:
        from .._source_tree import SOURCE_DIR  # written at build time (python/CMakeLists.txt)

        cands.insert(0, SOURCE_DIR)
    except ImportError:
        pass
    for d in cands:
        if os.path.isfile(os.path.join(d, "bench", "peers", "Cargo.toml")):
            return d
    return None


def peer_manifests():
    root = _repo_root()
    if not root:
        return []
    return sorted(glob.glob(os.path.join(root, "bench", "peers", "Cargo.toml"))
                  + glob.glob(os.path.join(root, "bench", "peers", "*", "Cargo.toml")))


def build_peers(log=None):
    """Builds the peer programs with cargo (a no-op when they are up to date). Returns a list of
    (name, status, why), status 'ok', 'failed' or 'skipped'."""
    import shutil

    mans = peer_manifests()
    if not mans:
        return [("peers", "skipped", "bench/peers not found (not run from the source tree; set NURI_PEERS_DIR)")]
    cargo = shutil.which("cargo")
    out = []
    for m in mans:
        name = "peers " + os.path.relpath(os.path.dirname(m), _repo_root())
        if not cargo:
            out.append((name, "skipped", "cargo not installed (peers are built with cargo from the Rust package registry)"))
            continue
        if log:
            log(f"{name}: cargo build --release")
        try:
            p = subprocess.run([cargo, "build", "-q", "--release", "--manifest-path", m], capture_output=True,
                               text=True, timeout=1800)
        except (OSError, subprocess.SubprocessError) as e:
            out.append((name, "failed", f"cargo build: {e}"))
            continue
        if p.returncode:
            tail = (p.stderr.strip().splitlines() or ["no output"])[-1]
            out.append((name, "failed", f"cargo build exit {p.returncode}: {tail}"))
        else:
            out.append((name, "ok", "built"))
    return out


def peer_programs():
    """Peer benchmark binaries: $NURI_PEERS_DIR, else bench/peers/**/target/release/peer_* of the source tree
    (found from the CWD upwards or from where the package was built)."""
    dirs = [os.environ.get("NURI_PEERS_DIR")] if os.environ.get("NURI_PEERS_DIR") else []
    for m in peer_manifests():
        dirs.append(os.path.join(os.path.dirname(m), "target", "release"))
    found = []
    for d in dirs:
        for p in sorted(glob.glob(os.path.join(d, "peer_*"))):
            if os.access(p, os.X_OK) and os.path.isfile(p) and not p.endswith(".d") and p not in found:
                found.append(p)
    return found


def _run_one_peer(prog, family, quick, status):
    name = "peer " + os.path.basename(prog)
    args = [prog] + (["--quick"] if quick else [])
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.SubprocessError) as e:
        if status is not None:
            status.append((name, "failed", str(e)))
        return []
    got = []
    for line in p.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue
            if family in ("all", r.get("family")):
                got.append(r)
    if status is not None:
        if p.returncode:
            tail = (p.stderr.strip().splitlines() or ["no output"])[-1]
            status.append((name, "failed", f"exit {p.returncode}: {tail}"))
        else:
            status.append((name, "ok", f"{len(got)} records"))
    return got


def run_peers(family="all", quick=False, status=None):
    """Records of every built peer program; ``status`` (a list) receives (name, status, why) per program."""
    records = []
    for prog in peer_programs():
        records += _run_one_peer(prog, family, quick, status)
    return records


def run_keysearch(quick=False, impl=None):
    """Key search is measured in Python threads (all cores), not by the one-thread C harness."""
    from ..keysearch import bench as ks_bench

    names = [e for e in ks_bench.usable_engines() if not impl or impl in e]
    return ks_bench.run(quick=quick, engines=names) if names else []


# Which family each peer program measures (it then runs right after nuri's records of that family, so
# that both see the same machine load); peers not listed here run at the end.
PEER_FAMILY = {"peer_ff1": "fea", "peer_ascon": "sparkle", "peer_mlkem": "mlkem"}


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
            records.append({"family": "fea", "impl": name, "op": op, "param": f"FEA-{variant}/128 16 digits",
                            "size": 1, "platform": platform.machine(), "metric": "values_per_s",
                            "median": statistics.median(v), "min": min(v), "max": max(v), "runs": runs})
    return records


def run(family="all", quick=False, impl=None, peers=True, status=None):
    """nuri's records family by family, each family's peers right after it (interleaved, so that a busy
    spell of the shared machine hits both), then peers of other families."""
    if family == "keysearch":
        return run_keysearch(quick, impl)
    fams = families() if family == "all" else [family]
    progs = peer_programs() if peers and not impl else []
    records = []
    done = set()
    for fam in fams:
        if fam == "keysearch":  # not in the C harness: nuri.keysearch times itself (no peer)
            records += run_keysearch(quick, impl)
            continue
        try:
            records += run_c(fam, quick, impl)
            if fam == "fea":  # per-value calls from Python (the cached key schedule and one C call)
                records += run_fea_per_call(quick, impl)
        except ValueError as e:
            if family != "all":
                raise
            if status is not None:  # one family failing does not hide the others
                status.append((f"benchmarks {fam}", "failed", str(e)))
        mine = [p for p in progs if PEER_FAMILY.get(os.path.basename(p)) == fam]
        for prog in mine:
            records += _run_one_peer(prog, family, quick, status)
        done.update(mine)
    for prog in progs:
        if prog not in done and (family == "all" or PEER_FAMILY.get(os.path.basename(prog)) in (None, family)):
            records += _run_one_peer(prog, family, quick, status)
    return records
