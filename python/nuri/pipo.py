"""PIPO-64/128 and PIPO-64/256 block cipher with ECB, CBC and CTR.

Keys of 16 bytes select PIPO-64/128, 32 bytes PIPO-64/256; blocks are 8 bytes. CTR uses an
8-byte counter block holding a 64-bit big-endian counter. These modes are NOT authenticated:
use ``nuri.aead`` when integrity matters.

>>> from nuri import pipo
>>> key = bytes.fromhex("9722152EAD201D7ED2289477DD16C46D")
>>> pipo.encrypt_block(key, bytes.fromhex("2600271EF6528509")).hex().upper()
'27035DAD81296B6B'
>>> ct = pipo.encrypt(key, b"attack at dawn", "cbc", iv=bytes(8), padding="pkcs7")
>>> pipo.decrypt(key, ct, "cbc", iv=bytes(8), padding="pkcs7")
b'attack at dawn'

Every function and class takes ``impl=`` by keyword: the name of one of ``implementations()``
(None = the one dispatch picks, honouring ``NURI_IMPL=pipo:<name>``).

>>> pipo.encrypt_block(key, bytes.fromhex("2600271EF6528509"), impl="ref").hex().upper()
'27035DAD81296B6B'
"""

import threading

from ._native import ffi, lib
from ._util import as_bytes, c_name, check, check_len, impl_arg, impl_names

BLOCK_SIZE = 8
_MODES = {"ecb": 0, "cbc": 1, "ctr": 2}
_PADDINGS = {"none": 0, "pkcs7": 1}

__all__ = [
    "encrypt_block",
    "decrypt_block",
    "encrypt",
    "decrypt",
    "implementations",
    "default_implementation",
    "Encryptor",
    "Decryptor",
    "BLOCK_SIZE",
]


def implementations():
    """Names of the registered PIPO implementations usable on this CPU, fastest first."""
    return impl_names(lib.nuri_pipo_impl_count, lib.nuri_pipo_impl_info, lib.nuri_pipo_impl_supported)


def default_implementation():
    """The implementation dispatch picks now (honours NURI_IMPL=pipo:<name>)."""
    return c_name(lib.nuri_pipo_default_impl())


class _Key:
    """Expanded key (round keys computed once) with its implementation; wiped when collected."""

    def __init__(self, key, impl=None):
        key = check_len(key, "key", (16, 32))
        self.k = ffi.new("nuri_pipo_key *")
        check(lib.nuri_pipo_key_init(self.k, key, len(key), impl_arg(impl)), "PIPO key setup")

    @property
    def implementation(self):
        return c_name(lib.nuri_pipo_key_impl_name(self.k))

    def __del__(self):
        if getattr(self, "k", None) is not None:
            lib.nuri_pipo_key_wipe(self.k)


def _block(key, block, fn, impl):
    block = check_len(block, "block", (8,))
    k = _Key(key, impl)
    out = ffi.new("uint8_t[8]")
    fn(k.k, out, block, 1)
    return bytes(out)


def encrypt_block(key: bytes, block: bytes, *, impl: str = None) -> bytes:
    """Encrypts one 8-byte block (key 16 bytes: PIPO-64/128, 32 bytes: PIPO-64/256)."""
    return _block(key, block, lib.nuri_pipo_encrypt_blocks, impl)


def decrypt_block(key: bytes, block: bytes, *, impl: str = None) -> bytes:
    """Decrypts one 8-byte block."""
    return _block(key, block, lib.nuri_pipo_decrypt_blocks, impl)


def _mode_args(mode, iv, padding):
    if not isinstance(mode, str):
        raise TypeError(f"mode must be a str, not {type(mode).__name__}")
    if not isinstance(padding, str):
        raise TypeError(f"padding must be a str, not {type(padding).__name__}")
    if mode.lower() not in _MODES:
        raise ValueError(f"mode must be one of 'ecb', 'cbc', 'ctr', got {mode!r}")
    mode = mode.lower()
    if not isinstance(padding, str) or padding.lower() not in _PADDINGS:
        raise ValueError(f"padding must be 'none' or 'pkcs7', got {padding!r}")
    padding = padding.lower()
    if mode == "ctr" and padding != "none":
        raise ValueError("padding must be 'none' for CTR (it is a stream mode)")
    if mode == "ecb":
        if iv is not None:
            raise ValueError("ECB takes no iv")
        iv = b""
    else:
        if iv is None:
            raise ValueError(
                f"{mode.upper()} needs an 8-byte iv" + (" (the initial counter block)" if mode == "ctr" else "")
            )
        iv = check_len(iv, "iv", (8,))
    return _MODES[mode], iv, _PADDINGS[padding]


def _oneshot(key, data, mode, iv, padding, encrypting, impl):
    m, iv, pad = _mode_args(mode, iv, padding)
    data = as_bytes(data, "data")
    if pad == 0 and m != 2 and len(data) % 8:
        raise ValueError(f"data must be a multiple of 8 bytes for {mode.upper()} without padding, got {len(data)}")
    if pad and not encrypting and (len(data) == 0 or len(data) % 8):
        raise ValueError(f"padded ciphertext must be a non-zero multiple of 8 bytes, got {len(data)}")
    k = _Key(key, impl)
    cap = len(data) + 8
    out = ffi.new("uint8_t[]", cap)
    out_len = ffi.new("size_t *")
    fn = lib.nuri_pipo_encrypt if encrypting else lib.nuri_pipo_decrypt
    rc = fn(k.k, m, iv if iv else ffi.NULL, len(iv), pad, out, cap, out_len, data, len(data))
    check(rc, "PIPO " + ("encryption" if encrypting else "decryption"))
    result = bytes(ffi.buffer(out, out_len[0]))
    lib.nuri_wipe(out, cap)
    return result


def encrypt(key: bytes, data: bytes, mode: str, iv: bytes = None, padding: str = "none", *, impl: str = None) -> bytes:
    """Encrypts data in mode 'ecb', 'cbc' or 'ctr' (padding 'none' or 'pkcs7' for ECB/CBC)."""
    return _oneshot(key, data, mode, iv, padding, True, impl)


def decrypt(key: bytes, data: bytes, mode: str, iv: bytes = None, padding: str = "none", *, impl: str = None) -> bytes:
    """Decrypts data; bad PKCS#7 padding or a partial block raises ValueError."""
    return _oneshot(key, data, mode, iv, padding, False, impl)


class _Stream:
    """One C context per object; a lock serialises the calls (cffi releases the GIL during C calls, and two
    threads updating one context at once would corrupt it)."""

    def __init__(self, key, mode, iv=None, padding="none", encrypting=True, impl=None):
        m, iv, pad = _mode_args(mode, iv, padding)
        self._lock = threading.Lock()
        self._key = _Key(key, impl)
        self._ctx = ffi.new("nuri_pipo_ctx *")
        check(
            lib.nuri_pipo_init(self._ctx, self._key.k, m, 1 if encrypting else 0, iv if iv else ffi.NULL, len(iv), pad),
            "PIPO init",
        )
        self._done = False

    @property
    def implementation(self) -> str:
        """The name of the implementation this object runs."""
        return self._key.implementation

    def update(self, data: bytes) -> bytes:
        data = as_bytes(data, "data")
        cap = len(data) + 8
        out = ffi.new("uint8_t[]", cap)
        n = ffi.new("size_t *")
        with self._lock:
            if self._done:
                raise ValueError("update() after finalize()")
            rc = lib.nuri_pipo_update(self._ctx, out, cap, n, data, len(data))
        check(rc, "PIPO update")
        return bytes(ffi.buffer(out, n[0]))

    def finalize(self) -> bytes:
        out = ffi.new("uint8_t[8]")
        n = ffi.new("size_t *")
        with self._lock:
            if self._done:
                raise ValueError("finalize() called twice")
            self._done = True
            rc = lib.nuri_pipo_final(self._ctx, out, 8, n)
        check(rc, "PIPO final")
        return bytes(ffi.buffer(out, n[0]))

    def __del__(self):
        if getattr(self, "_ctx", None) is not None:
            lib.nuri_pipo_ctx_wipe(self._ctx)


class Encryptor(_Stream):
    """Streaming encryption: ``e = Encryptor(key, "ctr", iv); e.update(a) + e.update(b) + e.finalize()``."""

    def __init__(self, key, mode, iv=None, padding="none", *, impl: str = None):
        super().__init__(key, mode, iv, padding, True, impl)


class Decryptor(_Stream):
    """Streaming decryption (unauthenticated: plaintext is released before the end is seen)."""

    def __init__(self, key, mode, iv=None, padding="none", *, impl: str = None):
        super().__init__(key, mode, iv, padding, False, impl)
