"""FEA on Spark: ``mapInArrow`` over nuri's batch API, and a ``pandas_udf`` for convenience.

The key travels as a broadcast of the key file's bytes (the nuri key-file text), wrapped so that
its repr never shows it (Spark and Python log reprs, never the payload); each executor parses it
once per Python worker and keeps the expanded key schedules for the batches it sees::

    from nuri.fea_engines import spark as fea_spark
    key = fea_spark.broadcast_key(spark, "/etc/nuri/keys/cards.key")
    out = fea_spark.encrypt(df, {"card": "digits", "phone": "010-####-####"}, key)   # mapInArrow
    enc = fea_spark.pandas_encrypt_udf("digits", key)                                 # pandas_udf
    df.select(enc("card"))

Patterns follow nuri.fea_formats (``digits``, ``template:P``, ``alphabet:S`` or a bare template).
``on_error="stop"`` fails the job on a value that does not fit (the task error names the row
within its batch and the problem; nothing is written by the failing write); ``"keep"`` leaves such
values unchanged. NULLs stay NULL; every other column passes through untouched.
"""

from . import spec_of

_cache = {}  # per Python worker: (key id, pattern, tweak, variant, on_error, enc) -> ColumnCipher


class SecretKeyFile:
    """The bytes of a nuri key file, with a repr that does not show them."""

    def __init__(self, data: bytes):
        self.data = bytes(data)

    def __repr__(self):
        return "SecretKeyFile(<redacted>)"

    __str__ = __repr__

    def key(self):
        from ..keyfile import parse_key

        return parse_key(self.data.decode("ascii"), where="broadcast key")


def broadcast_key(spark, path):
    """Reads a key file on the driver (checked here, so a bad file fails before any task) and
    broadcasts its bytes."""
    from ..keyfile import read_key

    read_key(path)
    with open(path, "rb") as f:
        return spark.sparkContext.broadcast(SecretKeyFile(f.read()))


def _cipher(bkey, pattern, tweak, variant, on_error):
    from ..fea_formats import ColumnCipher

    ck = (id(bkey.value), pattern, tweak, variant, on_error)
    c = _cache.get(ck)
    if c is None:
        c = _cache[ck] = ColumnCipher(
            bkey.value.key(), spec_of(pattern), tweak=tweak, variant=variant, on_error=on_error
        )
    return c


def _map_batches(columns, bkey, tweak, variant, on_error, enc):
    def run(batches):
        import pyarrow as pa

        from ..fea_formats import FitError

        for b in batches:
            arrays = list(b.columns)
            for name, pattern in columns.items():
                i = b.schema.get_field_index(name)
                c = _cipher(bkey, pattern, tweak, variant, on_error)
                try:
                    arrays[i] = c.encrypt(arrays[i]) if enc else c.decrypt(arrays[i])
                except FitError as e:
                    raise ValueError(f"nuri fea: column {name!r}, row {e.row} of an Arrow batch: {e.why}") from None
                c.problems.clear()
            yield pa.RecordBatch.from_arrays(arrays, schema=b.schema)

    return run


def _crypt(df, columns, bkey, tweak, variant, on_error, enc):
    if on_error not in ("stop", "keep"):
        raise ValueError(f"on_error must be 'stop' or 'keep', got {on_error!r}")
    for name in columns:
        if name not in df.columns:
            raise ValueError(f"no column {name!r} (columns: {', '.join(df.columns)})")
        t = dict(df.dtypes)[name]
        if t != "string":
            raise ValueError(f"column {name!r} is {t}: FEA patterns take string columns")
    return df.mapInArrow(_map_batches(dict(columns), bkey, tweak, variant, on_error, enc), df.schema)


def encrypt(df, columns, bkey, tweak=0, variant=1, on_error="stop"):
    """df with the string columns {name: pattern} encrypted (mapInArrow; schema unchanged)."""
    return _crypt(df, columns, bkey, tweak, variant, on_error, True)


def decrypt(df, columns, bkey, tweak=0, variant=1, on_error="stop"):
    """The inverse of encrypt()."""
    return _crypt(df, columns, bkey, tweak, variant, on_error, False)


def _pandas_udf(pattern, bkey, tweak, variant, on_error, enc):
    import pandas as pd
    from pyspark.sql.functions import pandas_udf

    @pandas_udf("string")
    def fea_udf(s: pd.Series) -> pd.Series:
        import pyarrow as pa

        from ..fea_formats import FitError

        c = _cipher(bkey, pattern, tweak, variant, on_error)
        arr = pa.array(s, type=pa.string(), from_pandas=True)
        try:
            out = c.encrypt(arr) if enc else c.decrypt(arr)
        except FitError as e:
            raise ValueError(f"nuri fea: row {e.row} of a batch: {e.why}") from None
        c.problems.clear()
        return out.to_pandas()

    return fea_udf


def pandas_encrypt_udf(pattern, bkey, tweak=0, variant=1, on_error="stop"):
    """A pandas_udf (string -> string) encrypting one column with pattern."""
    return _pandas_udf(pattern, bkey, tweak, variant, on_error, True)


def pandas_decrypt_udf(pattern, bkey, tweak=0, variant=1, on_error="stop"):
    """The inverse of pandas_encrypt_udf()."""
    return _pandas_udf(pattern, bkey, tweak, variant, on_error, False)


def local_session(cores=2, name="nuri-fea"):
    """A local Spark session for tests and benchmarks (quiet logs, Arrow on, small shuffles)."""
    import os
    import sys

    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # workers import nuri from this environment
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    # a local session needs no resolvable host name (a minimal root or container often has none in
    # /etc/hosts, and Spark's start-up then fails with UnknownHostException)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("SPARK_LOCAL_HOSTNAME", "localhost")
    s = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName(name)
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.sql.shuffle.partitions", str(cores))
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )
    s.sparkContext.setLogLevel("ERROR")
    return s
