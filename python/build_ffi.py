"""Generates the cffi API-mode C source of nuri._native from python/nuri/_cdef/*.h.

Each family keeps its own cdef file, so adding a family needs no edit here. Run by CMake
(python/CMakeLists.txt); the generated C is compiled and linked against libnuri."""
import argparse
import pathlib

import cffi


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cdef-dir", required=True)
    ap.add_argument("--include-dir", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    cdefs = sorted(pathlib.Path(a.cdef_dir).glob("*.h"))
    headers = sorted(pathlib.Path(a.include_dir, "nuri").glob("*.h"))
    ffi = cffi.FFI()
    ffi.cdef("\n".join(p.read_text() for p in cdefs))
    source = "\n".join(f'#include "nuri/{h.name}"' for h in headers) + '\n#include "bench.h"\n'
    ffi.set_source("nuri._native", source)
    ffi.emit_c_code(a.out)


if __name__ == "__main__":
    main()
