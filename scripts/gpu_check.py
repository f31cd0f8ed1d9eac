#!/usr/bin/env python3
"""The GPU check (scripts/gpu-check.sh): what a person with an NVIDIA GPU runs to see nuri's CUDA
engine work and how fast, written as one JSON file. Under 3 minutes on a data-centre GPU.

1. the driver, the devices, and the real-driver self-test (known answers on the GPU);
2. a planted key with 40 unknown bits (20 in K0, 20 in K1) searched over the whole 2^40 keyspace
   with `nuri keysearch --engine cuda`: found, and the time it took;
3. `nuri bench keysearch --json` (every engine here, cuda included), with the SM clock and the
   power sampled by nvidia-smi during the cuda runs where nvidia-smi exists;
4. the SASS of the kernel that ran (the specialised PTX of the benchmark's search assembled for this
   GPU's architecture by the pinned ptxas, counted per key) where the toolkit wheels are installed
   (make gpu);
5. the CTR kernel's throughput (GB/s, data on the device) against nuri's CPU PIPO-CTR on the same
   key, and its output checked against the CPU's.

Usage: scripts/gpu_check.py --out FILE [--quick] [--bits N] (N unknown bits in the planted search,
default 40, split between K0 and K1; a dry run on the tests' fake driver uses 16)"""

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def nuri_cli(*args, timeout=600):
    t = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "nuri", *args], capture_output=True, text=True, timeout=timeout)
    return r, time.monotonic() - t


class Smi:
    """Samples the SM clock (MHz) and power (W) of GPU 0 every 0.2 s while running."""

    def __init__(self):
        self.exe = shutil.which("nvidia-smi")
        self.samples, self.stop = [], threading.Event()

    def __enter__(self):
        if self.exe:
            self.t = threading.Thread(target=self.run, daemon=True)
            self.t.start()
        return self

    def run(self):
        q = ["--query-gpu=clocks.sm,power.draw", "--format=csv,noheader,nounits", "-i", "0"]
        while not self.stop.is_set():
            try:
                out = subprocess.run([self.exe, *q], capture_output=True, text=True, timeout=5).stdout
                mhz, watt = (float(x) for x in out.strip().split(","))
                self.samples.append((mhz, watt))
            except (ValueError, subprocess.SubprocessError, OSError):
                pass
            self.stop.wait(0.2)

    def __exit__(self, *exc):
        self.stop.set()
        if self.exe:
            self.t.join()

    def summary(self):
        if not self.samples:
            return None
        mhz = [s[0] for s in self.samples]
        return {
            "sm_clock_mhz_median": statistics.median(mhz),
            "sm_clock_mhz_min": min(mhz),
            "power_w_median": statistics.median(s[1] for s in self.samples),
            "samples": len(mhz),
        }


def sass_of_kernel(arch, key_len=16):
    """Per-key SASS counts of the specialised kernel of the benchmark's search, for arch (sm_XX)."""
    import glob
    import tempfile

    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import gpu_sass

    from nuri import keysearch as ks
    from nuri._native import ffi, lib
    from nuri.keysearch import bench, ptx

    roots = glob.glob(os.path.join(ROOT, ".venv", "lib", "python3*", "site-packages", "nvidia"))
    ptxas = [os.path.join(r, "cuda_nvcc", "bin", "ptxas") for r in roots]
    cuobjdump = [os.path.join(r, "cu13", "bin", "cuobjdump") for r in roots]
    if not ptxas or not os.path.exists(ptxas[0]) or not os.path.exists(cuobjdump[0]):
        return {"error": "the toolkit wheels are not installed (make gpu installs them)"}
    cipher = "pipo-64/128" if key_len == 16 else "pipo-64/256"
    prob = ks.Problem(cipher, bench.TEMPLATES[cipher], [bench.PAIR])
    out, eq = ffi.new("uint8_t[]", lib.NURI_KEYSEARCH_GPU_PARAMS_BYTES), ffi.new("int *")
    assert lib.nuri_keysearch_gpu_params(prob._p, out, len(out), eq) == 0
    raw = bytes(ffi.buffer(out))
    text, _ = ptx.specialised_ptx(raw, key_len)
    last = ptx.Params(raw, key_len).last
    env = dict(os.environ, PATH=os.path.dirname(cuobjdump[0]) + os.pathsep + os.environ.get("PATH", ""))
    with tempfile.TemporaryDirectory() as d:
        src, cubin = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
        with open(src, "w") as f:
            f.write(text)
        p = subprocess.run([ptxas[0], f"-arch={arch}", "-v", src, "-o", cubin], capture_output=True, text=True)
        if p.returncode:
            return {"error": p.stderr.strip()[-300:]}
        sass = subprocess.run([cuobjdump[0], "-sass", cubin], capture_output=True, text=True, env=env).stdout
    fn = gpu_sass.functions(sass)[ptx.KERNEL_NAMES[key_len]]
    counts = gpu_sass.per_key(fn, (last - 2) // (key_len // 8))
    counts["ptxas"] = p.stderr.strip().splitlines()[-2:] if p.stderr else []
    return {"arch": arch, "search": f"{cipher} k={prob.bits}", **counts}


def ctr_check(dev, quick):
    """GB/s of the GPU CTR kernel (device buffers) and of nuri's CPU PIPO-CTR, same key."""
    from nuri import pipo
    from nuri.keysearch import gpu

    key = bytes(range(16))
    iv = bytes(8)
    n = (64 if quick else 256) << 20
    ctr = gpu.Ctr(dev, key, n)
    try:
        sample = os.urandom(1 << 16)
        ok = ctr.encrypt(iv, sample) == pipo.encrypt(key, sample, "ctr", iv=iv)
        ctr.run(iv)  # warm-up
        times = []
        for _ in range(5):
            t = time.monotonic()
            ctr.run(iv)
            times.append(time.monotonic() - t)
    finally:
        ctr.close()
    data = bytes(32 << 20)
    cpu = []
    for _ in range(3):
        t = time.monotonic()
        pipo.encrypt(key, data, "ctr", iv=iv)
        cpu.append(time.monotonic() - t)
    g, c = n / statistics.median(times) / 1e9, len(data) / statistics.median(cpu) / 1e9
    return {
        "matches_cpu": ok,
        "gpu_gb_per_s": g,
        "cpu_gb_per_s": c,
        "ratio": g / c,
        "gpu_bytes": n,
        "cpu_impl": pipo.default_implementation(),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--bits", type=int, default=40, choices=range(8, 41, 8))
    a = ap.parse_args()
    from nuri import keysearch as ks
    from nuri.keysearch import gpu

    t0 = time.monotonic()
    report = {"host": platform.node(), "cpu": platform.processor() or platform.machine(), "steps": {}}
    reason = gpu.unavailable_reason()
    if reason:
        report["error"] = reason
        return finish(report, a.out, 1)
    drv = gpu.driver()
    devs = gpu.open_devices()
    dev = devs[0]
    report["driver_cuda"] = drv.version
    report["devices"] = [{"name": d.name, "arch": d.arch, "sms": d.sms, "clock_hz": d.clock_hz} for d in devs]
    report["steps"]["selftest"] = all(gpu.selftest(d) for d in devs)

    # 2. a planted key (40 unknown bits) over the whole keyspace
    rng = random.Random(int.from_bytes(os.urandom(4), "big"))
    key = bytes(rng.randrange(256) for _ in range(16))
    pt = bytes(rng.randrange(256) for _ in range(8))
    pair = f"{pt.hex()}:{ks.encrypt(key, pt).hex()}"
    pt2 = bytes(rng.randrange(256) for _ in range(8))
    pair2 = f"{pt2.hex()}:{ks.encrypt(key, pt2).hex()}"
    h = key.hex().upper()
    n = a.bits // 8  # nibbles per half: 20 bits in K0, 20 in K1 for 40
    template = h[: 13 - n] + "?" * n + h[13 : 30 - n] + "?" * n + h[30:]
    r, secs = nuri_cli(
        "keysearch", "--cipher", "pipo-64/128", "--key-template", template, "--pair", pair, "--pair", pair2,
        "--engine", "cuda", "--status-json",
    )  # fmt: skip
    last = next((json.loads(x) for x in reversed(r.stderr.splitlines()) if x.startswith("{")), {})
    report["steps"]["planted_search"] = {
        "bits": a.bits,
        "found": r.stdout.split() == [h],
        "exit": r.returncode,
        "seconds": secs,
        "keys_per_s": last.get("total_keys_per_s"),
        "stderr_tail": r.stderr.strip().splitlines()[-1:] if r.returncode else [],
    }

    # 3. the benchmark, with clocks sampled during the cuda runs
    for d in devs:
        d.close()
    bench_args = ["bench", "keysearch", "--json"] + (["--quick"] if a.quick else [])
    with Smi() as smi:
        r, secs = nuri_cli(*bench_args)
    recs = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
    report["steps"]["bench"] = {"exit": r.returncode, "seconds": secs, "records": recs, "nvidia_smi": smi.summary()}
    cuda = next((x for x in recs if x.get("impl") == "cuda"), None)
    if cuda and smi.summary():
        clk = smi.summary()["sm_clock_mhz_median"] * 1e6
        g = cuda["gpu"]
        per = cuda["median"] / g["devices"] / (g["sms"] * clk)
        report["steps"]["bench"]["keys_per_sm_clock_at_measured_clock"] = per

    # 4. the SASS of the kernel that ran
    report["steps"]["sass"] = sass_of_kernel(dev.arch)

    # 5. CTR throughput
    dev = gpu.Device(drv, 0)
    try:
        report["steps"]["ctr"] = ctr_check(dev, a.quick)
    finally:
        dev.close()
    report["seconds"] = time.monotonic() - t0
    ok = (
        report["steps"]["selftest"]
        and report["steps"]["planted_search"]["found"]
        and report["steps"]["bench"]["exit"] == 0
        and report["steps"]["ctr"]["matches_cpu"]
    )
    return finish(report, a.out, 0 if ok else 1)


def finish(report, out, rc):
    report["ok"] = rc == 0
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    print(f"gpu-check: {'passed' if rc == 0 else 'FAILED'}; report in {out}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
