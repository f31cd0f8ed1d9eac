"""Recipients (public keys) and identities (private keys) of nuri-seal v2 and of age files, the key
files that hold them, and the per-recipient wrapping of the file key with HPKE (hpke.py).

Key files (``load_recipients`` / ``load_identities``; docs/seal-format.md, "Key files"):

- **text** (printable ASCII that reads as key lines): one key per line, blank lines and ``#``
  comments ignored.
  ``nuri-kem-v1 <kem> <kind> <hex>`` (what ``nuri kem keygen`` writes; nuri/keyfile.py), age's
  ``age1pq1...`` (ML-KEM-768+X25519) and ``age1...`` (X25519) recipients, and age's
  ``AGE-SECRET-KEY-PQ-1...`` and ``AGE-SECRET-KEY-1...`` identities.
- **raw** (any other file of one of the sizes below: what ``nuri kem keygen --format raw`` writes
  and nuri wrote before the text files): the key's bytes alone, its kind read from the size:

=====================  ========  =======================================================
file                   bytes     kind
=====================  ========  =======================================================
recipient (public)     1,184     ML-KEM-768 encapsulation key ek (FIPS 203)
recipient (public)     1,216     ML-KEM-768+X25519 (X-Wing) public key ek_M || pk_X
identity (secret)      2,400     ML-KEM-768 decapsulation key dk (FIPS 203)
identity (secret)      64        ML-KEM-768 seed d || z (pyca's ``from_seed_bytes``)
identity (secret)      32        ML-KEM-768+X25519 (X-Wing) seed
=====================  ========  =======================================================

(``nuri kem`` also reads ML-KEM-512 and -1024 keys by size: 800/1,632 and 1,568/3,168 bytes; a raw
64-byte seed is ML-KEM-768's unless ``nuri kem decaps --level`` says otherwise, since its size does
not tell.)

Recipients and identities carry the ML-KEM implementation their KEM runs on (``impl=``, keyword:
None = dispatch, a C implementation's name, or "hw" for the hardware core through nuri.hw); what they
write and read is the same bytes whichever it is.
"""

import os

from ..exceptions import InvalidTag
from . import hpke

FILE_KEY_LEN = 32
HPKE_INFO = b"nuri-seal/v2 file key"


class NotRecipientError(ValueError):
    """No stanza of the header opens with the given identity."""


class Recipient:
    """A public key to seal to: ``Recipient.from_bytes(data)`` (kind from the size)."""

    def __init__(self, kem, pk, *, impl=None):
        self.kem, self.pk, self.impl = kem, pk, impl

    @classmethod
    def of(cls, kem: int, data: bytes, where: str = "public key", *, impl: str = None):
        """The recipient of a public key of a known KEM (ValueError when it is malformed)."""
        data = bytes(data)
        want = {hpke.KEM_MLKEM768: hpke.MLKEM_EK, hpke.KEM_MLKEM768_X25519: hpke.XWING_PK}.get(kem)
        if want is None:
            raise ValueError(f"{where}: unsupported KEM 0x{kem:04x}")
        if len(data) != want:
            raise ValueError(f"{where}: an {hpke.KEM_NAMES[kem]} public key is {want} bytes, got {len(data)}")
        from .. import mlkem

        # the checks of key import: FIPS 203 modulus check, no degenerate t, no low-order X25519 point
        try:
            mlkem.MLKEM768PublicKey.from_public_bytes(data[: hpke.MLKEM_EK])
            if kem == hpke.KEM_MLKEM768_X25519:
                hpke.check_x25519_public(data[hpke.MLKEM_EK :])
        except ValueError as e:
            raise ValueError(f"{where}: not a usable {hpke.KEM_NAMES[kem]} public key: {e}") from None
        _check_impl(impl)
        return cls(kem, data, impl=impl)

    @classmethod
    def from_bytes(cls, data: bytes, where: str = "public key", *, impl: str = None):
        """A raw public key, its KEM read from the size (1,184: ML-KEM-768; 1,216: X-Wing)."""
        data = bytes(data)
        if len(data) == hpke.MLKEM_EK:
            return cls.of(hpke.KEM_MLKEM768, data, where, impl=impl)
        if len(data) == hpke.XWING_PK:
            return cls.of(hpke.KEM_MLKEM768_X25519, data, where, impl=impl)
        raise ValueError(
            f"{where}: {len(data)} bytes is not a recipient public key (expected {hpke.MLKEM_EK} "
            f"for ML-KEM-768 or {hpke.XWING_PK} for ML-KEM-768+X25519, from 'nuri kem keygen')"
        )

    def wrap(self, file_key: bytes, rand: bytes = None):
        """The stanza (kem_id, enc || ct) carrying file_key to this recipient (``rand``: fixed KEM
        randomness, for known-answer files only)."""
        return self.kem, hpke.seal(self.kem, self.pk, file_key, HPKE_INFO, rand, impl=self.impl)


class Identity:
    """A private key to open with: ``Identity.from_bytes(data)`` (kind from the size)."""

    def __init__(self, kem, sk, *, impl=None):
        self.kem, self.sk, self.impl = kem, sk, impl

    @classmethod
    def of(cls, kem: int, data: bytes, where: str = "secret key", *, impl: str = None):
        """The identity of a private key of a known KEM: ML-KEM-768's dk (2,400 bytes) or seed (64),
        X-Wing's seed (32). ValueError when it is malformed."""
        from .. import mlkem

        data = bytes(data)
        if kem == hpke.KEM_MLKEM768 and len(data) == hpke.MLKEM_DK:
            if not mlkem.check_decapsulation_key(768, data):
                raise ValueError(f"{where}: not a valid ML-KEM-768 secret key (FIPS 203 hash check)")
            _check_impl(impl)
            return cls(kem, data, impl=impl)
        if (kem, len(data)) in ((hpke.KEM_MLKEM768, hpke.MLKEM_SEED), (hpke.KEM_MLKEM768_X25519, hpke.XWING_SEED)):
            _check_impl(impl)
            return cls(kem, data, impl=impl)
        raise ValueError(f"{where}: {len(data)} bytes is not an {hpke.KEM_NAMES.get(kem, hex(kem))} secret key")

    @classmethod
    def from_bytes(cls, data: bytes, where: str = "secret key", *, impl: str = None):
        """A raw private key, its KEM read from the size (table above)."""
        data = bytes(data)
        if len(data) in (hpke.MLKEM_DK, hpke.MLKEM_SEED):
            return cls.of(hpke.KEM_MLKEM768, data, where, impl=impl)
        if len(data) == hpke.XWING_SEED:
            return cls.of(hpke.KEM_MLKEM768_X25519, data, where, impl=impl)
        raise ValueError(
            f"{where}: {len(data)} bytes is not an identity (expected {hpke.MLKEM_DK} or "
            f"{hpke.MLKEM_SEED} for ML-KEM-768, {hpke.XWING_SEED} for ML-KEM-768+X25519)"
        )

    def unwrap(self, stanzas):
        """The file key from the first stanza that opens with this identity; NotRecipientError if none."""
        for kem, blob in stanzas:
            if kem != self.kem:
                continue
            try:
                key = hpke.open(kem, self.sk, blob, HPKE_INFO, impl=self.impl)
            except InvalidTag:
                continue
            if len(key) == FILE_KEY_LEN:
                return key
        kinds = sorted({hpke.KEM_NAMES.get(k, f"0x{k:04x}") for k, _ in stanzas})
        raise NotRecipientError(
            f"this identity ({hpke.KEM_NAMES[self.kem]}) is not a recipient of the file "
            f"({len(stanzas)} recipient(s): {', '.join(kinds)})"
        )


def _check_impl(impl):
    """Fails now (not at the first wrap or unwrap) for an ML-KEM implementation that is not here."""
    if impl is not None:
        from .. import mlkem

        mlkem.implementation_name(768, impl=impl)


def generate(kem: str = "mlkem768", *, impl: str = None):
    """A new key pair (public bytes, secret bytes): "mlkem768" gives (ek 1,184, dk 2,400),
    "mlkem768-x25519" gives (public key 1,216, seed 32). ``impl``: the ML-KEM implementation that
    makes it."""
    if kem == "mlkem768":
        from .. import mlkem

        return mlkem.keygen(768, impl=impl)
    if kem == "mlkem768-x25519":
        seed = os.urandom(hpke.XWING_SEED)
        return hpke.xwing_public_key(seed, impl=impl), seed
    raise ValueError(f"kem must be 'mlkem768' or 'mlkem768-x25519', got {kem!r}")


# ---- key files ----

KEM_IDS = {"mlkem768": hpke.KEM_MLKEM768, "mlkem768-x25519": hpke.KEM_MLKEM768_X25519}
KEM_OF_ID = {v: k for k, v in KEM_IDS.items()}
RAW_PUBLIC = {800: "mlkem512", 1184: "mlkem768", 1568: "mlkem1024", 1216: "mlkem768-x25519"}
RAW_SECRET = {
    1632: ("mlkem512", "secret"),
    2400: ("mlkem768", "secret"),
    3168: ("mlkem1024", "secret"),
    64: (None, "seed"),  # an ML-KEM seed: the level is not in the size
    32: ("mlkem768-x25519", "seed"),
}
MAX_KEY_FILE = 1 << 24  # as age: 16 MiB of recipients or identities


class KeyEntry(tuple):
    """One key of a key file: (kem, kind, data, source). kem is "mlkem512", "mlkem768", "mlkem1024",
    "mlkem768-x25519" or "x25519" (age's classic keys); kind "public", "secret" or "seed"; source
    "nuri", "age" or "raw" (the form it was written in)."""

    __slots__ = ()

    def __new__(cls, kem, kind, data, source):
        return super().__new__(cls, (kem, kind, bytes(data), source))

    kem = property(lambda self: self[0])
    kind = property(lambda self: self[1])
    data = property(lambda self: self[2])
    source = property(lambda self: self[3])

    @property
    def public(self):
        return self.kind == "public"


def parse_key_file(data: bytes, where: str = "key file", seed_level: int = 768):
    """The keys of a key file (text or raw, module docstring) as KeyEntry items; ValueError (with
    ``where``, and the line for text files) for anything else. ``seed_level``: the ML-KEM level a raw
    64-byte seed is taken for."""
    from ..keyfile import KEM_MAGIC, is_text

    data = bytes(data)
    if len(data) > MAX_KEY_FILE:
        raise ValueError(f"{where}: too large for a key file")
    if not data:
        raise ValueError(f"{where}: empty")
    n = len(data)
    if is_text(data):
        try:
            return _parse_text(data, where)
        except ValueError:
            if n not in RAW_PUBLIC and n not in RAW_SECRET:
                raise
            # a raw key whose bytes all happen to be printable (a chosen test key, say): by its size
    if n in RAW_PUBLIC:
        return [KeyEntry(RAW_PUBLIC[n], "public", data, "raw")]
    if n in RAW_SECRET:
        kem, kind = RAW_SECRET[n]
        return [KeyEntry(kem or f"mlkem{seed_level}", kind, data, "raw")]
    sizes = ", ".join(str(k) for k in sorted(set(RAW_PUBLIC) | set(RAW_SECRET)))
    raise ValueError(
        f"{where}: not a key file ({n} bytes of binary data; a raw key is one of {sizes} bytes, "
        f"a text key file has {KEM_MAGIC}, age1... or AGE-SECRET-KEY-... lines)"
    )


def _parse_text(data, where):
    from ..keyfile import KeyFileError, parse_kem_key
    from . import age

    out = []
    for no, line in enumerate(data.decode("ascii").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        at = f"{where}, line {no}"
        try:
            if line.startswith("nuri-kem-"):
                kem, kind, key = parse_kem_key(line, at)
                out.append(KeyEntry(kem, kind, key, "nuri"))
            else:
                kem, kind, key = age.parse_key_string(line, at)
                out.append(KeyEntry(kem, kind, key, "age"))
        except KeyFileError as e:
            raise ValueError(str(e)) from None
    if not out:
        raise ValueError(f"{where}: no key in the file (only comments)")
    return out


_TITLES = {
    "mlkem512": "ML-KEM-512",
    "mlkem768": "ML-KEM-768",
    "mlkem1024": "ML-KEM-1024",
    "mlkem768-x25519": "ML-KEM-768+X25519",
    "x25519": "X25519 (age)",
}


def _only_for_kem(e, where, role):
    return ValueError(
        f"{where}: an {_TITLES[e.kem]} {'public' if e.public else 'secret'} key is for 'nuri kem' only; "
        f"{role} are ML-KEM-768 or ML-KEM-768+X25519 keys (and age X25519 keys in age files)"
    )


def _load(data, where, public, impl):
    from . import age

    if public:
        cls, classic, role = Recipient, age.X25519Recipient, "sealing recipients"
        wrong = (
            "holds a secret key; give the public key (nuri kem keygen --public, or 'age-keygen -y' for an age identity)"
        )
    else:
        cls, classic, role = Identity, age.X25519Identity, "identities"
        wrong = "holds a public key; give the secret key (identity) instead"
    out = []
    for e in parse_key_file(data, where):
        if e.public != public:
            raise ValueError(f"{where}: {wrong}")
        if e.kem == "x25519":
            out.append(classic(e.data))
        elif e.kem in KEM_IDS:
            out.append(cls.of(KEM_IDS[e.kem], e.data, where, impl=impl))
        else:
            raise _only_for_kem(e, where, role)
    return out


def load_recipients(data: bytes, where: str = "public key", *, impl: str = None):
    """The recipients in a key file: Recipient objects (ML-KEM-768, ML-KEM-768+X25519, their KEM run
    by the ML-KEM implementation ``impl``) and age.X25519Recipient objects (age files only).
    ValueError names the file (and line) at fault."""
    return _load(data, where, True, impl)


def load_identities(data: bytes, where: str = "secret key", *, impl: str = None):
    """The identities in a key file: Identity objects (ML-KEM-768, ML-KEM-768+X25519, their KEM run
    by the ML-KEM implementation ``impl``) and age.X25519Identity objects (age files only).
    ValueError names the file (and line) at fault."""
    return _load(data, where, False, impl)
