"""atheris (libFuzzer for Python) harness for the CSV record reader of `nuri fpe` (python/nuri/cli/_csvio.py),
which reads untrusted files. Every input is checked for:

  - outcome: records, or CsvError saying "line N: ..." (no other exception, no hang: libFuzzer's -timeout);
  - byte-exactness: BOM + the records' raw text, joined, is the input text;
  - block independence: the same records, or the same error, whatever the read block size (1, 2, 3, 7,
    64 characters and the default), i.e. records split across reads at every position;
  - limits: no record longer than max_record characters or with more than max_fields fields is returned;
  - the csv module reads the same fields wherever the reader accepts the input (a blank line is [] there);
  - rewriting every field with Record.text (quoted as it was) and reading that back gives the same fields.

Input layout: byte 0 picks the delimiter, byte 1 the limits, the rest is the text (UTF-8, errors replaced).

    python fuzz/fuzz_csv.py [libFuzzer flags] [CORPUS_DIR...]   (make fuzz / make check-fuzz run it)
"""

import csv
import io
import sys

DELIMITERS = [",", ";", "\t", "|", " ", "a", "\u00e9", "\\"]
BLOCKS = [1, 2, 3, 7, 64, None]


def parse(text, delim, block, max_record, max_fields):
    from nuri.cli import _csvio

    r = _csvio.Reader(io.StringIO(text), delim, max_record=max_record, max_fields=max_fields)
    if block is not None:
        r.block = block
    try:
        return r, list(r), None
    except _csvio.CsvError as e:
        return r, None, str(e)


def check(data):
    from nuri.cli import _csvio

    if len(data) < 2:
        return
    delim = DELIMITERS[data[0] % len(DELIMITERS)]
    max_record = 4 + (data[1] & 0x7F) * 2 if data[1] & 0x80 else _csvio.MAX_RECORD_CHARS
    max_fields = 1 + (data[1] & 0x0F) if data[1] & 0x80 else _csvio.MAX_FIELDS
    text = data[2:].decode("utf-8", "replace")

    outcomes = []
    for block in BLOCKS:
        reader, recs, err = parse(text, delim, block, max_record, max_fields)
        if err is not None:
            assert err.startswith("line ") and ": " in err, err
            outcomes.append(("error", err))
            continue
        got = [(x.fields, x.raw, x.end, x.line) for x in recs]
        outcomes.append(("ok", reader.bom, got))
        assert reader.bom + "".join(x.text(delim) for x in recs) == text, "not byte-exact"
        for x in recs:
            assert len("".join(x.raw)) + len(x.raw) - 1 + len(x.end) <= max_record, "record past the limit"
            assert len(x.fields) <= max_fields, "fields past the limit"
    assert all(o == outcomes[0] for o in outcomes), f"depends on the block size: {outcomes}"
    if outcomes[0][0] != "ok":
        return
    _, bom, got = outcomes[0]
    fields = [f for f, _, _, _ in got]

    # the csv module agrees on the fields (its field size limit is far above what is generated here)
    body = text[len(bom) :]
    want = list(csv.reader(io.StringIO(body, newline=""), delimiter=delim, strict=True))
    assert want == [[] if f == [""] and r == [""] else f for f, r, _, _ in got], (want, fields)

    # every field written again (as Record.text does for changed values) reads back the same
    again = bom + "".join(_csvio.Record(f, r, e, n).text(delim, dict(enumerate(f))) for f, r, e, n in got)
    _, recs2, err2 = parse(again, delim, None, _csvio.MAX_RECORD_CHARS, _csvio.MAX_FIELDS)
    assert err2 is None, err2
    assert [x.fields for x in recs2] == fields


def main():
    import atheris

    with atheris.instrument_imports():
        from nuri.cli import _csvio  # noqa: F401

    atheris.Setup(sys.argv, check)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
