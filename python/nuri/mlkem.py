"""ML-KEM-512, ML-KEM-768 and ML-KEM-1024 key encapsulation (FIPS 203).

Functions take the parameter set as ``level`` (512, 768 or 1024) and work on the FIPS 203 byte
strings: the encapsulation key ``ek``, the decapsulation key ``dk`` and the ciphertext. The
shared key is 32 bytes.

>>> from nuri import mlkem
>>> ek, dk = mlkem.keygen(768)
>>> len(ek), len(dk)
(1184, 2400)
>>> shared, ct = mlkem.encaps(768, ek)
>>> mlkem.decaps(768, dk, ct) == shared
True

Deterministic forms (FIPS 203 KeyGen_internal / Encaps_internal) take the randomness:
``seed`` = d || z (64 bytes) and ``m`` (32 bytes).

>>> ek, dk = mlkem.keygen(512, seed=bytes(64))
>>> mlkem.encaps(512, ek, m=bytes(32))[0].hex()[:16]
'4ad53a06b29f1256'

Every function and the key objects take ``impl=`` by keyword: one of ``implementations()``
(None = dispatch, honouring ``NURI_IMPL=mlkem:<name>``).

>>> mlkem.keygen(512, seed=bytes(64), impl="ref") == mlkem.keygen(512, seed=bytes(64))
True
>>> key = mlkem.MLKEM768PrivateKey.generate(impl="ref")
>>> shared, ct = key.public_key().encapsulate()
>>> key.decapsulate(ct) == shared
True

``impl="hw"`` runs keygen, encaps and decaps (and the key objects and batch forms) on the ML-KEM
hardware core through ``nuri.hw``: its default device of the level (the Verilator model of the core
in a checkout, a board through PYNQ: ``nuri.hw.default_device``). The outputs are the same bytes as
the C library's for the same randomness. It is not a C implementation: dispatch and ``NURI_IMPL``
never pick it, ``implementations()`` lists the C ones, and ``implementations(devices=True)`` adds
``"hw"`` when a device can be had here. The core has no random source: a missing seed or m is drawn
from the operating system in Python. An ek is checked in software (modulus and degenerate-key checks)
before it is sent; the core makes the FIPS 203 checks again.

Invalid keys and wrong lengths raise ``ValueError`` (FIPS 203 §7.2 modulus check on ``ek``,
§7.3 hash check on ``dk``). Beyond FIPS 203, a degenerate ``ek`` (t zero, or 1/16 or more of its
coefficients zero: the ciphertext would give the shared key away) is refused too. A well-formed
ciphertext that was altered is not an error: ``decaps`` then returns the implicit-rejection key,
which matches nothing the sender has.
"""

from ._native import ffi, lib
from ._util import as_bytes, c_name, check, impl_arg, impl_names, mlkem_level, mlkem_sized

__all__ = [
    "keygen",
    "encaps",
    "decaps",
    "encaps_many",
    "decaps_many",
    "check_encapsulation_key",
    "check_decapsulation_key",
    "sizes",
    "implementations",
    "default_implementation",
    "implementation_name",
    "LEVELS",
    "SHARED_KEY_SIZE",
    "MLKEM512PrivateKey",
    "MLKEM512PublicKey",
    "MLKEM768PrivateKey",
    "MLKEM768PublicKey",
    "MLKEM1024PrivateKey",
    "MLKEM1024PublicKey",
]

LEVELS = (512, 768, 1024)
HW = "hw"  # the hardware core (nuri.hw): chosen by impl="hw" only, never by dispatch or NURI_IMPL
SHARED_KEY_SIZE = 32
SEED_SIZE = 64
MESSAGE_SIZE = 32


def sizes(level):
    """(ek, dk, ciphertext) sizes in bytes for ML-KEM-<level>."""
    level = mlkem_level(level)
    return (lib.nuri_mlkem_ek_bytes(level), lib.nuri_mlkem_dk_bytes(level), lib.nuri_mlkem_ct_bytes(level))


def _ctx(level, impl, what=None):
    """The C context of ML-KEM-<level> with the implementation impl (None = dispatch); an error
    names `what` (the operation)."""
    kem = ffi.new("nuri_mlkem_ctx *")
    check(lib.nuri_mlkem_init(kem, level, impl_arg(impl)), what or f"ML-KEM-{level}")
    return kem


def _hw(level, impl):
    """The nuri.hw device that runs ML-KEM-<level> when impl names the hardware core, else None
    (NeedsCheckout, one line, when no device can be had)."""
    if not isinstance(impl, str) or impl != HW:
        return None
    from . import hw

    return hw.default_device(level)


def implementation_name(level: int, *, impl: str = None) -> str:
    """The name of the implementation that runs ML-KEM-<level> for ``impl=`` (None: the one dispatch
    picks now). UnsupportedImplementation for a name that is not usable here; for "hw", NeedsCheckout
    (one line) when the hardware core has no device here (the device is opened: the Verilator model is
    built on its first use)."""
    level = mlkem_level(level)
    if _hw(level, impl) is not None:
        return HW
    return c_name(lib.nuri_mlkem_ctx_impl_name(_ctx(level, impl)))


def implementations(*, devices: bool = False):
    """Names of the registered (C) ML-KEM implementations usable on this CPU, fastest first, the ones
    dispatch chooses from. devices=True appends "hw" when the hardware core has a device here
    (nuri.hw.available(): a device set or named by NURI_HW_DEVICE, or the Verilator model of a
    checkout); it runs only when asked for by impl="hw"."""
    names = impl_names(lib.nuri_mlkem_impl_count, lib.nuri_mlkem_impl_info, lib.nuri_mlkem_impl_supported)
    if devices:
        from . import hw

        if hw.available():
            names.append(HW)
    return names


def default_implementation():
    """The implementation dispatch picks now (honours NURI_IMPL=mlkem:<name>)."""
    return c_name(lib.nuri_mlkem_default_impl())


def keygen(level: int, seed: bytes = None, *, impl: str = None):
    """Generates a key pair; returns (ek, dk). seed = d || z (64 bytes) for the deterministic
    FIPS 203 ML-KEM.KeyGen_internal; None draws it from the operating system."""
    level = mlkem_level(level)
    nek, ndk, _ = sizes(level)
    if seed is not None:
        seed = mlkem_sized(seed, "seed (d || z)", SEED_SIZE, level)
    dev = _hw(level, impl)
    if dev is not None:
        from . import hw

        return hw.keygen(level, seed, device=dev)
    kem = _ctx(level, impl, f"ML-KEM-{level} key generation")
    ek, dk = ffi.new(f"uint8_t[{nek}]"), ffi.new(f"uint8_t[{ndk}]")
    rc = lib.nuri_mlkem_keygen(
        kem,
        ek,
        nek,
        dk,
        ndk,
        seed if seed is not None else ffi.NULL,
        SEED_SIZE if seed is not None else 0,
    )
    check(rc, f"ML-KEM-{level} key generation")
    out = (bytes(ek), bytes(dk))
    lib.nuri_wipe(dk, ndk)
    return out


def encaps(level: int, ek: bytes, m: bytes = None, *, impl: str = None):
    """Encapsulates to ek; returns (shared_key, ciphertext). m (32 bytes) makes it deterministic
    (ML-KEM.Encaps_internal); None draws it from the operating system. ValueError if ek has the
    wrong length or fails the FIPS 203 modulus check."""
    level = mlkem_level(level)
    nek, _, nct = sizes(level)
    ek = mlkem_sized(ek, "encapsulation key", nek, level)
    if m is not None:
        m = mlkem_sized(m, "m", MESSAGE_SIZE, level)
    dev = _hw(level, impl)
    if dev is not None:
        from . import hw

        # the C library's checks first (the core has the modulus check, not the degenerate-key one)
        _check_ek_rc(lib.nuri_mlkem_check_ek(level, ek, nek), level, "")
        return hw.encaps(level, ek, m, device=dev)
    kem = _ctx(level, impl, f"ML-KEM-{level} encapsulation")
    ct, ss = ffi.new(f"uint8_t[{nct}]"), ffi.new("uint8_t[32]")
    rc = lib.nuri_mlkem_encaps(
        kem,
        ct,
        nct,
        ss,
        32,
        ek,
        nek,
        m if m is not None else ffi.NULL,
        MESSAGE_SIZE if m is not None else 0,
    )
    _check_ek_rc(rc, level, "")
    check(rc, f"ML-KEM-{level} encapsulation")
    out = (bytes(ss), bytes(ct))
    lib.nuri_wipe(ss, 32)
    return out


def _check_ek_rc(rc, level, which):
    """ValueError naming why ek was refused, for the two ek checks' status codes."""
    if rc == lib.NURI_EBADEK:
        raise ValueError(
            f"invalid ML-KEM-{level} encapsulation key{which}: a coefficient is >= q = 3329 (FIPS 203 modulus check)"
        )
    if rc == lib.NURI_EWEAKEK:
        raise ValueError(
            f"degenerate ML-KEM-{level} encapsulation key{which}: t is zero or mostly zero, so its "
            "ciphertexts would give the shared key away (refused beyond FIPS 203)"
        )


def decaps(level: int, dk: bytes, ciphertext: bytes, *, impl: str = None) -> bytes:
    """Decapsulates; returns the 32-byte shared key. ValueError for wrong lengths or a dk whose
    stored H(ek) does not match (FIPS 203 hash check). An altered ciphertext of the right length
    yields the implicit-rejection key, not an error."""
    level = mlkem_level(level)
    _, ndk, nct = sizes(level)
    dk = mlkem_sized(dk, "decapsulation key", ndk, level)
    ciphertext = mlkem_sized(ciphertext, "ciphertext", nct, level)
    dev = _hw(level, impl)
    if dev is not None:
        from . import hw

        return hw.decaps(level, dk, ciphertext, device=dev)  # the core runs the FIPS 203 hash check
    kem = _ctx(level, impl, f"ML-KEM-{level} decapsulation")
    ss = ffi.new("uint8_t[32]")
    rc = lib.nuri_mlkem_decaps(kem, ss, 32, ciphertext, nct, dk, ndk)
    if rc == lib.NURI_EBADDK:
        raise ValueError(
            f"invalid ML-KEM-{level} decapsulation key: stored H(ek) does not match ek (FIPS 203 hash check)"
        )
    check(rc, f"ML-KEM-{level} decapsulation")
    out = bytes(ss)
    lib.nuri_wipe(ss, 32)
    return out


def _items(values, name, want, level):
    if isinstance(values, (bytes, bytearray, memoryview, str)):
        raise TypeError(
            f"{name} must be a sequence of byte strings (one per operation), not a single {type(values).__name__}"
        )
    try:
        values = list(values)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of byte strings, got {type(values).__name__}") from None
    return [mlkem_sized(v, f"{name}[{i}]", want, level) for i, v in enumerate(values)]


def encaps_many(level: int, eks, ms=None, *, impl: str = None):
    """Encapsulates once to each ek of the sequence ``eks`` (repeat a key to encapsulate to it
    several times); returns a list of (shared_key, ciphertext), one per ek, each the same as
    ``encaps`` would give. ``ms`` (one 32-byte m per ek) makes it deterministic. The operations
    are interleaved (several hashes per SIMD Keccak call, a key's matrix expanded once). All or
    nothing: ValueError names the first ek failing the FIPS 203 modulus check and nothing is
    returned."""
    level = mlkem_level(level)
    nek, _, nct = sizes(level)
    eks = _items(eks, "eks", nek, level)
    n = len(eks)
    if ms is not None:
        ms = _items(ms, "ms", MESSAGE_SIZE, level)
        if len(ms) != n:
            raise ValueError(f"ms must have one 32-byte m per ek: {n} eks, {len(ms)} ms")
    dev = _hw(level, impl)
    if dev is not None:  # one command per item; every ek is checked before the first is sent
        from . import hw

        for i, ek in enumerate(eks):
            _check_ek_rc(lib.nuri_mlkem_check_ek(level, ek, nek), level, f" eks[{i}]")
        return [hw.encaps(level, ek, ms[i] if ms is not None else None, device=dev) for i, ek in enumerate(eks)]
    kem = _ctx(level, impl, f"ML-KEM-{level} batch encapsulation")
    if n == 0:
        return []
    ct, ss = ffi.new(f"uint8_t[{n * nct}]"), ffi.new(f"uint8_t[{n * 32}]")
    mbuf = b"".join(ms) if ms is not None else ffi.NULL
    rc = lib.nuri_mlkem_encaps_many(
        kem,
        ct,
        n * nct,
        ss,
        n * 32,
        b"".join(eks),
        n * nek,
        mbuf,
        n * MESSAGE_SIZE if ms is not None else 0,
        n,
    )
    if rc in (lib.NURI_EBADEK, lib.NURI_EWEAKEK):
        bad = next(i for i, ek in enumerate(eks) if lib.nuri_mlkem_check_ek(level, ek, nek) != 0)
        _check_ek_rc(lib.nuri_mlkem_check_ek(level, eks[bad], nek), level, f" eks[{bad}]")
    check(rc, f"ML-KEM-{level} batch encapsulation")
    sb, cb = bytes(ss), bytes(ct)
    lib.nuri_wipe(ss, n * 32)
    return [(sb[32 * i : 32 * i + 32], cb[nct * i : nct * i + nct]) for i in range(n)]


def decaps_many(level: int, dk: bytes, ciphertexts, *, impl: str = None):
    """Decapsulates each ciphertext of the sequence under the one key dk; returns the list of
    32-byte shared keys, each the same as ``decaps`` would give (altered ciphertexts give their
    implicit-rejection keys). dk is checked once. ValueError for wrong lengths or a dk failing
    the FIPS 203 hash check."""
    level = mlkem_level(level)
    _, ndk, nct = sizes(level)
    dk = mlkem_sized(dk, "decapsulation key", ndk, level)
    cts = _items(ciphertexts, "ciphertexts", nct, level)
    n = len(cts)
    dev = _hw(level, impl)
    if dev is not None:  # one command per ciphertext (the core checks dk each time)
        from . import hw

        return [hw.decaps(level, dk, ct, device=dev) for ct in cts]
    kem = _ctx(level, impl, f"ML-KEM-{level} batch decapsulation")
    if n == 0:
        return []
    ss = ffi.new(f"uint8_t[{n * 32}]")
    rc = lib.nuri_mlkem_decaps_many(kem, ss, n * 32, b"".join(cts), n * nct, dk, ndk, n)
    if rc == lib.NURI_EBADDK:
        raise ValueError(
            f"invalid ML-KEM-{level} decapsulation key: stored H(ek) does not match ek (FIPS 203 hash check)"
        )
    check(rc, f"ML-KEM-{level} batch decapsulation")
    sb = bytes(ss)
    lib.nuri_wipe(ss, n * 32)
    return [sb[32 * i : 32 * i + 32] for i in range(n)]


def check_encapsulation_key(level: int, ek: bytes) -> bool:
    """True if ek passes the FIPS 203 §7.2 checks (length and modulus) and is not degenerate
    (t zero or mostly zero, refused beyond FIPS 203)."""
    level = mlkem_level(level)
    ek = as_bytes(ek, "ek")
    return lib.nuri_mlkem_check_ek(level, ek, len(ek)) == 0


def check_decapsulation_key(level: int, dk: bytes) -> bool:
    """True if dk passes the FIPS 203 §7.3 checks (length and H(ek) hash)."""
    level = mlkem_level(level)
    dk = as_bytes(dk, "dk")
    return lib.nuri_mlkem_check_dk(level, dk, len(dk)) == 0


# ---- pyca/cryptography-style key objects ----
# Each object remembers the implementation it was made with (impl=, None = dispatch) and runs
# its operations on it.


class _PublicKey:
    _level = 0

    def __init__(self, ek, *, impl=None):
        self._ek, self._impl = ek, impl

    @classmethod
    def from_public_bytes(cls, data: bytes, *, impl: str = None):
        """Loads an encapsulation key; ValueError unless it passes the FIPS 203 checks and is not
        degenerate."""
        implementation_name(cls._level, impl=impl)  # an unknown implementation fails here, not at the first use
        nek = sizes(cls._level)[0]
        data = mlkem_sized(data, "encapsulation key", nek, cls._level)
        _check_ek_rc(lib.nuri_mlkem_check_ek(cls._level, data, nek), cls._level, "")
        return cls(data, impl=impl)

    @property
    def implementation(self) -> str:
        """The name of the implementation this key's operations run on."""
        return implementation_name(self._level, impl=self._impl)

    def public_bytes_raw(self) -> bytes:
        """The encapsulation key ek."""
        return self._ek

    def encapsulate(self):
        """Returns (shared_key, ciphertext)."""
        return encaps(self._level, self._ek, impl=self._impl)

    def __eq__(self, other):
        return type(other) is type(self) and other._ek == self._ek

    def __hash__(self):
        return hash((self._level, self._ek))

    def __repr__(self):
        return f"<MLKEM{self._level}PublicKey {self._ek[:8].hex()}...>"


class _PrivateKey:
    _level = 0
    _public_cls = _PublicKey

    def __init__(self, ek, dk, seed, *, impl=None):
        self._ek, self._dk, self._seed, self._impl = ek, dk, seed, impl

    @classmethod
    def generate(cls, *, impl: str = None):
        """A new key pair from the operating system's randomness (the seed is kept)."""
        seed = bytes(ffi.buffer(_random_seed(), SEED_SIZE))
        return cls.from_seed_bytes(seed, impl=impl)

    @classmethod
    def from_seed_bytes(cls, data: bytes, *, impl: str = None):
        """The key pair of the 64-byte seed d || z (FIPS 203 ML-KEM.KeyGen_internal)."""
        data = mlkem_sized(data, "seed (d || z)", SEED_SIZE, cls._level)
        ek, dk = keygen(cls._level, data, impl=impl)
        return cls(ek, dk, data, impl=impl)

    @classmethod
    def from_decapsulation_key_bytes(cls, data: bytes, *, impl: str = None):
        """Loads an expanded decapsulation key dk; ValueError unless it passes the §7.3 checks."""
        implementation_name(cls._level, impl=impl)  # an unknown implementation fails here, not at the first use
        ndk = sizes(cls._level)[1]
        data = mlkem_sized(data, "decapsulation key", ndk, cls._level)
        if not check_decapsulation_key(cls._level, data):
            raise ValueError(f"invalid ML-KEM-{cls._level} decapsulation key (FIPS 203 hash check)")
        k = cls._level // 256
        ek = data[384 * k : 768 * k + 32]
        _check_ek_rc(lib.nuri_mlkem_check_ek(cls._level, ek, len(ek)), cls._level, " inside the decapsulation key")
        return cls(ek, data, None, impl=impl)

    @property
    def implementation(self) -> str:
        """The name of the implementation this key's operations run on."""
        return implementation_name(self._level, impl=self._impl)

    def private_bytes_raw(self) -> bytes:
        """The 64-byte seed d || z (as pyca/cryptography); ValueError if the key was loaded
        from an expanded dk, which does not contain d."""
        if self._seed is None:
            raise ValueError("this key was loaded from an expanded decapsulation key: no seed to export")
        return self._seed

    def decapsulation_key_bytes(self) -> bytes:
        """The expanded FIPS 203 decapsulation key dk."""
        return self._dk

    def public_key(self):
        """The public key, with this key's implementation."""
        return self._public_cls(self._ek, impl=self._impl)

    def decapsulate(self, ciphertext: bytes) -> bytes:
        """The 32-byte shared key (the implicit-rejection key for an altered ciphertext)."""
        return decaps(self._level, self._dk, ciphertext, impl=self._impl)

    def __repr__(self):
        return f"<MLKEM{self._level}PrivateKey>"


def _random_seed():
    buf = ffi.new(f"uint8_t[{SEED_SIZE}]")
    check(lib.nuri_randombytes(buf, SEED_SIZE), "operating-system randomness")
    return buf


class MLKEM512PublicKey(_PublicKey):
    _level = 512


class MLKEM768PublicKey(_PublicKey):
    _level = 768


class MLKEM1024PublicKey(_PublicKey):
    _level = 1024


class MLKEM512PrivateKey(_PrivateKey):
    _level = 512
    _public_cls = MLKEM512PublicKey


class MLKEM768PrivateKey(_PrivateKey):
    _level = 768
    _public_cls = MLKEM768PublicKey


class MLKEM1024PrivateKey(_PrivateKey):
    _level = 1024
    _public_cls = MLKEM1024PublicKey
