"""ML-KEM benchmarks: the per-step breakdown (`nuri bench mlkem --breakdown`) and the peer records
(bench/peers/mlkem: every peer states the code path it ran)."""

import json
import os
import platform
import subprocess
import sys

import pytest

from nuri import mlkem

STEPS = ["matrix", "cbd", "hash", "mixed", "ntt", "basemul", "pack", "reduce", "other"]


def _nuri(*args):
    return subprocess.run(
        [sys.executable, "-m", "nuri", *args], capture_output=True, text=True, check=True, timeout=600
    ).stdout


def test_breakdown_splits_every_operation_by_step():
    recs = [json.loads(line) for line in _nuri("bench", "mlkem", "--breakdown", "--quick", "--json").splitlines()]
    got = {}
    for r in recs:
        assert r["family"] == "mlkem" and r["metric"] == "cycles" and r["size"] == 1
        op, _, step = r["op"].partition(":")
        got.setdefault((r["impl"], r["param"], op), {})[step] = r["median"]
    impls = set(mlkem.implementations())
    assert {i for i, _, _ in got} == impls
    for (impl, param, op), steps in got.items():
        assert set(steps) == set(STEPS) | {"total"}, (impl, param, op)
        assert steps["total"] > 0 and all(v >= 0 for v in steps.values())
        # the parts never exceed the whole (medians of per-run parts: allow a little slack)
        assert sum(steps[s] for s in STEPS) <= 1.1 * steps["total"], (impl, param, op, steps)
        if impl == "ref":  # the generic path: every kernel is timed on its own
            assert steps["mixed"] == 0
            assert all(steps[s] > 0 for s in ("ntt", "basemul", "hash", "pack", "reduce")), steps
            assert steps["matrix"] > 0 and steps["cbd"] > 0, steps
        if impl == "avx2":  # the sample_many hook: matrix, noise and hashes run together
            assert steps["mixed"] > 0 and steps["matrix"] == 0 and steps["cbd"] == 0, steps
    # the table form: one row per implementation, parameter set and operation
    table = _nuri("bench", "mlkem", "--breakdown", "--quick", "--impl", "ref").splitlines()
    assert table[0].split() == ["impl", "param", "op"] + STEPS + ["total"]
    assert len(table) == 1 + 3 * 3


def test_breakdown_is_mlkem_only():
    p = subprocess.run([sys.executable, "-m", "nuri", "bench", "pipo", "--breakdown"], capture_output=True, text=True)
    assert p.returncode == 2 and "mlkem" in p.stderr


def _peer():
    from nuri_dev import checkout  # the peers are the checkout's (tools/nuri_dev)

    exe = os.path.join(checkout(), "bench", "peers", "mlkem", "target", "release", "peer_mlkem")
    if not os.access(exe, os.X_OK):
        pytest.skip("bench/peers/mlkem not built (make peers; cargo from the Rust package registry)")
    return exe


def test_peer_records_state_their_code_path():
    """The four peers agree on ek, ct and ss for the same seed and m (the program checks before timing and
    fails otherwise), and each record says which code ran: on an x86-64 CPU with AVX2 and BMI2, the AVX2 code
    of every one of them (the build enables it: see bench/peers/mlkem)."""
    p = subprocess.run([_peer(), "--quick"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    recs = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    names = {"peer:libcrux-ml-kem", "peer:pqcrypto-mlkem", "peer:oqs", "peer:aws-lc-rs"}
    assert {r["impl"] for r in recs} == names
    assert {(r["op"], r["param"]) for r in recs} == {
        (op, f"ML-KEM-{n}") for op in ("keygen", "encaps", "decaps") for n in (512, 768, 1024)
    }
    assert len(recs) == 4 * 9
    for r in recs:
        assert r["simd"] in ("avx2", "portable") and r["simd_check"], r
        assert r["median"] > 0 and r["p10"] <= r["median"] <= r["p90"]
    if platform.machine() == "x86_64":
        flags = open("/proc/cpuinfo").read()
        if " avx2" in flags and " bmi2" in flags:
            assert all(r["simd"] == "avx2" for r in recs), [r for r in recs if r["simd"] != "avx2"]
