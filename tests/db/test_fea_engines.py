"""FEA in PostgreSQL (the nuri_fea extension on a real throw-away server), DuckDB (Arrow
functions) and Spark (a local two-core session): SQL round trips, NULLs, malformed values named
in the error, keys by name only, on_error keep/stop, every case of the shared pattern table
against nuri.fea_formats, and one cross-engine round trip from Parquet (the same ciphertexts from
the CLI, DuckDB, PostgreSQL and Spark).

`make check` (check-db) builds and installs the extension and sets NURI_DB_REQUIRED=1: then a
missing engine fails instead of skipping. NURI_DB_ROWS sets the CREATE TABLE AS row count
(default 100000; `make db-soak` runs a million)."""

import os
import shutil

import pytest
from conftest import KEY, pattern_cases

from nuri import fea, keyfile
from nuri.fea_formats import ColumnCipher

pa = pytest.importorskip("pyarrow")
REQUIRED = os.environ.get("NURI_DB_REQUIRED") == "1"
ROWS = int(os.environ.get("NURI_DB_ROWS", "100000"))


def need(why):
    if why:
        if REQUIRED:
            pytest.fail(f"required engine missing: {why}")
        pytest.skip(why)


def sql_str(s):
    return "'" + s.replace("'", "''") + "'"


# ------------------------------------------------------------------------------------------ PostgreSQL


@pytest.fixture(scope="module")
def pg(key_dir):
    from nuri_dev import pgserver as postgres

    need(postgres.missing())
    need(
        None
        if postgres.extension_installed()
        else "the nuri_fea extension is not installed (make pg-ext, or make check-db as root)"
    )
    with postgres.TempServer(key_dir=key_dir) as server:
        server.sql("CREATE EXTENSION nuri_fea")
        yield server


def test_pg_round_trips_and_nulls(pg):
    vals = ["4111111111111111", "0000000000000000", "4111-1111-1111-1111", "(02) 1234-5678"]
    rows = pg.sql(
        "SELECT fea_encrypt_digits(v, 'cards'), fea_decrypt_digits(fea_encrypt_digits(v, 'cards'), 'cards') "
        f"FROM unnest(ARRAY[{', '.join(map(sql_str, vals))}]) v"
    ).splitlines()
    want = ColumnCipher(KEY, "digits").encrypt(vals)
    assert [r.split("|") for r in rows] == [[w, v] for w, v in zip(want, vals)]
    assert pg.sql("SELECT fea_encrypt_digits('4111111111111111', 'cards')").strip() == fea.encrypt_digits(
        KEY, "4111111111111111"
    )
    assert pg.sql("SELECT fea_encrypt_digits('4111111111111111', 'plainhex')").strip() == want[0]
    assert pg.sql(
        "SELECT fea_encrypt_digits('4111111111111111', 'cards', '\\x0102'::bytea)"
    ).strip() == fea.encrypt_digits(KEY, "4111111111111111", tweak=0x102)
    # STRICT: NULL in, NULL out
    assert (
        pg.sql(
            "SELECT fea_encrypt_digits(NULL, 'cards') IS NULL, fea_encrypt_int(NULL::bigint, 'cards') IS NULL"
        ).strip()
        == "t|t"
    )


def test_pg_fea2_and_small_domain_settings(pg):
    vals = ["4111111111111111", "4111-1111-1111-1111"]
    rows = pg.sql(
        "SET nuri.fea_variant = 2;\n"
        "SELECT fea_encrypt_digits(v, 'cards', '\\x05'::bytea) FROM unnest(ARRAY["
        f"{', '.join(map(sql_str, vals))}]) v"
    ).split()
    assert (
        rows
        == ColumnCipher(KEY, "digits", tweak=5, variant=2).encrypt(vals)
        != ColumnCipher(KEY, "digits", tweak=5).encrypt(vals)
    )
    # FEA-2 takes 128-bit tweaks, FEA-1 only 128 - n bits
    big = "'\\x" + "ff" * 16 + "'::bytea"
    assert (
        pg.sql(f"SET nuri.fea_variant = 2; SELECT fea_encrypt_digits('4111111111111111', 'cards', {big})").strip()
        == ColumnCipher(KEY, "digits", tweak=2**128 - 1, variant=2).encrypt(["4111111111111111"])[0]
    )
    rc, _, err = pg.sql(f"SELECT fea_encrypt_digits('4111111111111111', 'cards', {big})", check=False)
    assert rc != 0 and "below 2^74" in err and "FEA-1" in err
    rc, _, err = pg.sql("SELECT fea_encrypt_digits('12345', 'cards')", check=False)
    assert rc != 0 and "10^6" in err
    got = (
        pg.sql(
            "SET nuri.allow_small_domain = on; SELECT fea_encrypt_digits('12345', 'cards'), "
            "fea_decrypt_digits(fea_encrypt_digits('12345', 'cards'), 'cards')"
        )
        .strip()
        .split("|")
    )
    assert got == [ColumnCipher(KEY, "digits", allow_small_domain=True).encrypt(["12345"])[0], "12345"]


def test_pg_shared_pattern_cases(pg):
    for pattern, value, want in pattern_cases():
        rc, out, err = pg.sql(
            f"SELECT fea_encrypt_template({sql_str(value)}, {sql_str(pattern)}, 'cards', '\\x01'::bytea)", check=False
        )
        if want == "ok":
            assert rc == 0, err
            c = out.strip()
            assert c == ColumnCipher(KEY, pattern, tweak=1).encrypt([value])[0]
            back = pg.sql(f"SELECT fea_decrypt_template({sql_str(c)}, {sql_str(pattern)}, 'cards', '\\x01'::bytea)")
            assert back.strip() == value
        else:
            assert rc != 0 and "ERROR" in err and want[len("error:") :] in err, (pattern, value, err)


def test_pg_bare_templates_and_integers(pg):
    c = pg.sql("SELECT fea_encrypt_template('010-1234-5678', '010-####-####', 'cards')").strip()
    assert c == ColumnCipher(KEY, "template:010-####-####").encrypt(["010-1234-5678"])[0]
    big, small = (
        pg.sql("SELECT fea_encrypt_int(123::bigint, 'cards'), fea_encrypt_int(123, 'cards')").strip().split("|")
    )
    assert int(big) == int(fea.encrypt_digits(KEY, "123".zfill(18)))
    assert int(small) == int(fea.encrypt_digits(KEY, "123".zfill(9)))
    assert (
        pg.sql(f"SELECT fea_decrypt_int({big}::bigint, 'cards'), fea_decrypt_int({small}, 'cards')").strip()
        == "123|123"
    )


def test_pg_errors_name_the_problem(pg):
    for q, frag in [
        ("fea_encrypt_digits('n/a', 'cards')", "has no digits"),
        ("fea_encrypt_digits('12345', 'cards')", "10^6"),
        ("fea_encrypt_template('4111 1111', '####-####', 'cards')", "position 5"),
        ("fea_encrypt_template('x', '----', 'cards')", "no '#'"),
        ("fea_encrypt_digits('4111111111111111', 'nosuchkey')", "cannot read key"),
        ("fea_encrypt_digits('4111111111111111', '../cards')", "not valid"),
        ("fea_encrypt_digits('4111111111111111', 'broken')", "key file"),
        ("fea_encrypt_digits('4111111111111111', 'cards', '\\xffffffffffffffffffffff'::bytea)", "2^74"),
        ("fea_encrypt_int(-1::bigint, 'cards')", "negative"),
        ("fea_encrypt_int(1000000000, 'cards')", "too large"),
    ]:
        rc, _, err = pg.sql(f"SELECT {q}", check=False)
        assert rc != 0 and frag in err, (q, err)
    # a bad value in one row of a statement: the statement fails, naming the problem, nothing written
    rc, _, err = pg.sql(
        "CREATE TABLE bad AS SELECT fea_encrypt_digits(v, 'cards') c FROM unnest(ARRAY['4111111111111111', 'n/a']) v",
        check=False,
    )
    assert rc != 0 and "has no digits" in err
    assert pg.sql("SELECT to_regclass('bad') IS NULL").strip() == "t"


def test_pg_functions_are_immutable_strict_parallel_safe(pg):
    rows = pg.sql("SELECT DISTINCT provolatile, proisstrict, proparallel FROM pg_proc WHERE proname LIKE 'fea_%'")
    assert rows.strip() == "i|t|s"
    # only superusers may point nuri.key_dir elsewhere (the module loaded first, so the setting is known)
    rc, _, err = pg.sql(
        "SELECT fea_encrypt_digits('4111111111111111', 'cards'); CREATE ROLE app LOGIN; "
        "GRANT USAGE ON SCHEMA public TO app; SET ROLE app; SET nuri.key_dir = '/tmp'",
        check=False,
    )
    assert rc != 0 and "permission denied" in err


def test_pg_create_table_as_select(pg):
    pg.sql(
        f"CREATE TABLE src AS SELECT g AS id, lpad((g::bigint * 7919)::text, 16, '0') AS c "
        f"FROM generate_series(1, {ROWS}) g"
    )
    pg.sql("CREATE TABLE enc AS SELECT id, fea_encrypt_digits(c, 'cards') AS c FROM src")
    same = pg.sql(
        "SELECT count(*) FROM src JOIN enc USING (id) WHERE src.c = enc.c OR length(enc.c) <> 16 OR enc.c !~ '^[0-9]+$'"
    ).strip()
    assert same == "0"
    back = pg.sql("SELECT count(*) FROM src JOIN enc USING (id) WHERE fea_decrypt_digits(enc.c, 'cards') = src.c")
    assert int(back) == ROWS
    sample = pg.sql("SELECT c FROM src ORDER BY id LIMIT 50").split()
    assert pg.sql("SELECT c FROM enc ORDER BY id LIMIT 50").split() == ColumnCipher(KEY, "digits").encrypt(sample)


# ------------------------------------------------------------------------------------------ DuckDB


@pytest.fixture(scope="module")
def duck(key_dir):
    try:
        import duckdb
    except ImportError:
        need("duckdb is not installed (pip install duckdb)")
    from nuri.fea_engines.duckdb import register

    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    reg = register(con, key_dir=str(key_dir))
    return con, reg


def q1(con, sql):
    return con.execute(sql).fetchall()


def test_duckdb_functions(duck):
    con, _ = duck
    vals = ["4111111111111111", None, "4111-1111-1111-1111"]
    con.execute(
        "CREATE TABLE t AS SELECT * FROM (VALUES (1, '4111111111111111'), (2, NULL), "
        "(3, '4111-1111-1111-1111')) v(id, c)"
    )
    got = [r[0] for r in q1(con, "SELECT fea_encrypt_digits(c, 'cards') FROM t ORDER BY id")]
    assert got == ColumnCipher(KEY, "digits").encrypt(vals)
    back = [
        r[0] for r in q1(con, "SELECT fea_decrypt_digits(fea_encrypt_digits(c, 'cards'), 'cards') FROM t ORDER BY id")
    ]
    assert back == vals
    assert q1(con, "SELECT fea_encrypt_digits_tweak('4111111111111111', 'cards', '\\x01\\x02'::BLOB)")[0][
        0
    ] == fea.encrypt_digits(KEY, "4111111111111111", tweak=0x102)
    assert q1(con, "SELECT fea_encrypt_int(123, 'cards')")[0][0] == int(fea.encrypt_digits(KEY, "123".zfill(18)))
    for pattern, value, want in pattern_cases():
        q = f"SELECT fea_encrypt_template_tweak({sql_str(value)}, {sql_str(pattern)}, 'cards', '\\x01'::BLOB)"
        if want == "ok":
            assert q1(con, q)[0][0] == ColumnCipher(KEY, pattern, tweak=1).encrypt([value])[0]
        else:
            with pytest.raises(Exception, match=want[len("error:") :].replace("^", "\\^")):
                q1(con, q)


def test_duckdb_vectors_and_on_error(duck, key_dir):
    import duckdb

    from nuri.fea_engines.duckdb import register

    con, _ = duck
    con.execute(
        f"CREATE TABLE big AS SELECT i AS id, lpad(CAST(i * 7919 AS VARCHAR), 16, '0') AS c FROM range({ROWS}) r(i)"
    )
    con.execute("CREATE TABLE big_enc AS SELECT id, fea_encrypt_digits(c, 'cards') AS c FROM big")
    assert q1(con, "SELECT count(*) FROM big JOIN big_enc USING (id) WHERE big.c = big_enc.c")[0][0] == 0
    assert (
        q1(
            con, "SELECT count(*) FROM big JOIN big_enc USING (id) WHERE fea_decrypt_digits(big_enc.c, 'cards') = big.c"
        )[0][0]
        == ROWS
    )
    # stop: the statement fails and writes nothing; keep: the value stays and is counted
    con.execute("CREATE TABLE mixed AS SELECT * FROM (VALUES (1, '4111111111111111'), (2, 'n/a')) v(id, c)")
    with pytest.raises(Exception, match="has no digits"):
        con.execute("CREATE TABLE out_stop AS SELECT fea_encrypt_digits(c, 'cards') c FROM mixed")
    assert not q1(con, "SELECT * FROM information_schema.tables WHERE table_name = 'out_stop'")
    keep = duckdb.connect()
    reg = register(keep, key_dir=str(key_dir), on_error="keep")
    keep.execute("CREATE TABLE mixed AS SELECT * FROM (VALUES (1, '4111111111111111'), (2, 'n/a')) v(id, c)")
    out = [r[0] for r in q1(keep, "SELECT fea_encrypt_digits(c, 'cards') FROM mixed ORDER BY id")]
    assert out == [fea.encrypt_digits(KEY, "4111111111111111"), "n/a"] and reg.problems == 1
    with pytest.raises(Exception, match="cannot read key file"):
        q1(con, "SELECT fea_encrypt_digits('4111111111111111', 'nosuchkey')")


# ------------------------------------------------------------------------------------------ Spark + all engines


def test_spark_and_cross_engine_round_trip(tmp_path):
    """One local two-core Spark session: mapInArrow and pandas_udf paths, stop/keep, then the
    Parquet round trip through every engine with identical ciphertexts."""
    from nuri_dev import pgserver as postgres
    from nuri_dev import roundtrip

    try:
        import pyspark  # noqa: F401
    except ImportError:
        need("pyspark is not installed")
    need(None if shutil.which("java") else "java is not installed (Debian: default-jre-headless)")
    engines = ["cli", "duckdb", "spark"]
    if postgres.missing() is None and postgres.extension_installed():
        engines.append("postgres")
    else:
        need(postgres.missing() or "the nuri_fea extension is not installed")
    from nuri.fea_engines import spark as fs

    s = fs.local_session(2)
    try:
        kf = tmp_path / "k.key"
        keyfile.write_key(str(kf), KEY)
        k = fs.broadcast_key(s, str(kf))
        assert "redacted" in repr(k.value) and KEY.hex() not in repr(k.value)
        df = s.createDataFrame([(1, "4111111111111111"), (2, None), (3, "4111-1111-1111-1111")], "id long, c string")
        rows = sorted(fs.encrypt(df, {"c": "digits"}, k).collect())
        assert [r.c for r in rows] == ColumnCipher(KEY, "digits").encrypt(
            ["4111111111111111", None, "4111-1111-1111-1111"]
        )
        u = fs.pandas_encrypt_udf("####-####-####-****", k)
        t = s.createDataFrame([("4111-1111-1111-1234",)], "c string")
        enc = ColumnCipher(KEY, "template:####-####-####-****").encrypt(["4111-1111-1111-1234"])[0]
        assert t.select(u("c")).collect()[0][0] == enc
        back = fs.pandas_decrypt_udf("####-####-####-****", k)
        t2 = s.createDataFrame([(enc,)], "c string")
        assert t2.select(back("c")).collect()[0][0] == "4111-1111-1111-1234"
        bad = s.createDataFrame([("4111111111111111",), ("n/a",)], "c string").coalesce(1)
        with pytest.raises(Exception, match="has no digits"):
            fs.encrypt(bad, {"c": "digits"}, k).collect()
        assert sorted(r.c for r in fs.encrypt(bad, {"c": "digits"}, k, on_error="keep").collect()) == sorted(
            ["n/a", fea.encrypt_digits(KEY, "4111111111111111")]
        )
        r = roundtrip.roundtrip(
            int(os.environ.get("NURI_DB_RT_ROWS", "5000")), engines, tmp_path / "rt", spark_session=s
        )
    finally:
        s.stop()
    assert r["problems"] == [] and set(r["engines"]) == set(engines)
