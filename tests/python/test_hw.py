"""nuri.hw: the ML-KEM hardware core's driver.

The PYNQ device's buffer handling runs against a fake overlay whose DMA answers with the core's
micro-program interpreter (hwfake.py: hw/scripts/gen_prog.py, itself checked against nuri.mlkem here
and by the cocotb tests), at all three levels. The Verilator device (a simulation built from hw/rtl, a few
minutes) runs from `make check-hw`, which sets NURI_HW_SIM=1; elsewhere it is skipped with that
reason.
"""

import os

import pytest

np = pytest.importorskip("numpy")

from hwfake import FakeBuffer, FakeOverlay, K, fake_allocate  # noqa: E402

from nuri import hw, mlkem  # noqa: E402


@pytest.mark.parametrize("level", [512, 768, 1024])
def test_pynq_buffers_against_mlkem(level):
    dev = hw.PynqDevice(overlay=FakeOverlay(K[level]), allocate=fake_allocate)
    assert dev.level == level and dev.nbu == 2
    freed = FakeBuffer.freed
    seed = bytes(range(64))
    ek, dk = hw.keygen(level, seed, device=dev)
    assert (ek, dk) == mlkem.keygen(level, seed)
    assert dev.cycles == (1234, 567)
    assert FakeBuffer.freed == freed + 2
    ss, ct = hw.encaps(level, ek, m=bytes(32), device=dev)
    assert (ss, ct) == mlkem.encaps(level, ek, m=bytes(32))
    assert hw.decaps(level, dk, ct, device=dev) == ss
    bad = bytearray(ct)
    bad[-1] ^= 0x80
    assert hw.decaps(level, dk, bytes(bad), device=dev) == mlkem.decaps(level, dk, bytes(bad)) != ss


def test_pynq_rejections_and_arguments():
    dev = hw.PynqDevice(overlay=FakeOverlay(3), allocate=fake_allocate)
    ek, dk = mlkem.keygen(768, bytes(64))
    bad_ek = bytearray(ek)
    bad_ek[0], bad_ek[1] = 0xFF, 0x0F  # coefficient 4095 >= q
    with pytest.raises(ValueError, match="modulus check"):
        hw.encaps(768, bytes(bad_ek), m=bytes(32), device=dev)
    bad_dk = bytearray(dk)
    bad_dk[768 * 3 + 40] ^= 1  # inside the stored H(ek)
    with pytest.raises(ValueError, match="hash check"):
        hw.decaps(768, bytes(bad_dk), bytes(1088), device=dev)
    with pytest.raises(ValueError, match="ML-KEM-512"):
        hw.keygen(512, bytes(64), device=dev)
    with pytest.raises(ValueError, match="must be 64 bytes"):
        hw.keygen(768, bytes(63), device=dev)
    with pytest.raises(TypeError):
        hw.encaps(768, "not bytes", device=dev)
    try:
        import pynq  # noqa: F401
    except ImportError:
        with pytest.raises(RuntimeError, match="needs the pynq package"):
            hw.PynqDevice("missing.bit")


@pytest.mark.skipif(
    not os.environ.get("NURI_HW_SIM"), reason="the Verilator simulation (minutes to build) runs in make check-hw"
)
def test_verilator_device_against_mlkem():
    level = 768
    dev = hw.simulator(level)
    seed = os.urandom(64)
    ek, dk = hw.keygen(level, seed)
    assert (ek, dk) == mlkem.keygen(level, seed)
    core, io = dev.cycles
    assert 1000 < core < 100000 and io >= (64 + len(ek) + len(dk)) // 8
    m = os.urandom(32)
    ss, ct = hw.encaps(level, ek, m=m)
    assert (ss, ct) == mlkem.encaps(level, ek, m=m)
    assert hw.decaps(level, dk, ct) == ss
    bad = bytearray(ct)
    bad[100] ^= 4
    assert hw.decaps(level, dk, bytes(bad)) == mlkem.decaps(level, dk, bytes(bad))
    bad_ek = bytearray(ek)
    bad_ek[3 * 10 + 2] = 0xFF  # coefficient 21 >= 0xFF0 > q
    with pytest.raises(ValueError, match="modulus check"):
        hw.encaps(level, bytes(bad_ek), m=m)
    bad_dk = bytearray(dk)
    bad_dk[768 * 3 + 33] ^= 1
    with pytest.raises(ValueError, match="hash check"):
        hw.decaps(level, bytes(bad_dk), ct)


def test_report_section(tmp_path):
    """nuri report's hardware section: the records of make hw-report beside the published designs,
    each kind of figure named."""
    import json

    from nuri_dev import report

    assert report.hw_section(str(tmp_path / "missing.json")) == []
    path = tmp_path / "report.json"
    path.write_text(
        json.dumps(
            {
                "family": "mlkem-hw",
                "impl": "bu2",
                "op": "decaps",
                "param": "ML-KEM-768",
                "size": 256,
                "platform": "verilator",
                "metric": "cycles",
                "median": 12345,
                "min": 12345,
                "max": 12345,
                "runs": 1,
            }
        )
        + "\n"
    )
    md = "\n".join(report.hw_section(str(path)))
    assert "| bu2 | decaps | ML-KEM-768 | verilator | cycles | 12345 |" in md
    for words in ("simulation cycles", "synthesis estimates", "post-route Fmax", "170945", "10049"):
        assert words in md


def test_report_takes_the_median_ecp5_seed(monkeypatch):
    # hw/scripts/report.py places the whole core with several seeds and reports the median run
    # (the tools are replaced by canned results: this checks the bookkeeping, not the tools)
    import report

    fmax = {"1": 75.86, "2": 79.63, "3": 77.38, "4": 80.28, "5": 81.53}

    def fake_cached(name, fn, flow=""):
        if name.startswith("ecp5-core768-bu2-seed"):
            seed = name.rsplit("seed", 1)[1]
            return {"fmax_mhz": fmax[seed], "seed": int(seed), "part": "p", "comb": 1, "ff": 1, "critical_path": {}}
        if name.startswith("ecp5-"):
            return {"fmax_mhz": 1.0, "seed": 1}
        return {}

    monkeypatch.setattr(report, "ECP5_SEEDS", list(fmax))
    monkeypatch.setattr(report, "cached", fake_cached)
    out = report.synthesis()
    assert out["ecp5"]["fmax_mhz"] == 79.63 and out["ecp5"]["seed"] == 2
    assert out["ecp5"]["seeds"] == {int(s): f for s, f in fmax.items()}
    assert not any(k.startswith("ecp5-seed") for k in out)
    # an even count takes the lower middle run
    assert report.ecp5_median([{"fmax_mhz": 2.0, "seed": 1}, {"fmax_mhz": 1.0, "seed": 2}])["seed"] == 2


def test_flattened_lut_count_includes_kept_modules():
    # a flattened run with keep_hierarchy modules lists them apart; the totals are in 'design
    # hierarchy' (counting the top module alone would drop the Keccak's theta from the LUT count)
    import report

    stat = """
=== keccak_theta ===
     LUT2                          320
     LUT5                          320
=== mlkem_axi ===
     FDRE                         7000
     LUT6                         5000
     RAM32M16                       10
=== design hierarchy ===
     FDRE                         7000
     LUT2                          320
     LUT5                          320
     LUT6                         5000
     RAM32M16                       10
"""
    mods = report.parse_stat(stat)
    got = report.summary(report.flat_totals(mods, "mlkem_axi"))
    assert got["lut"] == 320 + 320 + 5000 + 80 and got["lutmem"] == 80 and got["ff"] == 7000
    flat = report.parse_stat(stat.split("=== design hierarchy ===")[0])
    assert report.summary(report.flat_totals(flat, "mlkem_axi"))["lut"] == 5080


def test_demo_part_compares_every_output_with_the_c_library(monkeypatch):
    """make demo's hardware part (nuri_dev.hwdemo) on the fake board: ok with its cycles when every output
    equals nuri.mlkem's, FAILED naming the operation when one byte differs, skipped without a simulator."""
    from nuri_dev import hwdemo

    dev = hw.PynqDevice(overlay=FakeOverlay(3), allocate=fake_allocate)
    monkeypatch.setattr(hwdemo, "missing", lambda: None)
    monkeypatch.setattr(hw, "simulator", lambda level, nbu=2: dev)
    recs, (name, status, why) = hwdemo.run(trials=2, log=lambda m: None)
    assert (name, status) == ("ML-KEM hardware", "ok") and "bit-exact with the C library" in why, why
    assert {(r["op"], r["metric"], r["median"]) for r in recs} >= {
        ("decaps", "cycles", 1234),
        ("keygen", "io_cycles", 567),
    }
    assert all(r["runs"] == 2 and r["param"] == "ML-KEM-768" for r in recs)

    real = dev._command

    def one_byte_off(op, data, out_len):
        status, core, io, out = real(op, data, out_len)
        return status, core, io, (bytes([out[0] ^ 1]) + out[1:]) if op == 1 else out  # encaps only

    monkeypatch.setattr(dev, "_command", one_byte_off)
    _, (_, status, why) = hwdemo.run(trials=1, log=lambda m: None)
    assert status == "failed" and "encaps differs from nuri.mlkem" in why, why

    monkeypatch.setattr(hwdemo, "missing", lambda: "not installed: verilator")
    assert hwdemo.run(log=lambda m: None) == ([], ("ML-KEM hardware", "skipped", "not installed: verilator"))
