"""`nuri fpe` never writes plaintext as if encrypted, says no in one line, and round-trips CSV
byte for byte (line endings, quoting, final newline, BOM)."""

import os
import subprocess
import sys
import time

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


# ------------------------------------------------------------------ stdout: nothing written on a bad input


def _cards(n, bad_row=None):
    rows = [f"{i},{4000000000000000 + i * 7919}" for i in range(1, n + 1)]
    if bad_row:
        rows[bad_row - 1] = f"{bad_row},n/a"
    return "id,card\n" + "\n".join(rows) + "\n"


STDOUT_CASES = {
    # a value that does not fit, far past the first batch of 10,000 rows
    "bad-row": (_cards(20000, bad_row=15000), [], 1, "row 15000"),
    # malformed CSV after many good rows
    "unterminated": (_cards(12000) + '12001,"4000\n', [], 2, "unterminated"),
    # a tweak too large for a 38-digit value that comes after the header and many rows
    "tweak": (_cards(12000) + "12001," + "9" * 38 + "\n", ["--tweak", str(1 << 100)], 2, "FEA refused"),
}


@pytest.mark.parametrize("case", sorted(STDOUT_CASES))
@pytest.mark.parametrize("out", ["-", "/dev/stdout"])
def test_stdout_gets_nothing_from_a_bad_input(tmp_path, key, case, out):
    """-o - (and a device or FIFO, written in place) is held until the input is known good: a failure
    leaves stdout empty, the header included, and the message says nothing was written."""
    text, extra, code, what = STDOUT_CASES[case]
    (tmp_path / "in.csv").write_text(text)
    r = subprocess.run(
        [NURI_BIN, "fpe", "encrypt", "-k", str(key), "--column", "card", "--format", "digits", *extra]
        + ["-i", str(tmp_path / "in.csv"), "-o", out],
        capture_output=True,
        env=dict(os.environ, NURI_NO_PROGRESS="1"),
    )
    err = one_line(r, code)
    assert what in err and err.rstrip().endswith("nothing written"), err
    assert r.stdout == b""


def test_stdout_past_the_hold_says_what_was_written(tmp_path, key):
    """Past HOLD_BYTES the output streams; an error then states exactly which rows and bytes went out
    (here with the hold shrunk to 100 kB, in a subprocess)."""
    (tmp_path / "in.csv").write_text(_cards(20000, bad_row=15000))
    code = (
        "import sys; from nuri.cli import cmd_fpe; from nuri.cli.main import main; "
        "cmd_fpe.HOLD_BYTES = 100000; sys.exit(main(sys.argv[1:]))"
    )
    r = subprocess.run(
        [sys.executable, "-c", code, "fpe", "encrypt", "-k", str(key), "--column", "card", "--format", "digits"]
        + ["-i", str(tmp_path / "in.csv"), "-o", "-"],
        capture_output=True,
        env=dict(os.environ, NURI_NO_PROGRESS="1"),
    )
    err = one_line(r, 1)
    n = len(r.stdout)
    assert f"the header and data rows 1..10000 were already written to stdout ({n} bytes)" in err, err
    assert r.stdout.decode().count("\n") == 10001  # the header and the first batch, exactly


def test_parquet_to_a_device_is_held_too(tmp_path, key):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    cards = [str(4000000000000000 + i * 7919) for i in range(25000)]
    pq.write_table(pa.table({"card": cards}), tmp_path / "good.parquet")
    pq.write_table(pa.table({"card": cards + ["n/a"]}), tmp_path / "bad.parquet")
    args = [NURI_BIN, "fpe", "encrypt", "-k", str(key), "--column", "card", "--format", "digits", "-o", "/dev/stdout"]
    env = dict(os.environ, NURI_NO_PROGRESS="1")
    r = subprocess.run(args + ["-i", str(tmp_path / "bad.parquet")], capture_output=True, env=env)
    assert one_line(r, 1).rstrip().endswith("nothing written") and r.stdout == b""
    r = subprocess.run(args + ["-i", str(tmp_path / "good.parquet")], capture_output=True, env=env)
    assert r.returncode == 0, r.stderr
    (tmp_path / "enc.parquet").write_bytes(r.stdout)
    enc = pq.read_table(tmp_path / "enc.parquet").column("card").to_pylist()
    assert len(enc) == len(cards) and enc != cards and all(len(c) == 16 and c.isdigit() for c in enc)


# ------------------------------------------------------------------ quoting that only encryption would add


@pytest.mark.parametrize(
    "fmt, delim, ch",
    [
        ("alphabet:0123456789,", ",", ","),  # the delimiter in the alphabet
        ('alphabet:0123456789"', ",", '"'),  # the quote
        ("alphabet:0123456789\n", ",", "\n"),  # a line break
        ("digits", "7", "7"),  # a digit as the delimiter
        ("template:####-####", "5", "5"),
    ],
)
def test_format_that_would_need_new_quoting_is_refused(tmp_path, key, fmt, delim, ch):
    """Such a value must be quoted once encrypted, and decryption cannot tell that quoting from the file's
    own: refused before anything is read or written (CSV only; Parquet has no quoting)."""
    (tmp_path / "in.csv").write_text(f"id{delim}card\n1{delim}12341234\n")
    r = fpe(
        key,
        "encrypt",
        "--column",
        "card",
        "--format",
        fmt,
        "--delimiter",
        delim,
        "--allow-small-domain",
        "-i",
        tmp_path / "in.csv",
        "-o",
        tmp_path / "out.csv",
    )
    err = one_line(r, 2)
    assert repr(ch) in err and "byte for byte" in err, err
    assert not (tmp_path / "out.csv").exists()


def test_printable_alphabet_round_trip_is_byte_exact(tmp_path, key):
    """The review's case, with the delimiter moved out of the alphabet's way: 200 rows of printable
    values (quotes excluded, commas included) round-trip exactly with a tab delimiter."""
    import random

    rng = random.Random(5)
    alphabet = "".join(chr(c) for c in range(0x20, 0x7F) if chr(c) != '"')
    rows = ["".join(rng.choice(alphabet) for _ in range(12)) for _ in range(200)]
    data = "id\tsecret\n" + "".join(f"{i}\t{v}\n" for i, v in enumerate(rows))  # a tab: no quoting needed
    (tmp_path / "in.csv").write_text(data)
    args = ["--column", "secret", "--format", "alphabet:" + alphabet, "--delimiter", "\t"]
    r = fpe(key, "encrypt", *args, "-i", tmp_path / "in.csv", "-o", tmp_path / "enc.csv")
    assert r.returncode == 0, r.stderr
    r = fpe(key, "decrypt", *args, "-i", tmp_path / "enc.csv", "-o", tmp_path / "dec.csv")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "dec.csv").read_text() == data


# ------------------------------------------------------------------ records: linear time, bounded memory


@pytest.mark.parametrize("shape", ["long-field", "unbalanced-quote"])
def test_one_huge_record_is_fast(tmp_path, key, shape):
    """8 MB in one quoted field, or an unbalanced quote near the top that makes the rest of the file one
    field: parsed in linear time (the quadratic reader took about 15 s and 1.2 GB here)."""
    if shape == "long-field":
        text = 'id,card,note\n1,4111111111111111,"' + "x" * (8 << 20) + '"\n'
    else:
        text = 'id,card,note\n1,4111111111111111,"oops\n' + "2,5500000000000004,y\n" * ((8 << 20) // 21)
    (tmp_path / "in.csv").write_text(text)
    t = time.monotonic()
    r = fpe(
        key, "encrypt", "--column", "card", "--format", "digits", "-i", tmp_path / "in.csv", "-o", tmp_path / "out.csv"
    )
    elapsed = time.monotonic() - t
    if shape == "long-field":
        assert r.returncode == 0, r.stderr
        assert len((tmp_path / "out.csv").read_bytes()) == len(text)
    else:
        assert "line 2: unterminated quoted field" in one_line(r)
    assert elapsed < 10, elapsed


def test_record_past_the_limit_is_one_line(tmp_path, key):
    """A record over MAX_RECORD_CHARS (16 Mi characters) is refused with its line number."""
    (tmp_path / "in.csv").write_text('id,card\n1,4111111111111111\n2,"' + "x" * ((16 << 20) + 10) + '"\n')
    r = fpe(
        key, "encrypt", "--column", "card", "--format", "digits", "-i", tmp_path / "in.csv", "-o", tmp_path / "out.csv"
    )
    assert "line 3: a record longer than 16777216 characters" in one_line(r)
    assert not (tmp_path / "out.csv").exists()
