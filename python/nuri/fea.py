"""FEA-1 / FEA-2 format-preserving encryption (TTAK.KO-12.0275), bit-exact with the KISA reference.

Binary values: ``encrypt(key, value, nbits)`` maps an integer ``0 <= value < 2**nbits`` to another
(8 <= nbits <= 128). Tweaks are integers: FEA-1 (``variant=1``) takes ``0 <= tweak < 2**(128 - nbits)``,
FEA-2 (``variant=2``) takes ``0 <= tweak < 2**128``. Keys are 16, 24 or 32 bytes.

Formatted data: decimal strings (``encrypt_digits``), any alphabet of 2..65536 symbols, and templates
that keep separators and fixed parts (``FPE(key).template("####-####-####-####", keep_last=4)``,
``FPE(key).rrn(keep_date=True)``). The symbols form an integer below ``radix**L``; FEA runs on
``n = (radix**L).bit_length()`` bits and re-encrypts while the result is out of range (cycle-walking).
Domains below 2**8 values are refused; domains below 10**6 need ``allow_small_domain=True``:
practical attacks on small FEA domains are published (Beyne, ePrint 2021/815; Dunkelman et al.,
ePrint 2020/1311), and NIST requires 10**6 for FF1.

>>> from nuri import fea
>>> key = bytes(range(16))
>>> fea.encrypt(key, 0x43, 8, tweak=0x228b0724bb8f48a3c27a0df00dbde8)
36
>>> c = fea.encrypt_digits(key, "4111111111111111")
>>> len(c), c.isdigit(), fea.decrypt_digits(key, c)
(16, True, '4111111111111111')

Every function and ``FPE`` take ``impl=`` by keyword: one of ``implementations()`` (None =
dispatch, honouring ``NURI_IMPL=fea:<name>``).

>>> fea.encrypt(key, 0x43, 8, tweak=0x228b0724bb8f48a3c27a0df00dbde8, impl="ref")
36
"""

import hashlib
import secrets
import threading

from ._native import ffi, lib
from ._util import as_bytes, as_int, c_name, check, impl_arg, impl_names

__all__ = [
    "encrypt",
    "decrypt",
    "encrypt_batch",
    "decrypt_batch",
    "encrypt_digits",
    "decrypt_digits",
    "encrypt_digits_batch",
    "decrypt_digits_batch",
    "encrypt_radix_batch",
    "decrypt_radix_batch",
    "FPE",
    "Alphabet",
    "Template",
    "implementations",
    "default_implementation",
    "check_key",
    "check_variant",
    "MIN_SAFE_DOMAIN",
    "clear_cache",
]

MIN_SAFE_DOMAIN = 10**6
_M64 = (1 << 64) - 1


def implementations():
    """Names of the registered FEA implementations usable on this CPU, fastest first."""
    return impl_names(lib.nuri_fea_impl_count, lib.nuri_fea_impl_info, lib.nuri_fea_impl_supported)


def default_implementation():
    """The implementation dispatch picks now (honours NURI_IMPL=fea:<name>)."""
    return c_name(lib.nuri_fea_default_impl())


# ------------------------------------------------------------------------------------------ argument checks


def check_key(key) -> bytes:
    """An FEA key as bytes: TypeError unless bytes-like, ValueError unless 16, 24 or 32 bytes long."""
    key = as_bytes(key, "key")
    if len(key) not in (16, 24, 32):
        raise ValueError(f"key must be 16, 24 or 32 bytes long (FEA-x/128, /192, /256), got {len(key)}")
    return key


def check_variant(variant) -> int:
    """1 (FEA-1) or 2 (FEA-2): TypeError unless an integer, ValueError for any other value."""
    variant = as_int(variant, "variant")
    if variant not in (1, 2):
        raise ValueError(f"variant must be 1 (FEA-1) or 2 (FEA-2), got {variant!r}")
    return variant


def _check_nbits(nbits):
    nbits = as_int(nbits, "nbits")
    if not 8 <= nbits <= 128:
        raise ValueError(f"nbits must be an integer with 8 <= nbits <= 128, got {nbits!r}")
    return nbits


def _tweak_bits(variant, nbits):
    return 128 - nbits if variant == 1 else 128


def _check_tweak(tweak, variant, nbits):
    bits = _tweak_bits(variant, nbits)
    tweak = as_int(tweak, "tweak")
    if not 0 <= tweak < (1 << bits):
        raise ValueError(
            f"tweak must be an integer with 0 <= tweak < 2**{bits} (FEA-{variant} with n = {nbits}), got {tweak!r}"
        )
    return tweak


def _tweak_arg(tweak):
    """One integer tweak (int) or one per value (a list of ints); TypeError for anything else (a str, a
    float, bytes, None, bool: never parsed or truncated)."""
    if tweak is None or isinstance(tweak, (str, bytes, bytearray, memoryview, float, bool)):
        raise TypeError(f"tweak must be an integer or a sequence of integers, not {type(tweak).__name__}")
    try:
        return as_int(tweak, "tweak")
    except TypeError:
        pass
    try:
        items = list(tweak)
    except TypeError:
        raise TypeError(f"tweak must be an integer or a sequence of integers, not {type(tweak).__name__}") from None
    return [as_int(x, "tweak") for x in items]


def _tweaks(tweak, count, variant, nbits):
    """-> (cdata array or NULL, ntweaks). tweak: int (one for all) or a sequence (one per value)."""
    tweak = _tweak_arg(tweak)
    if isinstance(tweak, int):
        tweak = _check_tweak(tweak, variant, nbits)
        if tweak == 0:
            return ffi.NULL, 0
        t = ffi.new("nuri_fea_u128[1]")
        t[0].hi, t[0].lo = tweak >> 64, tweak & _M64
        return t, 1
    tw = tweak
    if len(tw) != count:
        raise ValueError(f"tweak must be one integer or one per value ({count}), got {len(tw)}")
    t = ffi.new("nuri_fea_u128[]", max(count, 1))
    for i, x in enumerate(tw):
        _check_tweak(x, variant, nbits)
        t[i].hi, t[i].lo = x >> 64, x & _M64
    return t, count


class _Key:
    def __init__(self, key, nbits, variant, impl=None):
        self.k = ffi.new("nuri_fea_key *")
        check(
            lib.nuri_fea_key_init(
                self.k, check_key(key), len(key), check_variant(variant), _check_nbits(nbits), impl_arg(impl)
            ),
            "FEA key setup",
        )
        self.nbits, self.variant = nbits, variant

    def __del__(self):
        if getattr(self, "k", None) is not None:
            lib.nuri_fea_key_wipe(self.k)


# ------------------------------------------------------------------------------------------ key-schedule cache
# Expanded keys (round keys for one key, variant and n) are reused across calls, so a loop of
# single-value calls does not pay the key schedule each time. The cache is keyed by a BLAKE2b of
# the key under a per-process random salt (the raw key is not kept as a dictionary key), holds at
# most _CACHE_MAX entries (oldest evicted first), and every expanded key is wiped in C when it
# leaves the cache (eviction, clear_cache(), interpreter exit) and its last user drops it.
# The implementation dispatch would pick (NURI_IMPL, NURI_CPU_MASK) is part of the cache key.
# _memo remembers the last lookup by the identity of an immutable bytes key, so a loop over one
# key skips the hashing too.
_CACHE_MAX = 32
_cache_salt = secrets.token_bytes(16)
_cache = {}
_cache_lock = threading.Lock()
_memo = (None, None, None)  # (key bytes object, params, cached object)


def clear_cache():
    """Drops (and wipes) every cached expanded key."""
    global _memo
    with _cache_lock:
        _memo = (None, None, None)
        _cache.clear()


def _cached(key, params, make):
    global _memo
    m = _memo
    if m[0] is key and m[1] == params:
        return m[2]
    kb = check_key(key)
    ck = (hashlib.blake2b(kb, digest_size=16, key=_cache_salt).digest(), params)
    with _cache_lock:
        obj = _cache.get(ck)
    if obj is None:
        obj = make(kb)
        with _cache_lock:
            _cache[ck] = obj
            while len(_cache) > _CACHE_MAX:
                del _cache[next(iter(_cache))]
    if type(key) is bytes:  # immutable: the same object always holds the same key
        _memo = (key, params, obj)
    return obj


def _dispatch_token(impl):
    return impl if impl is not None else lib.nuri_fea_default_impl()  # a pointer into the registry


def _key_for(key, nbits, variant, impl):
    return _cached(key, ("key", nbits, variant, _dispatch_token(impl)), lambda kb: _Key(kb, nbits, variant, impl))


def _fmt_for(key, radix, length, variant, allow_small_domain, impl):
    allow = bool(allow_small_domain)
    check_variant(variant)
    return _cached(
        key,
        ("fmt", radix, length, variant, allow, _dispatch_token(impl)),
        lambda kb: _Fmt(kb, radix, length, variant, allow, impl),
    )


# ------------------------------------------------------------------------------------------ binary values


def _check_value(v, nbits):
    v = as_int(v, "value")
    if not 0 <= v < (1 << nbits):
        raise ValueError(f"value must be an integer with 0 <= value < 2**{nbits}, got {v!r}")
    return v


def _crypt1(key, value, nbits, tweak, variant, impl, enc):
    nbits, variant = _check_nbits(nbits), check_variant(variant)
    k = _key_for(key, nbits, variant, impl)
    value = _check_value(value, nbits)
    t, nt = _tweaks(tweak, 1, variant, nbits)
    x = ffi.new("nuri_fea_u128 *")
    x.hi, x.lo = value >> 64, value & _M64
    fn = lib.nuri_fea_encrypt_u128 if enc else lib.nuri_fea_decrypt_u128
    check(fn(k.k, x, x, 1, t, nt), "FEA")
    return (x.hi << 64) | x.lo


def encrypt(key: bytes, value: int, nbits: int, tweak: int = 0, variant: int = 1, *, impl: str = None) -> int:
    """Encrypts the nbits-bit integer value (FEA-1 or FEA-2)."""
    return _crypt1(key, value, nbits, tweak, variant, impl, True)


def decrypt(key: bytes, value: int, nbits: int, tweak: int = 0, variant: int = 1, *, impl: str = None) -> int:
    """Decrypts the nbits-bit integer value."""
    return _crypt1(key, value, nbits, tweak, variant, impl, False)


def _crypt_batch(key, values, nbits, tweak, variant, impl, enc):
    nbits, variant = _check_nbits(nbits), check_variant(variant)
    k = _key_for(key, nbits, variant, impl)
    if (
        values is None
        or isinstance(values, (str, bytes, bytearray, memoryview))
        or not hasattr(values, "__len__")
        and not hasattr(values, "__iter__")
    ):
        raise TypeError(f"values must be a sequence or array of integers, not {type(values).__name__}")
    if nbits <= 64:
        try:
            import numpy as np
        except ImportError:  # pragma: no cover - numpy is optional
            np = None
        if np is not None:
            arr = np.asarray(values)
            if arr.ndim == 0 or (arr.dtype.kind not in "ui" and arr.size):
                # floats, bools, strings, None: never truncated or parsed
                raise TypeError(f"values must be integers, not {arr.dtype} ({type(values).__name__})")
            if arr.size and (arr.dtype.kind == "i" and int(arr.min()) < 0):
                raise ValueError(f"values must be integers with 0 <= value < 2**{nbits}")
            src = np.ascontiguousarray(arr, dtype=np.uint64).reshape(-1)
            if nbits < 64 and src.size and int(src.max()) >> nbits:
                raise ValueError(f"values must be integers with 0 <= value < 2**{nbits}, got {int(src.max())}")
            out = np.empty_like(src)
            t, nt = _tweaks(tweak, src.size, variant, nbits)
            fn = lib.nuri_fea_encrypt_u64 if enc else lib.nuri_fea_decrypt_u64
            check(
                fn(
                    k.k,
                    ffi.cast("uint64_t *", ffi.from_buffer(out)),
                    ffi.cast("const uint64_t *", ffi.from_buffer(src)),
                    src.size,
                    t,
                    nt,
                ),
                "FEA",
            )
            return out.reshape(arr.shape)
    vals = [_check_value(v, nbits) for v in values]
    n = len(vals)
    buf = ffi.new("nuri_fea_u128[]", max(n, 1))
    for i, v in enumerate(vals):
        buf[i].hi, buf[i].lo = v >> 64, v & _M64
    t, nt = _tweaks(tweak, n, variant, nbits)
    fn = lib.nuri_fea_encrypt_u128 if enc else lib.nuri_fea_decrypt_u128
    check(fn(k.k, buf, buf, n, t, nt), "FEA")
    return [(buf[i].hi << 64) | buf[i].lo for i in range(n)]


def encrypt_batch(key: bytes, values, nbits: int, tweak=0, variant: int = 1, *, impl: str = None):
    """Encrypts many values with one key and n. values: a numpy array (returned as numpy uint64 for
    nbits <= 64) or a sequence of ints (a list of ints for nbits > 64). tweak: one int, or one per value."""
    return _crypt_batch(key, values, nbits, tweak, variant, impl, True)


def decrypt_batch(key: bytes, values, nbits: int, tweak=0, variant: int = 1, *, impl: str = None):
    """Decrypts many values (see encrypt_batch)."""
    return _crypt_batch(key, values, nbits, tweak, variant, impl, False)


# ------------------------------------------------------------------------------------------ radix formats


def _domain_check(radix, length, allow_small_domain):
    radix = as_int(radix, "radix")
    if not 2 <= radix <= 65536:
        raise ValueError(f"radix must be an integer with 2 <= radix <= 65536, got {radix!r}")
    size = radix**length
    if length < 1 or size < 256:
        raise ValueError(
            f"a format of {length} symbols of radix {radix} has {size} values: "
            f"at least 2**8 = 256 are needed to encrypt"
        )
    if size >= 1 << 128:
        raise ValueError(
            f"a format of {length} symbols of radix {radix} has {size} values: "
            f"at most 2**128 - 1 fit FEA (n <= 128 bits)"
        )
    if size < MIN_SAFE_DOMAIN and not allow_small_domain:
        raise ValueError(
            f"a format of {length} symbols of radix {radix} has only {size} values (< 10**6): "
            f"small FEA domains are attackable (ePrint 2021/815, 2020/1311); "
            f"pass allow_small_domain=True to accept that"
        )
    return size.bit_length()


class _Fmt:
    def __init__(self, key, radix, length, variant, allow_small_domain, impl=None):
        nbits = _domain_check(radix, length, allow_small_domain)
        self.f = ffi.new("nuri_fea_fmt *")
        check(
            lib.nuri_fea_fmt_init(
                self.f,
                check_key(key),
                len(key),
                check_variant(variant),
                radix,
                length,
                lib.NURI_FEA_ALLOW_SMALL_DOMAIN if allow_small_domain else 0,
                impl_arg(impl),
            ),
            "FEA format setup",
        )
        self.nbits, self.variant, self.radix, self.length = nbits, variant, radix, length

    def __del__(self):
        if getattr(self, "f", None) is not None:
            lib.nuri_fea_fmt_wipe(self.f)

    def digits(self, strings, tweak, enc):
        L, n = self.length, len(strings)
        raw = "".join(strings).encode("ascii", "replace")
        if len(raw) != n * L or not raw.isdigit() and n:
            bad = next(s for s in strings if len(s) != L or not (s.isascii() and s.isdigit()))
            raise ValueError(f"expected {L} decimal digits 0-9, got {bad!r}")
        t, nt = _tweaks(tweak, n, self.variant, self.nbits)
        out = ffi.new("char[]", max(n * L, 1))
        fn = lib.nuri_fea_fmt_encrypt_digits if enc else lib.nuri_fea_fmt_decrypt_digits
        check(fn(self.f, out, raw, n, t, nt), "FEA digits")
        b = ffi.buffer(out, n * L)[:].decode("ascii")
        return [b[i * L : (i + 1) * L] for i in range(n)]

    def digit1(self, s, tweak, enc):
        """One string of self.length digits (checked by the caller), one integer tweak."""
        L = self.length
        t, nt = (ffi.NULL, 0) if tweak == 0 else _tweaks(tweak, 1, self.variant, self.nbits)
        out = ffi.new("char[]", L)
        fn = lib.nuri_fea_fmt_encrypt_digits if enc else lib.nuri_fea_fmt_decrypt_digits
        check(fn(self.f, out, s.encode("ascii"), 1, t, nt), "FEA digits")
        return ffi.unpack(out, L).decode("ascii")

    def symbols(self, rows, tweak, enc):
        L, n = self.length, len(rows)
        flat = [as_int(x, "symbol") for r in rows for x in r]
        if len(flat) != n * L or any(len(r) != L for r in rows):
            raise ValueError(f"expected rows of {L} symbols")
        if any(not 0 <= x < self.radix for x in flat):
            raise ValueError(f"symbols must be integers with 0 <= symbol < {self.radix} (the radix)")
        t, nt = _tweaks(tweak, n, self.variant, self.nbits)
        buf = ffi.new("uint16_t[]", flat or [0])
        fn = lib.nuri_fea_fmt_encrypt if enc else lib.nuri_fea_fmt_decrypt
        check(fn(self.f, buf, buf, n, t, nt), "FEA radix")
        return [list(buf[i * L : (i + 1) * L]) for i in range(n)]


def _digits_batch(key, strings, tweak, variant, allow_small_domain, impl, enc):
    if isinstance(strings, (str, bytes)):
        raise TypeError("strings must be a sequence of str, not a single " + type(strings).__name__)
    strings = list(strings)
    for s in strings:
        if not isinstance(s, str):
            raise TypeError(f"digits must be a str, not {type(s).__name__}")
        if not (s.isascii() and s.isdigit()):
            raise ValueError(f"expected a string of decimal digits 0-9, got {s!r}")
        if not 3 <= len(s) <= 38:
            raise ValueError(f"decimal strings must have 3 <= length <= 38 digits, got {len(s)} ({s!r})")
    out = [None] * len(strings)
    tweak = _tweak_arg(tweak)
    per_value = isinstance(tweak, list)
    tw = tweak if per_value else None
    if per_value and len(tw) != len(strings):
        raise ValueError(f"tweak must be one integer or one per value ({len(strings)}), got {len(tw)}")
    groups = {}
    for i, s in enumerate(strings):
        groups.setdefault(len(s), []).append(i)
    for L, idx in groups.items():
        f = _fmt_for(key, 10, L, variant, allow_small_domain, impl)
        res = f.digits([strings[i] for i in idx], [tw[i] for i in idx] if per_value else tweak, enc)
        for i, r in zip(idx, res):
            out[i] = r
    return out


def _digits1(key, s, tweak, variant, allow_small_domain, impl, enc):
    """One decimal string: the batch path without its list handling (per-value calls in a loop)."""
    if type(s) is not str or not (s.isascii() and s.isdigit()) or not 3 <= len(s) <= 38:
        return _digits_batch(key, [s], tweak, variant, allow_small_domain, impl, enc)[0]  # raises the error
    f = _fmt_for(key, 10, len(s), variant, allow_small_domain, impl)
    if type(tweak) is not int:
        return f.digits([s], tweak, enc)[0]
    return f.digit1(s, tweak, enc)


def encrypt_digits(
    key: bytes, digits: str, tweak: int = 0, variant: int = 1, allow_small_domain=False, *, impl: str = None
) -> str:
    """Encrypts a string of 3..38 decimal digits to another of the same length (leading zeros are
    digits). The tweak has 128 - n bits for FEA-1, n = (10**len(digits)).bit_length()."""
    return _digits1(key, digits, tweak, variant, allow_small_domain, impl, True)


def decrypt_digits(
    key: bytes, digits: str, tweak: int = 0, variant: int = 1, allow_small_domain=False, *, impl: str = None
) -> str:
    """Decrypts a decimal string (see encrypt_digits)."""
    return _digits1(key, digits, tweak, variant, allow_small_domain, impl, False)


def encrypt_digits_batch(key: bytes, strings, tweak=0, variant: int = 1, allow_small_domain=False, *, impl: str = None):
    """Encrypts a list of decimal strings (one C batch call per distinct length). tweak: one int or one per string."""
    return _digits_batch(key, strings, tweak, variant, allow_small_domain, impl, True)


def decrypt_digits_batch(key: bytes, strings, tweak=0, variant: int = 1, allow_small_domain=False, *, impl: str = None):
    """Decrypts a list of decimal strings."""
    return _digits_batch(key, strings, tweak, variant, allow_small_domain, impl, False)


def _radix_batch(key, rows, radix, tweak, variant, allow_small_domain, impl, enc):
    rows = [list(r) for r in rows]
    out = [None] * len(rows)
    tweak = _tweak_arg(tweak)
    per_value = isinstance(tweak, list)
    tw = tweak if per_value else None
    if per_value and len(tw) != len(rows):
        raise ValueError(f"tweak must be one integer or one per value ({len(rows)}), got {len(tw)}")
    groups = {}
    for i, r in enumerate(rows):
        groups.setdefault(len(r), []).append(i)
    for L, idx in groups.items():
        f = _fmt_for(key, radix, L, variant, allow_small_domain, impl)
        res = f.symbols([rows[i] for i in idx], [tw[i] for i in idx] if per_value else tweak, enc)
        for i, r in zip(idx, res):
            out[i] = r
    return out


def encrypt_radix_batch(
    key: bytes, rows, radix: int, tweak=0, variant: int = 1, allow_small_domain=False, *, impl: str = None
):
    """Encrypts rows of symbol indices (0 <= symbol < radix, 2 <= radix <= 65536)."""
    return _radix_batch(key, rows, radix, tweak, variant, allow_small_domain, impl, True)


def decrypt_radix_batch(
    key: bytes, rows, radix: int, tweak=0, variant: int = 1, allow_small_domain=False, *, impl: str = None
):
    """Decrypts rows of symbol indices."""
    return _radix_batch(key, rows, radix, tweak, variant, allow_small_domain, impl, False)


# ------------------------------------------------------------------------------------------ formats


class _PatternFormat:
    """A format of an FPE key over the one pattern syntax (nuri.fea_formats, src/fea/pattern.c)."""

    def __init__(self, fpe, spec, symbols=None):
        from .fea_formats import ColumnCipher

        self.fpe, self.spec = fpe, spec
        self._cc = {}
        self._make = lambda tweak: ColumnCipher(
            fpe.key,
            spec,
            tweak=tweak,
            variant=fpe.variant,
            allow_small_domain=fpe.allow_small_domain,
            symbols=symbols,
            impl=fpe.impl,
        )
        self._make(fpe.tweak)  # a bad pattern or domain fails here, not at the first value

    def _run(self, strings, tweak, enc):
        from .fea_formats import FitError

        tweak = self.fpe.tweak if tweak is None else _tweak_arg(tweak)
        for s in strings:
            if not isinstance(s, str):
                raise TypeError(f"values must be str, not {type(s).__name__}")
        if not isinstance(tweak, int):
            return [self._run([s], t, enc)[0] for s, t in zip(strings, _per_value(tweak, len(strings)))]
        cc = self._cc.get(tweak) or self._cc.setdefault(tweak, self._make(tweak))
        try:
            return cc.encrypt(strings) if enc else cc.decrypt(strings)
        except FitError as e:
            raise ValueError(f"{e.value!r} {e.why}") from None

    def encrypt(self, s, tweak=None):
        return self._run([s], tweak, True)[0]

    def decrypt(self, s, tweak=None):
        return self._run([s], tweak, False)[0]

    def encrypt_batch(self, strings, tweak=None):
        return self._run(list(strings), tweak, True)

    def decrypt_batch(self, strings, tweak=None):
        return self._run(list(strings), tweak, False)


def _per_value(tweak, count):
    tw = list(tweak)
    if len(tw) != count:
        raise ValueError(f"tweak must be one integer or one per value ({count}), got {len(tw)}")
    return tw


class Alphabet(_PatternFormat):
    """Strings over an alphabet of 2..65536 distinct symbols (e.g. hex, alphanumerics, Hangul):
    the pattern alphabet:SYMBOLS."""

    def __init__(self, fpe, symbols):
        symbols = list(symbols)
        if not 2 <= len(symbols) <= 65536 or len(set(symbols)) != len(symbols):
            raise ValueError(
                f"an alphabet needs 2..65536 distinct symbols, got {len(symbols)} ({len(set(symbols))} distinct)"
            )
        self.symbols = symbols
        super().__init__(fpe, "alphabet:" + "".join(symbols))


class Template(_PatternFormat):
    """A record layout in the pattern syntax of nuri.fea_formats: '#' = an encrypted symbol, '*' = a
    symbol kept in clear, '\\x' = x literally, every other character must appear as is.
    keep_last leaves the last k '#' positions in clear; keep (indices among the '#') too."""

    def __init__(self, fpe, pattern, keep_last=0, symbols="0123456789", keep=()):
        toks, i = [], 0
        while i < len(pattern):  # (text, is '#') tokens, escapes kept as written
            n = 2 if pattern[i] == "\\" else 1
            toks.append([pattern[i : i + n], pattern[i : i + n] == "#"])
            i += n
        slots = [t for t in toks if t[1]]
        if not slots:
            raise ValueError(f"template {pattern!r} has no '#' position to encrypt")
        if not isinstance(keep_last, int) or not 0 <= keep_last < len(slots):
            raise ValueError(f"keep_last must be an integer with 0 <= keep_last < {len(slots)} (the '#' count)")
        for k in list(keep) + list(range(len(slots) - keep_last, len(slots))):
            slots[k][0] = "*"
        self.pattern = pattern
        super().__init__(fpe, "template:" + "".join(t[0] for t in toks), None if symbols == "0123456789" else symbols)


class FPE:
    """A key with its FEA settings, and the formats built on it.

    >>> from nuri.fea import FPE
    >>> f = FPE(bytes(16))
    >>> card = f.template("####-####-####-####", keep_last=4)
    >>> c = card.encrypt("4111-1111-1111-1234")
    >>> c[4] == "-" and c.endswith("-1234"), card.decrypt(c)
    (True, '4111-1111-1111-1234')
    """

    def __init__(self, key, variant=1, tweak=0, allow_small_domain=False, *, impl: str = None):
        self.key = check_key(key)
        self.variant = check_variant(variant)
        self.tweak = _tweak_arg(tweak)
        impl_arg(impl)
        self.allow_small_domain, self.impl = allow_small_domain, impl

    def encrypt_digits(self, s, tweak=None):
        return _digits1(
            self.key, s, self.tweak if tweak is None else tweak, self.variant, self.allow_small_domain, self.impl, True
        )

    def decrypt_digits(self, s, tweak=None):
        return _digits1(
            self.key, s, self.tweak if tweak is None else tweak, self.variant, self.allow_small_domain, self.impl, False
        )

    def digits(self, length):
        """Decimal strings of a fixed length, as a template of '#'."""
        return Template(self, "#" * length)

    def alphabet(self, symbols):
        """Strings over `symbols` (a str or a sequence of distinct symbols)."""
        return Alphabet(self, symbols)

    def template(self, pattern, keep_last=0, symbols="0123456789"):
        """A layout such as '####-####-####-####' or '010-####-####' ('#' = encrypted symbol,
        '*' = kept in clear; the pattern syntax of nuri.fea_formats)."""
        return Template(self, pattern, keep_last=keep_last, symbols=symbols)

    def rrn(self, keep_date=True):
        """Korean resident registration number YYMMDD-GNNNNNN; keep_date leaves YYMMDD in clear."""
        return Template(self, "######-#######", keep=range(6) if keep_date else ())
