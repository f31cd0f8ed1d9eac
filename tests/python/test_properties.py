"""Property tests (hypothesis) of the parsers that read untrusted input: the sealed-file header (v1 and
v2), the key-file parser, and `nuri fpe`'s CSV handling (byte-exact round trips). make check installs
hypothesis (scripts/deps/fuzz.pip); outside it the module is skipped with that reason."""

import csv
import io
import os

import pytest

hyp = pytest.importorskip("hypothesis", reason="hypothesis is installed by make check (scripts/deps/fuzz.pip)")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from nuri import keyfile  # noqa: E402
from nuri.cli import _csvio  # noqa: E402
from nuri.seal import header as H  # noqa: E402

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ sealed-file header


@SETTINGS
@given(st.binary(max_size=400))
def test_read_header_any_bytes(b):
    """Arbitrary bytes: a header or SealFormatError, nothing else; a v1 header re-serialises to its bytes."""
    try:
        h = H.read_header(io.BytesIO(b))
    except H.SealFormatError:
        return
    assert b[:8] == H.MAGIC
    if h.version == 1:
        assert h.to_bytes() == b[: H.HEADER_LEN]
    else:
        assert h.to_bytes() == b[: len(h.to_bytes())]


@SETTINGS
@given(
    st.sampled_from([H.KDF_KEY, H.KDF_ARGON2ID]),
    st.integers(H.MIN_CHUNK_LOG2, H.MAX_CHUNK_LOG2),
    st.integers(1, 10),
    st.integers(1, 4),
    st.binary(min_size=32, max_size=32),
    st.data(),
)
def test_header_v1_round_trip(kdf, log2, t, p, salt, data):
    m = data.draw(st.integers(8 * p, 8 * p + 4096))
    h = H.Header.new(kdf, log2, (t, m, p), salt)
    b = h.to_bytes()
    g = H.read_header(io.BytesIO(b + data.draw(st.binary(max_size=20))))
    assert (g.version, g.kdf, g.chunk_log2, g.argon2, g.salt) == (1, h.kdf, log2, h.argon2, salt)
    # any single changed byte is either refused or parses to a different header
    i = data.draw(st.integers(0, len(b) - 1))
    bad = bytearray(b)
    bad[i] ^= data.draw(st.integers(1, 255))
    try:
        g2 = H.read_header(io.BytesIO(bytes(bad)))
    except H.SealFormatError:
        return
    assert g2.to_bytes() != b


@SETTINGS
@given(
    st.sampled_from([H.KIND_FILE, H.KIND_VIDEO]),
    st.integers(H.MIN_CHUNK_LOG2, H.MAX_CHUNK_LOG2),
    st.binary(min_size=32, max_size=32),
    st.lists(st.tuples(st.integers(0, 65535), st.binary(max_size=300)), min_size=1, max_size=5),
    st.binary(min_size=32, max_size=32),
    st.data(),
)
def test_header_v2_round_trip_and_truncation(kind, log2, salt, stanzas, mac, data):
    b = H.HeaderV2(kind, log2, salt, stanzas, mac).to_bytes()
    g = H.read_header(io.BytesIO(b))
    assert (g.version, g.kind, g.chunk_log2, g.salt, g.stanzas, g.mac) == (2, kind, log2, salt, stanzas, mac)
    cut = data.draw(st.integers(0, len(b) - 1))
    with pytest.raises(H.SealFormatError):
        H.read_header(io.BytesIO(b[:cut]))


# ------------------------------------------------------------------ key files


@SETTINGS
@given(st.text(max_size=120))
def test_parse_key_any_text(text):
    try:
        key = keyfile.parse_key(text)
    except keyfile.KeyFileError:
        return
    assert isinstance(key, bytes) and len(key) in (16, 24, 32)


@SETTINGS
@given(
    st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
    st.sampled_from(["", " ", "\n", "\r\n", "  \n"]),
    st.booleans(),
)
def test_key_round_trip(key, pad, upper):
    text = keyfile.format_key(key)
    assert keyfile.parse_key(pad + text + pad) == key
    h = key.hex().upper() if upper else key.hex()
    assert keyfile.parse_key(pad + h + pad) == key
    with pytest.raises(keyfile.KeyFileError):
        keyfile.parse_key(text.replace(" ", "  ", 1).replace(str(len(key) * 8), str(len(key) * 8 + 8)))


# ------------------------------------------------------------------ CSV

field = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12)


def _render(records, delim, ends, quote_flags, bom, final):
    lines = [delim.join(_csvio.quote(v, delim, q) for v, q in zip(rec, qf)) for rec, qf in zip(records, quote_flags)]
    ends = [e if i < len(records) - 1 or final else "" for i, e in enumerate(ends)]
    for i in range(len(lines) - 1):  # CR, then an empty record ended by LF, reads as one CRLF: say so
        if ends[i] == "\r" and (lines[i + 1] + ends[i + 1]).startswith("\n"):
            ends[i] = "\r\n"
    return (_csvio.BOM if bom else "") + "".join(ln + e for ln, e in zip(lines, ends))


@st.composite
def csv_files(draw):
    ncol = draw(st.integers(1, 4))
    records = draw(st.lists(st.lists(field, min_size=ncol, max_size=ncol), min_size=1, max_size=8))
    delim = draw(st.sampled_from([",", ";", "\t", "|"]))
    ends = draw(st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=len(records), max_size=len(records)))
    qf = draw(
        st.lists(st.lists(st.booleans(), min_size=ncol, max_size=ncol), min_size=len(records), max_size=len(records))
    )
    return records, delim, ends, qf, draw(st.booleans()), draw(st.booleans())


@SETTINGS
@given(csv_files(), st.integers(1, 64))
def test_csv_reader_round_trip(f, block):
    """Any CSV the writer side can produce parses back to its fields and re-renders byte for byte,
    whatever the read block size (records split across reads)."""
    records, delim, ends, qf, bom, final = f
    text = _render(records, delim, ends, qf, bom, final)
    old = _csvio._BLOCK
    _csvio._BLOCK = block
    try:
        r = _csvio.Reader(io.StringIO(text), delim)
        got = list(r)
    finally:
        _csvio._BLOCK = old
    # a last record of one empty unquoted field with no line end is no record at all (as in csv)
    want = records
    if not final and records[-1] == [""] and not qf[-1][0]:
        want = records[:-1]
    assert [g.fields for g in got] == want
    assert r.bom == (_csvio.BOM if bom else "") and r.bom + "".join(g.text(delim) for g in got) == text
    if "\r" not in "".join(ends) and [""] not in want:
        # the csv module reads the same fields (it cannot tell CR endings, and reads a blank line as [])
        body = text[len(r.bom) :]
        assert list(csv.reader(io.StringIO(body, newline=""), delimiter=delim)) == want


digits = st.text(alphabet="0123456789", min_size=6, max_size=19)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(st.tuples(digits, field), min_size=1, max_size=6),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_fpe_csv_round_trip_is_byte_exact(tmp_path, rows, end, bom, final, quote_cards):
    from nuri.cli.main import main

    key = tmp_path / "k"
    if not key.exists():
        keyfile.write_key(str(key), bytes(range(16)))
    lines = ["card,note"] + [f"{_csvio.quote(c, ',', quote_cards)},{_csvio.quote(n, ',', False)}" for c, n in rows]
    data = ((_csvio.BOM if bom else "") + end.join(lines) + (end if final else "")).encode()
    src, enc, dec = tmp_path / "in.csv", tmp_path / "enc.csv", tmp_path / "dec.csv"
    src.write_bytes(data)
    for p in (enc, dec):
        if p.exists():
            os.unlink(p)
    args = ["--column", "card", "--format", "digits", "-k", str(key), "-q"]
    assert main(["fpe", "encrypt", *args, "-i", str(src), "-o", str(enc)]) == 0
    assert main(["fpe", "decrypt", *args, "-i", str(enc), "-o", str(dec)]) == 0
    assert dec.read_bytes() == data
    assert len(enc.read_bytes()) == len(data)
