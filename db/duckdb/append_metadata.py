"""Appends DuckDB's extension metadata footer to a shared library, making it a loadable
.duckdb_extension (unsigned: it loads with allow_unsigned_extensions).

The footer, as DuckDB reads it (the last 512 bytes of the file are parsed): a WebAssembly-style
custom section header (0x00, the LEB128 length 531, the name length 16, "duckdb_signature", the
LEB128 length 512), then eight 32-byte fields, zero-padded, stored last field first, then a
256-byte signature (zeros: unsigned). Fields: 1 magic "4", 2 platform (DuckDB's PRAGMA platform),
3 the C API version the extension targets, 4 the extension version, 5 the ABI type "C_STRUCT",
6-8 empty.

usage: python append_metadata.py IN.so OUT.duckdb_extension PLATFORM CAPI_VERSION EXT_VERSION
"""

import shutil
import sys


def footer(platform, capi_version, ext_version, abi="C_STRUCT"):
    fields = ["4", platform, capi_version, ext_version, abi, "", "", ""]
    out = bytearray(b"\x00\x93\x04\x10duckdb_signature\x80\x04")
    for f in reversed(fields):
        b = f.encode()
        if len(b) > 32:
            raise ValueError(f"metadata field {f!r} is longer than 32 bytes")
        out += b.ljust(32, b"\x00")
    out += bytes(256)
    return bytes(out)


def main(argv):
    if len(argv) != 6:
        sys.exit(__doc__.strip().splitlines()[-1])
    src, dst, platform, capi, ver = argv[1:]
    shutil.copyfile(src, dst)
    with open(dst, "ab") as f:
        f.write(footer(platform, capi, ver))


if __name__ == "__main__":
    main(sys.argv)
