"""`nuri fpe` never writes plaintext as if encrypted, says no in one line, and round-trips CSV
byte for byte (line endings, quoting, final newline, BOM)."""

import os
import subprocess
import sys

import pytest

from nuri import keyfile

pytest.importorskip("nuri.fea", reason="nuri.fea is not in this build")
NURI_BIN = os.path.join(os.path.dirname(sys.executable), "nuri")


@pytest.fixture
def key(tmp_path):
    p = tmp_path / "k"
    keyfile.write_key(str(p), bytes(range(16)))
    return p


def fpe(key, *argv):
    return subprocess.run(
        [NURI_BIN, "fpe", *[str(a) for a in argv], "-k", str(key)],
        capture_output=True,
        env=dict(os.environ, NURI_NO_PROGRESS="1"),
    )


def one_line(r, code=2):
    err = r.stderr.decode()
    assert r.returncode == code, (r.returncode, err)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert len(err.strip().splitlines()) == 1, err
    return err


CARDS = "id,card\n1,4111111111111111\n2,5500000000000004\n"


@pytest.mark.parametrize("tweak", ["-1", str(1 << 200)])
def test_bad_tweak_is_a_usage_error_even_with_keep(tmp_path, key, tweak):
    (tmp_path / "in.csv").write_text(CARDS)
    r = fpe(
        key,
        "encrypt",
        "--column",
        "card",
        "--format",
        "digits",
        "--tweak",
        tweak,
        "--on-error",
        "keep",
        "-i",
        tmp_path / "in.csv",
        "-o",
        tmp_path / "out.csv",
    )
    assert "tweak" in one_line(r)
    assert not (tmp_path / "out.csv").exists()


def test_tweak_too_large_for_some_lengths_is_not_kept_in_clear(tmp_path, key):
    """FEA-1 takes tweaks below 2^(128 - n): 2^100 is fine for 16 digits (n = 54) but not for 38 (n = 127).
    That is not a value that fails to fit its format: nothing is written, whatever --on-error says."""
    (tmp_path / "in.csv").write_text("id,card\n1,4111111111111111\n2," + "9" * 38 + "\n")
    r = fpe(
        key,
        "encrypt",
        "--column",
        "card",
        "--format",
        "digits",
        "--tweak",
        str(1 << 100),
        "--on-error",
        "keep",
        "-i",
        tmp_path / "in.csv",
        "-o",
        tmp_path / "out.csv",
    )
    one_line(r)
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize(
    "data", ["id,name\n1,caf\u00e9\n".encode("latin-1"), "id,card\n1,4111111111111111\n".encode("utf-16")]
)
def test_not_utf8(tmp_path, key, data):
    (tmp_path / "in.csv").write_bytes(data)
    r = fpe(
        key,
        "encrypt",
        "--column",
        "id",
        "--format",
        "digits",
        "--allow-small-domain",
        "-i",
        tmp_path / "in.csv",
        "-o",
        tmp_path / "out.csv",
    )
    assert "not UTF-8" in one_line(r)
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize("d", [";;", "", '"', "\n"])
def test_bad_delimiter(tmp_path, key, d):
    (tmp_path / "in.csv").write_text(CARDS)
    r = fpe(
        key,
        "encrypt",
        "--column",
        "card",
        "--format",
        "digits",
        "--delimiter",
        d,
        "-i",
        tmp_path / "in.csv",
        "-o",
        tmp_path / "out.csv",
    )
    assert "delimiter" in one_line(r)
    assert not (tmp_path / "out.csv").exists()


EXACT = [
    # CRLF, quoted fields (processed and not), a quoted field with a line break and a doubled quote, a blank
    # line, no final newline
    b'id,card,note\r\n1,"4111111111111111","a, b"\r\n'
    b'2,5500000000000004,"line1\r\nline2 ""q"""\r\n\r\n3,340000000000009,x',
    # UTF-8 BOM before the processed first column; LF; final newline
    b"\xef\xbb\xbfcard,name\n4111-1111-1111-1111,J\xc3\xbcrgen\n6011000990139424,\n",
    # semicolons, CR-only line ends
    b"card;x\r5500 0000 0000 0004;1\r",
]


@pytest.mark.parametrize("data", EXACT)
def test_csv_round_trip_is_byte_exact(tmp_path, key, data):
    first = data.replace(b"\xef\xbb\xbf", b"").split(b"\n")[0]
    delim = ";" if b";" in first else ","
    (tmp_path / "in.csv").write_bytes(data)
    args = ["--column", "card", "--format", "digits", "--delimiter", delim]
    r = fpe(key, "encrypt", *args, "-i", tmp_path / "in.csv", "-o", tmp_path / "enc.csv")
    assert r.returncode == 0, r.stderr
    enc = (tmp_path / "enc.csv").read_bytes()
    assert enc != data and len(enc) == len(data)  # digits encrypted in place, nothing else changed
    assert enc.startswith(b"\xef\xbb\xbf") == data.startswith(b"\xef\xbb\xbf")
    r = fpe(key, "decrypt", *args, "-i", tmp_path / "enc.csv", "-o", tmp_path / "dec.csv")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "dec.csv").read_bytes() == data


def test_malformed_csv_is_one_line(tmp_path, key):
    (tmp_path / "in.csv").write_bytes(b'id,card\n1,"4111111111111111\n')
    r = fpe(
        key, "encrypt", "--column", "card", "--format", "digits", "-i", tmp_path / "in.csv", "-o", tmp_path / "out.csv"
    )
    assert "unterminated" in one_line(r)


def test_over_long_value_is_rejected_before_conversion(tmp_path, key):
    (tmp_path / "in.csv").write_text("id,card\n1," + "7" * 10_000_000 + "\n")
    r = fpe(
        key, "encrypt", "--column", "card", "--format", "digits", "-i", tmp_path / "in.csv", "-o", tmp_path / "out.csv"
    )
    assert "too long (10000000 characters" in one_line(r, 1)
    assert not (tmp_path / "out.csv").exists()


def test_parquet_errors_without_writer_traceback(tmp_path, key):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pq.write_table(pa.table({"card": ["4111111111111111", "not a card", "7" * 1_000_000]}), tmp_path / "in.parquet")
    r = fpe(
        key,
        "encrypt",
        "--column",
        "card",
        "--format",
        "digits",
        "-i",
        tmp_path / "in.parquet",
        "-o",
        tmp_path / "out.parquet",
    )
    one_line(r, 1)
    assert not (tmp_path / "out.parquet").exists()
    r = fpe(
        key,
        "encrypt",
        "--column",
        "card",
        "--format",
        "digits",
        "--on-error",
        "keep",
        "-i",
        tmp_path / "in.parquet",
        "-o",
        tmp_path / "out.parquet",
    )
    assert r.returncode == 0 and b"Exception ignored" not in r.stderr and b"Traceback" not in r.stderr
    out = pq.read_table(tmp_path / "out.parquet").column("card").to_pylist()
    assert out[1:] == ["not a card", "7" * 1_000_000] and out[0] != "4111111111111111"
