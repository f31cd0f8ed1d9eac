"""Recipients (public keys) and identities (private keys) of nuri-seal v2, and the per-recipient
wrapping of the file key with HPKE (hpke.py).

Key files are the raw byte strings ``nuri kem keygen`` writes; the kind is read from the size:

=====================  ========  =======================================================
file                   bytes     kind
=====================  ========  =======================================================
recipient (public)     1,184     ML-KEM-768 encapsulation key ek (FIPS 203)
recipient (public)     1,216     ML-KEM-768+X25519 (X-Wing) public key ek_M || pk_X
identity (secret)      2,400     ML-KEM-768 decapsulation key dk (FIPS 203)
identity (secret)      64        ML-KEM-768 seed d || z (pyca's ``from_seed_bytes``)
identity (secret)      32        ML-KEM-768+X25519 (X-Wing) seed
=====================  ========  =======================================================
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

    def __init__(self, kem, pk):
        self.kem, self.pk = kem, pk

    @classmethod
    def from_bytes(cls, data: bytes, where: str = "public key"):
        data = bytes(data)
        mlkem = hpke._mlkem()
        # the checks of key import: FIPS 203 modulus check, no degenerate t, no low-order X25519 point
        if len(data) == hpke.MLKEM_EK:
            try:
                mlkem.MLKEM768PublicKey.from_public_bytes(data)
            except ValueError as e:
                raise ValueError(f"{where}: not a usable ML-KEM-768 public key: {e}") from None
            return cls(hpke.KEM_MLKEM768, data)
        if len(data) == hpke.XWING_PK:
            try:
                mlkem.MLKEM768PublicKey.from_public_bytes(data[: hpke.MLKEM_EK])
                hpke.check_x25519_public(data[hpke.MLKEM_EK :])
            except ValueError as e:
                raise ValueError(f"{where}: not a usable ML-KEM-768+X25519 public key: {e}") from None
            return cls(hpke.KEM_MLKEM768_X25519, data)
        raise ValueError(
            f"{where}: {len(data)} bytes is not a recipient public key (expected {hpke.MLKEM_EK} "
            f"for ML-KEM-768 or {hpke.XWING_PK} for ML-KEM-768+X25519, from 'nuri kem keygen')"
        )

    def wrap(self, file_key: bytes, rand: bytes = None):
        """The stanza (kem_id, enc || ct) carrying file_key to this recipient (``rand``: fixed KEM
        randomness, for known-answer files only)."""
        return self.kem, hpke.seal(self.kem, self.pk, file_key, HPKE_INFO, rand)


class Identity:
    """A private key to open with: ``Identity.from_bytes(data)`` (kind from the size)."""

    def __init__(self, kem, sk):
        self.kem, self.sk = kem, sk

    @classmethod
    def from_bytes(cls, data: bytes, where: str = "secret key"):
        data = bytes(data)
        if len(data) == hpke.MLKEM_DK:
            if not hpke._mlkem().check_decapsulation_key(768, data):
                raise ValueError(f"{where}: not a valid ML-KEM-768 secret key (FIPS 203 hash check)")
            return cls(hpke.KEM_MLKEM768, data)
        if len(data) == hpke.MLKEM_SEED:
            return cls(hpke.KEM_MLKEM768, data)
        if len(data) == hpke.XWING_SEED:
            return cls(hpke.KEM_MLKEM768_X25519, data)
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
                key = hpke.open(kem, self.sk, blob, HPKE_INFO)
            except InvalidTag:
                continue
            if len(key) == FILE_KEY_LEN:
                return key
        kinds = sorted({hpke.KEM_NAMES.get(k, f"0x{k:04x}") for k, _ in stanzas})
        raise NotRecipientError(
            f"this identity ({hpke.KEM_NAMES[self.kem]}) is not a recipient of the file "
            f"({len(stanzas)} recipient(s): {', '.join(kinds)})"
        )


def generate(kem: str = "mlkem768"):
    """A new key pair (public bytes, secret bytes): "mlkem768" gives (ek 1,184, dk 2,400),
    "mlkem768-x25519" gives (public key 1,216, seed 32)."""
    if kem == "mlkem768":
        return hpke._mlkem().keygen(768)
    if kem == "mlkem768-x25519":
        seed = os.urandom(hpke.XWING_SEED)
        return hpke.xwing_public_key(seed), seed
    raise ValueError(f"kem must be 'mlkem768' or 'mlkem768-x25519', got {kem!r}")
