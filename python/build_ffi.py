"""Generates the cffi API-mode C source of nuri._native.

The declarations come from the public headers (include/nuri/*.h, translated by gen_cdef.py), so
every NURI_API function is available in Python as soon as it is declared: nothing is copied by
hand. Run by CMake (python/CMakeLists.txt); the generated C is compiled and linked against libnuri."""

import argparse
import pathlib
import sys

import cffi

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from gen_cdef import cdef_from_headers  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--include-dir", required=True)
    ap.add_argument(
        "--extra-cdef",
        action="append",
        default=[],
        help="declarations beyond the public API (e.g. the benchmark harness)",
    )
    ap.add_argument("--extra-include", action="append", default=[], help="header declaring --extra-cdef")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    # nuri.h first: the family headers use its types (nuri_impl_info)
    headers = sorted(pathlib.Path(a.include_dir, "nuri").glob("*.h"), key=lambda h: (h.name != "nuri.h", h.name))
    ffi = cffi.FFI()
    cdef = cdef_from_headers(headers) + "".join(pathlib.Path(p).read_text() for p in a.extra_cdef)
    ffi.cdef(cdef)
    source = "".join(f'#include "nuri/{h.name}"\n' for h in headers)
    source += "".join(f'#include "{h}"\n' for h in a.extra_include)
    ffi.set_source("nuri._native", source)
    ffi.emit_c_code(a.out)


if __name__ == "__main__":
    main()
