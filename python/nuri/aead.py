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
"""
from ._native import ffi, lib
from ._util import as_bytes, check, check_len, impl_arg

__all__ = ["Schwaemm128_128", "Schwaemm256_128", "Schwaemm192_192", "Schwaemm256_256"]


class _Schwaemm:
    _variant = None
    name = None

    def __init__(self, key: bytes, impl: str = None):
        self._key = check_len(key, "key", (self.key_size,))
        self._impl = impl_arg(impl)

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
        check(lib.nuri_schwaemm_encrypt(self._variant, out, cap, out_len, self._key, len(self._key), nonce,
                                        len(nonce), ad, len(ad), data, len(data), self._impl),
              f"{self.name} encryption")
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
            check(lib.nuri_schwaemm_decrypt(self._variant, out, cap, out_len, self._key, len(self._key), nonce,
                                            len(nonce), ad, len(ad), data, len(data), self._impl),
                  f"{self.name} decryption")
            return ffi.buffer(out, out_len[0])[:]
        finally:
            lib.nuri_wipe(out, max(cap, 1))

    def encrypt_many(self, nonces, messages, associated_data=None):
        """Seals many messages at once (one key; the multi-instance SIMD kernels permute up to 16
        states together). Returns the list of ciphertext || tag."""
        nonces = [check_len(n, "nonce", (self.nonce_size,)) for n in nonces]
        msgs = [as_bytes(m, "message") for m in messages]
        if len(nonces) != len(msgs):
            raise ValueError(f"need one nonce per message, got {len(nonces)} nonces for {len(msgs)} messages")
        ads = None
        if associated_data is not None:
            ads = [as_bytes(a, "associated_data") for a in associated_data]
            if len(ads) != len(msgs):
                raise ValueError(f"need one associated_data per message, got {len(ads)} for {len(msgs)}")
        n = len(msgs)
        if n == 0:
            return []
        outs = [ffi.new("uint8_t[]", len(m) + self.tag_size) for m in msgs]
        c_out = ffi.new("uint8_t *[]", outs)
        bufs = [ffi.from_buffer("uint8_t[]", x) for x in nonces + msgs + (ads or [])]  # kept alive here
        c_nonce = ffi.new("uint8_t *[]", bufs[:n])
        c_msg = ffi.new("uint8_t *[]", bufs[n:2 * n])
        c_mlen = ffi.new("size_t[]", [len(m) for m in msgs])
        if ads is not None:
            c_ad = ffi.new("uint8_t *[]", bufs[2 * n:])
            c_alen = ffi.new("size_t[]", [len(a) for a in ads])
        else:
            c_ad, c_alen = ffi.NULL, ffi.NULL
        check(lib.nuri_schwaemm_encrypt_many(self._variant, c_out, self._key, len(self._key), c_nonce, c_ad, c_alen,
                                             c_msg, c_mlen, n, self._impl), f"{self.name} batch encryption")
        return [ffi.buffer(o, len(m) + self.tag_size)[:] for o, m in zip(outs, msgs)]

    def __repr__(self):
        return f"<nuri.aead.{type(self).__name__}>"


def _make(cls_name, variant, display):
    key = lib.nuri_schwaemm_key_bytes(variant)
    doc = (f"{display}: key {key} bytes, nonce {lib.nuri_schwaemm_nonce_bytes(variant)} bytes, "
           f"tag {lib.nuri_schwaemm_tag_bytes(variant)} bytes.")
    return type(cls_name, (_Schwaemm,), {
        "__doc__": doc, "_variant": variant, "name": display, "key_size": key,
        "nonce_size": lib.nuri_schwaemm_nonce_bytes(variant), "tag_size": lib.nuri_schwaemm_tag_bytes(variant),
        "__module__": __name__})


Schwaemm128_128 = _make("Schwaemm128_128", 0, "Schwaemm128-128")
Schwaemm256_128 = _make("Schwaemm256_128", 1, "Schwaemm256-128")
Schwaemm192_192 = _make("Schwaemm192_192", 2, "Schwaemm192-192")
Schwaemm256_256 = _make("Schwaemm256_256", 3, "Schwaemm256-256")
