"""atheris (libFuzzer for Python) harness for the CSV record reader of `nuri fpe` (python/nuri/cli/_csvio.py),
which reads untrusted files. Every input is checked for:

  - outcome: records, or CsvError saying "line N: ..." (no other exception, no hang: libFuzzer's -timeout);
  - byte-exactness: BOM + the records' raw text, joined, is the input text;
  - block independence: the same records, or the same error, whatever the read block size (1, 2, 3, 7,
    64 characters and the default), i.e. records split across reads at every position;
  - limits: no record longer than max_record characters or with more than max_fields fields is returned;
  - the csv module reads the same fields wherever the reader accepts the input (a blank line is [] there);
  - rewriting every field with Record.text (quoted as it was) and reading that back gives the same fields.

Input layout: byte 0 picks the delimiter, byte 1 the limits (high bit: small ones), the rest is the text
(UTF-8, errors replaced). ``python fuzz/fuzz_csv.py --seeds DIR`` writes the seeds (the shapes nuri fpe
meets); ``python fuzz/fuzz_csv.py [libFuzzer flags] CORPUS SEEDS`` fuzzes (make fuzz / make check-fuzz).
"""

import csv
import io
import os
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


def seeds():
    """CRLF, CR, quoting with "" and line breaks inside, a BOM, blank lines, no final newline, an
    unbalanced quote, text after a closing quote; each with the default and with small limits."""
    texts = [
        "id,card\n1,4111111111111111\n2,5500000000000004\n",
        'id,card,note\r\n1,"4111111111111111","a, b"\r\n2,5500000000000004,"line1\r\nline2 ""q"""\r\n\r\n3,3,x',
        "\ufeffcard,name\n4111-1111-1111-1111,J\u00fcrgen\n6011000990139424,\n",
        'a,"b\n1,2\n3,4\n',
        'a,"b"c\n',
        "x\ry\r\rz",
        '"",""\n,\n"""",a"b\n',
    ]
    for i, t in enumerate(texts):
        for limits in (0, 0x80 | (i * 5)):
            yield bytes([0, limits]) + t.encode()
    yield bytes([1, 0]) + b"card;x\r5500 0000 0000 0004;1\r"
    yield bytes([2, 0]) + b'id\tv\n1\t"a\tb"\n'


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--seeds":
        os.makedirs(sys.argv[2], exist_ok=True)
        for n, data in enumerate(seeds(), 1):
            with open(os.path.join(sys.argv[2], f"seed-{n:03d}"), "wb") as f:
                f.write(data)
        return
    import atheris

    with atheris.instrument_imports(include=["nuri.cli._csvio"]):
        from nuri.cli import _csvio  # noqa: F401

    atheris.Setup(sys.argv, check)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
