"""The two nuri-seal headers (all integers big-endian; docs/seal-format.md is the reference).

v1 (key file or passphrase), 56 bytes::

    "NURISEAL" | 1 | kdf (0 key, 1 Argon2id) | chunk_log2 | 0 | t (4) | m KiB (4) | lanes (4) | salt (32)

v2 (public-key recipients)::

    "NURISEAL" | 2 | kind (0 file, 1 video stream) | chunk_log2 | 0 | salt (32) | count (2)
    | count x ( kem_id (2) | length (2) | HPKE enc || ct (length) ) | mac (32)

The v2 MAC is HMAC-SHA-256 under a key derived from the file key over every header byte before it.
"""

import os
import struct

from .._util import read_full
from .kdf import ARGON2_DEFAULT, check_argon2_header

MAGIC = b"NURISEAL"
KDF_KEY, KDF_ARGON2ID = 0, 1
KIND_FILE, KIND_VIDEO = 0, 1
HEADER_LEN = 56
V2_FIXED_LEN = 46
MAC_LEN = 32
DEFAULT_CHUNK_LOG2 = 16
MIN_CHUNK_LOG2, MAX_CHUNK_LOG2 = 10, 24
MAX_STANZAS = 255
MAX_STANZA_LEN = 4096
_V1 = struct.Struct(">8sBBBBIII32s")
_V2 = struct.Struct(">8sBBBB32sH")
assert _V1.size == HEADER_LEN and _V2.size == V2_FIXED_LEN


class SealFormatError(ValueError):
    """The input is not a nuri sealed file (bad magic, version or header field, or too short)."""


def _check_chunk(log2):
    if not MIN_CHUNK_LOG2 <= log2 <= MAX_CHUNK_LOG2:
        raise SealFormatError(f"header: chunk size 2^{log2} out of range")


def check_chunk_log2(log2):
    """ValueError unless 2**log2 is an allowed chunk size."""
    if not MIN_CHUNK_LOG2 <= log2 <= MAX_CHUNK_LOG2:
        raise ValueError(f"chunk_log2 must be {MIN_CHUNK_LOG2}..{MAX_CHUNK_LOG2}, got {log2}")


class Header:
    """The 56-byte v1 header. ``Header.new(...)`` picks a fresh random salt; ``Header.parse(b)`` checks
    every field. Its bytes are the associated data of every chunk."""

    version = 1

    def __init__(self, kdf, chunk_log2, argon2, salt):
        self.kdf, self.chunk_log2, self.argon2, self.salt = kdf, chunk_log2, tuple(argon2), salt

    @property
    def chunk_size(self):
        return 1 << self.chunk_log2

    @classmethod
    def new(cls, kdf=KDF_KEY, chunk_log2=DEFAULT_CHUNK_LOG2, argon2=ARGON2_DEFAULT, salt=None):
        check_chunk_log2(chunk_log2)
        h = cls(kdf, chunk_log2, argon2 if kdf == KDF_ARGON2ID else (0, 0, 0), salt or os.urandom(32))
        h._check()
        return h

    def _check(self):
        t, m, p = self.argon2
        if self.kdf == KDF_KEY:
            if (t, m, p) != (0, 0, 0):
                raise SealFormatError("header: Argon2 parameters set for a key-file seal")
        elif self.kdf == KDF_ARGON2ID:
            if not check_argon2_header(t, m, p):
                raise SealFormatError(f"header: Argon2id parameters out of range (t={t}, m={m} KiB, lanes={p})")
        else:
            raise SealFormatError(f"header: unknown key derivation {self.kdf}")
        _check_chunk(self.chunk_log2)

    def to_bytes(self):
        return _V1.pack(MAGIC, 1, self.kdf, self.chunk_log2, 0, *self.argon2, self.salt)

    @classmethod
    def parse(cls, b):
        _magic_version(b)
        if len(b) < HEADER_LEN:
            raise SealFormatError(f"truncated header ({len(b)} of {HEADER_LEN} bytes)")
        magic, ver, kdf, log2, res, t, m, p, salt = _V1.unpack(b[:HEADER_LEN])
        if ver != 1:
            raise SealFormatError(f"not a version 1 header (version {ver})")
        if res != 0:
            raise SealFormatError("header: reserved byte is not zero")
        h = cls(kdf, log2, (t, m, p), salt)
        h._check()
        return h


class HeaderV2:
    """The v2 header: recipient stanzas [(kem_id, enc || ct)] and a MAC. ``body()`` is what the MAC
    covers; the MAC itself is the associated data of every chunk (it commits to the whole header)."""

    version = 2

    def __init__(self, kind, chunk_log2, salt, stanzas, mac=b""):
        self.kind, self.chunk_log2, self.salt, self.stanzas, self.mac = kind, chunk_log2, salt, list(stanzas), mac

    @property
    def chunk_size(self):
        return 1 << self.chunk_log2

    def body(self):
        out = [_V2.pack(MAGIC, 2, self.kind, self.chunk_log2, 0, self.salt, len(self.stanzas))]
        for kem_id, blob in self.stanzas:
            out.append(struct.pack(">HH", kem_id, len(blob)) + blob)
        return b"".join(out)

    def to_bytes(self):
        if len(self.mac) != MAC_LEN:
            raise ValueError("the header has no MAC yet")
        return self.body() + self.mac

    @classmethod
    def read(cls, fin, fixed=b""):
        """Reads a v2 header from fin (``fixed``: bytes of it already read)."""
        fixed += read_full(fin, V2_FIXED_LEN - len(fixed))
        if len(fixed) < V2_FIXED_LEN:
            raise SealFormatError(f"truncated header ({len(fixed)} bytes)")
        magic, ver, kind, log2, res, salt, count = _V2.unpack(fixed)
        if res != 0:
            raise SealFormatError("header: reserved byte is not zero")
        if kind not in (KIND_FILE, KIND_VIDEO):
            raise SealFormatError(f"header: unknown kind {kind}")
        _check_chunk(log2)
        if not 1 <= count <= MAX_STANZAS:
            raise SealFormatError(f"header: {count} recipient stanzas (1..{MAX_STANZAS} allowed)")
        stanzas = []
        for _ in range(count):
            sh = read_full(fin, 4)
            if len(sh) < 4:
                raise SealFormatError("truncated header (in a recipient stanza)")
            kem_id, n = struct.unpack(">HH", sh)
            if n > MAX_STANZA_LEN:
                raise SealFormatError(f"header: stanza of {n} bytes")
            blob = read_full(fin, n)
            if len(blob) < n:
                raise SealFormatError("truncated header (in a recipient stanza)")
            stanzas.append((kem_id, blob))
        mac = read_full(fin, MAC_LEN)
        if len(mac) < MAC_LEN:
            raise SealFormatError("truncated header (in its MAC)")
        return cls(kind, log2, salt, stanzas, mac)


def _magic_version(b):
    if len(b) < 9:
        if b and MAGIC.startswith(b[:8]):
            raise SealFormatError(f"truncated header ({len(b)} bytes)")
        raise SealFormatError("not a nuri sealed file (no NURISEAL header)")
    if b[:8] != MAGIC:
        raise SealFormatError("not a nuri sealed file (no NURISEAL header)")
    if b[8] not in (1, 2):
        raise SealFormatError(f"unsupported nuri-seal version {b[8]} (this nuri reads versions 1 and 2)")
    return b[8]


def read_header(fin, start=b""):
    """Reads and checks a v1 or v2 header from fin; SealFormatError when it is neither. ``start``:
    its first bytes, when the caller has already read them (to tell the format)."""
    start = start + read_full(fin, max(0, 9 - len(start)))
    if _magic_version(start) == 1:
        return Header.parse(start + read_full(fin, max(0, HEADER_LEN - len(start))))
    return HeaderV2.read(fin, start)
