"""Esch256 and Esch384 hashing (SPARKLE-based, NIST LWC finalist), hashlib-style.

>>> from nuri import hash
>>> hash.esch256(b"").hex().upper()
'C0E815D78B875DC768C6C8B3AFA51987CD69E5C087D387368628A511CFAD5730'
>>> h = hash.Esch256()
>>> h.update(b"\\x00"); h.update(b"\\x01")
>>> h.hexdigest().upper()
'FBCAD7AB77FD4CC844534D2716D08C092B40B86E00647ECAA429AFDFE3B3FC43'
>>> h.name, h.digest_size, h.block_size
('esch256', 32, 16)

The implementation (one of ``implementations()``, the SPARKLE registry) is chosen by keyword;
None (the default) lets dispatch pick it (``NURI_IMPL=sparkle:<name>``).

>>> hash.esch256(b"", impl="ref") == hash.esch256(b"")
True
"""

import threading

from ._native import ffi, lib
from ._util import as_bytes, c_name, check, impl_arg
from .sparkle import default_implementation, implementations  # the one SPARKLE registry

__all__ = [
    "Esch256",
    "Esch384",
    "esch256",
    "esch384",
    "esch256_many",
    "esch384_many",
    "implementations",
    "default_implementation",
]


class _Esch:
    """cffi releases the GIL during C calls, so two threads could drive one C context at once: every
    method holds the object's lock while it touches the context (as hashlib's objects do)."""

    digest_size = None
    block_size = 16
    name = None
    _variant = None

    def __init__(self, data: bytes = b"", *, impl: str = None):
        data = as_bytes(data, "data")  # esch256(None) is a TypeError, not the digest of b""
        self._lock = threading.Lock()
        self._ctx = ffi.new("nuri_esch_ctx *")
        check(lib.nuri_esch_init(self._ctx, self._variant, impl_arg(impl)), f"{self.name} init")
        if data:
            self.update(data)

    @property
    def implementation(self) -> str:
        """The name of the implementation this object runs."""
        return c_name(lib.nuri_esch_ctx_impl_name(self._ctx))

    def update(self, data: bytes) -> None:
        data = as_bytes(data, "data")
        with self._lock:
            rc = lib.nuri_esch_update(self._ctx, data, len(data))
        check(rc, f"{self.name} update")

    def copy(self):
        """An independent copy of the current hashing state."""
        other = type(self).__new__(type(self))
        other._lock = threading.Lock()
        other._ctx = ffi.new("nuri_esch_ctx *")
        with self._lock:
            ffi.memmove(other._ctx, self._ctx, ffi.sizeof("nuri_esch_ctx"))
        return other

    def digest(self) -> bytes:
        """The digest of everything passed to update so far (the object stays usable)."""
        c = self.copy()
        out = ffi.new("uint8_t[]", self.digest_size)
        n = ffi.new("size_t *")
        check(lib.nuri_esch_final(c._ctx, out, self.digest_size, n), f"{self.name} final")
        return ffi.buffer(out, n[0])[:]

    def hexdigest(self) -> str:
        return self.digest().hex()

    def __del__(self):
        ctx = getattr(self, "_ctx", None)
        if ctx is not None:
            lib.nuri_wipe(ctx, ffi.sizeof("nuri_esch_ctx"))


class Esch256(_Esch):
    """Esch256: 32-byte digest (SPARKLE384)."""

    digest_size = 32
    name = "esch256"
    _variant = lib.NURI_ESCH256


class Esch384(_Esch):
    """Esch384: 48-byte digest (SPARKLE512)."""

    digest_size = 48
    name = "esch384"
    _variant = lib.NURI_ESCH384


def esch256(data: bytes, *, impl: str = None) -> bytes:
    """One-shot Esch256."""
    return Esch256(data, impl=impl).digest()


def esch384(data: bytes, *, impl: str = None) -> bytes:
    """One-shot Esch384."""
    return Esch384(data, impl=impl).digest()


def _many(cls, messages, impl):
    if isinstance(messages, (bytes, bytearray, memoryview, str)) or not hasattr(messages, "__iter__"):
        raise TypeError(f"messages must be a sequence of bytes, not {type(messages).__name__}")
    msgs = [as_bytes(m, "message") for m in messages]
    ctx = ffi.new("nuri_esch_ctx *")  # the variant and the implementation of the batch
    check(lib.nuri_esch_init(ctx, cls._variant, impl_arg(impl)), "Esch batch")
    if not msgs:
        return []
    size = cls.digest_size
    keep = [ffi.from_buffer("uint8_t[]", m) for m in msgs]
    out = ffi.new("uint8_t[]", size * len(msgs))
    check(
        lib.nuri_esch_many(
            ctx,
            out,
            size * len(msgs),
            ffi.new("uint8_t *[]", keep),
            ffi.new("size_t[]", [len(m) for m in msgs]),
            len(msgs),
        ),
        "Esch batch",
    )
    raw = ffi.buffer(out)[:]
    return [raw[i * size : (i + 1) * size] for i in range(len(msgs))]


def esch256_many(messages, *, impl: str = None):
    """Esch256 of many messages at once (multi-instance SIMD kernels when the CPU has them)."""
    return _many(Esch256, messages, impl)


def esch384_many(messages, *, impl: str = None):
    """Esch384 of many messages at once."""
    return _many(Esch384, messages, impl)
