"""nuri report: writes index.md, records.json and PNG charts that put measurements beside anchors."""

import json
import shutil

import pytest

from nuri.cli.main import main
from nuri_dev import anchors

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
    assert anchors.by_key("rtx3060-pipo-keysearch")["value"] == 1.95685e10
    assert anchors.by_key("xl21-768-decaps")["value"] == 10049


def test_report_quick(tmp_path, capsys):
    out = tmp_path / "rep"
    assert main(["report", "--quick", "--no-cross", "--no-peers", "--no-hw", "-o", str(out)]) == 0
    md = (out / "index.md").read_text()
    assert "## Self-test" in md and "not cycles on silicon" in md and "| pipo |" in md
    pngs = sorted(p.name for p in out.glob("*.png"))
    assert pngs == ["fea.png", "keysearch.png", "mlkem.png", "pipo.png", "sparkle-arm.png", "sparkle-x86.png"]
    for p in out.glob("*.png"):
        b = p.read_bytes()
        assert b[:8] == b"\x89PNG\r\n\x1a\n" and len(b) > 10000
        assert f"({p.name})" in md
    recs = [json.loads(line) for line in (out / "records.json").read_text().splitlines()]
    assert recs and all({"family", "impl", "op", "metric", "median"} <= set(r) for r in recs)
    assert any(r["family"] == "pipo" for r in recs)


def test_report_unwritable():
    assert main(["report", "--quick", "--no-cross", "--no-peers", "--no-hw", "-o", "/proc/nuri-report"]) == 2


def test_report_summary_and_exit_status_when_a_part_fails(tmp_path, monkeypatch, capsys):
    """Every part of the report is listed (ok / FAILED / skipped and why) near the top of index.md and at
    the end of the run, and a failed part makes the run exit 1 (make demo must not pass over it)."""
    from nuri_dev import report

    script = tmp_path / "scripts" / "bench-cross.sh"
    script.parent.mkdir()
    script.write_text(
        'if [ "$1" = rv32 ]; then echo "bench-cross: rv32: build failed" >&2; exit 1; fi\n'
        'echo \'{"family": "pipo", "impl": "ref", "op": "ecb", "param": "64/128", "size": 64, '
        '"platform": "x", "metric": "instructions", "median": 1, "min": 1, "max": 1, "runs": 1}\'\n'
    )
    monkeypatch.setattr(report, "cross_script", lambda: str(script))
    monkeypatch.setattr(report, "CROSS_TARGETS", ("rv32", "aarch64", "avr"))
    monkeypatch.setattr(report, "CROSS_TOOLS", {"rv32": ("sh",), "aarch64": ("sh",), "avr": ("no-such-tool-nuri",)})
    out = tmp_path / "rep"
    assert main(["report", "--quick", "--no-peers", "--no-hw", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    md = (out / "index.md").read_text()
    head = md[: md.index("## Self-test")]
    assert "## Summary of this run" in head and "1 part(s) of this run FAILED" in head
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
    assert main(["report", "--quick", "--no-cross", "--no-peers", "--no-hw", "-o", str(out)]) == 0
    md = (out / "index.md").read_text()
    assert md.index("## Summary") < md.index("## Self-test") and "Every part that ran passed" in md
    assert "| emulated targets | skipped | --no-cross |" in md
    assert "| ML-KEM hardware | skipped | --no-hw |" in md
    assert "| hardware-sealed video | skipped | --no-hw |" in md


def test_report_opens_with_headline_figures_beside_peers():
    """The first screen: one row a system, nuri's best in this run beside a peer of the same run when
    there is one (else a published figure), with the comparison worked out from the two medians."""
    from nuri_dev import report

    def rec(family, impl, op, param, metric, median, size=1):
        return dict(family=family, impl=impl, op=op, param=param, metric=metric, median=median, size=size)

    recs = [
        rec("mlkem", "avx2", "decaps", "ML-KEM-768", "cycles", 20000),
        rec("mlkem", "ref", "decaps", "ML-KEM-768", "cycles", 90000),
        rec("mlkem", "peer:libcrux-ml-kem", "decaps", "ML-KEM-768", "cycles", 30000),
        rec("fea", "aesni", "digits-encrypt", "FEA-1/128 16 digits", "values_per_s", 3e6, 1000),
        rec("keysearch", "avx512", "search", "pipo-64/128 k=40 threads=2", "keys_per_s", 1.2e9),
        rec("keysearch", "portable", "search", "pipo-64/128 k=40 threads=2", "keys_per_s", 1e8),
    ]
    hw = [rec("mlkem-hw", "bu2", "decaps", "ML-KEM-768", "cycles", 5000)]
    rows = {r[0]: r for r in report.headline(recs, (), hw)}
    kem = rows["ML-KEM-768 decaps"]
    assert kem[1] == "20,000 ticks (avx2)" and kem[2].startswith("libcrux-ml-kem (same run): 30,000;")
    assert kem[3] == "1.50x faster"
    even = report.headline([dict(recs[0], median=29700)] + recs[1:])
    assert even[[r[0] for r in even].index("ML-KEM-768 decaps")][3] == "even (within 2%)"
    fea = rows["FEA-1/128, 16-digit values, 1 core"]  # no peer in this run: the published FF1 figure
    assert fea[2].startswith("FF1 AES-128") and fea[3] == f"{3e6 / 297e3:.2f}x faster"
    assert rows["ML-KEM-768 hardware core decaps (NBU 2, simulated)"][3] == f"{10049 / 5000:.2f}x faster"
    ks = next(r for k, r in rows.items() if k.startswith("PIPO key search, per CPU thread"))
    assert ks[1] == "600 M keys/s (avx512)" and ks[3] == f"{0.85 / 0.6:.2f}x slower"
    assert "PIPO key search, GPU" not in rows  # no GPU record: no row


@pytest.mark.skipif(not shutil.which("verilator"), reason="the hardware core's simulation needs verilator")
def test_report_runs_the_hardware_core_and_key_search(tmp_path):
    """make demo shows every system: the ML-KEM hardware core in simulation, bit-exact with the C library,
    and key search, each a part of the summary with a chart, and the headline table first."""
    out = tmp_path / "rep"
    assert main(["report", "--quick", "--no-cross", "--no-peers", "-o", str(out)]) == 0
    md = (out / "index.md").read_text()
    assert md.index("## Headline figures") < md.index("## Summary of this run") < md.index("## Self-test")
    head = md[: md.index("## Self-test")]
    assert "| ML-KEM hardware | ok | ML-KEM-768 NBU 2 in Verilator: keygen " in head
    assert "bit-exact with the C library" in head and "| key search | ok |" in head
    if shutil.which("ffmpeg"):  # one clip sealed by nuri video seal --kem-impl hw, opened by software
        assert "| hardware-sealed video | ok | 2 s 320x180 H.264 sealed with nuri video seal --kem-impl hw" in head
        assert (out / "hw-sealed-clip" / "sealed" / "stream.nseal").exists()
    assert "ML-KEM-768 hardware core decaps (NBU 2, simulated)" in head
    assert "(mlkem-hw.png)" in md and "(keysearch.png)" in md
    recs = [json.loads(line) for line in (out / "records.json").read_text().splitlines()]
    hw = {r["op"]: r["median"] for r in recs if r["family"] == "mlkem-hw" and r["metric"] == "cycles"}
    assert set(hw) == {"keygen", "encaps", "decaps"} and all(1000 < v < 20000 for v in hw.values())
    assert {r["impl"] for r in recs if r["family"] == "keysearch"} >= {"portable", "ref"}


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg not installed")
def test_demo_clip_leaves_stdin_alone(tmp_path):
    # ffmpeg reads keys from its stdin unless told not to: making the demo's clip must not eat what a
    # caller pipes to make (a script running `make demo` and then the next command from the same input)
    import subprocess
    import sys

    prog = (
        "import sys; from nuri_dev import hwdemo; "
        f"hwdemo.make_clip({str(tmp_path)!r}, size='64x64', seconds=1, fps=5); "
        "print(sys.stdin.read(), end='')"
    )
    r = subprocess.run([sys.executable, "-c", prog], input="the next command\n", capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "the next command\n"
