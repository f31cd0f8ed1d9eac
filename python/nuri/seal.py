"""``nuri-seal v1``: authenticated, streaming file encryption with Schwaemm256-128.

The file is a 56-byte header followed by chunks (all integers big-endian)::

    header = "NURISEAL" (8) | version=1 (1) | kdf (1) | chunk_log2 (1) | reserved=0 (1)
             | argon2 t_cost (4) | argon2 m_cost KiB (4) | argon2 lanes (4) | salt (32)
    chunk_i = Schwaemm256-128.encrypt(key, nonce_i, plaintext_i, ad=header)   (ciphertext || 16-byte tag)
    nonce_i = prefix (23) | i (8) | last (1: 0x01 on the final chunk, else 0x00)
    key (16) || prefix (23) = HKDF-SHA-256(ikm, salt=salt, info="nuri-seal/v1 payload", 39)

- ``kdf`` 0: ``ikm`` is the key of a key file (128, 192 or 256 bits; the Argon2 fields are 0).
  ``kdf`` 1: ``ikm`` = Argon2id(passphrase, salt, t_cost, m_cost, lanes, 32 bytes) (RFC 9106).
- Every plaintext chunk holds exactly ``2**chunk_log2`` bytes (default 64 KiB) except the final one,
  which holds 0 to ``2**chunk_log2`` bytes; an empty input is one empty final chunk (a bare tag).
- This is the STREAM construction (Hoang, Reyhanitabar, Rogaway, Vizar, CRYPTO 2015): the index in
  the nonce detects reordering and splicing, the last-chunk flag detects truncation and appended
  data, and the whole header is the associated data of every chunk, so a change to any header field
  (salt, chunk size, KDF parameters) fails the first chunk. Each file has a fresh random salt, so
  key and nonce prefix are fresh per file (Schwaemm256-128 has a 128-bit key: the 23-byte random
  prefix gives multi-target margin).
- Decryption authenticates each chunk before its plaintext is returned; a reader that needs the
  whole file to be genuine (the CLI) writes to a temporary file and keeps it only when the final
  chunk has authenticated.

Example (needs nuri.aead)::

    from nuri import seal
    key = bytes(range(16))
    blob = seal.seal_bytes(key, b"attack at dawn")      # 56 + 14 + 16 bytes
    assert seal.open_bytes(key, blob) == b"attack at dawn"
    seal.open_bytes(key, blob[:-1])                     # raises nuri.InvalidTag (truncated)
"""
import hashlib
import hmac
import io
import os
import struct

from ._util import read_full
from .exceptions import InvalidTag

MAGIC = b"NURISEAL"
VERSION = 1
KDF_KEY, KDF_ARGON2ID = 0, 1
HEADER_LEN = 56
TAG_LEN = 16
PREFIX_LEN = 23
DEFAULT_CHUNK_LOG2 = 16
MIN_CHUNK_LOG2, MAX_CHUNK_LOG2 = 10, 24
# RFC 9106 section 4, second recommended option (64 MiB, 3 passes, 4 lanes).
ARGON2_DEFAULT = (3, 65536, 4)
ARGON2_MAX_M_KIB = 1 << 21  # 2 GiB: refuse headers asking for more (denial of service)
_INFO = b"nuri-seal/v1 payload"
_HDR = struct.Struct(">8sBBBBIII32s")
assert _HDR.size == HEADER_LEN

__all__ = ["Header", "SealFormatError", "Sealer", "seal_stream", "open_stream", "seal_bytes",
           "open_bytes", "hkdf_sha256", "HEADER_LEN", "TAG_LEN", "ARGON2_DEFAULT"]


class SealFormatError(ValueError):
    """The input is not a nuri-seal v1 file (bad magic, version or header field, or too short)."""


def hkdf_sha256(ikm: bytes, salt: bytes, info: bytes, length: int) -> bytes:
    """HKDF (RFC 5869) with HMAC-SHA-256."""
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    okm, t, i = b"", b"", 1
    while len(okm) < length:
        t = hmac.new(prk, t + info + bytes([i]), hashlib.sha256).digest()
        okm += t
        i += 1
    return okm[:length]


class Header:
    """The 56-byte header. ``Header.new(...)`` picks a fresh random salt; ``Header.parse(b)`` checks every field."""

    def __init__(self, kdf, chunk_log2, argon2, salt):
        self.kdf, self.chunk_log2, self.argon2, self.salt = kdf, chunk_log2, tuple(argon2), salt

    @property
    def chunk_size(self):
        return 1 << self.chunk_log2

    @classmethod
    def new(cls, kdf=KDF_KEY, chunk_log2=DEFAULT_CHUNK_LOG2, argon2=ARGON2_DEFAULT):
        if not MIN_CHUNK_LOG2 <= chunk_log2 <= MAX_CHUNK_LOG2:
            raise ValueError(f"chunk_log2 must be {MIN_CHUNK_LOG2}..{MAX_CHUNK_LOG2}, got {chunk_log2}")
        h = cls(kdf, chunk_log2, argon2 if kdf == KDF_ARGON2ID else (0, 0, 0), os.urandom(32))
        h._check()
        return h

    def _check(self):
        t, m, p = self.argon2
        if self.kdf == KDF_KEY:
            if (t, m, p) != (0, 0, 0):
                raise SealFormatError("header: Argon2 parameters set for a key-file seal")
        elif self.kdf == KDF_ARGON2ID:
            if not (1 <= t <= 64 and 1 <= p <= 64 and 8 * p <= m <= ARGON2_MAX_M_KIB):
                raise SealFormatError(f"header: Argon2id parameters out of range (t={t}, m={m} KiB, lanes={p})")
        else:
            raise SealFormatError(f"header: unknown key derivation {self.kdf}")
        if not MIN_CHUNK_LOG2 <= self.chunk_log2 <= MAX_CHUNK_LOG2:
            raise SealFormatError(f"header: chunk size 2^{self.chunk_log2} out of range")

    def to_bytes(self):
        return _HDR.pack(MAGIC, VERSION, self.kdf, self.chunk_log2, 0, *self.argon2, self.salt)

    @classmethod
    def parse(cls, b):
        if len(b) < HEADER_LEN:
            if MAGIC.startswith(b[:8]) and b:
                raise SealFormatError(f"truncated header ({len(b)} of {HEADER_LEN} bytes)")
            raise SealFormatError("not a nuri sealed file (no NURISEAL header)")
        magic, ver, kdf, log2, res, t, m, p, salt = _HDR.unpack(b[:HEADER_LEN])
        if magic != MAGIC:
            raise SealFormatError("not a nuri sealed file (no NURISEAL header)")
        if ver != VERSION:
            raise SealFormatError(f"unsupported nuri-seal version {ver} (this nuri reads version {VERSION})")
        if res != 0:
            raise SealFormatError("header: reserved byte is not zero")
        h = cls(kdf, log2, (t, m, p), salt)
        h._check()
        return h


def _ikm(header, key=None, passphrase=None):
    if header.kdf == KDF_KEY:
        if key is None:
            raise TypeError("this file was sealed with a key file: a key is needed, not a passphrase")
        if len(key) not in (16, 24, 32):
            raise ValueError(f"key must be 16, 24 or 32 bytes long, got {len(key)}")
        return bytes(key)
    if passphrase is None:
        raise TypeError("this file was sealed with a passphrase: a passphrase is needed, not a key")
    try:
        from argon2.low_level import Type, hash_secret_raw
    except ImportError:
        raise ImportError("passphrases need the argon2-cffi package (pip install argon2-cffi)") from None
    t, m, p = header.argon2
    if isinstance(passphrase, str):
        passphrase = passphrase.encode()
    return hash_secret_raw(passphrase, header.salt, time_cost=t, memory_cost=m, parallelism=p, hash_len=32,
                           type=Type.ID)


def _cipher(header, key, passphrase):
    from .aead import Schwaemm256_128

    okm = hkdf_sha256(_ikm(header, key, passphrase), header.salt, _INFO, 16 + PREFIX_LEN)
    return Schwaemm256_128(okm[:16]), okm[16:]


def _nonce(prefix, i, last):
    return prefix + struct.pack(">Q", i) + (b"\x01" if last else b"\x00")


def seal_stream(fin, write, key=None, passphrase=None, chunk_log2=DEFAULT_CHUNK_LOG2, argon2=ARGON2_DEFAULT,
                progress=None):
    """Reads plaintext from ``fin`` (a binary reader) and calls ``write`` with the header and each sealed
    chunk. Memory: two chunks. Returns the number of plaintext bytes."""
    h = Header.new(KDF_KEY if passphrase is None else KDF_ARGON2ID, chunk_log2, argon2)
    hb = h.to_bytes()
    aead, prefix = _cipher(h, key, passphrase)
    write(hb)
    cs = h.chunk_size
    cur = read_full(fin, cs)
    i = total = 0
    while True:
        nxt = read_full(fin, cs) if len(cur) == cs else b""
        last = not nxt
        write(aead.encrypt(_nonce(prefix, i, last), cur, hb))
        total += len(cur)
        if progress:
            progress(len(cur))
        if last:
            return total
        cur = nxt
        i += 1


class _Chunks:
    """Iterates the sealed chunks after the header: (index, is_last, sealed chunk)."""

    def __init__(self, fin, header):
        self.fin, self.block = fin, header.chunk_size + TAG_LEN

    def __iter__(self):
        cur = read_full(self.fin, self.block)
        i = 0
        while True:
            if len(cur) < TAG_LEN:
                raise InvalidTag(f"chunk {i} is truncated ({len(cur)} bytes, less than a tag): the file was cut short")
            nxt = read_full(self.fin, self.block) if len(cur) == self.block else b""
            yield i, not nxt, cur
            if not nxt:
                return
            cur = nxt
            i += 1


_FAIL = "failed to authenticate (wrong key, or the file was modified, truncated or reordered)"


def read_header(fin):
    """Reads and checks the header; SealFormatError when it is not a nuri-seal v1 file."""
    return Header.parse(read_full(fin, HEADER_LEN))


def open_stream(fin, write, key=None, passphrase=None, header=None, progress=None):
    """Reads a sealed file from ``fin`` and calls ``write`` with each chunk's plaintext once that chunk
    has authenticated. Raises InvalidTag on the first chunk that fails, on truncation and on data
    after the final chunk, SealFormatError on a bad header. The caller must discard what it was given
    if anything is raised (the CLI writes to a temporary file). ``header`` skips reading it when the
    caller has already done so. Returns the number of plaintext bytes."""
    h = header if header is not None else read_header(fin)
    hb = h.to_bytes()
    aead, prefix = _cipher(h, key, passphrase)
    total = 0
    for i, last, chunk in _Chunks(fin, h):
        try:
            pt = aead.decrypt(_nonce(prefix, i, last), chunk, hb)
        except InvalidTag:
            raise InvalidTag(f"chunk {i} {_FAIL}") from None
        except ValueError:
            raise InvalidTag(f"chunk {i} {_FAIL}") from None
        write(pt)
        total += len(pt)
        if progress:
            progress(len(chunk))
    return total


def seal_bytes(key, data, chunk_log2=DEFAULT_CHUNK_LOG2):
    """One-shot seal with a key (bytes in, bytes out)."""
    out = io.BytesIO()
    seal_stream(io.BytesIO(data), out.write, key=key, chunk_log2=chunk_log2)
    return out.getvalue()


def open_bytes(key, blob):
    """One-shot open with a key; raises InvalidTag or SealFormatError."""
    out = io.BytesIO()
    open_stream(io.BytesIO(blob), out.write, key=key)
    return out.getvalue()


class Sealer:
    """Incremental sealing when the plaintext arrives in pieces::

        s = Sealer(key); out = s.header + s.update(a) + s.update(b) + s.finalize()
    """

    def __init__(self, key=None, passphrase=None, chunk_log2=DEFAULT_CHUNK_LOG2, argon2=ARGON2_DEFAULT):
        self._h = Header.new(KDF_KEY if passphrase is None else KDF_ARGON2ID, chunk_log2, argon2)
        self.header = self._h.to_bytes()
        self._aead, self._prefix = _cipher(self._h, key, passphrase)
        self._buf = bytearray()
        self._i = 0
        self._done = False

    def update(self, data):
        if self._done:
            raise ValueError("update() after finalize()")
        self._buf += data
        cs, out = self._h.chunk_size, []
        # keep at least one byte back: the final chunk must carry the last flag
        while len(self._buf) > cs:
            out.append(self._aead.encrypt(_nonce(self._prefix, self._i, False), bytes(self._buf[:cs]), self.header))
            del self._buf[:cs]
            self._i += 1
        return b"".join(out)

    def finalize(self):
        if self._done:
            raise ValueError("finalize() called twice")
        self._done = True
        return self._aead.encrypt(_nonce(self._prefix, self._i, True), bytes(self._buf), self.header)

