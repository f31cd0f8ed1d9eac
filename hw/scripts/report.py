#!/usr/bin/env python3
"""make hw-report: synthesis estimates and simulated cycles of the hardware units as bench records.

Writes build/hw/report.json (one JSON record per line, the bench schema of DESIGN.md, family
`mlkem-hw`). Cycles come from the cocotb runs (build/hw/sim/<unit>/cycles.json, written by
`make check-hw`); LUT/FF/DSP/BRAM counts from Yosys 0.23 `synth_xilinx -flatten -noiopad`
(-family xcup and xc7). These are Yosys estimates, not Vivado results, and they cover the units
built so far (the Keccak core and the polynomial engine), not a whole ML-KEM core.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

HW = Path(__file__).resolve().parent.parent
RTL = HW / "rtl"
BUILD = HW.parent / "build" / "hw"
CELLS = {"lut": r"LUT\d", "ff": r"FD[A-Z]+", "dsp": r"DSP48E\d", "ramb18": r"RAMB18E\d", "ramb36": r"RAMB36E\d"}


def synth(top, sources, family, params=None):
    chparam = "".join(f"chparam -set {k} {v} {top}; " for k, v in (params or {}).items())
    stat = BUILD / f"stat-{top}-{family}-{'-'.join(f'{k}{v}' for k, v in (params or {}).items())}.txt"
    script = (f"read_verilog -I {RTL} " + " ".join(str(RTL / s) for s in sources) + "; " + chparam +
              f"synth_xilinx -family {family} -flatten -noiopad -top {top}; tee -q -o {stat} stat")
    subprocess.run(["yosys", "-q", "-p", script], check=True, stdout=subprocess.DEVNULL)
    counts = {k: 0 for k in CELLS}
    for line in stat.read_text().splitlines():
        m = re.match(r"\s+(\S+)\s+(\d+)$", line)
        if m:
            for k, pat in CELLS.items():
                if re.fullmatch(pat, m.group(1)):
                    counts[k] += int(m.group(2))
    return {"lut": counts["lut"], "ff": counts["ff"], "dsp": counts["dsp"],
            "bram36": counts["ramb36"] + counts["ramb18"] / 2}


def record(impl, op, platform, metric, value):
    return {"family": "mlkem-hw", "impl": impl, "op": op, "param": "ML-KEM", "size": 256,
            "platform": platform, "metric": metric, "median": value, "min": value, "max": value, "runs": 1}


def main():
    BUILD.mkdir(parents=True, exist_ok=True)
    recs = []
    for nbu in (1, 2, 4):
        cyc = BUILD / "sim" / f"poly_nbu{nbu}" / "cycles.json"
        if not cyc.exists():
            sys.exit(f"hw-report: {cyc} missing: run make check-hw first")
        for op, n in json.loads(cyc.read_text())["cycles"].items():
            recs.append(record(f"bu{nbu}", f"poly-{op}", "verilator", "cycles", n))
        for fam in ("xcup", "xc7"):
            for metric, v in synth("poly_engine", ["poly_ram.v", "poly_engine.v"], fam, {"NBU": nbu}).items():
                recs.append(record(f"bu{nbu}", "poly-engine", f"yosys-{fam}", metric, v))
    for fam in ("xcup", "xc7"):
        for metric, v in synth("keccak_f1600", ["keccak_f1600.v"], fam).items():
            recs.append(record("keccak", "keccak-f1600", f"yosys-{fam}", metric, v))
    recs.append(record("keccak", "keccak-f1600", "verilator", "cycles", 24))
    out = BUILD / "report.json"
    out.write_text("".join(json.dumps(r) + "\n" for r in recs))
    for r in recs:
        print(f"{r['impl']:7} {r['op']:14} {r['platform']:13} {r['metric']:7} {r['median']}")
    print(f"hw-report: {len(recs)} records in {out}")


if __name__ == "__main__":
    main()
