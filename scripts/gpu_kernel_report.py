#!/usr/bin/env python3
"""Writes build/gpu/kernel-report.json for the key-search CUDA kernels from nvcc's outputs:
`-Xptxas -v` logs (registers, spill bytes) and the PTX (lop3.b32 count). Exits 1 if a kernel
spills or PIPO-64/128 needs more than 96 LOP3 per key.

The counts come from PTX, not SASS: the pip wheels have no nvdisasm, so `cuobjdump -sass` cannot
run here. The kernel emits its S-box and key additions as explicit lop3.b32 (ks_bitplane.cuh), so
the PTX count is the kernel's own operation count; ptxas may fuse the remaining plain and/or/xor/not
further (reported as logic_per_key, an upper bound). Rates for H100 SXM and RTX 3060 are ESTIMATES:
SMs x 64 logic ops per clock x boost clock / logic ops per key; no GPU ran this code."""

import argparse
import json
import re
import sys

GPUS = {"h100-sxm": (132, 1.98e9, "sm_90"), "rtx3060": (28, 1.777e9, "sm_80")}  # sm_86 runs sm_80 code
KERNELS = {
    "nuri_ks_kernel_128": ("pipo-64/128", 13),
    "nuri_ks_kernel_256": ("pipo-64/256", 17),
    "nuri_ks_ctr_128": ("pipo-64/128 ctr", 13),
    "nuri_ks_ctr_256": ("pipo-64/256 ctr", 17),
}


def ptx_functions(text):
    """{entry name: body} of a PTX file."""
    out = {}
    for m in re.finditer(r"\.entry\s+(\w+)\s*\((.*?)\n\}", text, re.S):
        out[m.group(1)] = m.group(2)
    return out


def ptxas_info(log):
    """{entry: (registers, spill bytes)} from a -Xptxas -v log."""
    info, cur = {}, None
    for line in log.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            cur = m.group(1)
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and cur:
            info.setdefault(cur, [0, 0])[1] = int(m.group(1)) + int(m.group(2))
        m = re.search(r"Used (\d+) registers", line)
        if m and cur:
            info.setdefault(cur, [0, 0])[0] = int(m.group(1))
    return info


def record(arch, param, metric, value):
    return {
        "family": "keysearch",
        "impl": f"cuda-{arch}",
        "op": "search",
        "param": param,
        "size": 32,
        "platform": "nvcc-ptx (no GPU)",
        "metric": metric,
        "median": value,
        "min": value,
        "max": value,
        "runs": 1,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", action="append", nargs=3, metavar=("ARCH", "PTX", "LOG"), required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--max-lop3", type=float, default=96.0)
    a = ap.parse_args()
    records, failures = [], []
    for arch, ptx_path, log_path in a.arch:
        funcs = ptx_functions(open(ptx_path).read())
        info = ptxas_info(open(log_path).read())
        for name, (param, _rounds) in KERNELS.items():
            body = funcs.get(name)
            if body is None or name not in info:
                failures.append(f"{arch}: {name} missing from the PTX or the ptxas log")
                continue
            lop3 = len(re.findall(r"\blop3\.b32\b", body))
            logic = lop3 + len(re.findall(r"\b(?:and|or|xor|not)\.b32\b", body))
            regs, spill = info[name]
            per_key, logic_key = lop3 / 32, logic / 32  # per key, or per block for the CTR kernels
            records += [
                record(arch, param, "registers", regs),
                record(arch, param, "spill_bytes", spill),
                record(arch, param, "lop3_per_key", per_key),
                record(arch, param, "logic_per_key", logic_key),
            ]
            unit = "blocks" if "ctr" in param else "keys"
            if "ctr" in param:
                records[-2]["metric"], records[-1]["metric"] = "lop3_per_block", "logic_per_block"
            for gpu, (sms, clock, garch) in GPUS.items():
                if garch == arch:
                    records.append(record(arch, param, f"{unit}_per_s_estimate_{gpu}", sms * 64 * clock / logic_key))
            if spill:
                failures.append(f"{arch} {name}: {spill} spill bytes")
            if param == "pipo-64/128" and per_key > a.max_lop3:
                failures.append(f"{arch} {name}: {per_key:.1f} lop3 per key > {a.max_lop3}")
            print(
                f"{arch} {name}: {regs} registers, {spill} spill bytes, {per_key:.2f} lop3/{unit[:-1]} (PTX), "
                f"{logic_key:.2f} logic ops/{unit[:-1]}"
            )
    with open(a.out, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    for msg in failures:
        print(f"kernel-report: FAIL {msg}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
