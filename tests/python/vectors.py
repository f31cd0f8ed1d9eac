"""Shared helpers for the Python tests: the known-answer files of tests/vectors, a reader for their
"NAME = VALUE" records (NIST KAT style: records separated by blank lines, '#' comments), and the
tally of vector sets that conftest.py prints at the end of the run."""

import json
import pathlib

VECTORS = pathlib.Path(__file__).resolve().parents[1] / "vectors"

# (test module, set name) -> [vectors in the set, runs that passed over all of them]
SETS_PASSED = {}


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


def load_json(family, name):
    return json.loads((VECTORS / family / name).read_text())


def passed(module, set_name, count):
    """Notes that one run over a whole vector set passed (call it after the run's last assert)."""
    entry = SETS_PASSED.setdefault((module.rsplit(".", 1)[-1], set_name), [count, 0])
    assert entry[0] == count, f"{set_name}: {count} vectors in this run, {entry[0]} in an earlier one"
    entry[1] += 1
