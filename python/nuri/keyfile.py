"""Symmetric key files for the ``nuri`` command line.

Format (text, one line, written with mode 0600)::

    nuri-key-v1 <bits> <hex>\\n

``bits`` is 128, 192 or 256 and ``hex`` holds exactly bits/4 lowercase hex digits. A file holding
only the hex digits on one line (32, 48 or 64 of them) is accepted too, so a key kept elsewhere can
be used with ``printf '%s\\n' "$HEX" > key``. Nothing else is accepted: a wrong length, stray
characters or an unknown version is an error that says what was expected.

Keys never travel on the command line (``ps`` shows it to every user): the CLI reads them from a
key file (``-k FILE``; ``/dev/fd/N`` works for process substitution) or, as an explicit
alternative, from the environment variable ``NURI_KEY_HEX`` (hex digits) when ``-k`` is absent.

>>> import os, tempfile
>>> from nuri import keyfile
>>> d = tempfile.mkdtemp()
>>> path = os.path.join(d, "k")
>>> keyfile.write_key(path, bytes(range(16)))
>>> open(path).read()
'nuri-key-v1 128 000102030405060708090a0b0c0d0e0f\\n'
>>> oct(os.stat(path).st_mode & 0o777)
'0o600'
>>> keyfile.read_key(path) == bytes(range(16))
True
>>> keyfile.parse_key("nuri-key-v1 128 00ff")
Traceback (most recent call last):
    ...
nuri.keyfile.KeyFileError: key file says 128 bits but holds 2 bytes (expected 16)
"""

import os
import re
import tempfile

MAGIC = "nuri-key-v1"
BITS = (128, 192, 256)
ENV_VAR = "NURI_KEY_HEX"
_MAX_FILE = 4096

__all__ = [
    "KeyFileError",
    "generate",
    "format_key",
    "parse_key",
    "read_key",
    "write_key",
    "write_secret_file",
    "key_from_env",
    "MAGIC",
    "BITS",
    "ENV_VAR",
    "KEM_MAGIC",
    "KEM_SIZES",
    "format_kem_key",
    "parse_kem_key",
    "is_text",
]


class KeyFileError(ValueError):
    """A key file (or NURI_KEY_HEX) is missing, unreadable or malformed."""


def generate(bits: int = 128) -> bytes:
    """A fresh random key of 128, 192 or 256 bits from the OS (nuri_randombytes: getrandom)."""
    if bits not in BITS:
        raise ValueError(f"bits must be 128, 192 or 256, got {bits}")
    try:
        from ._native import ffi, lib

        buf = ffi.new("uint8_t[]", bits // 8)
        if lib.nuri_randombytes(buf, bits // 8) != 0:
            raise OSError("nuri_randombytes failed")
        key = bytes(buf)
        lib.nuri_wipe(buf, bits // 8)
        return key
    except ImportError:  # pragma: no cover - the extension is always built with the package
        return os.urandom(bits // 8)


def format_key(key: bytes) -> str:
    """The text form of a key: ``nuri-key-v1 <bits> <hex>\\n``."""
    if len(key) * 8 not in BITS:
        raise ValueError(f"key must be 16, 24 or 32 bytes long, got {len(key)}")
    return f"{MAGIC} {len(key) * 8} {key.hex()}\n"


def _hex_key(h, where):
    if not re.fullmatch(r"[0-9a-fA-F]*", h):
        raise KeyFileError(f"{where}: key is not hex digits")
    if len(h) % 2:
        raise KeyFileError(f"{where}: odd number of hex digits ({len(h)})")
    key = bytes.fromhex(h)
    if len(key) * 8 not in BITS:
        raise KeyFileError(f"{where}: key is {len(key)} bytes; expected 16, 24 or 32 (128, 192 or 256 bits)")
    return key


def parse_key(text: str, where: str = "key file") -> bytes:
    """Parses the text of a key file (either form above); KeyFileError says what is wrong."""
    line = text.strip()
    if "\n" in line:
        raise KeyFileError(f"{where}: expected one line")
    parts = line.split()
    if not parts:
        raise KeyFileError(f"{where}: empty")
    if parts[0].startswith("nuri-key-"):
        if parts[0] != MAGIC:
            raise KeyFileError(f"{where}: unsupported version {parts[0]!r} (this nuri reads {MAGIC})")
        if len(parts) != 3 or not parts[1].isdigit():
            raise KeyFileError(f"{where}: expected '{MAGIC} <bits> <hex>'")
        bits = int(parts[1])
        if bits not in BITS:
            raise KeyFileError(f"{where}: bits must be 128, 192 or 256, got {bits}")
        if not re.fullmatch(r"[0-9a-fA-F]*", parts[2]) or len(parts[2]) % 2:
            raise KeyFileError(f"{where}: key is not an even number of hex digits")
        key = bytes.fromhex(parts[2])
        if len(key) * 8 != bits:
            raise KeyFileError(f"{where} says {bits} bits but holds {len(key)} bytes (expected {bits // 8})")
        return key
    if len(parts) != 1:
        raise KeyFileError(f"{where}: expected '{MAGIC} <bits> <hex>' or one line of hex digits")
    return _hex_key(parts[0], where)


def read_key(path: str) -> bytes:
    """Reads a key file. Missing/unreadable files and bad contents raise KeyFileError."""
    try:
        with open(path, "rb") as f:
            data = f.read(_MAX_FILE + 1)
    except OSError as e:
        raise KeyFileError(f"cannot read key file {path}: {e.strerror or e}") from None
    if len(data) > _MAX_FILE:
        raise KeyFileError(f"{path}: too large for a key file")
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise KeyFileError(f"{path}: not a nuri key file (binary data; expected '{MAGIC} <bits> <hex>')") from None
    return parse_key(text, where=path)


def key_from_env(env=None):
    """The key in NURI_KEY_HEX, or None when it is unset."""
    env = os.environ if env is None else env
    h = env.get(ENV_VAR)
    if h is None:
        return None
    return _hex_key(h.strip(), ENV_VAR)


def write_secret_file(path: str, data: bytes, force: bool = False, mode: int = 0o600) -> None:
    """Writes ``data`` to ``path`` with ``mode`` (0600): through a temporary file in the same directory
    and a rename, so a reader never sees a half-written secret. An existing path is refused
    (FileExistsError) unless ``force``."""
    if not force and os.path.lexists(path):
        raise FileExistsError(f"{path} exists (use --force to overwrite)")
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".nuri-", suffix=".tmp", dir=d)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if force:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)  # fails if path appeared meanwhile: never clobbers
            os.unlink(tmp)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_key(path: str, key: bytes, force: bool = False) -> None:
    """Writes a key file (text form, mode 0600); refuses to overwrite unless ``force``."""
    write_secret_file(path, format_key(key).encode(), force)


# ---- KEM key files (nuri kem keygen; nuri seal -r / nuri open --identity) ----
#
# One line names the KEM, the kind of key and its bytes, so a key can never be taken for another
# level or kind than it is::
#
#     # nuri kem key: ML-KEM-768 secret seed d || z (64 bytes)
#     nuri-kem-v1 mlkem768 seed <128 hex digits>
#
# Lines starting with '#' and blank lines are comments. Kinds: ``public`` (the encapsulation key; for
# X-Wing ek_M || pk_X), ``secret`` (the expanded FIPS 203 decapsulation key) and ``seed`` (ML-KEM's
# 64-byte d || z, or X-Wing's 32-byte seed, which is its only secret form).

KEM_MAGIC = "nuri-kem-v1"
KEM_SIZES = {
    "mlkem512": {"public": 800, "secret": 1632, "seed": 64},
    "mlkem768": {"public": 1184, "secret": 2400, "seed": 64},
    "mlkem1024": {"public": 1568, "secret": 3168, "seed": 64},
    "mlkem768-x25519": {"public": 1216, "seed": 32},
}
_KEM_TITLES = {
    "mlkem512": "ML-KEM-512",
    "mlkem768": "ML-KEM-768",
    "mlkem1024": "ML-KEM-1024",
    "mlkem768-x25519": "ML-KEM-768+X25519 (X-Wing)",
}
_KIND_TITLES = {"public": "public key", "secret": "secret key (expanded)", "seed": "secret seed"}


def is_text(data: bytes) -> bool:
    """True when data is printable ASCII lines (what every text key file is; a raw key can be too, if
    its bytes were chosen so: the reader then tries the text form first, and the size second)."""
    return all(32 <= b < 127 or b in (9, 10, 13) for b in data)


def format_kem_key(kem: str, kind: str, data: bytes) -> str:
    """The text of a KEM key file: a comment naming the key, then ``nuri-kem-v1 <kem> <kind> <hex>``."""
    want = KEM_SIZES.get(kem, {}).get(kind)
    if want is None:
        raise ValueError(f"no {kind!r} key for KEM {kem!r}")
    if len(data) != want:
        raise ValueError(f"the {kem} {kind} key is {want} bytes, got {len(data)}")
    return (
        f"# nuri kem key: {_KEM_TITLES[kem]} {_KIND_TITLES[kind]} ({want} bytes)\n"
        f"{KEM_MAGIC} {kem} {kind} {bytes(data).hex()}\n"
    )


def parse_kem_key(line: str, where: str = "key file"):
    """(kem, kind, bytes) of one ``nuri-kem-v1`` line; KeyFileError says what is wrong."""
    parts = line.split()
    if not parts or parts[0] != KEM_MAGIC:
        found = parts[0] if parts else ""
        raise KeyFileError(f"{where}: unsupported KEM key line {found[:20]!r} (this nuri reads {KEM_MAGIC})")
    if len(parts) != 4:
        raise KeyFileError(f"{where}: expected '{KEM_MAGIC} <kem> <kind> <hex>'")
    _, kem, kind, h = parts
    if kem not in KEM_SIZES:
        raise KeyFileError(f"{where}: unknown KEM {kem!r} (expected one of {', '.join(KEM_SIZES)})")
    want = KEM_SIZES[kem].get(kind)
    if want is None:
        raise KeyFileError(f"{where}: unknown kind {kind!r} for {kem} (expected {', '.join(KEM_SIZES[kem])})")
    if not re.fullmatch(r"[0-9a-f]*", h) or len(h) % 2:
        raise KeyFileError(f"{where}: the key is not an even number of lowercase hex digits")
    data = bytes.fromhex(h)
    if len(data) != want:
        raise KeyFileError(f"{where}: the {kem} {kind} key is {want} bytes, the file holds {len(data)}")
    return kem, kind, data
