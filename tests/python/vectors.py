"""Shared helpers for the Python tests: where ../shared is, and a reader for its
"NAME = VALUE" vector files (NIST KAT style: records separated by blank lines, '#' comments)."""

import pathlib

SHARED_VECTORS = pathlib.Path(__file__).resolve().parents[2].parent / "shared" / "vectors"


def records(path):
    """Yields one dict per record of a vector file."""
    rec = {}
    for line in pathlib.Path(path).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            if rec and not line:
                yield rec
                rec = {}
            continue
        k, _, v = line.partition("=")
        rec[k.strip()] = v.strip()
    if rec:
        yield rec
