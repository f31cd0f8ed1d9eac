"""Peer programs: other projects' implementations, built with cargo from the Rust package registry
(bench/peers: FF1, Ascon, ML-KEM), measured in the same run as nuri's harness. ``nuri bench`` runs
them through :func:`run_interleaved`: the runs of a nuri measurement and of the peer's measurement
with the same tag alternate (nuri, peer, nuri, ...), one timed run at a time, so both see the same
machine at the same time. Peer records carry ``impl: "peer:<name>"``."""

import glob
import json
import os
import subprocess
import tempfile

from . import checkout

# Which family each peer program measures: it runs side by side with nuri's harness for that family, the
# runs of the compared measurements alternating (run_interleaved); peers not listed here run at the end.
PEER_FAMILY = {"peer_ff1": "fea", "peer_ascon": "sparkle", "peer_mlkem": "mlkem"}


def peer_manifests():
    """The Cargo manifests of the peer programs in the checkout's bench/peers."""
    root = str(checkout())
    return sorted(
        glob.glob(os.path.join(root, "bench", "peers", "Cargo.toml"))
        + glob.glob(os.path.join(root, "bench", "peers", "*", "Cargo.toml"))
    )


def build_peers(log=None):
    """Builds the peer programs with cargo (a no-op when they are up to date). Returns a list of
    (name, status, why), status 'ok', 'failed' or 'skipped'."""
    import shutil

    mans = peer_manifests()
    if not mans:
        return [("peers", "skipped", "no Cargo manifest in bench/peers")]
    cargo = shutil.which("cargo")
    out = []
    for m in mans:
        name = "peers " + os.path.relpath(os.path.dirname(m), checkout())
        if not cargo:
            out.append(
                (name, "skipped", "cargo not installed (peers are built with cargo from the Rust package registry)")
            )
            continue
        if log:
            log(f"{name}: cargo build --release")
        try:
            # run in the peer's folder: its .cargo/config.toml (build flags such as target-cpu) applies
            p = subprocess.run(
                [cargo, "build", "-q", "--release", "--manifest-path", m],
                capture_output=True,
                text=True,
                timeout=1800,
                cwd=os.path.dirname(m),
            )
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
    """Peer benchmark binaries: those in $NURI_PEERS_DIR, and bench/peers/**/target/release/peer_* of the
    checkout (built by build_peers or `make peers`)."""
    dirs = [os.environ.get("NURI_PEERS_DIR")] if os.environ.get("NURI_PEERS_DIR") else []
    for m in peer_manifests():
        dirs.append(os.path.join(os.path.dirname(m), "target", "release"))
    found = []
    for d in dirs:
        for p in sorted(glob.glob(os.path.join(d, "peer_*"))):
            if os.access(p, os.X_OK) and os.path.isfile(p) and not p.endswith(".d") and p not in found:
                found.append(p)
    return found


def _peer_records(stdout, family):
    got = []
    for line in stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue
            if family in ("all", r.get("family")):
                got.append(r)
    return got


def _peer_status(status, name, returncode, stderr, got, extra=""):
    if status is None:
        return
    if returncode:
        tail = (stderr.strip().splitlines() or ["no output"])[-1]
        status.append((name, "failed", f"exit {returncode}: {tail}"))
    else:
        status.append((name, "ok", f"{len(got)} records{extra}"))


def run_one_peer(prog, family, quick, status):
    name = "peer " + os.path.basename(prog)
    args = [prog] + (["--quick"] if quick else [])
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.SubprocessError) as e:
        if status is not None:
            status.append((name, "failed", str(e)))
        return []
    got = _peer_records(p.stdout, family)
    _peer_status(status, name, p.returncode, p.stderr, got)
    return got


class _Baton:
    """One child under the baton (see nuri_bench_pair in bench/bench.h and bench/peers/baton.rs): it
    asks for each run with "R <tag>" on its pipe, gets one byte back, and says "D" when the run is over."""

    def __init__(self, args):
        d2c_r, self.go = os.pipe()
        self.ask, c2d_w = os.pipe()
        self.out, self.err = tempfile.TemporaryFile(mode="w+"), tempfile.TemporaryFile(mode="w+")
        env = dict(os.environ, NURI_BENCH_BATON=f"{d2c_r},{c2d_w}")
        try:
            self.proc = subprocess.Popen(args, stdout=self.out, stderr=self.err, env=env, pass_fds=(d2c_r, c2d_w))
        finally:
            os.close(d2c_r)
            os.close(c2d_w)
        self.buf, self.waiting, self.last_tag, self.passed, self.alive = b"", None, None, set(), True

    def lines(self, data):
        self.buf += data
        *done, self.buf = self.buf.split(b"\n")
        return [d.decode(errors="replace") for d in done]

    def close(self):
        self.alive, self.waiting = False, None
        for fd in (self.ask, self.go):
            try:
                os.close(fd)
            except OSError:
                pass


def _next_turn(kids, last):
    """Which waiting child runs next (None: wait for news). Runs tagged alike alternate (ABAB); a child
    waiting at a tag its partner may still reach waits for it, unless both wait at different tags."""
    waiting = [c for c in kids if c.waiting is not None]
    if not waiting:
        return None
    if len(waiting) == 1:
        c = waiting[0]
        if c.waiting and any(o is not c and o.alive and c.waiting not in o.passed for o in kids):
            return None  # the partner is between runs and may still come to this tag
        return c
    a, b = waiting[0], waiting[1]
    if a.waiting == b.waiting and a.waiting:
        return b if last.get(a.waiting) is a else a
    for c in waiting:  # a warm-up or an unpaired measurement goes first
        if not c.waiting:
            return c
    for c in waiting:  # a tag the other has already left behind
        if any(c.waiting in o.passed for o in waiting if o is not c):
            return c
    return a  # nuri goes on until it reaches the peer's tag


def run_interleaved(harness_args, peer, family, quick, status, timeout=1800, trace=None):
    """Runs nuri's harness (harness_args) and one peer program side by side, one timed run at a time: every
    run of each asks this driver for its turn, and the runs of a nuri measurement and the peer's
    measurement with the same tag alternate (nuri, peer, nuri, ...), so both see the same machine at the
    same time. Returns (nuri records, peer records); a failing harness raises CalledProcessError.
    trace (a list) receives (0 for nuri / 1 for the peer, tag) for every run handed out."""
    import selectors
    import time

    name = "peer " + os.path.basename(peer)
    nuri = _Baton(harness_args)
    try:
        other = _Baton([peer] + (["--quick"] if quick else []))
    except OSError as e:
        if status is not None:
            status.append((name, "failed", str(e)))
        other = None
    kids = [k for k in (nuri, other) if k]
    sel = selectors.DefaultSelector()
    for k in kids:
        sel.register(k.ask, selectors.EVENT_READ, k)
    running, last, alternated, deadline = None, {}, {}, time.monotonic() + timeout
    while any(k.alive for k in kids):
        if running is None:
            k = _next_turn(kids, last)
            if k is not None:
                if k.waiting and last.get(k.waiting) not in (None, k):
                    alternated[k.waiting] = alternated.get(k.waiting, 0) + 1
                if k.waiting:
                    last[k.waiting] = k
                if trace is not None:
                    trace.append((kids.index(k), k.waiting))
                k.waiting, running = None, k
                try:
                    os.write(k.go, b"G")
                except OSError:
                    running = None
        if time.monotonic() > deadline:
            for k in kids:
                k.proc.kill()
        for key, _ in sel.select(timeout=1.0):
            k = key.data
            data = os.read(k.ask, 4096)
            if not data:  # the child exited (or closed its end): the other runs freely
                sel.unregister(k.ask)
                k.close()
                if running is k:
                    running = None
                continue
            for line in k.lines(data):
                if line == "D" and running is k:
                    running = None
                elif line.startswith("R "):
                    tag = line[2:]
                    if k.last_tag and k.last_tag != tag:
                        k.passed.add(k.last_tag)
                    k.last_tag, k.waiting = tag, tag
    results = []
    for k in kids:
        k.proc.wait()
        k.out.seek(0), k.err.seek(0)
        results.append((k.proc.returncode, k.out.read(), k.err.read()))
        k.out.close(), k.err.close()
    rc, out, err = results[0]
    if rc:
        raise subprocess.CalledProcessError(rc, harness_args, out, err)
    mine = [json.loads(line) for line in out.splitlines() if line.strip().startswith("{")]
    theirs = []
    if other:
        prc, pout, perr = results[1]
        theirs = _peer_records(pout, family)
        n = sum(1 for v in alternated.values() if v)
        _peer_status(
            status,
            name,
            prc,
            perr,
            theirs,
            f"; runs alternated with nuri's on {n} comparison(s) ({sum(alternated.values())} hand-overs)",
        )
    return mine, theirs
