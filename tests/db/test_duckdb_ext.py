"""The nuri_fea DuckDB C extension (db/duckdb/, `make duckdb-ext`): every result is checked
against nuri.fea_formats / nuri.fea (the ciphertexts the CLI, PostgreSQL and Spark give too; the
cross-engine round trip in test_fea_engines.py compares them all directly), NULLs, the shared
pattern table, integers, per-row tweaks, vectors of 2048 rows in parallel threads, stop/keep,
key errors, FEA-2 and the small-domain opt-in.

`make check` (check-db) builds it and sets NURI_DUCKDB_EXT and NURI_DB_REQUIRED=1 (a missing
extension then fails instead of skipping)."""

import os
import random

import pytest
from conftest import KEY, pattern_cases

from nuri import fea
from nuri.fea_formats import ColumnCipher

duckdb = pytest.importorskip("duckdb")
REQUIRED = os.environ.get("NURI_DB_REQUIRED") == "1"
ROWS = int(os.environ.get("NURI_DB_ROWS", "100000"))


@pytest.fixture(scope="module")
def ext():
    from nuri.fea_engines.duckdb import extension_path

    p = extension_path()
    if p is None:
        msg = "the nuri_fea DuckDB extension is not built (make duckdb-ext)"
        if REQUIRED:
            pytest.fail(msg)
        pytest.skip(msg)
    return p


def connect(key_dir, ext, **kw):
    from nuri.fea_engines.duckdb import connect as c

    con = c(str(key_dir), path=ext, **kw)
    con.execute("SET enable_progress_bar = false")
    return con


@pytest.fixture
def con(key_dir, ext):
    c = connect(key_dir, ext)
    yield c
    c.close()


def col(con, sql):
    return [r[0] for r in con.execute(sql).fetchall()]


def sql_str(s):
    return "'" + s.replace("'", "''") + "'"


def values_table(con, name, values):
    con.execute(f"CREATE TABLE {name} (id INTEGER, c VARCHAR)")
    con.executemany(f"INSERT INTO {name} VALUES (?, ?)", list(enumerate(values)))


def test_round_trips_nulls_and_formats(con):
    vals = ["4111111111111111", None, "4111-1111-1111-1111", "(010) 1234 5678", "12345678901234567890123", "000000"]
    values_table(con, "t", vals)
    enc = col(con, "SELECT fea_encrypt_digits(c, 'cards') FROM t ORDER BY id")
    assert enc == ColumnCipher(KEY, "digits").encrypt(vals)
    assert enc[0] == fea.encrypt_digits(KEY, "4111111111111111")
    assert col(con, "SELECT fea_decrypt_digits(fea_encrypt_digits(c, 'cards'), 'cards') FROM t ORDER BY id") == vals
    # the plain-hex key file is the same key; NULL key names and tweaks give NULL (STRICT, as in PostgreSQL)
    assert col(con, "SELECT fea_encrypt_digits(c, 'plainhex') FROM t ORDER BY id") == enc
    assert col(con, "SELECT fea_encrypt_digits('4111111111111111', NULL)") == [None]
    assert col(con, "SELECT fea_encrypt_digits('4111111111111111', 'cards', NULL::BLOB)") == [None]
    assert col(con, "SELECT fea_encrypt_template('4111', NULL, 'cards')") == [None]


def test_shared_pattern_cases_with_a_tweak(con):
    n = 0
    for pattern, value, want in pattern_cases():
        q = f"SELECT fea_encrypt_template({sql_str(value)}, {sql_str(pattern)}, 'cards', '\\x01'::BLOB)"
        if want == "ok":
            got = col(con, q)[0]
            assert got == ColumnCipher(KEY, pattern, tweak=1).encrypt([value])[0]
            back = f"SELECT fea_decrypt_template({sql_str(got)}, {sql_str(pattern)}, 'cards', '\\x01'::BLOB)"
            assert col(con, back)[0] == value
        else:
            with pytest.raises(duckdb.Error, match=want[len("error:") :].replace("^", "\\^")):
                col(con, q)
        n += 1
    assert n >= 16
    # a bare pattern is a template, as in PostgreSQL
    assert (
        col(con, "SELECT fea_encrypt_template('010-1234-5678', '010-####-####', 'cards')")[0]
        == ColumnCipher(KEY, "template:010-####-####").encrypt(["010-1234-5678"])[0]
    )


def test_integers(con):
    big = [0, 123, 999999999999999999, None, 4111111111111111]
    con.execute("CREATE TABLE i (id INTEGER, b BIGINT, s INTEGER)")
    con.executemany(
        "INSERT INTO i VALUES (?, ?, ?)", [(k, v, (v % 10**9) if v is not None else None) for k, v in enumerate(big)]
    )
    eb = col(con, "SELECT fea_encrypt_int(b, 'cards') FROM i ORDER BY id")
    assert eb == [None if v is None else int(fea.encrypt_digits(KEY, str(v).zfill(18))) for v in big]
    es = col(con, "SELECT fea_encrypt_int(s, 'cards') FROM i ORDER BY id")
    assert es == [None if v is None else int(fea.encrypt_digits(KEY, str(v % 10**9).zfill(9))) for v in big]
    assert con.execute(
        "SELECT typeof(fea_encrypt_int(1::INTEGER, 'cards')), typeof(fea_encrypt_int(1::BIGINT, 'cards'))"
    ).fetchone() == ("INTEGER", "BIGINT")
    assert col(con, "SELECT fea_decrypt_int(fea_encrypt_int(b, 'cards'), 'cards') FROM i ORDER BY id") == big
    assert col(con, "SELECT fea_encrypt_int(5::BIGINT, 'cards', '\\x07'::BLOB)") == [
        int(fea.encrypt_digits(KEY, "5".zfill(18), tweak=7))
    ]
    with pytest.raises(duckdb.Error, match="value '-1' is outside 0..10\\^18-1"):
        col(con, "SELECT fea_encrypt_int(-1::BIGINT, 'cards')")


def test_per_row_tweaks(con):
    rng = random.Random(5)
    rows = [
        (k, "".join(rng.choice("0123456789") for _ in range(16)), bytes([k % 5, k % 3]) if k % 7 else None)
        for k in range(3000)
    ]
    con.execute("CREATE TABLE tw (id INTEGER, c VARCHAR, t BLOB)")
    con.executemany("INSERT INTO tw VALUES (?, ?, ?)", rows)
    got = col(con, "SELECT fea_encrypt_digits(c, 'cards', t) FROM tw ORDER BY id")
    want = [None if t is None else fea.encrypt_digits(KEY, c, tweak=int.from_bytes(t, "big")) for _, c, t in rows]
    assert got == want
    with pytest.raises(duckdb.Error, match="cannot take this tweak"):
        col(
            con,
            "SELECT fea_encrypt_digits('4111111111111111', 'cards', '\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff"
            "\\xff\\xff'::BLOB)",
        )


def test_many_vectors_in_parallel(con):
    con.execute("SET threads = 2")
    con.execute(
        f"CREATE TABLE big AS SELECT i AS id, lpad(CAST(i * 7919 AS VARCHAR), 16, '0') AS c FROM range({ROWS}) r(i)"
    )
    con.execute("CREATE TABLE big_enc AS SELECT id, fea_encrypt_digits(c, 'cards') AS c FROM big")
    assert col(
        con,
        "SELECT count(*) FROM big JOIN big_enc USING (id) WHERE big.c = big_enc.c "
        "OR NOT regexp_full_match(big_enc.c, '[0-9]{16}')",
    ) == [0]
    assert col(
        con, "SELECT count(*) FROM big JOIN big_enc USING (id) WHERE fea_decrypt_digits(big_enc.c, 'cards') = big.c"
    ) == [ROWS]
    sample = col(con, "SELECT c FROM big ORDER BY id LIMIT 50")
    assert col(con, "SELECT c FROM big_enc ORDER BY id LIMIT 50") == ColumnCipher(KEY, "digits").encrypt(sample)
    # mixed lengths and separators across several vectors: one batch per symbol count, joined back in place
    rng = random.Random(9)
    vals = []
    for k in range(5000):
        d = "".join(rng.choice("0123456789") for _ in range(rng.choice((6, 9, 16, 19, 30))))
        vals.append(None if k % 97 == 0 else (d if k % 3 else "-".join(d[i : i + 4] for i in range(0, len(d), 4))))
    values_table(con, "mixed", vals)
    assert col(con, "SELECT fea_encrypt_digits(c, 'cards') FROM mixed ORDER BY id") == ColumnCipher(
        KEY, "digits"
    ).encrypt(vals)


def test_stop_names_the_value_and_writes_nothing(con):
    values_table(con, "bad", ["4111111111111111"] * 3000 + ["n/a"] + ["4111111111111111"] * 10)
    with pytest.raises(duckdb.Error, match="fea_encrypt_digits: value 'n/a' has no digits.*nothing written"):
        con.execute("CREATE TABLE out_stop AS SELECT fea_encrypt_digits(c, 'cards') c FROM bad")
    assert not col(con, "SELECT table_name FROM information_schema.tables WHERE table_name = 'out_stop'")
    with pytest.raises(duckdb.Error, match="does not match template"):
        col(con, "SELECT fea_encrypt_template('4111 1111', '####-####', 'cards')")


def test_keep_leaves_the_value_and_reports_it(key_dir, ext, capfd):
    keep = connect(key_dir, ext, on_error="keep")
    values_table(keep, "bad", ["4111111111111111", "n/a", None, "12"])
    out = col(keep, "SELECT fea_encrypt_digits(c, 'cards') FROM bad ORDER BY id")
    assert out == [fea.encrypt_digits(KEY, "4111111111111111"), "n/a", None, "12"]
    err = capfd.readouterr().err
    assert "value 'n/a' has no digits; left unchanged" in err and "value '12'" in err
    keep.close()


def test_key_errors(key_dir, ext, con):
    with pytest.raises(duckdb.Error, match='cannot read key "nosuchkey"'):
        col(con, "SELECT fea_encrypt_digits('4111111111111111', 'nosuchkey')")
    with pytest.raises(duckdb.Error, match="key file .*broken.key: the key must be 32, 48 or 64 hex digits"):
        col(con, "SELECT fea_encrypt_digits('4111111111111111', 'broken')")
    with pytest.raises(duckdb.Error, match='key name "../cards" is not valid'):
        col(con, "SELECT fea_encrypt_digits('4111111111111111', '../cards')")
    with pytest.raises(duckdb.Error, match="the key name must be a constant"):
        col(con, "SELECT fea_encrypt_digits('4111111111111111', k) FROM (VALUES ('cards')) v(k)")
    with pytest.raises(duckdb.Error, match="nuri_on_error must be 'stop' or 'keep'"):
        con.execute("SET nuri_on_error = 'ignore'")
        col(con, "SELECT fea_encrypt_digits('4111111111111111', 'cards')")
    bare = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    bare.execute(f"LOAD {sql_str(ext)}")
    with pytest.raises(duckdb.Error, match="nuri_key_dir is not set"):
        col(bare, "SELECT fea_encrypt_digits('4111111111111111', 'cards')")
    bare.close()


def test_fea2_and_small_domains(key_dir, ext):
    c2 = connect(key_dir, ext, variant=2)
    vals = ["4111111111111111", "4111-1111-1111-1111"]
    assert [
        col(c2, f"SELECT fea_encrypt_digits({sql_str(v)}, 'cards', '\\x05'::BLOB)")[0] for v in vals
    ] == ColumnCipher(KEY, "digits", tweak=5, variant=2).encrypt(vals)
    c2.close()
    c1 = connect(key_dir, ext)
    with pytest.raises(duckdb.Error, match="10\\^6"):
        col(c1, "SELECT fea_encrypt_digits('12345', 'cards')")
    c1.close()
    small = connect(key_dir, ext, allow_small_domain=True)
    assert col(small, "SELECT fea_encrypt_digits('12345', 'cards')") == ColumnCipher(
        KEY, "digits", allow_small_domain=True
    ).encrypt(["12345"])
    small.close()


def _messy_values(rng, n):
    """Digit strings of every length 1..40 (leading zeros, all zeros/nines), the bytes next to
    '0'..'9' ('/', ':'), letters, separators, spaces, non-ASCII digits, empty strings and NULLs."""
    odd = "/:aZ -.\t\u0663\uff11\u00e9"  # '/' and ':' border the digits; Arabic-Indic 3, fullwidth 1
    vals = []
    for k in range(n):
        L = rng.choice((1, 3, 5, 6, 7, 8, 9, 12, 13, 15, 16, 16, 16, 17, 19, 19, 20, 24, 38, 39, 40))
        d = "".join(rng.choice("0123456789") for _ in range(L))
        kind = k % 11
        if kind == 0:
            d = "0" * rng.randint(1, L) + d[: max(0, L - 1)]
        elif kind == 1:
            d = rng.choice("09") * L
        elif kind in (2, 3):  # one odd character somewhere
            i = rng.randrange(L + 1)
            d = d[:i] + rng.choice(odd) + d[i + 1 :]
        elif kind == 4:
            d = None if k % 2 else ""
        vals.append(d)
    return vals


def test_plain_digits_path_equals_the_general_path(key_dir, ext, capfd):
    """The plain-digits path (parsed straight from DuckDB's strings to 64-bit words, one
    nuri_fea_fmt_encrypt_u64 call per length, formatted back into the output) against
    ColumnCipher (which takes every value through the pattern split): random and malformed
    values, with and without per-row tweaks, keep mode (every bad value left as it is), FEA-1
    and FEA-2, decrypted back."""
    pa = pytest.importorskip("pyarrow")
    rng = random.Random(17)
    vals = _messy_values(rng, 12000)
    rows = [(k, v, bytes([k % 4, k % 9]) if k % 5 else None) for k, v in enumerate(vals)]
    for variant in (1, 2):
        keep = connect(key_dir, ext, on_error="keep", variant=variant)
        keep.register(
            "m_rows",
            pa.table(
                {
                    "id": pa.array([r[0] for r in rows], pa.int32()),
                    "c": pa.array([r[1] for r in rows], pa.string()),
                    "t": pa.array([r[2] for r in rows], pa.binary()),
                }
            ),
        )
        keep.execute("CREATE TABLE m AS SELECT * FROM m_rows")
        want = ColumnCipher(KEY, "digits", variant=variant, on_error="keep").encrypt(vals)
        got = col(keep, "SELECT fea_encrypt_digits(c, 'cards') FROM m ORDER BY id")
        assert got == want
        assert sum(1 for v, g in zip(vals, got) if v is not None and v != g) > 6000  # most were encrypted
        assert (
            col(keep, "SELECT fea_decrypt_digits(fea_encrypt_digits(c, 'cards'), 'cards') FROM m ORDER BY id") == vals
        )
        got_tw = col(keep, "SELECT fea_encrypt_digits(c, 'cards', t) FROM m ORDER BY id")
        assert [g for (_, _, t), g in zip(rows, got_tw) if t is None] == [None] * sum(1 for r in rows if r[2] is None)
        for tw in {t for _, _, t in rows if t is not None}:  # ColumnCipher takes one tweak per column
            ids = [k for k, _, t in rows if t == tw]
            cc = ColumnCipher(KEY, "digits", tweak=int.from_bytes(tw, "big"), variant=variant, on_error="keep")
            assert [got_tw[k] for k in ids] == cc.encrypt([vals[k] for k in ids]), tw
        assert col(
            keep, "SELECT fea_decrypt_digits(fea_encrypt_digits(c, 'cards', t), 'cards', t) FROM m ORDER BY id"
        ) == [v if t is not None else None for _, v, t in rows]
        keep.close()
    capfd.readouterr()
    # stop mode: the first value that does not fit fails the statement (here a 5-digit one)
    stop = connect(key_dir, ext)
    values_table(stop, "s", ["0000000000000001", "12345678901234567", "01234"])
    with pytest.raises(duckdb.Error, match="value '01234'"):
        col(stop, "SELECT fea_encrypt_digits(c, 'cards') FROM s")
    stop.close()
