#!/usr/bin/env python3
"""Builds the CUDA kernel the package ships, python/nuri/keysearch/ks_kernel.fatbin: the generic
key-search and CTR kernels as PTX (emitted by python/nuri/keysearch/ptx.py, ISA 7.0, which every
driver since CUDA 11.0 JIT-compiles for GPUs newer than the SASS below) plus SASS for every GPU
architecture the pinned CUDA 12 ptxas supports from Turing on, packed by the pinned libnvfatbin
without compression. Toolkit: the exact wheels of scripts/deps/gpu.pip (make gpu installs them).

Next to it, ks_kernel.fatbin.json records the digests of what went in (the emitter, the pins, the
PTX) and of the fatbin. Without the toolkit (make check on a machine that has none) this script
only checks that record: it exits 1 when the emitter or the pins changed since the fatbin was
built (run make gpu and commit both files), or when the fatbin is not the one recorded.

    scripts/gen_gpu_fatbin.py            build (toolkit present) or check the record
    scripts/gen_gpu_fatbin.py --require  fail when the toolkit is missing (make gpu)
    scripts/gen_gpu_fatbin.py --verify   only check the record (the tests)
    scripts/gen_gpu_fatbin.py --check    build into build/gpu/ and compare with the committed files
                                         (make check: the tree is not written)"""

import ctypes
import glob
import hashlib
import importlib.util
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EMITTER = "python/nuri/keysearch/ptx.py"
PINS = "scripts/deps/gpu.pip"
OUT = "python/nuri/keysearch/ks_kernel.fatbin"
RECORD = OUT + ".json"
ARCHS = ("75", "80", "86", "87", "89", "90", "100", "120")  # SASS; ptxas 12.9 knows no other Turing+ GPU
BUILD = os.path.join(ROOT, "build", "gpu")


def sha(data):
    return hashlib.sha256(data).hexdigest()


def emitter():
    spec = importlib.util.spec_from_file_location("nuri_ks_ptx", os.path.join(ROOT, EMITTER))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def toolkit():
    """(ptxas, libnvfatbin) of the pinned wheels in .venv (or this interpreter), or None."""
    roots = glob.glob(os.path.join(ROOT, ".venv", "lib", "python3*", "site-packages", "nvidia"))
    try:
        import nvidia

        roots += list(nvidia.__path__)
    except ImportError:
        pass
    for r in roots:
        ptxas = os.path.join(r, "cuda_nvcc", "bin", "ptxas")
        fb = os.path.join(r, "nvfatbin", "lib", "libnvfatbin.so.12")
        if os.path.exists(ptxas) and os.path.exists(fb):
            return ptxas, fb
    return None


def inputs(ptx_text):
    with open(os.path.join(ROOT, PINS), "rb") as f:
        pins = f.read()
    with open(os.path.join(ROOT, EMITTER), "rb") as f:
        em = f.read()
    return {EMITTER: sha(em), PINS: sha(pins), "ptx": sha(ptx_text.encode())}


def pack(libpath, ptx_text, cubins):
    lib = ctypes.CDLL(libpath)
    h = ctypes.c_void_p()
    opts = (ctypes.c_char_p * 3)(b"-64", b"-cuda", b"-compress=false")

    def ok(rc, what):
        if rc:
            raise RuntimeError(f"nvFatbin{what} failed ({rc})")

    ok(lib.nvFatbinCreate(ctypes.byref(h), opts, ctypes.c_size_t(3)), "Create")
    try:
        for arch, data in cubins:
            ok(lib.nvFatbinAddCubin(h, data, ctypes.c_size_t(len(data)), arch.encode(), b"nuri_ks"), "AddCubin")
        code = ptx_text.encode() + b"\0"
        ok(lib.nvFatbinAddPTX(h, code, ctypes.c_size_t(len(code)), ARCHS[0].encode(), b"nuri_ks", b""), "AddPTX")
        n = ctypes.c_size_t()
        ok(lib.nvFatbinSize(h, ctypes.byref(n)), "Size")
        buf = ctypes.create_string_buffer(n.value)
        ok(lib.nvFatbinGet(h, buf), "Get")
        return buf.raw
    finally:
        lib.nvFatbinDestroy(ctypes.byref(h))


def verify(want):
    """0 if the record matches the inputs and the fatbin, else 1 with the reason."""
    try:
        with open(os.path.join(ROOT, RECORD)) as f:
            rec = json.load(f)
        with open(os.path.join(ROOT, OUT), "rb") as f:
            got = sha(f.read())
    except (OSError, ValueError) as e:
        print(f"gen_gpu_fatbin: {e}", file=sys.stderr)
        return 1
    if rec.get("inputs") != want:
        changed = [k for k in want if rec.get("inputs", {}).get(k) != want[k]]
        print(f"gen_gpu_fatbin: {OUT} is older than {', '.join(changed)}: run make gpu", file=sys.stderr)
        return 1
    if rec.get("fatbin") != got:
        print(f"gen_gpu_fatbin: {OUT} is not the fatbin {RECORD} records", file=sys.stderr)
        return 1
    print(f"gen_gpu_fatbin: {OUT} matches its record")
    return 0


def main():
    ptx_text = emitter().generic_ptx()
    want = inputs(ptx_text)
    tk = toolkit()
    if "--verify" in sys.argv[1:]:
        return verify(want)
    if tk is None:
        if "--require" in sys.argv[1:] or "--check" in sys.argv[1:]:
            print("gen_gpu_fatbin: the CUDA toolkit wheels are missing (make gpu installs them)", file=sys.stderr)
            return 1
        print("gen_gpu_fatbin: no CUDA toolkit here (make gpu installs it): checking the record only")
        return verify(want)
    ptxas, fb = tk
    os.makedirs(BUILD, exist_ok=True)
    src = os.path.join(BUILD, "ks_kernel.ptx")
    with open(src, "w") as f:
        f.write(ptx_text)
    cubins = []
    for arch in ARCHS:
        out = os.path.join(BUILD, f"ks_kernel.sm_{arch}.cubin")
        p = subprocess.run([ptxas, f"-arch=sm_{arch}", "-v", src, "-o", out], capture_output=True, text=True)
        with open(os.path.join(BUILD, f"ptxas.sm_{arch}.log"), "w") as f:
            f.write(p.stdout + p.stderr)
        if p.returncode:
            print(p.stderr, file=sys.stderr)
            return 1
        with open(out, "rb") as f:
            cubins.append((arch, f.read()))
    data = pack(fb, ptx_text, cubins)
    version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    rec = {"inputs": want, "fatbin": sha(data), "ptxas": version, "sass": [f"sm_{a}" for a in ARCHS]}
    rec["ptx_isa"] = emitter().PTX_VERSION
    rec_text = json.dumps(rec, indent=1, sort_keys=True) + "\n"
    if "--check" in sys.argv[1:]:
        with open(os.path.join(BUILD, "ks_kernel.fatbin"), "wb") as f:
            f.write(data)
        try:
            with open(os.path.join(ROOT, OUT), "rb") as f, open(os.path.join(ROOT, RECORD)) as g:
                same = f.read() == data and g.read() == rec_text
        except OSError:
            same = False
        if not same:
            print(f"gen_gpu_fatbin: {OUT} or its record differs from a fresh build: run make gpu", file=sys.stderr)
            return 1
        print(f"gen_gpu_fatbin: {OUT} and its record match a fresh build")
        return 0
    with open(os.path.join(ROOT, OUT), "wb") as f:
        f.write(data)
    with open(os.path.join(ROOT, RECORD), "w") as f:
        f.write(rec_text)
    print(f"gen_gpu_fatbin: wrote {OUT} ({len(data)} bytes: SASS for {len(ARCHS)} GPUs + PTX {rec['ptx_isa']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
