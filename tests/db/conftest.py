"""Shared by the database tests: the key, the shared pattern table and a key directory."""

import pathlib

import pytest

from nuri import keyfile

KEY = bytes(range(16))
CASES = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fea" / "pattern_cases.tsv"


def pattern_cases():
    """(pattern, value, "ok" | "error:<message regex>") rows of tests/fea/pattern_cases.tsv."""
    for line in CASES.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            yield line.split("\t")


@pytest.fixture(scope="module")
def key_dir(tmp_path_factory):
    """cards.key (nuri key file of KEY), plainhex.key (the same key as bare hex), broken.key."""
    d = tmp_path_factory.mktemp("keys")
    keyfile.write_key(str(d / "cards.key"), KEY)
    (d / "plainhex.key").write_text(KEY.hex() + "\n")
    (d / "broken.key").write_text("nuri-key-v1 128 00ff\n")
    return d
