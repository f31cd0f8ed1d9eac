#!/usr/bin/env python3
"""Builds the CUDA kernel the package ships, python/nuri/keysearch/ks_kernel.fatbin: the generic
key-search and CTR kernels as PTX (emitted by python/nuri/keysearch/ptx.py, ISA 7.0, which every
driver since CUDA 11.0 JIT-compiles for GPUs newer than the SASS below) plus SASS for every GPU
architecture the pinned CUDA 12 ptxas supports from Turing on, packed by the pinned libnvfatbin
without compression. Toolkit: the exact wheels of scripts/deps/gpu.pip (make gpu installs them).

The fatbin is a generated file that scripts/autogen checks by digest (the emitter, this script and
the toolkit pins -> the fatbin, in scripts/autogen-digests.json): `make gpu` runs this script and
then `scripts/autogen --record` on it; commit both files.

    scripts/gpu_fatbin.py           build (build/gpu/ for the cubins and logs) and write the fatbin
    scripts/gpu_fatbin.py --check   build into build/gpu/ and compare with the committed fatbin (make
                                    check where the toolkit is installed: the build is reproducible)"""

import ctypes
import glob
import hashlib
import importlib.util
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EMITTER = "python/nuri/keysearch/ptx.py"
OUT = "python/nuri/keysearch/ks_kernel.fatbin"
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


def main():
    ptx_text = emitter().generic_ptx()
    tk = toolkit()
    if tk is None:
        print("gpu_fatbin: the CUDA toolkit wheels are missing (make gpu installs them)", file=sys.stderr)
        return 1
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
    if "--check" in sys.argv[1:]:
        with open(os.path.join(BUILD, "ks_kernel.fatbin"), "wb") as f:
            f.write(data)
        try:
            with open(os.path.join(ROOT, OUT), "rb") as f:
                same = f.read() == data
        except OSError:
            same = False
        if not same:
            print(f"gpu_fatbin: {OUT} differs from a fresh build: run make gpu and commit it", file=sys.stderr)
            return 1
        print(f"gpu_fatbin: {OUT} equals a fresh build (sha256 {sha(data)[:16]})")
        return 0
    with open(os.path.join(ROOT, OUT), "wb") as f:
        f.write(data)
    print(f"gpu_fatbin: wrote {OUT} ({len(data)} bytes: SASS for {len(ARCHS)} GPUs + PTX {emitter().PTX_VERSION})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
