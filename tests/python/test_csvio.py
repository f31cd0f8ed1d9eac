"""The CSV record reader of `nuri fpe` (nuri/cli/_csvio.py) on hostile input: linear time and memory bounded
by the longest record, its limits, and the fuzz harness's properties (fuzz/fuzz_csv.py, run here on its
seeds and on random inputs without atheris; make check-fuzz runs it under atheris)."""

import importlib.util
import io
import os
import random
import sys
import tracemalloc

import pytest

from nuri.cli import _csvio

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


harness = _load("fuzz/fuzz_csv.py", "fuzz_csv")


def records(text, **kw):
    return list(_csvio.Reader(io.StringIO(text), ",", **kw))


@pytest.mark.parametrize(
    "text",
    [
        'id,note\n1,"' + "x" * (4 << 20) + '"\n',  # one long quoted field
        'id,note\n1,"' + 'ab""' * (1 << 20) + '"\n',  # ... full of escaped quotes
        'id,note\n1,"unbalanced\n' + "2,y\n" * (1 << 20),  # an unbalanced quote: the rest is one field
    ],
    ids=["long-field", "escaped-quotes", "unbalanced"],
)
def test_memory_is_bounded_by_the_record(text):
    """Python allocations while reading stay within a small multiple of the input (the regular expression
    of the earlier reader kept state per character: about 150 bytes per character of the field)."""
    tracemalloc.start()
    try:
        try:
            recs = records(text)
            assert "".join(r.text(",") for r in recs) == text
        except _csvio.CsvError as e:
            assert "line 2: unterminated quoted field" in str(e)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 12 * len(text), (peak, len(text))


class CountingReader(io.StringIO):
    def __init__(self, text):
        super().__init__(text)
        self.calls = 0

    def read(self, n=-1):
        self.calls += 1
        return super().read(n)


def test_a_long_record_is_read_in_growing_blocks():
    """A record spanning many blocks is parsed again after each read; the reads double, so that costs
    O(n) in all (about 2 n characters scanned), not O(n^2 / block)."""
    text = 'a,"' + "x" * (64 << 20 >> 3) + '"\n'  # 8 MiB in one field, 8 blocks of 1 MiB
    f = CountingReader(text)
    r = _csvio.Reader(f, ",")
    assert [len(x.fields[1]) for x in r] == [8 << 20]
    assert f.calls <= 6  # 1, 1, 2, 4 MiB, then the end (was: one read per MiB, 9 parses from the start)


def test_limits():
    assert len(records("a," + "b" * 20 + "\n", max_record=23)) == 1
    with pytest.raises(_csvio.CsvError, match=r"line 2: a record longer than 22 characters"):
        records("h\na," + "b" * 20 + "\n", max_record=22)
    with pytest.raises(_csvio.CsvError, match=r"line 1: a record longer than 5 characters"):
        records('"' + "x" * 100, max_record=5)  # unterminated and too long: too long, whatever the blocks
    with pytest.raises(_csvio.CsvError, match=r"line 1: a record with more than 3 fields"):
        records("a,b,c,d\n", max_fields=3)
    assert records("a,b,c\n", max_fields=3)[0].fields == ["a", "b", "c"]
    # the limits the CLI uses, as docs/cli.md states them
    assert _csvio.MAX_RECORD_CHARS == 16 << 20 and _csvio.MAX_FIELDS == 65536


def test_escaped_quotes_across_the_pairing_slices():
    """Fields whose "" pairs straddle the 256, 512, ... character slices _closing_quote pairs them in,
    against the csv module, with the text arriving in blocks of several sizes."""
    import csv

    for lead in range(248, 262):
        for quotes in (1, 2, 3, 4, 5, 300, 301):
            # a "" at the start of the text takes the slow path; the run after the a's may be cut by a slice
            field = '""' + "a" * lead + '"' * quotes  # an odd run closes the field
            body = '"' + field + ("" if quotes % 2 else '"') + ",z\n"
            want = list(csv.reader(io.StringIO(body, newline="")))
            for block in (1, 7, 300, 1 << 20):
                r = _csvio.Reader(io.StringIO(body), ",")
                r.block = block
                got = list(r)
                assert [x.fields for x in got] == want, (lead, quotes, block)
                assert "".join(x.text(",") for x in got) == body


def test_fuzz_seeds_hold_the_properties():
    n = 0
    for data in harness.seeds():
        harness.check(data)
        n += 1
    assert n >= 10


def test_random_inputs_hold_the_properties():
    """The harness's checks on 3000 random texts built from the characters that matter to the reader."""
    rng = random.Random(2024)
    pieces = [",", ";", '"', '"', '""', "\r", "\n", "\r\n", "a", "b", " ", "\t", "|", "\u00e9", "\\", "\ufeff", "\0"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))
        harness.check(bytes([rng.randrange(256), rng.randrange(256)]) + text.encode())


def test_harness_catches_a_broken_reader(monkeypatch):
    """The harness is not vacuous: a reader that drops a CR before LF fails its byte-exactness check."""
    orig = _csvio.Record.text

    def lossy(self, delimiter, changed=None):
        return orig(self, delimiter, changed).replace("\r\n", "\n")

    monkeypatch.setattr(_csvio.Record, "text", lossy)
    with pytest.raises(AssertionError):
        harness.check(b"\x00\x00a,b\r\nc,d\r\n")


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
