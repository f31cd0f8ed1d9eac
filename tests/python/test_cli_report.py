"""nuri report: writes index.md, records.json and PNG charts that put measurements beside anchors."""
import json

import pytest

from nuri import anchors
from nuri.cli.main import main

pytest.importorskip("matplotlib")


def test_anchors_are_sourced():
    assert len(anchors.ANCHORS) > 20
    keys = [a["key"] for a in anchors.ANCHORS]
    assert len(keys) == len(set(keys))
    for a in anchors.ANCHORS:
        assert a["value"] > 0 and a["unit"] and a["platform"] and a["source"], a
    assert anchors.by_key("a72-a64-384")["value"] == 336.197
    assert anchors.by_key("x86-pqcrystals-ref-768-keygen")["value"] == 85308
    assert anchors.by_key("rv32-ecb-4blk")["value"] == 59.93


def test_report_quick(tmp_path, capsys):
    out = tmp_path / "rep"
    assert main(["report", "--quick", "--no-cross", "--no-peers", "-o", str(out)]) == 0
    md = (out / "index.md").read_text()
    assert "## Self-test" in md and "not cycles on silicon" in md and "| pipo |" in md
    pngs = sorted(p.name for p in out.glob("*.png"))
    assert pngs == ["fea.png", "mlkem.png", "pipo.png", "sparkle-arm.png", "sparkle-x86.png"]
    for p in out.glob("*.png"):
        b = p.read_bytes()
        assert b[:8] == b"\x89PNG\r\n\x1a\n" and len(b) > 10000
        assert f"({p.name})" in md
    recs = [json.loads(line) for line in (out / "records.json").read_text().splitlines()]
    assert recs and all({"family", "impl", "op", "metric", "median"} <= set(r) for r in recs)
    assert any(r["family"] == "pipo" for r in recs)


def test_report_unwritable():
    assert main(["report", "--quick", "--no-cross", "--no-peers", "-o", "/proc/nuri-report"]) == 2
