"""FEA where the columns live: PostgreSQL, DuckDB and Spark over nuri's one pattern syntax.

- PostgreSQL: the nuri_fea extension (C, db/postgres/ in the repository, built and installed by
  ``make pg-install``).
- :mod:`nuri.fea_engines.duckdb`: vectorised DuckDB functions over Arrow batches (needs duckdb:
  ``pip install 'nuri[duckdb]'``).
- :mod:`nuri.fea_engines.spark`: ``mapInArrow`` and ``pandas_udf`` paths for Spark, keys sent as a
  broadcast of the key file's bytes (needs pyspark: ``pip install 'nuri[spark]'``).

Every engine calls :class:`nuri.fea_formats.ColumnCipher` (one C batch call per vector) or, for
PostgreSQL, the same C pattern code row by row, so the same key, pattern and tweak give the same
ciphertexts everywhere. See docs/fea-databases.md.
"""

import os
import re

from .. import keyfile

_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")


def key_path(key_dir, name):
    """<key_dir>/<name>.key, with the name rule the PostgreSQL extension enforces."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"key name {name!r} is not valid (1..64 of A-Z a-z 0-9 _ . -, not starting with '.')")
    return os.path.join(key_dir, name + ".key")


def load_named_key(key_dir, name):
    """The key bytes of a named key (the nuri key-file format)."""
    return keyfile.read_key(key_path(key_dir, name))


def spec_of(pattern):
    """digits | template:P | alphabet:S as given; anything else is a bare template PATTERN (the
    rule of the PostgreSQL functions too)."""
    if pattern == "digits" or pattern.startswith(("template:", "alphabet:")):
        return pattern
    return "template:" + pattern
