"""nuri fpe encrypt|decrypt over CSV and Parquet: formats, round trips, schema kept, bad values reported."""

import csv
import os

import pytest

from nuri import keyfile
from nuri.cli.main import main

fea = pytest.importorskip("nuri.fea", reason="nuri.fea is not in this build yet")

CARDS = ["4111-1111-1111-1111", "5500 0000 0000 0004", "340000000000009", "6011000990139424"]


def nuri(*argv):
    try:
        return main([str(a) for a in argv])
    except SystemExit as e:
        return e.code


@pytest.fixture(params=[128, 192, 256])
def key(tmp_path, request):
    p = tmp_path / "k"
    keyfile.write_key(str(p), bytes(range(request.param // 8)))
    return p


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def test_cards_round_trip(tmp_path, key):
    rows = [["id", "card", "name"]] + [[str(i), c, f"name {i}"] for i, c in enumerate(CARDS)]
    write_csv(tmp_path / "in.csv", rows)
    assert (
        nuri(
            "fpe",
            "encrypt",
            "-k",
            key,
            "--column",
            "card",
            "--format",
            "digits",
            "-i",
            tmp_path / "in.csv",
            "-o",
            tmp_path / "enc.csv",
        )
        == 0
    )
    enc = read_csv(tmp_path / "enc.csv")
    assert enc[0] == rows[0] and len(enc) == len(rows)
    k = keyfile.read_key(str(key))
    for src, out in zip(rows[1:], enc[1:]):
        assert out[0] == src[0] and out[2] == src[2]
        assert len(out[1]) == len(src[1])
        assert [c for c in out[1] if not c.isdigit()] == [c for c in src[1] if not c.isdigit()]
        assert all(a == b for a, b in zip(out[1], src[1]) if not a.isdigit())
        digits = "".join(c for c in src[1] if c.isdigit())
        assert "".join(c for c in out[1] if c.isdigit()) == fea.encrypt_digits(k, digits)
    assert enc[1][1] != rows[1][1]
    assert (
        nuri(
            "fpe",
            "decrypt",
            "-k",
            key,
            "--column",
            "card",
            "--format",
            "digits",
            "-i",
            tmp_path / "enc.csv",
            "-o",
            tmp_path / "dec.csv",
        )
        == 0
    )
    assert read_csv(tmp_path / "dec.csv") == rows


def test_template_and_several_columns(tmp_path, key):
    rows = [
        ["card", "rrn", "note"],
        ["4111-1111-1111-1111", "900101-1234567", "x"],
        ["5500-0000-0000-0004", "851231-2345678", ""],
    ]
    write_csv(tmp_path / "in.csv", rows)
    args = [
        "--column",
        "card",
        "--format",
        "template:####-####-####-****",
        "--column",
        "rrn",
        "--format",
        "template:******-#######",
    ]
    assert nuri("fpe", "encrypt", "-k", key, *args, "-i", tmp_path / "in.csv", "-o", tmp_path / "e.csv") == 0
    enc = read_csv(tmp_path / "e.csv")
    for src, out in zip(rows[1:], enc[1:]):
        assert out[0][-4:] == src[0][-4:] and out[0][4] == "-"
        assert out[1][:7] == src[1][:7] and out[1] != src[1] and out[2] == src[2]
    assert nuri("fpe", "decrypt", "-k", key, *args, "-i", tmp_path / "e.csv", "-o", tmp_path / "d.csv") == 0
    assert read_csv(tmp_path / "d.csv") == rows


def test_tweak_and_variant_change_output(tmp_path, key):
    write_csv(tmp_path / "in.csv", [["c"], ["1234567890123456"]])
    outs = []
    for extra in ([], ["--tweak", "5"], ["--variant", "2"]):
        o = tmp_path / f"o{len(outs)}.csv"
        assert (
            nuri(
                "fpe",
                "encrypt",
                "-k",
                key,
                "--column",
                "c",
                "--format",
                "digits",
                *extra,
                "-i",
                tmp_path / "in.csv",
                "-o",
                o,
            )
            == 0
        )
        outs.append(read_csv(o)[1][0])
        assert (
            nuri(
                "fpe",
                "decrypt",
                "-k",
                key,
                "--column",
                "c",
                "--format",
                "digits",
                *extra,
                "-i",
                o,
                "-o",
                tmp_path / f"d{len(outs)}.csv",
            )
            == 0
        )
        assert read_csv(tmp_path / f"d{len(outs)}.csv")[1][0] == "1234567890123456"
    assert len(set(outs)) == 3


def test_malformed_values(tmp_path, key, capsys):
    rows = [
        ["id", "card"],
        ["1", "4111-1111-1111-1111"],
        ["2", "n/a"],
        ["3", "12"],
        ["4", ""],
        ["5", "5500000000000004"],
    ]
    write_csv(tmp_path / "in.csv", rows)
    base = ["fpe", "encrypt", "-k", key, "--column", "card", "--format", "digits", "-i", tmp_path / "in.csv"]
    assert nuri(*base, "-o", tmp_path / "stop.csv") == 1
    err = capsys.readouterr().err
    assert "row 2" in err and "'card'" in err and "n/a" in err
    assert not (tmp_path / "stop.csv").exists()
    assert nuri(*base, "-o", tmp_path / "keep.csv", "--on-error", "keep") == 0
    err = capsys.readouterr().err
    assert "row 2" in err and "row 3" in err and "2 value(s)" in err
    out = read_csv(tmp_path / "keep.csv")
    assert out[2] == ["2", "n/a"] and out[3] == ["3", "12"] and out[4] == ["4", ""]
    assert out[1][1] != rows[1][1] and out[5][1] != rows[5][1]


def test_template_mismatch_and_small_domain(tmp_path, key, capsys):
    write_csv(tmp_path / "in.csv", [["c"], ["4111 1111 1111 1111"]])
    assert (
        nuri(
            "fpe",
            "encrypt",
            "-k",
            key,
            "--column",
            "c",
            "--format",
            "template:####-####-####-####",
            "-i",
            tmp_path / "in.csv",
            "-o",
            tmp_path / "o.csv",
        )
        == 1
    )
    assert "does not match template" in capsys.readouterr().err
    write_csv(tmp_path / "small.csv", [["c"], ["12345"]])
    assert (
        nuri(
            "fpe",
            "encrypt",
            "-k",
            key,
            "--column",
            "c",
            "--format",
            "digits",
            "-i",
            tmp_path / "small.csv",
            "-o",
            tmp_path / "o.csv",
        )
        == 1
    )
    assert "10^6" in capsys.readouterr().err
    assert (
        nuri(
            "fpe",
            "encrypt",
            "-k",
            key,
            "--column",
            "c",
            "--format",
            "digits",
            "--allow-small-domain",
            "-i",
            tmp_path / "small.csv",
            "-o",
            tmp_path / "o.csv",
        )
        == 0
    )


def test_usage_errors(tmp_path, key):
    write_csv(tmp_path / "in.csv", [["a", "b"], ["123456789", "x"]])
    base = ["fpe", "encrypt", "-k", key, "-i", tmp_path / "in.csv", "-o", tmp_path / "o.csv"]
    assert nuri(*base, "--column", "zzz", "--format", "digits") == 2
    assert nuri(*base, "--column", "a", "--format", "bogus") == 2
    assert (
        nuri(*base, "--column", "a", "--column", "b", "--format", "digits", "--format", "digits", "--format", "digits")
        == 2
    )
    assert nuri(*base, "--column", "a", "--format", "template:----") == 2
    assert nuri(*base, "--column", "a", "--format", "alphabet:aa") == 2
    (tmp_path / "bad.csv").write_text("a,b\n1,2,3\n")
    assert (
        nuri(
            "fpe",
            "encrypt",
            "-k",
            key,
            "-i",
            tmp_path / "bad.csv",
            "-o",
            tmp_path / "o.csv",
            "--column",
            "a",
            "--format",
            "digits",
        )
        == 2
    )
    (tmp_path / "o.csv").write_text("keep")
    assert nuri(*base, "--column", "a", "--format", "digits") == 2
    assert (tmp_path / "o.csv").read_text() == "keep"
    assert (
        nuri(
            "fpe",
            "encrypt",
            "-k",
            key,
            "-i",
            tmp_path / "in.csv",
            "-o",
            tmp_path / "nodir" / "o.csv",
            "--column",
            "a",
            "--format",
            "digits",
        )
        == 2
    )
    assert (
        nuri(
            "fpe",
            "encrypt",
            "-k",
            key,
            "-i",
            tmp_path / "in.unknown",
            "-o",
            tmp_path / "o2.csv",
            "--column",
            "a",
            "--format",
            "digits",
        )
        == 2
    )


def test_wrong_key_length(tmp_path):
    write_csv(tmp_path / "in.csv", [["a"], ["123456789"]])
    (tmp_path / "k").write_text("nuri-key-v1 128 0011\n")
    assert (
        nuri(
            "fpe",
            "encrypt",
            "-k",
            tmp_path / "k",
            "--column",
            "a",
            "--format",
            "digits",
            "-i",
            tmp_path / "in.csv",
            "-o",
            tmp_path / "o.csv",
        )
        == 2
    )


def test_parquet_round_trip_keeps_schema(tmp_path, key):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    n = 25000  # several batches
    t = pa.table(
        {
            "id": pa.array(range(n), pa.int32()),
            "card": pa.array([f"4{i:015d}" if i % 7 else None for i in range(n)], pa.string()),
            "acct": pa.array([i * 7919 for i in range(n)], pa.int64()),
        }
    )
    pq.write_table(t, tmp_path / "in.parquet")
    args = ["--column", "card", "--format", "digits", "--column", "acct", "--format", "digits"]
    assert nuri("fpe", "encrypt", "-k", key, *args, "-i", tmp_path / "in.parquet", "-o", tmp_path / "e.parquet") == 0
    e = pq.read_table(tmp_path / "e.parquet")
    assert e.schema == t.schema and e.num_rows == n
    assert e.column("id").equals(t.column("id"))
    ec = e.column("card").to_pylist()
    assert ec[0] is None and ec[1] != t.column("card")[1].as_py() and len(ec[1]) == 16
    assert all(0 <= v < 10**18 for v in e.column("acct").to_pylist())
    assert nuri("fpe", "decrypt", "-k", key, *args, "-i", tmp_path / "e.parquet", "-o", tmp_path / "d.parquet") == 0
    assert pq.read_table(tmp_path / "d.parquet").equals(t)


def test_unwritable_output(tmp_path, key):
    write_csv(tmp_path / "in.csv", [["a"], ["123456789"]])
    assert (
        nuri(
            "fpe",
            "encrypt",
            "-k",
            key,
            "--column",
            "a",
            "--format",
            "digits",
            "-i",
            tmp_path / "in.csv",
            "-o",
            "/proc/nuri-test.csv",
        )
        == 2
    )


def test_csv_stdin_stdout(tmp_path, key):
    import subprocess
    import sys

    nuri_bin = os.path.join(os.path.dirname(sys.executable), "nuri")
    data = "id,card\n1,4111-1111-1111-1111\n2,5500000000000004\n"
    base = [nuri_bin, "fpe", "{}", "-k", str(key), "--column", "card", "--format", "digits", "-i", "-", "-o", "-"]
    enc = subprocess.run([a.format("encrypt") for a in base], input=data, capture_output=True, text=True, check=True)
    assert enc.stdout.splitlines()[0] == "id,card" and enc.stdout != data
    dec = subprocess.run(
        [a.format("decrypt") for a in base], input=enc.stdout, capture_output=True, text=True, check=True
    )
    assert dec.stdout == data


def test_alphabet(tmp_path, key):
    rows = [["h"], ["deadbeefcafe"], ["0123456789ab"]]
    write_csv(tmp_path / "in.csv", rows)
    args = ["--column", "h", "--format", "alphabet:0123456789abcdef"]
    assert nuri("fpe", "encrypt", "-k", key, *args, "-i", tmp_path / "in.csv", "-o", tmp_path / "e.csv") == 0
    enc = read_csv(tmp_path / "e.csv")
    assert all(len(e[0]) == 12 and set(e[0]) <= set("0123456789abcdef") for e in enc[1:]) and enc != rows
    assert nuri("fpe", "decrypt", "-k", key, *args, "-i", tmp_path / "e.csv", "-o", tmp_path / "d.csv") == 0
    assert read_csv(tmp_path / "d.csv") == rows
    write_csv(tmp_path / "bad.csv", [["h"], ["xyz123456789"]])
    assert nuri("fpe", "encrypt", "-k", key, *args, "-i", tmp_path / "bad.csv", "-o", tmp_path / "x.csv") == 1
