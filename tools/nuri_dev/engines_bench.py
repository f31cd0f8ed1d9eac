"""`nuri bench fpe-engines`: FEA on one column of 16-digit values in each engine, against the
engine's own plain copy of that column.

Records (bench schema): family "fpe-engines", metric "values_per_s", impl one of
  cli              nuri fpe encrypt on a Parquet file (process start included)
  duckdb           CREATE TABLE t2 AS SELECT fea_encrypt_digits(c, 'k') AS c FROM t   (the C extension)
  duckdb-copy      CREATE TABLE t2 AS SELECT c FROM t                (the baseline, same connection)
  duckdb-arrow     the same CREATE TABLE with the Python Arrow UDFs (nuri.fea_engines.duckdb.register)
  duckdb-reverse   CREATE TABLE t2 AS SELECT reverse(c) AS c FROM t  (DuckDB's own cheapest new-string
                   function: what writing a new string per value costs, with no cryptography)
  duckdb-floor     CREATE TABLE t2 AS SELECT bench_string_copy(c) AS c FROM t (db/duckdb/bench_floor:
                   a C extension whose function only writes each string back as a new string, through
                   the same C API call as nuri's extension: the floor of any C extension; run when
                   NURI_DUCKDB_FLOOR_EXT names it, as `make bench-db` does)
  duckdb-file, duckdb-file-copy
                   information next to the pinned in-memory records: the same two CREATE TABLEs in a
                   file-backed DuckDB database (where columns usually live: the CTAS also compresses
                   and writes the table to the file); the 2x target is on duckdb / duckdb-copy
  postgres         UPDATE t SET c = fea_encrypt_digits(c, 'k')
  postgres-update  UPDATE t SET c = c                                (the baseline)
  spark            mapInArrow encryption of the column read from Parquet (local[2], noop sink)
An engine that is not installed is skipped and named on stderr. Medians of `runs` runs; the
ratios to the baselines are printed on stderr (targets: DuckDB <= 2x its copy, PostgreSQL <= 3x
its plain update).
"""

import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

KEY_TEXT = "nuri-key-v1 128 000102030405060708090a0b0c0d0e0f\n"


def _record(impl, op, n, times):
    rates = [n / t for t in times]
    return {
        "family": "fpe-engines",
        "impl": impl,
        "op": op,
        "param": "digits, 16-digit strings",
        "size": n,
        "platform": platform.machine(),
        "metric": "values_per_s",
        "median": statistics.median(rates),
        "min": min(rates),
        "max": max(rates),
        "runs": len(rates),
    }


def _say(msg):
    print(f"nuri bench fpe-engines: {msg}", file=sys.stderr)


def bench_duckdb(work, n, runs):
    import duckdb

    from nuri.fea_engines.duckdb import connect, extension_path, register, sql_str

    cons = {}
    if extension_path():
        cons["duckdb"] = connect(str(work))
    else:
        _say("no duckdb (C extension) figures: it is not built (make duckdb-ext, or set NURI_DUCKDB_EXT)")
        cons["duckdb"] = duckdb.connect()  # the copy baseline still runs
    cons["duckdb-arrow"] = duckdb.connect()
    register(cons["duckdb-arrow"], key_dir=str(work))
    if extension_path():
        cons["duckdb-file"] = connect(str(work), database=str(work / "bench.duckdb"))
    for con in cons.values():
        con.execute("SET enable_progress_bar = false")
        con.execute(f"CREATE TABLE t AS SELECT c FROM read_parquet('{work / 'in.parquet'}')")
    plan = [
        ("duckdb-copy", "duckdb", "c"),
        ("duckdb-reverse", "duckdb", "reverse(c)"),
        ("duckdb-arrow", "duckdb-arrow", "fea_encrypt_digits(c, 'k')"),
    ]
    floor = os.environ.get("NURI_DUCKDB_FLOOR_EXT")
    if floor and extension_path():  # the connection that allows unsigned extensions
        cons["duckdb"].execute(f"LOAD {sql_str(floor)}")
        differ = (
            cons["duckdb"].execute("SELECT count(*) FROM t WHERE bench_string_copy(c) IS DISTINCT FROM c").fetchone()[0]
        )
        if differ:
            raise RuntimeError(f"bench_string_copy changed {differ} values")
        plan.append(("duckdb-floor", "duckdb", "bench_string_copy(c)"))
    elif floor is None:
        _say("no duckdb-floor figure: NURI_DUCKDB_FLOOR_EXT is not set (make bench-db builds and sets it)")
    if extension_path():
        plan.insert(1, ("duckdb", "duckdb", "fea_encrypt_digits(c, 'k')"))
        plan += [("duckdb-file-copy", "duckdb-file", "c"), ("duckdb-file", "duckdb-file", "fea_encrypt_digits(c, 'k')")]
    out = {impl: [] for impl, _, _ in plan}
    for _ in range(runs):
        for impl, con, expr in plan:
            t = time.perf_counter()
            cons[con].execute(f"CREATE OR REPLACE TABLE t2 AS SELECT {expr} AS c FROM t")
            out[impl].append(time.perf_counter() - t)
    for con in cons.values():
        con.close()
    return out


def _pg_time(pg, q):
    out = pg.sql(f"\\timing on\n{q}\n")
    ms = re.findall(r"Time: ([0-9.]+) ms", out)
    return float(ms[-1]) / 1000


def bench_postgres(work, n, runs):
    from .pgserver import TempServer

    with TempServer(key_dir=work) as pg:
        pg.sql(
            "CREATE EXTENSION nuri_fea; CREATE TABLE t (c text);\n"
            f"\\copy t FROM '{work / 'in.csv'}' WITH (FORMAT csv)\n"
            "VACUUM t;"
        )
        out = {"postgres-update": [], "postgres": []}
        for _i in range(runs):
            # encrypting twice gives other 16-digit values: the rows keep their shape run after run
            out["postgres-update"].append(_pg_time(pg, "UPDATE t SET c = c;"))
            pg.sql("VACUUM t;")
            out["postgres"].append(_pg_time(pg, "UPDATE t SET c = fea_encrypt_digits(c, 'k');"))
            pg.sql("VACUUM t;")
    return out


def bench_cli(work, n, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "nuri.cli",
                "fpe",
                "encrypt",
                "-k",
                str(work / "k.key"),
                "--column",
                "c",
                "--format",
                "digits",
                "-q",
                "--force",
                "-i",
                str(work / "in.parquet"),
                "-o",
                str(work / "cli-out.parquet"),
            ],
            check=True,
        )
        times.append(time.perf_counter() - t)
    return {"cli": times}


def bench_spark(work, n, runs):
    from nuri.fea_engines import spark as fs

    s = fs.local_session(2, "nuri-bench")
    try:
        k = fs.broadcast_key(s, str(work / "k.key"))
        df = s.read.parquet(str(work / "in.parquet")).cache()
        df.count()
        fs.encrypt(df, {"c": "digits"}, k).write.format("noop").mode("overwrite").save()  # warm the workers
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            fs.encrypt(df, {"c": "digits"}, k).write.format("noop").mode("overwrite").save()
            times.append(time.perf_counter() - t)
    finally:
        s.stop()
    return {"spark": times}


def _available():
    from . import pgserver as postgres

    why = {}
    for mod, name in (("duckdb", "duckdb"), ("pyspark", "spark")):
        try:
            __import__(mod)
        except ImportError:
            why[name] = f"the {mod} package is not installed (pip install {mod})"
    if "spark" not in why and not any(
        os.access(os.path.join(p, "java"), os.X_OK) for p in os.environ.get("PATH", "").split(os.pathsep)
    ):
        why["spark"] = "java is not installed (Debian: default-jre-headless)"
    pg = postgres.missing() or (
        None if postgres.extension_installed() else "the nuri_fea extension is not installed (make pg-install)"
    )
    if pg:
        why["postgres"] = pg
    return why


def run(quick=False, n=None, runs=None, impl=None):
    """-> bench records; skipped engines are named on stderr. impl: only the engines whose name
    contains it, or is contained in it (--impl duckdb runs duckdb, duckdb-copy and duckdb-arrow)."""
    only = impl
    import numpy as np
    import pyarrow as pa
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    from nuri import keyfile

    n = n or (100_000 if quick else 1_000_000)
    runs = runs or (1 if quick else 3)
    work = __import__("pathlib").Path(tempfile.mkdtemp(prefix="nuri-bench-engines-"))
    keyfile.write_secret_file(str(work / "k.key"), KEY_TEXT.encode(), force=True)
    rng = np.random.default_rng(7)
    col = pa.array(
        (rng.integers(0, 10, size=(n, 16), dtype=np.uint8) + 48).view("S16").reshape(n).astype(str), type=pa.string()
    )
    table = pa.table({"c": col})
    pq.write_table(table, work / "in.parquet")
    pcsv.write_csv(table, work / "in.csv", pcsv.WriteOptions(include_header=False))
    skip = _available()
    records, times = [], {}
    for engine, fn in (
        ("cli", bench_cli),
        ("duckdb", bench_duckdb),
        ("postgres", bench_postgres),
        ("spark", bench_spark),
    ):
        if only and only not in engine and engine not in only:
            continue
        if engine in skip:
            _say(f"skipping {engine}: {skip[engine]}")
            continue
        try:
            got = fn(work, n, runs)
        except Exception as e:  # an engine failing must not hide the others' figures
            _say(f"{engine} failed: {e}")
            continue
        for impl, ts in got.items():
            times[impl] = statistics.median(ts)
            records.append(
                _record(
                    impl,
                    {
                        "duckdb-copy": "copy",
                        "duckdb-reverse": "reverse",
                        "duckdb-file-copy": "copy",
                        "duckdb-floor": "string-copy",
                        "postgres-update": "update",
                    }.get(impl, "encrypt"),
                    n,
                    ts,
                )
            )
    for impl, base, target in (
        ("duckdb", "duckdb-copy", 2),
        ("duckdb-arrow", "duckdb-copy", 2),
        ("duckdb-reverse", "duckdb-copy", None),
        ("duckdb-floor", "duckdb-copy", None),
        ("duckdb-file", "duckdb-file-copy", None),
        ("postgres", "postgres-update", 3),
    ):
        if impl in times and base in times:
            r = times[impl] / times[base]
            verdict = (
                (
                    "information: a file-backed database, the target is on the in-memory records"
                    if impl == "duckdb-file"
                    else "no target: a reference"
                )
                if target is None
                else f"target <= {target}x: {'met' if r <= target else 'MISSED'}"
            )
            _say(f"{impl}: {r:.2f}x the time of {base} ({verdict})")
    import shutil

    shutil.rmtree(work, ignore_errors=True)
    return records
