"""nuri report: writes index.md, records.json and PNG charts that put measurements beside anchors."""

import json

import pytest

from nuri.cli.main import main
from nuri.tools import anchors

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


def test_report_summary_and_exit_status_when_a_part_fails(tmp_path, monkeypatch, capsys):
    """Every part of the report is listed (ok / FAILED / skipped and why) at the top of index.md and at the
    end of the run, and a failed part makes the run exit 1 (make demo must not pass over it)."""
    from nuri.tools import report

    script = tmp_path / "scripts" / "bench-cross.sh"
    script.parent.mkdir()
    script.write_text(
        'if [ "$1" = rv32 ]; then echo "bench-cross: rv32: build failed" >&2; exit 1; fi\n'
        'echo \'{"family": "pipo", "impl": "ref", "op": "ecb", "param": "64/128", "size": 64, '
        '"platform": "x", "metric": "instructions", "median": 1, "min": 1, "max": 1, "runs": 1}\'\n'
    )
    monkeypatch.setattr(report, "find_repo_file", lambda rel: str(script) if rel.endswith("bench-cross.sh") else None)
    monkeypatch.setattr(report, "CROSS_TARGETS", ("rv32", "aarch64", "avr"))
    monkeypatch.setattr(report, "CROSS_TOOLS", {"rv32": ("sh",), "aarch64": ("sh",), "avr": ("no-such-tool-nuri",)})
    out = tmp_path / "rep"
    assert main(["report", "--quick", "--no-peers", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    md = (out / "index.md").read_text()
    head = md[: md.index("## Self-test")]
    assert "## Summary" in head and "1 part(s) of this run FAILED" in head
    assert "| emulated target rv32 | **FAILED** |" in head and "bench-cross: rv32: build failed" in head
    assert "| emulated target aarch64 | ok |" in head
    assert "| emulated target avr | skipped | not installed: no-such-tool-nuri" in head
    assert (
        "| self-test | ok |" in head and "| host benchmarks | ok |" in head and "| peers | skipped | --no-peers" in head
    )
    summary = err[err.index("nuri report summary:") :]
    assert "emulated target rv32" in summary and "FAILED" in summary and "part(s) failed: emulated target rv32" in err


def test_report_summary_all_ok(tmp_path, capsys):
    out = tmp_path / "rep"
    assert main(["report", "--quick", "--no-cross", "--no-peers", "-o", str(out)]) == 0
    md = (out / "index.md").read_text()
    assert md.index("## Summary") < md.index("## Self-test") and "Every part that ran passed" in md
    assert "| emulated targets | skipped | --no-cross |" in md
