#!/usr/bin/env python3
"""Builds each hardware unit with Verilator and runs its cocotb tests (cocotb 1.9.2).

Usage: run.py [--quick | UNIT ...]   (default: every unit; --quick: the make check set).
NURI_HW_TESTCASE=name runs one cocotb test; NURI_HW_PROFILE=1 logs the core cycles per instruction class
(NURI_HW_PROFILE=trace also the cycle at which each instruction started and whether the engine was busy).
Prints 'N passed, N failed' and exits 1 on any
failure; cocotb's own runner does not fail the process when a test fails, so results.xml is read.
"""

import os
import sys
from pathlib import Path

from cocotb.runner import get_results, get_runner

HW = Path(__file__).resolve().parent.parent
RTL = HW / "rtl"
BUILD = Path(os.environ.get("NURI_HW_BUILD", HW.parent / "build" / "hw" / "sim"))

# unit -> (toplevel, sources, parameters)
UNITS = {
    "modq": ("modq_check", ["../tb/modq_check.v"], {}),  # a test module, at time 0
    "keccak": ("keccak_f1600", ["keccak_f1600.v"], {}),
    "sponge": ("keccak_sponge", ["keccak_f1600.v", "keccak_sponge.v"], {}),
    # the core's sponge: input data in lanes 0-16 only
    "sponge_lanes17": ("keccak_sponge", ["keccak_f1600.v", "keccak_sponge.v"], {"DATA_LANES": 17}),
    "sampler": ("sampler_top", ["keccak_f1600.v", "keccak_sponge.v", "sampler.v"], {"NBU": 2}),
    "sampler_nbu1": ("sampler_top", ["keccak_f1600.v", "keccak_sponge.v", "sampler.v"], {"NBU": 1}),
    "sampler_nbu4": ("sampler_top", ["keccak_f1600.v", "keccak_sponge.v", "sampler.v"], {"NBU": 4}),
    "codec": ("codec_top", ["codec.v"], {"NBU": 2}),
    "codec_nbu1": ("codec_top", ["codec.v"], {"NBU": 1}),
    "codec_nbu4": ("codec_top", ["codec.v"], {"NBU": 4}),
    "poly_nbu1": ("poly_engine", ["poly_ram.v", "poly_engine.v"], {"NBU": 1}),
    "poly_nbu2": ("poly_engine", ["poly_ram.v", "poly_engine.v"], {"NBU": 2}),
    "poly_nbu4": ("poly_engine", ["poly_ram.v", "poly_engine.v"], {"NBU": 4}),
}
CORE = ["keccak_f1600.v", "keccak_sponge.v", "sampler.v", "codec.v", "poly_ram.v", "poly_engine.v", "mlkem_core.v"]
for _k, _lvl in ((2, 512), (3, 768), (4, 1024)):
    for _nbu in (1, 2, 4):
        UNITS[f"core{_lvl}_nbu{_nbu}"] = ("mlkem_core", CORE, {"K": _k, "NBU": _nbu})
UNITS["axi768_nbu2"] = ("mlkem_axi", CORE + ["mlkem_axi.v"], {"K": 3, "NBU": 2})
# make check: the units and one full ML-KEM-768 core (NBU = 2; make check-hw then drives the AXI
# wrapper through nuri.hw's Verilator harness); make hw-check: everything
# (codec_nbu4 too: its 8-coefficient words are the only ones wider than a lane, ~25 s)
QUICK = ["modq", "keccak", "sponge", "sponge_lanes17", "sampler", "codec", "codec_nbu4", "poly_nbu2", "core768_nbu2"]


def run(unit, quick=False):
    top, sources, params = UNITS[unit]
    module = "test_" + unit.split("_")[0].rstrip("0123456789")
    runner = get_runner("verilator")
    build_dir = BUILD / unit
    runner.build(
        verilog_sources=[RTL / s for s in sources],
        hdl_toplevel=top,
        build_dir=build_dir,
        parameters=params,
        always=False,
        build_args=["-Wno-fatal", "-Wno-WIDTH"],
        includes=[RTL],
        timescale=("1ns", "1ps"),
    )
    xml = runner.test(
        hdl_toplevel=top,
        test_module=module,
        build_dir=build_dir,
        test_dir=Path(__file__).resolve().parent,
        results_xml=str(build_dir / "results.xml"),
        testcase=os.environ.get("NURI_HW_TESTCASE") or None,
        extra_env={"NURI_HW_CYCLES": str(build_dir / "cycles.json"), "NURI_HW_QUICK": "1" if quick else ""},
    )
    return get_results(xml)


def main(argv):
    quick = argv == ["--quick"]
    if quick:
        argv = QUICK
    units = argv or list(UNITS)
    total = failed = 0
    for u in units:
        n, f = run(u, quick)
        print(f"hw unit {u}: {n - f} passed, {f} failed")
        total += n
        failed += f
    print(f"hw: {total - failed} passed, {failed} failed")
    return 1 if failed or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
