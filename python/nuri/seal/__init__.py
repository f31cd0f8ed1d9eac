"""nuri-seal: authenticated, streaming file encryption with Schwaemm256-128 (docs/seal-format.md).

- **v1** (``key=`` a key file's key, or ``passphrase=`` through Argon2id): a 56-byte header bound as
  associated data of every chunk.
- **v2** (``recipients=`` public keys): a random 32-byte file key wrapped per recipient with HPKE
  (ML-KEM-768 or ML-KEM-768+X25519, HKDF-SHA256, ChaCha20-Poly1305), a header MAC under a key
  derived from the file key, and the MAC bound as associated data of every chunk.

Both carry the payload in the same STREAM chunks (stream.py), processed many at a time on every
core with memory bounded for any size. ``nuri.seal.age`` reads and writes age v1 files, and
``load_recipients`` / ``load_identities`` read key files: nuri's (text or raw) and age's.

>>> from nuri import seal
>>> key = bytes(range(16))
>>> blob = seal.seal_bytes(key, b"attack at dawn")      # 56 + 14 + 16 bytes
>>> seal.open_bytes(key, blob)
b'attack at dawn'
>>> pk, sk = seal.generate("mlkem768-x25519")
>>> blob = seal.seal_bytes(None, b"to alice", recipients=[pk])
>>> seal.open_bytes(None, blob, identity=sk)
b'to alice'
"""

import hmac
import io
import os
import struct
import threading

from ..exceptions import InvalidTag
from .header import (
    DEFAULT_CHUNK_LOG2,
    HEADER_LEN,
    KDF_ARGON2ID,
    KDF_KEY,
    KIND_FILE,
    KIND_VIDEO,
    MAX_CHUNK_LOG2,
    MAX_STANZAS,
    MIN_CHUNK_LOG2,
    Header,
    HeaderV2,
    SealFormatError,
    check_chunk_log2,
    read_header,
)
from .kdf import ARGON2_DEFAULT, ARGON2_OPEN_LIMIT, Argon2LimitError, argon2id, hkdf_sha256
from .recipients import (
    FILE_KEY_LEN,
    Identity,
    NotRecipientError,
    Recipient,
    generate,
    load_identities,
    load_recipients,
)
from .stream import PREFIX_LEN, TAG_LEN, Payload

__all__ = [
    "Header",
    "HeaderV2",
    "SealFormatError",
    "NotRecipientError",
    "Argon2LimitError",
    "Sealer",
    "Recipient",
    "Identity",
    "generate",
    "load_recipients",
    "load_identities",
    "seal_stream",
    "open_stream",
    "seal_bytes",
    "open_bytes",
    "read_header",
    "hkdf_sha256",
    "HEADER_LEN",
    "TAG_LEN",
    "ARGON2_DEFAULT",
    "ARGON2_OPEN_LIMIT",
]

V1_INFO = b"nuri-seal/v1 payload"
V2_PAYLOAD_INFO = b"nuri-seal/v2 payload"
V2_HEADER_INFO = b"nuri-seal/v2 header"
V2_SEGMENT_INFO = b"nuri-seal/v2 segment"


# ---- v1: key file or passphrase ----


def _v1_ikm(header, key, passphrase, argon2_limit):
    if header.kdf == KDF_KEY:
        if key is None:
            raise ValueError("this file was sealed with a key file: a key is needed, not a passphrase")
        if len(key) not in (16, 24, 32):
            raise ValueError(f"key must be 16, 24 or 32 bytes long, got {len(key)}")
        return bytes(key)
    if passphrase is None:
        raise ValueError("this file was sealed with a passphrase: a passphrase is needed, not a key")
    return argon2id(passphrase, header.salt, header.argon2, argon2_limit)


def _v1_payload(header, key, passphrase, workers, argon2_limit=ARGON2_OPEN_LIMIT):
    okm = hkdf_sha256(_v1_ikm(header, key, passphrase, argon2_limit), header.salt, V1_INFO, 16 + PREFIX_LEN)
    return Payload(okm[:16], okm[16:], header.to_bytes(), header.chunk_size, workers)


# ---- v2: recipients ----


def _v2_mac(file_key, header):
    mac_key = hkdf_sha256(file_key, header.salt, V2_HEADER_INFO, 32)
    return hmac.new(mac_key, header.body(), "sha256").digest()


def v2_payload(file_key, header, workers=None, segment=None):
    """The STREAM payload of a v2 header whose MAC is set: the whole file, or video segment
    ``(index, last)`` (its own key, and the last-segment flag bound in the associated data)."""
    if segment is None:
        okm = hkdf_sha256(file_key, header.salt, V2_PAYLOAD_INFO, 16 + PREFIX_LEN)
        ad = header.mac
    else:
        index, last = segment
        okm = hkdf_sha256(file_key, header.salt, V2_SEGMENT_INFO + struct.pack(">Q", index), 16 + PREFIX_LEN)
        ad = header.mac + (b"\x01" if last else b"\x00")
    return Payload(okm[:16], okm[16:], ad, header.chunk_size, workers)


def _as_recipient(r):
    return r if isinstance(r, Recipient) else Recipient.from_bytes(r)


def _as_identity(i):
    return i if isinstance(i, Identity) else Identity.from_bytes(i)


def new_v2_header(recipients, chunk_log2=DEFAULT_CHUNK_LOG2, kind=KIND_FILE, file_key=None, salt=None, rands=None):
    """(file_key, header with MAC) for the recipients (Recipient objects or public-key bytes).
    file_key, salt and rands (KEM randomness per recipient) are fixed only by known-answer tests."""
    check_chunk_log2(chunk_log2)
    recipients = [_as_recipient(r) for r in recipients]
    if not 1 <= len(recipients) <= MAX_STANZAS:
        raise ValueError(f"1 to {MAX_STANZAS} recipients, got {len(recipients)}")
    file_key = file_key or os.urandom(FILE_KEY_LEN)
    rands = rands or [None] * len(recipients)
    h = HeaderV2(kind, chunk_log2, salt or os.urandom(32), [r.wrap(file_key, x) for r, x in zip(recipients, rands)])
    h.mac = _v2_mac(file_key, h)
    return file_key, h


def v2_file_key(header, identity):
    """The file key of a v2 header for an identity, after checking the header MAC.
    NotRecipientError when no stanza is for this identity; InvalidTag when the header was modified."""
    file_key = _as_identity(identity).unwrap(header.stanzas)
    if not hmac.compare_digest(_v2_mac(file_key, header), header.mac):
        raise InvalidTag("header MAC mismatch: the header was modified")
    return file_key


# ---- both ----


def seal_stream(
    fin,
    write,
    key=None,
    passphrase=None,
    chunk_log2=DEFAULT_CHUNK_LOG2,
    argon2=ARGON2_DEFAULT,
    progress=None,
    recipients=None,
    workers=None,
):
    """Reads plaintext from ``fin`` (a binary reader) and calls ``write`` with the header and each sealed
    chunk: v2 when ``recipients`` are given, else v1 with ``key`` or ``passphrase``. Memory: a few
    groups of chunks. ``write`` may be handed a view of a buffer that is reused afterwards: it must
    consume or copy it before returning (as ``file.write`` does). Returns the number of plaintext bytes."""
    if recipients is not None:
        if key is not None or passphrase is not None:
            raise ValueError("give recipients, a key or a passphrase, not several")
        file_key, h = new_v2_header(recipients, chunk_log2)
        payload = v2_payload(file_key, h, workers)
    else:
        h = Header.new(KDF_KEY if passphrase is None else KDF_ARGON2ID, chunk_log2, argon2)
        payload = _v1_payload(h, key, passphrase, workers, argon2_limit=None)
    write(h.to_bytes())
    return payload.seal(fin, write, progress)


def open_stream(
    fin,
    write,
    key=None,
    passphrase=None,
    header=None,
    progress=None,
    identity=None,
    argon2_limit=ARGON2_OPEN_LIMIT,
    workers=None,
    file_key=None,
):
    """Reads a sealed file (v1 or v2) from ``fin`` and calls ``write`` with each chunk's plaintext once
    that chunk has authenticated. Raises InvalidTag on the first chunk that fails, on truncation and
    on data after the final chunk; SealFormatError on a bad header; NotRecipientError when
    ``identity`` is not a recipient. The caller must discard what it was given if anything is raised
    (the CLI writes to a temporary file). ``header`` skips reading it when the caller has already done
    so; ``file_key`` (v2) skips unwrapping it when the caller has already done so with v2_file_key.
    ``write`` is handed a view of a buffer that is reused and wiped afterwards: it must consume or copy
    it before returning (as ``file.write`` does). Returns the number of plaintext bytes."""
    h = header if header is not None else read_header(fin)
    if h.version == 2:
        if h.kind != KIND_FILE:
            raise SealFormatError("this header belongs to a sealed video stream (use nuri video open)")
        if file_key is None:
            if identity is None:
                raise ValueError("this file was sealed to public-key recipients: an identity (secret key) is needed")
            file_key = v2_file_key(h, identity)
        payload = v2_payload(file_key, h, workers)
    else:
        payload = _v1_payload(h, key, passphrase, workers, argon2_limit)
    return payload.open(fin, write, progress)


def seal_bytes(key, data, chunk_log2=DEFAULT_CHUNK_LOG2, recipients=None):
    """One-shot seal with a key or to recipients (bytes in, bytes out)."""
    out = io.BytesIO()
    seal_stream(io.BytesIO(data), out.write, key=key, chunk_log2=chunk_log2, recipients=recipients)
    return out.getvalue()


def open_bytes(key, blob, identity=None):
    """One-shot open with a key or an identity; raises InvalidTag, SealFormatError or NotRecipientError."""
    out = io.BytesIO()
    open_stream(io.BytesIO(blob), out.write, key=key, identity=identity)
    return out.getvalue()


class Sealer:
    """Incremental v1 sealing when the plaintext arrives in pieces::

    s = Sealer(key); out = s.header + s.update(a) + s.update(b) + s.finalize()
    """

    def __init__(self, key=None, passphrase=None, chunk_log2=DEFAULT_CHUNK_LOG2, argon2=ARGON2_DEFAULT):
        h = Header.new(KDF_KEY if passphrase is None else KDF_ARGON2ID, chunk_log2, argon2)
        self.header = h.to_bytes()
        self._p = _v1_payload(h, key, passphrase, 1, argon2_limit=None)
        self._buf = bytearray()
        self._i = 0
        self._done = False
        # one lock per object: the AEAD call releases the GIL, and two threads reading the same chunk index
        # would seal two chunks under one nonce
        self._lock = threading.Lock()

    def _chunk(self, data, last):
        from .stream import nonce

        out = self._p.aead.encrypt(nonce(self._p.prefix, self._i, last), bytes(data), self._p.ad)
        self._i += 1
        return out

    def update(self, data):
        with self._lock:
            if self._done:
                raise ValueError("update() after finalize()")
            self._buf += data
            cs, out = self._p.chunk_size, []
            # keep at least one byte back: the final chunk must carry the last flag
            while len(self._buf) > cs:
                out.append(self._chunk(self._buf[:cs], False))
                del self._buf[:cs]
            return b"".join(out)

    def finalize(self):
        with self._lock:
            if self._done:
                raise ValueError("finalize() called twice")
            self._done = True
            return self._chunk(self._buf, True)


for _cls in (SealFormatError, NotRecipientError, Argon2LimitError):
    _cls.__module__ = __name__  # shown as nuri.seal.X, where users import it from
