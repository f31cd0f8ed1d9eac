"""Schwaemm authenticated encryption with associated data (SPARKLE-based, NIST LWC finalist).

Each class is constructed with its key and offers ``encrypt(nonce, data, associated_data)``
returning ciphertext || tag, and ``decrypt(nonce, ciphertext_and_tag, associated_data)``
returning the plaintext or raising :class:`nuri.InvalidTag` (no plaintext is released then).
Never reuse a nonce with the same key.

>>> from nuri.aead import Schwaemm256_128
>>> aead = Schwaemm256_128(bytes(range(16)))
>>> ct = aead.encrypt(bytes(range(32)), b"", b"")
>>> ct.hex().upper()
'9E3F9F2E8E26E7D00A9EB92730717A51'
>>> sealed = aead.encrypt(bytes(32), b"attack at dawn", b"header")
>>> aead.decrypt(bytes(32), sealed, b"header")
b'attack at dawn'
>>> aead.decrypt(bytes(32), sealed, b"other header")
Traceback (most recent call last):
    ...
nuri.exceptions.InvalidTag: Schwaemm256-128 decryption: authentication failed

The implementation (one of ``implementations()``, the SPARKLE registry) is chosen when the object
is made, by keyword; None (the default) lets dispatch pick it (``NURI_IMPL=sparkle:<name>``).

>>> Schwaemm256_128(bytes(range(16)), impl="ref").encrypt(bytes(range(32)), b"", b"").hex().upper()
'9E3F9F2E8E26E7D00A9EB92730717A51'
"""

import bisect

from ._native import ffi, lib
from ._util import as_bytes, c_name, check, check_len, impl_arg
from .exceptions import InvalidTag
from .sparkle import default_implementation, implementations  # the one SPARKLE registry

__all__ = [
    "Schwaemm128_128",
    "Schwaemm256_128",
    "Schwaemm192_192",
    "Schwaemm256_256",
    "implementations",
    "default_implementation",
]


class _Schwaemm:
    _variant = None
    name = None

    def __init__(self, key: bytes, *, impl: str = None):
        key = check_len(key, "key", (self.key_size,))
        self._k = ffi.new("nuri_schwaemm_key *")  # the key bytes, the variant and the implementation (C)
        check(lib.nuri_schwaemm_key_init(self._k, self._variant, key, len(key), impl_arg(impl)), f"{self.name} key")

    @property
    def implementation(self) -> str:
        """The name of the implementation this object runs."""
        return c_name(lib.nuri_schwaemm_key_impl_name(self._k))

    def __del__(self):
        k = getattr(self, "_k", None)
        if k is not None:
            lib.nuri_schwaemm_key_wipe(k)

    @classmethod
    def generate_key(cls) -> bytes:
        """A fresh random key of the right size (operating-system randomness)."""
        buf = ffi.new("uint8_t[]", cls.key_size)
        check(lib.nuri_randombytes(buf, cls.key_size), "random key")
        return ffi.buffer(buf)[:]

    def _args(self, nonce, data, associated_data):
        nonce = check_len(nonce, "nonce", (self.nonce_size,))
        data = as_bytes(data, "data")
        ad = b"" if associated_data is None else as_bytes(associated_data, "associated_data")
        return nonce, data, ad

    def encrypt(self, nonce: bytes, data: bytes, associated_data: bytes = None) -> bytes:
        """Returns ciphertext || tag (len(data) + tag_size bytes)."""
        nonce, data, ad = self._args(nonce, data, associated_data)
        cap = len(data) + self.tag_size
        out = ffi.new("uint8_t[]", cap)
        out_len = ffi.new("size_t *")
        check(
            lib.nuri_schwaemm_encrypt(
                self._k,
                out,
                cap,
                out_len,
                nonce,
                len(nonce),
                ad,
                len(ad),
                data,
                len(data),
            ),
            f"{self.name} encryption",
        )
        return ffi.buffer(out, out_len[0])[:]

    def decrypt(self, nonce: bytes, data: bytes, associated_data: bytes = None) -> bytes:
        """Checks the tag (last tag_size bytes of data) and returns the plaintext, or raises
        nuri.InvalidTag."""
        nonce, data, ad = self._args(nonce, data, associated_data)
        if len(data) < self.tag_size:
            raise ValueError(f"data must hold at least the {self.tag_size}-byte tag, got {len(data)} bytes")
        cap = len(data) - self.tag_size
        out = ffi.new("uint8_t[]", max(cap, 1))
        out_len = ffi.new("size_t *")
        try:
            check(
                lib.nuri_schwaemm_decrypt(
                    self._k,
                    out,
                    cap,
                    out_len,
                    nonce,
                    len(nonce),
                    ad,
                    len(ad),
                    data,
                    len(data),
                ),
                f"{self.name} decryption",
            )
            return ffi.buffer(out, out_len[0])[:]
        finally:
            lib.nuri_wipe(out, max(cap, 1))

    # -- batches: one C call over many messages (the multi-instance kernels), GIL released --

    def _many(self, encrypt, nonces, ins, in_lens, outs, associated_data):
        """The C batch call on cdata pointers (ins, outs) and lengths; returns the indices whose tag
        failed (decryption; their outputs are zeroed by C)."""
        n = len(ins)
        nonces = [check_len(x, "nonce", (self.nonce_size,)) for x in nonces]
        if len(nonces) != n:
            raise ValueError(f"need one nonce per message, got {len(nonces)} nonces for {n} messages")
        if n == 0:
            return []
        c_ad, c_alen = ffi.NULL, ffi.NULL
        keep = [nonces]
        if associated_data is not None:
            ads = [_buffer(a, "associated_data") for a in associated_data]
            if len(ads) != n:
                raise ValueError(f"need one associated_data per message, got {len(ads)} for {n}")
            keep.append(ads)
            c_ad, c_alen = ffi.new("uint8_t *[]", ads), ffi.new("size_t[]", [len(a) for a in ads])
        c_nonce = ffi.new("uint8_t *[]", [ffi.from_buffer("uint8_t[]", x) for x in nonces])
        c_in, c_out, c_len = ffi.new("uint8_t *[]", ins), ffi.new("uint8_t *[]", outs), ffi.new("size_t[]", in_lens)
        if encrypt:
            check(
                lib.nuri_schwaemm_encrypt_many(self._k, c_out, c_nonce, c_ad, c_alen, c_in, c_len, n),
                f"{self.name} batch encryption",
            )
            return []
        status = ffi.new("int[]", n)
        rc = lib.nuri_schwaemm_decrypt_many(self._k, c_out, c_nonce, c_ad, c_alen, c_in, c_len, status, n)
        if rc != lib.NURI_EAUTH:
            check(rc, f"{self.name} batch decryption")
            return []
        return [i for i in range(n) if status[i] != 0]

    def _failed(self, failed):
        """The InvalidTag for a batch (raised by the caller: no frame holds it, so no reference cycle
        keeps the buffers of the batch exported)."""
        err = InvalidTag(
            f"{self.name} batch decryption: authentication failed for message {failed[0]}"
            + (f" and {len(failed) - 1} more" if len(failed) > 1 else "")
        )
        err.failed = failed
        return err

    def encrypt_many(self, nonces, messages, associated_data=None):
        """Seals many messages at once (one key; the multi-instance SIMD kernels permute up to 16
        states together). Returns the list of ciphertext || tag."""
        msgs = [as_bytes(m, "message") for m in messages]
        outs = [bytearray(len(m) + self.tag_size) for m in msgs]
        self.encrypt_many_into(nonces, msgs, outs, associated_data)
        return [bytes(o) for o in outs]

    def encrypt_many_into(self, nonces, messages, outputs, associated_data=None):
        """Seals messages[i] into outputs[i] (a writable buffer of at least len(messages[i]) +
        tag_size bytes; it may start at messages[i] itself, in place, but may overlap no other
        input or output: ValueError) without copying: one C call for the whole batch, which releases the GIL
        (threads seal batches in parallel). Runs of messages of equal length go through the
        transposed multi-instance kernel."""
        msgs, outs = self._pairs(messages, outputs, lambda n: n + self.tag_size)
        self._many(True, nonces, msgs, [len(m) for m in msgs], outs, associated_data)

    def encrypt_spans_into(self, nonces, src, spans, dst, dst_offsets, associated_data=None):
        """The same on slices of two buffers: message i is src[o:o + n] for spans[i] = (o, n) and its
        ciphertext || tag goes to dst at dst_offsets[i] (for chunked formats: no per-message objects)."""
        ins, lens, outs, _keep = self._spans(src, spans, dst, dst_offsets, self.tag_size)
        self._many(True, nonces, ins, lens, outs, associated_data)

    def decrypt_many(self, nonces, data, associated_data=None):
        """Opens many messages (each ciphertext || tag) at once and returns the plaintexts, or raises
        nuri.InvalidTag when any tag fails (its ``failed`` attribute lists the indices; no plaintext
        is returned then)."""
        data = [as_bytes(d, "data") for d in data]
        outs = [bytearray(max(0, len(d) - self.tag_size)) for d in data]
        try:
            self.decrypt_many_into(nonces, data, outs, associated_data)
            return [bytes(o) for o in outs]
        finally:
            for o in outs:
                if o:
                    lib.nuri_wipe(ffi.from_buffer(o), len(o))

    def decrypt_many_into(self, nonces, data, outputs, associated_data=None):
        """Opens data[i] (ciphertext || tag) into outputs[i] (a writable buffer of at least
        len(data[i]) - tag_size bytes; it may be data[i] itself, but may overlap no other input or
        output: ValueError) in one C call that releases the
        GIL. Decryption runs in one pass; when tags fail, those outputs are zeroed and
        nuri.InvalidTag is raised with ``failed`` = their indices (the other outputs hold their
        verified plaintexts)."""
        cts, outs = self._pairs(data, outputs, lambda n: n - self.tag_size, data_name="data")
        failed = self._many(False, nonces, cts, [len(c) for c in cts], outs, associated_data)
        if failed:
            raise self._failed(failed)

    def decrypt_spans_into(self, nonces, src, spans, dst, dst_offsets, associated_data=None):
        """decrypt_many_into on slices: ciphertext || tag i is src[o:o + n] for spans[i] = (o, n), its
        plaintext goes to dst at dst_offsets[i]; InvalidTag with ``failed`` as above."""
        ins, lens, outs, _keep = self._spans(src, spans, dst, dst_offsets, -self.tag_size)
        failed = self._many(False, nonces, ins, lens, outs, associated_data)
        if failed:
            raise self._failed(failed)

    @staticmethod
    def _check_overlap(ins, in_lens, outs, out_lens):
        """ValueError unless every output is disjoint from the other outputs and from every input
        but its own, which it may only alias exactly (the same start: in place). A shifted output
        would overwrite input that the interleaved kernel has not read yet. O(n log n)."""

        def addr(p):
            return int(ffi.cast("uintptr_t", p))

        o = sorted((addr(p), addr(p) + n, i) for i, (p, n) in enumerate(zip(outs, out_lens)) if n)
        for (_, e0, i0), (s1, _, i1) in zip(o, o[1:]):
            if s1 < e0:
                raise ValueError(f"outputs {min(i0, i1)} and {max(i0, i1)} overlap")
        starts = [s for s, _, _ in o]
        for j, (p, n) in enumerate(zip(ins, in_lens)):
            s = addr(p)
            k = bisect.bisect_left(starts, s + n) - 1
            while n and k >= 0 and o[k][1] > s:
                if not (o[k][2] == j and o[k][0] == s):
                    raise ValueError(
                        f"output {o[k][2]} overlaps input {j}: an output may only be its own input exactly "
                        "(in place) or lie apart from every input"
                    )
                k -= 1

    def _pairs(self, inputs, outputs, out_len, data_name="message"):
        ins = [_buffer(m, data_name) for m in inputs]
        outs = [_buffer(o, "outputs", writable=True) for o in outputs]
        if len(outs) != len(ins):
            raise ValueError(f"need one output buffer per message, got {len(outs)} for {len(ins)} messages")
        for i, (m, o) in enumerate(zip(ins, outs)):
            if out_len(len(m)) < 0:
                raise ValueError(
                    f"{data_name}[{i}] must hold at least the {self.tag_size}-byte tag, got {len(m)} bytes"
                )
            if len(o) < out_len(len(m)):
                raise ValueError(f"outputs[{i}] holds {len(o)} bytes, needs {out_len(len(m))}")
        self._check_overlap(ins, [len(m) for m in ins], outs, [out_len(len(m)) for m in ins])
        return ins, outs

    def _spans(self, src, spans, dst, dst_offsets, grow):
        """Pointers into src and dst for spans (offset, length) -> outputs of length + grow bytes."""
        s, d = _buffer(src, "src"), _buffer(dst, "dst", writable=True)
        if len(spans) != len(dst_offsets):
            raise ValueError(f"need one output offset per span, got {len(dst_offsets)} for {len(spans)} spans")
        ins, lens, outs = [], [], []
        for (o, n), do in zip(spans, dst_offsets):
            if o < 0 or n + min(grow, 0) < 0 or o + n > len(s) or do < 0 or do + n + grow > len(d):
                raise ValueError(f"span ({o}, {n}) -> {do} lies outside the buffers or is shorter than the tag")
            ins.append(s + o)
            lens.append(n)
            outs.append(d + do)
        self._check_overlap(ins, lens, outs, [n + grow for n in lens])
        return ins, lens, outs, (s, d)  # the caller keeps s and d (the buffer exports) alive

    def __repr__(self):
        return f"<nuri.aead.{type(self).__name__}>"


def _buffer(value, name, writable=False):
    """A contiguous byte buffer (bytes, bytearray, memoryview, ...) as cdata without copying."""
    if isinstance(value, (str, int)) or value is None:
        raise TypeError(f"{name} must be a bytes-like object, not {type(value).__name__}")
    try:
        return ffi.from_buffer("uint8_t[]", value, require_writable=writable)
    except (TypeError, BufferError):
        kind = "a writable bytes-like object (bytearray, memoryview)" if writable else "a bytes-like object"
        raise TypeError(f"{name} must be {kind}, not {type(value).__name__}") from None


def _make(cls_name, variant, display):
    key = lib.nuri_schwaemm_key_bytes(variant)
    doc = (
        f"{display}: key {key} bytes, nonce {lib.nuri_schwaemm_nonce_bytes(variant)} bytes, "
        f"tag {lib.nuri_schwaemm_tag_bytes(variant)} bytes."
    )
    return type(
        cls_name,
        (_Schwaemm,),
        {
            "__doc__": doc,
            "_variant": variant,
            "name": display,
            "key_size": key,
            "nonce_size": lib.nuri_schwaemm_nonce_bytes(variant),
            "tag_size": lib.nuri_schwaemm_tag_bytes(variant),
            "__module__": __name__,
        },
    )


Schwaemm128_128 = _make("Schwaemm128_128", lib.NURI_SCHWAEMM128_128, "Schwaemm128-128")
Schwaemm256_128 = _make("Schwaemm256_128", lib.NURI_SCHWAEMM256_128, "Schwaemm256-128")
Schwaemm192_192 = _make("Schwaemm192_192", lib.NURI_SCHWAEMM192_192, "Schwaemm192-192")
Schwaemm256_256 = _make("Schwaemm256_256", lib.NURI_SCHWAEMM256_256, "Schwaemm256-256")
