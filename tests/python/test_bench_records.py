"""issue 11, honest benchmarks: a robust spread (p10-p90) and a busy flag in every record, peers found
from any directory and run right after their family, and Ascon shown with the faster published C."""
import os

import pytest

from nuri.tools import anchors, bench


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
    mans = bench.peer_manifests()
    assert any(m.endswith(os.path.join("bench", "peers", "Cargo.toml")) for m in mans), mans
    names = {os.path.basename(os.path.dirname(m)) for m in mans}
    assert {"peers", "ascon"} <= names


def test_peers_run_right_after_their_family(monkeypatch):
    calls = []
    monkeypatch.setattr(bench, "families", lambda: ["pipo", "fea", "sparkle", "mlkem"])
    monkeypatch.setattr(bench, "run_c", lambda fam, quick, impl: calls.append(("nuri", fam)) or [])
    monkeypatch.setattr(bench, "peer_programs", lambda: ["/x/peer_ascon", "/x/peer_ff1", "/x/peer_other"])
    monkeypatch.setattr(bench, "_run_one_peer", lambda prog, fam, quick, st: calls.append(("peer", prog)) or [])
    bench.run("all", quick=True)
    assert calls == [("nuri", "pipo"), ("nuri", "fea"), ("peer", "/x/peer_ff1"), ("nuri", "sparkle"),
                     ("peer", "/x/peer_ascon"), ("nuri", "mlkem"), ("peer", "/x/peer_other")]


def test_ascon_shown_with_the_faster_published_c():
    for key, value in (("epyc-ascon-aead128", 5.1), ("epyc-ascon-hash256", 15.0)):
        a = anchors.by_key(key)
        assert a["value"] == value and "ascon-c" in a["source"] or "Ascon team" in a["source"]
    pytest.importorskip("matplotlib")
    import inspect

    from nuri.tools import report

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
