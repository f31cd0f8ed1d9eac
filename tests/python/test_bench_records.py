"""Honest benchmarks: a robust spread (p10-p90) and a busy flag in every record, peers found in the
checkout from any directory and run side by side with their family (compared runs alternating), and
Ascon shown with the faster published C."""

import os

import pytest

from nuri.tools import bench
from nuri_dev import anchors, peers


def test_records_have_a_robust_spread_and_a_busy_flag():
    recs = bench.run_c("sparkle", quick=True, impl="ref")
    assert recs
    for r in recs:
        assert {"median", "min", "max", "runs", "p10", "p90", "load", "busy"} <= set(r), r
        assert r["min"] <= r["p10"] <= r["median"] <= r["p90"] <= r["max"], r
        assert isinstance(r["busy"], bool)
        spread = r["p10"] > 0 and r["p90"] > 1.25 * r["p10"]
        if spread or r["load"] >= os.cpu_count():
            assert r["busy"], r


def test_peers_found_from_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NURI_PEERS_DIR", raising=False)
    mans = peers.peer_manifests()
    assert any(m.endswith(os.path.join("bench", "peers", "Cargo.toml")) for m in mans), mans
    names = {os.path.basename(os.path.dirname(m)) for m in mans}
    assert {"peers", "ascon"} <= names


def test_peers_run_side_by_side_with_their_family(monkeypatch):
    calls = []
    monkeypatch.setattr(bench, "families", lambda: ["pipo", "fea", "sparkle", "mlkem"])
    monkeypatch.setattr(bench, "run_c", lambda fam, quick, impl: calls.append(("nuri", fam)) or [])
    monkeypatch.setattr(bench, "run_fea_per_call", lambda quick, impl: [])
    monkeypatch.setattr(
        peers, "run_interleaved", lambda args, prog, fam, quick, st: calls.append(("both", args[1], prog)) or ([], [])
    )
    monkeypatch.setattr(peers, "peer_programs", lambda: ["/x/peer_ascon", "/x/peer_ff1", "/x/peer_other"])
    monkeypatch.setattr(peers, "run_one_peer", lambda prog, fam, quick, st: calls.append(("peer", prog)) or [])
    bench.run("all", quick=True, peers=True)
    assert calls == [
        ("nuri", "pipo"),
        ("both", "fea", "/x/peer_ff1"),
        ("both", "sparkle", "/x/peer_ascon"),
        ("nuri", "mlkem"),
        ("peer", "/x/peer_other"),
    ]


FAKE_PEER = r"""
import os, sys, time
r, w = (int(x) for x in os.environ["NURI_BENCH_BATON"].split(","))
log = open(sys.argv[1], "a")
time.sleep(float(sys.argv[2]))  # untimed set-up: nuri may reach the compared measurement first
for tag, runs in (("", 1), (sys.argv[3], int(sys.argv[4])), ("", 1)):
    for _ in range(runs):
        os.write(w, f"R {tag}\n".encode())
        assert os.read(r, 1) == b"G"
        log.write(f"run {tag}\n")
        log.flush()
        os.write(w, b"D\n")
print('{"family": "sparkle", "impl": "peer:fake", "op": "aead-encrypt", "param": "x", "size": 4096, '
      '"platform": "x", "metric": "cpb", "median": 1, "min": 1, "max": 1, "runs": %s}' % sys.argv[4])
"""


@pytest.mark.parametrize("delay", [0, 1.0])
def test_nuri_and_peer_runs_alternate(tmp_path, delay):
    """nuri's harness and a peer run side by side, one timed run at a time, and the runs of the
    compared measurement (tag "aead-encrypt 4096": nuri's public Schwaemm256-128 call at 4 KiB) alternate
    nuri, peer, nuri, ..., whichever of the two reaches the compared measurement first."""
    peer = tmp_path / "peer_fake"
    peer.write_text("#!" + __import__("sys").executable + "\n" + FAKE_PEER)
    peer.chmod(0o755)
    log, trace, status = tmp_path / "log", [], []
    args = [bench.harness(), "sparkle", "--quick"]
    # the peer program gets its arguments through a wrapper script: log file, set-up seconds, the compared
    # tag and its number of runs (5, as nuri's --quick)
    wrapper = tmp_path / "peer_wrap"
    wrapper.write_text(f"#!/bin/sh\nexec {peer} {log} {delay} 'aead-encrypt 4096' 5\n")
    wrapper.chmod(0o755)
    mine, theirs = peers.run_interleaved(args, str(wrapper), "sparkle", True, status, trace=trace)
    assert any(r["impl"] == "api" and r["op"] == "aead-encrypt" and r["size"] == 4096 for r in mine)
    assert [r["impl"] for r in theirs] == ["peer:fake"], status
    assert status and status[0][1] == "ok" and "alternated with nuri's on 1 comparison" in status[0][2], status
    paired = [who for who, tag in trace if tag == "aead-encrypt 4096"]
    assert paired == [0, 1] * 5, trace
    # every run of the peer got its turn, each handed out once
    assert log.read_text().count("run ") == 7 == sum(1 for who, _ in trace if who == 1)


def test_ascon_shown_with_the_faster_published_c():
    for key, value in (("epyc-ascon-aead128", 5.1), ("epyc-ascon-hash256", 15.0)):
        a = anchors.by_key(key)
        assert a["value"] == value and "ascon-c" in a["source"] or "Ascon team" in a["source"]
    pytest.importorskip("matplotlib")
    import inspect

    from nuri_dev import report

    assert "epyc-ascon-aead128" in inspect.getsource(report.chart_sparkle)


def test_public_api_timed_beside_the_kernels():
    """The dispatching entry points users call ("api") are timed beside the kernels: the permutation,
    and Schwaemm256-128 / Esch256 on 64-byte and 4 KiB single messages, with opt at 64 bytes beside them."""
    recs = bench.run_c("sparkle", quick=True, impl="api") + bench.run_c("sparkle", quick=True, impl="opt")
    api = {(r["op"], r["param"], int(r["size"])) for r in recs if r["impl"] == "api"}
    opt = {(r["op"], r["param"], int(r["size"])) for r in recs if r["impl"] == "opt"}
    assert ("permute", "SPARKLE384-11", 1) in api and ("permute", "SPARKLE384-11", 1) in opt
    for op, param in (("aead-encrypt", "Schwaemm256-128"), ("aead-decrypt", "Schwaemm256-128"), ("hash", "Esch256")):
        for size in (64, 4096):
            assert (op, param, size) in api and (op, param, size) in opt, (op, size)
