"""The cross-engine round trip: one Parquet column of 16-digit values (with NULLs and a few
formatted values) encrypted and decrypted by the CLI, DuckDB, PostgreSQL and Spark; every path
must give the same ciphertexts for the same key and tweak, keep formats and NULLs, and decrypt
back to the input. Used by tests/db/test_fea_engines.py (small n) and `make db-soak`
(python -m nuri_dev.roundtrip --rows 10000000).
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

KEY_TEXT = "nuri-key-v1 128 000102030405060708090a0b0c0d0e0f\n"
KEY_NAME = "rt"
TWEAK = 42


def make_input(path, n, seed=1):
    """id (int64), card (string): 16 random digits, ~1% NULL, the first rows formatted."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    digits = rng.integers(0, 10, size=(n, 16), dtype=np.uint8) + 48
    cards = digits.view("S16").reshape(n).astype(str).astype(object)
    for i in range(min(n, 50)):  # formats kept: separators stay where they are
        s = cards[i]
        cards[i] = f"{s[:4]}-{s[4:8]}-{s[8:12]}-{s[12:]}" if i % 2 else f"({s[:2]}) {s[2:]}"
    mask = rng.random(n) < 0.01
    arr = pa.array(cards, type=pa.string(), mask=mask)
    pq.write_table(pa.table({"id": pa.array(np.arange(n, dtype=np.int64)), "card": arr}), path, row_group_size=1 << 20)
    return arr


def _column(table):
    return table.sort_by("id").column("card").combine_chunks()


def run_cli(work, src, key_file):
    import pyarrow.parquet as pq

    nuri = [sys.executable, "-m", "nuri.cli"]
    enc, dec = work / "cli-enc.parquet", work / "cli-dec.parquet"
    for op, i, o in (("encrypt", src, enc), ("decrypt", enc, dec)):
        subprocess.run(
            nuri
            + [
                "fpe",
                op,
                "-k",
                str(key_file),
                "--column",
                "card",
                "--format",
                "digits",
                "--tweak",
                str(TWEAK),
                "-q",
                "-i",
                str(i),
                "-o",
                str(o),
                "--force",
            ],
            check=True,
        )
    return _column(pq.read_table(enc)), _column(pq.read_table(dec))


def run_duckdb(work, src, key_dir):
    import duckdb

    from nuri.fea_engines.duckdb import connect, extension_path, register

    if extension_path():  # the C extension; the Arrow UDFs (same results) when it is not built
        con, sfx = connect(str(key_dir)), ""
    else:
        con, sfx = duckdb.connect(), "_tweak"
        register(con, key_dir=str(key_dir))
    con.execute("SET enable_progress_bar = false")
    tw = f"'\\x{TWEAK:02x}'::BLOB"
    con.execute(
        f"CREATE TABLE e AS SELECT id, fea_encrypt_digits{sfx}(card, '{KEY_NAME}', {tw}) AS card "
        f"FROM read_parquet('{src}')"
    )
    con.execute(f"CREATE TABLE d AS SELECT id, fea_decrypt_digits{sfx}(card, '{KEY_NAME}', {tw}) AS card FROM e")
    return _column(arrow_table(con, "SELECT id, card FROM e")), _column(arrow_table(con, "SELECT id, card FROM d"))


def arrow_table(con, query):
    """A DuckDB result as a pyarrow Table (the method's name differs across DuckDB versions)."""
    r = con.sql(query)
    for m in ("to_arrow_table", "fetch_arrow_table", "arrow"):
        if hasattr(r, m):
            t = getattr(r, m)()
            return t.read_all() if hasattr(t, "read_all") else t
    raise RuntimeError("this DuckDB has no Arrow result method")


def run_postgres(work, src, key_dir):
    import pyarrow as pa
    import pyarrow.csv as pc
    import pyarrow.parquet as pq

    from .pgserver import TempServer

    csv_in = work / "pg-in.csv"
    pc.write_csv(pq.read_table(src), csv_in, pc.WriteOptions(include_header=False, quoting_style="needed"))
    outs = {}
    with TempServer(key_dir=key_dir) as pg:
        pg.sql(
            "CREATE EXTENSION nuri_fea; CREATE TABLE t (id bigint, card text);\n"
            f"\\copy t FROM '{csv_in}' WITH (FORMAT csv)\n"
            f"CREATE TABLE e AS SELECT id, fea_encrypt_digits(card, '{KEY_NAME}', '\\x{TWEAK:02x}'::bytea) AS card "
            "FROM t;\n"
            f"CREATE TABLE d AS SELECT id, fea_decrypt_digits(card, '{KEY_NAME}', '\\x{TWEAK:02x}'::bytea) AS card "
            "FROM e;\n"
        )
        for t in ("e", "d"):
            out = work / f"pg-{t}.csv"
            pg.sql(f"\\copy (SELECT id, card FROM {t}) TO '{out}' WITH (FORMAT csv)\n")
            tab = pc.read_csv(
                out,
                pc.ReadOptions(column_names=["id", "card"]),
                convert_options=pc.ConvertOptions(
                    column_types={"id": pa.int64(), "card": pa.string()}, strings_can_be_null=True
                ),
            )
            outs[t] = _column(tab)
    return outs["e"], outs["d"]


def run_spark(work, src, key_file, session=None):
    import pyarrow.parquet as pq

    from nuri.fea_engines import spark as fs

    s = session or fs.local_session()
    try:
        k = fs.broadcast_key(s, str(key_file))
        df = s.read.parquet(str(src))
        e = fs.encrypt(df, {"card": "digits"}, k, tweak=TWEAK)
        e.write.mode("overwrite").parquet(str(work / "spark-enc"))
        fs.decrypt(s.read.parquet(str(work / "spark-enc")), {"card": "digits"}, k, tweak=TWEAK).write.mode(
            "overwrite"
        ).parquet(str(work / "spark-dec"))
    finally:
        if session is None:
            s.stop()
    return _column(pq.read_table(work / "spark-enc")), _column(pq.read_table(work / "spark-dec"))


ENGINES = {"cli": run_cli, "duckdb": run_duckdb, "postgres": run_postgres, "spark": run_spark}


def roundtrip(n, engines=("cli", "duckdb", "postgres", "spark"), work=None, spark_session=None):
    """-> {"rows", "engines": {name: seconds}, "problems": [...]}: problems is empty when every path
    gives the same ciphertexts (also equal to nuri.fea_formats'), keeps NULLs and formats, and
    decrypts back."""
    from nuri import keyfile
    from nuri.fea_formats import ColumnCipher

    work = pathlib.Path(work or tempfile.mkdtemp(prefix="nuri-rt-"))
    key_dir = work / "keys"
    key_dir.mkdir(parents=True, exist_ok=True)
    key_file = key_dir / f"{KEY_NAME}.key"
    keyfile.write_secret_file(str(key_file), KEY_TEXT.encode(), force=True)
    src = work / "in.parquet"
    plain = make_input(src, n)
    want = ColumnCipher(keyfile.parse_key(KEY_TEXT), "digits", tweak=TWEAK).encrypt(plain)
    problems, times = [], {}
    if want.null_count != plain.null_count:
        problems.append("the reference lost NULLs")
    for name in engines:
        t = time.perf_counter()
        args = (work, src, key_dir if name in ("duckdb", "postgres") else key_file)
        enc, dec = run_spark(*args, session=spark_session) if name == "spark" else ENGINES[name](*args)
        times[name] = time.perf_counter() - t
        if enc.to_pylist() != want.to_pylist():
            bad = (
                next(i for i, (a, b) in enumerate(zip(enc.to_pylist(), want.to_pylist())) if a != b)
                if len(enc) == len(want)
                else "length"
            )
            problems.append(f"{name}: ciphertexts differ from nuri.fea_formats (first at row {bad})")
        if dec.to_pylist() != plain.to_pylist():
            problems.append(f"{name}: decryption does not give the input back")
    return {"rows": n, "engines": times, "problems": problems}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--engines", default="cli,duckdb,postgres,spark")
    ap.add_argument("--work", help="working directory (default: a new temporary one)")
    a = ap.parse_args(argv)
    work = a.work or tempfile.mkdtemp(prefix="nuri-rt-")
    os.makedirs(work, exist_ok=True)
    r = roundtrip(a.rows, a.engines.split(","), work)
    print(json.dumps(r))
    for p in r["problems"]:
        print(f"db-soak: {p}", file=sys.stderr)
    return 1 if r["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
