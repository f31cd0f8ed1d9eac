#!/usr/bin/env python3
"""Writes build/gpu/kernel-report.json: instructions per key of the key-search kernels, counted in
SASS (`cuobjdump -sass` of what the pinned ptxas makes), per kernel and per GPU architecture.

Kernels: the one specialised for the benchmark's 40-unknown-bit searches (nuri.keysearch.bench
TEMPLATES; the PTX nuri emits at run time, assembled here as the driver would JIT-compile it) and the
fatbin's generic kernels (build/gpu/ks_kernel.sm_XX.cubin from scripts/gpu_fatbin.py).
Per key = per batch of 32 candidates / 32, with the round loop counted once per iteration and the
last round's 7 columns weighted by the share of batches that pass the early abort
(scripts/gpu_sass.py). Also checks the shipped fatbin with `cuobjdump --list-elf --list-ptx`.

Exits 1 when a kernel spills, when the specialised PIPO-64/128 kernel needs more than 80 LOP3 or 4
LDS per key on any architecture, or when the fatbin lacks SASS for sm_75/80/86/89/90 or its PTX.
The rates are not measured here (no GPU): `ceiling_keys_per_sm_clock` is 64 logic operations per
SM per clock over the ALU-pipe instructions per key (LOP3, shifts, compares, integer adds)."""

import argparse
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import gpu_sass  # noqa: E402

ARCHS = ("75", "80", "86", "89", "90", "100", "120")
ALU = ("LOP3", "SHF", "SGXT", "ISETP", "IADD3", "VIADD", "LEA", "IMAD", "FLO", "BREV", "POPC", "SEL", "MOV")
FATBIN = os.path.join(ROOT, "python", "nuri", "keysearch", "ks_kernel.fatbin")


def tools():
    root = glob.glob(os.path.join(ROOT, ".venv", "lib", "python3*", "site-packages", "nvidia"))
    if not root:
        sys.exit("gpu_kernel_report: no CUDA toolkit wheels in .venv (make gpu installs them)")
    r = root[0]
    env = dict(os.environ, PATH=os.path.join(r, "cu13", "bin") + os.pathsep + os.environ.get("PATH", ""))
    return os.path.join(r, "cuda_nvcc", "bin", "ptxas"), os.path.join(r, "cu13", "bin", "cuobjdump"), env


def ptxas_info(log):
    """{entry: (registers, spill bytes)} from a ptxas -v log."""
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


def record(impl, param, metric, value):
    return {
        "family": "keysearch",
        "impl": impl,
        "op": "search",
        "param": param,
        "size": 32,
        "platform": "ptxas + cuobjdump -sass (no GPU)",
        "metric": metric,
        "median": value,
        "min": value,
        "max": value,
        "runs": 1,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--max-lop3", type=float, default=80.0)
    ap.add_argument("--max-lds", type=float, default=4.0)
    a = ap.parse_args()
    from nuri import keysearch as ks
    from nuri._native import ffi, lib
    from nuri.keysearch import bench, ptx

    ptxas, cuobjdump, env = tools()
    build = os.path.join(ROOT, "build", "gpu")
    os.makedirs(build, exist_ok=True)
    records, failures, rows = [], [], []

    def count(cubin, log, name, iters, kind, param, arch):
        sass = subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, text=True, env=env, check=True).stdout
        fn = gpu_sass.functions(sass).get(name)
        regs, spill = ptxas_info(log).get(name, (None, None))
        if fn is None or regs is None:
            failures.append(f"sm_{arch} {name}: missing from the SASS or the ptxas log")
            return
        try:
            c = gpu_sass.per_key(fn, iters)
        except ValueError as e:
            failures.append(f"sm_{arch} {name}: {e}")
            return
        alu = sum(c.get(op, 0.0) for op in ALU)
        impl = f"cuda-sm_{arch}-{kind}"
        for metric, v in (
            ("registers", regs),
            ("spill_bytes", spill),
            ("sass_per_key", c["total"]),
            ("lop3_per_key", c.get("LOP3", 0.0)),
            ("lds_per_key", c.get("LDS", 0.0)),
            ("alu_per_key", alu),
            ("ceiling_keys_per_sm_clock", 64 / alu),
            ("static_instructions", c["static_instructions"]),
            ("loop_instructions", c["loop_instructions"]),
        ):
            records.append(record(impl, param, metric, v))
        rows.append((f"sm_{arch}", kind, param, regs, spill, c["total"], c.get("LOP3", 0.0), c.get("LDS", 0.0), alu))
        if spill:
            failures.append(f"sm_{arch} {name}: {spill} spill bytes")
        if kind == "specialised" and param.startswith("pipo-64/128"):
            if c.get("LOP3", 0.0) > a.max_lop3:
                failures.append(f"sm_{arch} {name}: {c['LOP3']:.1f} LOP3 per key > {a.max_lop3}")
            if c.get("LDS", 0.0) > a.max_lds:
                failures.append(f"sm_{arch} {name}: {c['LDS']:.1f} LDS per key > {a.max_lds}")

    for cipher, template in bench.TEMPLATES.items():
        prob = ks.Problem(cipher, template, [bench.PAIR])
        out, eq = ffi.new("uint8_t[]", lib.NURI_KEYSEARCH_GPU_PARAMS_BYTES), ffi.new("int *")
        if lib.nuri_keysearch_gpu_params(prob._p, out, len(out), eq) or eq[0]:
            sys.exit("gpu_kernel_report: no GPU parameters for the benchmark template")
        raw = bytes(ffi.buffer(out))
        text, counts = ptx.specialised_ptx(raw, prob.key_len)
        last = ptx.Params(raw, prob.key_len).last
        nw = prob.key_len // 8
        iters = (last - 2) // nw
        stem = os.path.join(build, f"specialised.{prob.key_len * 8}")
        with open(stem + ".ptx", "w") as f:
            f.write(text)
        param = f"{cipher} k={prob.bits}"
        records.append(
            record(
                "cuda-ptx-specialised", param, "ptx_logic_per_key", ptx.logic_ops_per_key(counts, prob.key_len, last)
            )
        )
        for arch in ARCHS:
            cubin = f"{stem}.sm_{arch}.cubin"
            p = subprocess.run(
                [ptxas, f"-arch=sm_{arch}", "-v", stem + ".ptx", "-o", cubin], capture_output=True, text=True
            )
            if p.returncode:
                failures.append(f"ptxas sm_{arch}: {p.stderr.strip()}")
                continue
            count(cubin, p.stdout + p.stderr, ptx.KERNEL_NAMES[prob.key_len], iters, "specialised", param, arch)
        for arch in ARCHS:  # the generic kernels of the fatbin, on the same search
            cubin = os.path.join(build, f"ks_kernel.sm_{arch}.cubin")
            log = os.path.join(build, f"ptxas.sm_{arch}.log")
            if os.path.exists(cubin) and os.path.exists(log):
                with open(log) as f:
                    count(cubin, f.read(), ptx.KERNEL_NAMES[prob.key_len], (last - 1) // 2, "generic", param, arch)

    listing = subprocess.run(
        [cuobjdump, "--list-elf", "--list-ptx", FATBIN], capture_output=True, text=True, env=env
    ).stdout
    for arch in ("75", "80", "86", "89", "90"):
        if f".sm_{arch}.cubin" not in listing:
            failures.append(f"{FATBIN}: no SASS for sm_{arch}")
    if listing.count("PTX file") != 1:
        failures.append(f"{FATBIN}: expected one PTX entry")

    print(
        f"{'arch':7} {'kernel':12} {'search':22} {'regs':>4} {'spill':>5} {'SASS/key':>9} {'LOP3/key':>9} "
        f"{'LDS/key':>8} {'ALU/key':>8}"
    )
    for r in rows:
        print(f"{r[0]:7} {r[1]:12} {r[2]:22} {r[3]:4d} {r[4]:5d} {r[5]:9.2f} {r[6]:9.2f} {r[7]:8.2f} {r[8]:8.2f}")
    with open(a.out, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    for msg in failures:
        print(f"kernel-report: FAIL {msg}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
