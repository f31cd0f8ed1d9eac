"""FEA as DuckDB functions, two ways:

- :func:`connect`: the nuri_fea C extension (db/duckdb/, ``make duckdb-ext``), DuckDB's own
  vectors handed to nuri's batch API in DuckDB's parallel threads; the fast path. Settings
  ``nuri_key_dir``, ``nuri_on_error``, ``nuri_fea_variant``, ``nuri_allow_small_domain``; the
  functions and their semantics are the PostgreSQL extension's (``fea_encrypt_digits(value,
  key_name[, tweak])``, ``fea_encrypt_template(value, pattern, key_name[, tweak])``,
  ``fea_encrypt_int(BIGINT | INTEGER, key_name[, tweak])`` and the decrypt forms).
- :func:`register`: Python Arrow UDFs on any connection (no build step; slower: DuckDB runs
  Python UDFs on one thread). Described below.

Arrow UDFs: vectorised over Arrow batches, one nuri batch call per vector.

>>> import duckdb, tempfile, os
>>> from nuri import keyfile
>>> from nuri.fea_engines import duckdb as fea_duckdb
>>> d = tempfile.mkdtemp(); keyfile.write_key(os.path.join(d, "cards.key"), bytes(16))
>>> con = duckdb.connect()
>>> reg = fea_duckdb.register(con, key_dir=d)
>>> con.execute("SELECT fea_encrypt_digits('4111111111111111', 'cards')").fetchall()[0][0]
'6512653792399993'

Functions (NULL in, NULL out; ``value`` VARCHAR unless said otherwise):

- ``fea_encrypt_digits(value, key_name)``, ``fea_decrypt_digits(value, key_name)``
- ``fea_encrypt_template(value, pattern, key_name)``, ``fea_decrypt_template(...)``: the pattern
  syntax of nuri.fea_formats (``digits``, ``template:P``, ``alphabet:S``, or a bare template P)
- ``fea_encrypt_int(value BIGINT, key_name)``, ``fea_decrypt_int``: 0 <= value < 10^18, kept a BIGINT
- the same names with ``_tweak`` and a last ``tweak BLOB`` argument (a big-endian integer)

Keys are named (``<key_dir>/<name>.key``, the nuri key-file format) and read once per
connection. ``on_error="stop"`` makes a value that does not fit its pattern fail the statement
(nothing is written: the statement is rolled back); ``"keep"`` leaves it unchanged and counts it
in ``problems`` (the first ones are printed to stderr, as the CLI does).
"""

import os
import sys

from ..fea_formats import ColumnCipher, FitError, parse_tweak
from . import load_named_key, spec_of

_MAX_REPORTED = 20
EXTENSION_FILE = "nuri_fea.duckdb_extension"


def extension_path():
    """The built C extension: $NURI_DUCKDB_EXT, else the one `make duckdb-ext` built in the checkout of
    the nuri-dev toolkit (build/duckdb/nuri_fea.duckdb_extension), when that toolkit is installed; None if
    there is none."""
    env = os.environ.get("NURI_DUCKDB_EXT")
    if env:
        return env if os.path.exists(env) else None
    try:
        from nuri_dev import ROOT
    except ImportError:
        return None
    p = ROOT / "build" / "duckdb" / EXTENSION_FILE
    return str(p) if p.exists() else None


def sql_str(s):
    return "'" + str(s).replace("'", "''") + "'"


def connect(key_dir, on_error="stop", variant=1, allow_small_domain=False, database=":memory:", path=None):
    """A DuckDB connection with the nuri_fea C extension loaded and its settings made. The extension
    is not signed by DuckDB, so the connection allows unsigned extensions."""
    import duckdb

    if on_error not in ("stop", "keep"):
        raise ValueError(f"on_error must be 'stop' or 'keep', got {on_error!r}")
    if variant not in (1, 2):
        raise ValueError(f"variant must be 1 or 2, got {variant!r}")
    path = path or extension_path()
    if path is None:
        raise FileNotFoundError("the nuri_fea DuckDB extension is not built (make duckdb-ext, or set NURI_DUCKDB_EXT)")
    con = duckdb.connect(database, config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD {sql_str(path)}")
    con.execute(f"SET nuri_key_dir = {sql_str(key_dir)}")
    con.execute(f"SET nuri_on_error = {sql_str(on_error)}")
    con.execute(f"SET nuri_fea_variant = '{variant}'")
    con.execute(f"SET nuri_allow_small_domain = {'true' if allow_small_domain else 'false'}")
    return con


class Registration:
    """What register() set up on a connection: the key cache and the problems seen (keep mode)."""

    def __init__(self, key_dir, keys, on_error, variant):
        self.key_dir, self.keys, self.on_error, self.variant = key_dir, dict(keys or {}), on_error, variant
        self.ciphers = {}
        self.problems = 0

    def key(self, name):
        k = self.keys.get(name)
        if k is None:
            if self.key_dir is None:
                raise ValueError(f"unknown key {name!r} (register(..., key_dir=...) names the key directory)")
            k = self.keys[name] = load_named_key(self.key_dir, name)
        return k

    def cipher(self, name, pattern, tweak):
        ck = (name, pattern, tweak)
        c = self.ciphers.get(ck)
        if c is None:
            c = self.ciphers[ck] = ColumnCipher(
                self.key(name), spec_of(pattern), tweak=tweak, variant=self.variant, on_error=self.on_error
            )
        return c

    def report(self, cipher, fn):
        for _row, value, why in cipher.problems:
            self.problems += 1
            if self.problems <= _MAX_REPORTED:
                print(f"nuri {fn}: value {value!r} {why}; left unchanged", file=sys.stderr)
        cipher.problems.clear()

    def wipe(self):
        for c in self.ciphers.values():
            c.wipe()
        self.ciphers.clear()
        self.keys.clear()


def _constant(arr, what):
    """The one value of a key/pattern/tweak column in this vector (SQL constants arrive as columns)."""
    import pyarrow.compute as pc

    u = pc.unique(arr.drop_null() if hasattr(arr, "drop_null") else arr)
    if len(u) > 1:
        raise ValueError(f"{what} must be the same for all rows of a call (got {len(u)} different ones)")
    return u[0].as_py() if len(u) else None


def _text_fn(reg, fn, enc, has_pattern, has_tweak):
    import pyarrow as pa

    def f(*cols):
        values = cols[0]
        pattern = _constant(cols[1], "the pattern") if has_pattern else "digits"
        name = _constant(cols[2 if has_pattern else 1], "the key name")
        tweak = parse_tweak(_constant(cols[-1], "the tweak")) if has_tweak else 0
        if name is None or pattern is None or values.null_count == len(values):
            return pa.nulls(len(values), pa.string())
        c = reg.cipher(name, pattern, tweak)
        try:
            out = c.encrypt(values) if enc else c.decrypt(values)
        except FitError as e:
            raise ValueError(f"{fn}: {e.why} (value {e.value!r})") from None
        reg.report(c, fn)
        if isinstance(out, pa.ChunkedArray):
            out = out.combine_chunks()
        return out.cast(pa.string()) if out.type != pa.string() else out

    return f


def _int_fn(reg, fn, enc, has_tweak):
    import numpy as np
    import pyarrow as pa

    def f(*cols):
        values = cols[0]
        name = _constant(cols[1], "the key name")
        tweak = parse_tweak(_constant(cols[-1], "the tweak")) if has_tweak else 0
        if name is None or values.null_count == len(values):
            return pa.nulls(len(values), pa.int64())
        arr = values.to_numpy(zero_copy_only=False)
        valid = ~np.asarray(values.is_null().to_numpy(zero_copy_only=False))
        x = np.where(valid, arr, 0).astype(np.int64)
        bad = valid & ((x < 0) | (x >= 10**18))
        if bad.any():
            raise ValueError(f"{fn}: value {int(x[bad][0])} is outside 0..10^18-1")
        digits = pa.array(np.char.zfill(x.astype(str), 18).astype(object))  # W = 18 digits, the CLI's rule
        c = reg.cipher(name, "digits", tweak)
        out = (c.encrypt(digits) if enc else c.decrypt(digits)).to_numpy(zero_copy_only=False)
        res = np.array([int(s) for s in out], dtype=np.int64) if len(out) else np.zeros(0, np.int64)
        return pa.array(res, mask=~valid, type=pa.int64())

    return f


def register(con, key_dir=None, keys=None, on_error="stop", variant=1):
    """Registers the fea_* functions on a DuckDB connection. keys: optional {name: key bytes}
    (e.g. from a broadcast) in addition to key_dir. Returns the Registration (problems, wipe())."""
    from duckdb import func
    from duckdb.sqltypes import BIGINT, BLOB, VARCHAR

    if on_error not in ("stop", "keep"):
        raise ValueError(f"on_error must be 'stop' or 'keep', got {on_error!r}")
    reg = Registration(key_dir, keys, on_error, variant)
    kw = dict(type=func.ARROW, null_handling=func.SPECIAL)

    def arity(f, n):  # DuckDB reads the parameter count from the signature
        return {2: lambda a, b: f(a, b), 3: lambda a, b, c: f(a, b, c), 4: lambda a, b, c, d: f(a, b, c, d)}[n]

    for verb, enc in (("encrypt", True), ("decrypt", False)):
        for tw in (False, True):
            sfx, extra = ("_tweak", [BLOB]) if tw else ("", [])
            name = f"fea_{verb}_digits{sfx}"
            con.create_function(
                name, arity(_text_fn(reg, name, enc, False, tw), 2 + tw), [VARCHAR, VARCHAR] + extra, VARCHAR, **kw
            )
            name = f"fea_{verb}_template{sfx}"
            con.create_function(
                name,
                arity(_text_fn(reg, name, enc, True, tw), 3 + tw),
                [VARCHAR, VARCHAR, VARCHAR] + extra,
                VARCHAR,
                **kw,
            )
            name = f"fea_{verb}_int{sfx}"
            con.create_function(
                name, arity(_int_fn(reg, name, enc, tw), 2 + tw), [BIGINT, VARCHAR] + extra, BIGINT, **kw
            )
    return reg
