"""HPKE (RFC 9180) Base mode, single-shot, with the post-quantum KEMs of draft-ietf-hpke-pq, exactly
as pyca/cryptography 50 computes ``hpke.Suite(KEM.MLKEM768 | KEM.MLKEM768_X25519, KDF.HKDF_SHA256,
AEAD.CHACHA20_POLY1305)`` (tests/python/test_seal_hpke.py checks both directions against it).

- KEM ``0x0041`` ML-KEM-768 (FIPS 203, nuri's own implementation): enc = the 1,088-byte
  ciphertext, shared_secret = the ML-KEM shared key (no extra derivation). Public key: ek (1,184
  bytes); private key: the 64-byte seed d || z or the expanded dk (2,400 bytes).
- KEM ``0x647a`` MLKEM768-X25519 (X-Wing, draft-connolly-cfrg-xwing-kem): private key = a 32-byte
  seed, SHAKE256(seed, 96) = ML-KEM seed (64) || X25519 secret (32); public key ek_M || pk_X (1,216
  bytes); enc = ct_M || ct_X (1,120 bytes); shared_secret = SHA3-256(ss_M || ss_X || ct_X || pk_X ||
  "\\.//^\\").
- KDF ``0x0001`` HKDF-SHA256 and AEAD ``0x0003`` ChaCha20-Poly1305 come from pyca/cryptography, as
  does X25519. Single-shot: the sequence number is 0, so the AEAD nonce is base_nonce.

``seal(kem, pk, pt, info)`` returns enc || ct (1,136 bytes for a 32-byte secret with ML-KEM-768,
1,168 with X-Wing); ``open(kem, sk, blob, info)`` returns pt or raises nuri.InvalidTag.

``impl=`` (keyword) is the ML-KEM implementation of nuri.mlkem that runs the ML-KEM part (X-Wing's
ML-KEM-768 half too): a C one, or "hw" for the hardware core. The bytes are the same whichever runs.
"""

import hashlib

from ..exceptions import InvalidTag
from .kdf import hkdf_expand, hkdf_extract

KEM_MLKEM768 = 0x0041
KEM_MLKEM768_X25519 = 0x647A
KDF_HKDF_SHA256 = 0x0001
AEAD_CHACHA20_POLY1305 = 0x0003
_NK, _NN, _NT = 32, 12, 16
XWING_LABEL = b"\\.//^\\"
MLKEM_EK, MLKEM_DK, MLKEM_CT, MLKEM_SEED = 1184, 2400, 1088, 64
XWING_PK, XWING_CT, XWING_SEED = 1216, 1120, 32
ENC_LEN = {KEM_MLKEM768: MLKEM_CT, KEM_MLKEM768_X25519: XWING_CT}
KEM_NAMES = {KEM_MLKEM768: "ML-KEM-768", KEM_MLKEM768_X25519: "ML-KEM-768+X25519"}


# ---- the KEMs ----


def _mlkem():
    from .. import mlkem

    return mlkem


def xwing_expand(seed: bytes):
    """(ML-KEM-768 seed d || z, X25519 secret key) of a 32-byte X-Wing seed."""
    if len(seed) != XWING_SEED:
        raise ValueError(f"an ML-KEM-768+X25519 seed is {XWING_SEED} bytes, got {len(seed)}")
    e = hashlib.shake_256(seed).digest(96)
    return e[:64], e[64:]


def _x25519_public(sk_x: bytes) -> bytes:
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    return X25519PrivateKey.from_private_bytes(sk_x).public_key().public_bytes_raw()


def xwing_public_key(seed: bytes, *, impl: str = None) -> bytes:
    """The 1,216-byte public key ek_M || pk_X of an X-Wing seed."""
    ms, xs = xwing_expand(seed)
    ek, _ = _mlkem().keygen(768, ms, impl=impl)
    return ek + _x25519_public(xs)


def check_x25519_public(pk_x: bytes):
    """ValueError if pk_x is a low-order X25519 point (order 1, 2, 4 or 8, in any encoding): every
    scalar gives it the all-zero shared secret, so the X25519 half of X-Wing would add nothing. One
    exchange with a throwaway scalar finds them all (pyca/cryptography refuses the all-zero
    result); pk_x is public."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

    try:
        X25519PrivateKey.generate().exchange(X25519PublicKey.from_public_bytes(pk_x))
    except ValueError:
        raise ValueError("the X25519 part of the ML-KEM-768+X25519 public key is a low-order point") from None


def _combine(ss_m, ss_x, ct_x, pk_x):
    return hashlib.sha3_256(ss_m + ss_x + ct_x + pk_x + XWING_LABEL).digest()


def encap(kem: int, pk: bytes, rand: bytes = None, *, impl: str = None):
    """(shared_secret, enc) for the public key pk (ValueError for a malformed or degenerate key:
    ML-KEM t mostly zero, X25519 low-order point). ``rand`` fixes the
    randomness for known-answer tests only: ML-KEM's m (32 bytes), then for X-Wing the ephemeral
    X25519 secret (32 more)."""
    mlkem = _mlkem()
    m = rand[:32] if rand is not None else None
    if kem == KEM_MLKEM768:
        if len(pk) != MLKEM_EK:
            raise ValueError(f"an ML-KEM-768 public key is {MLKEM_EK} bytes, got {len(pk)}")
        return mlkem.encaps(768, pk, m, impl=impl)
    if kem == KEM_MLKEM768_X25519:
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

        if len(pk) != XWING_PK:
            raise ValueError(f"an ML-KEM-768+X25519 public key is {XWING_PK} bytes, got {len(pk)}")
        pk_m, pk_x = pk[:MLKEM_EK], pk[MLKEM_EK:]
        check_x25519_public(pk_x)
        eph = X25519PrivateKey.generate() if rand is None else X25519PrivateKey.from_private_bytes(rand[32:64])
        ct_x = eph.public_key().public_bytes_raw()
        ss_x = eph.exchange(X25519PublicKey.from_public_bytes(pk_x))
        ss_m, ct_m = mlkem.encaps(768, pk_m, m, impl=impl)
        return _combine(ss_m, ss_x, ct_x, pk_x), ct_m + ct_x
    raise ValueError(f"unsupported KEM 0x{kem:04x}")


def decap(kem: int, sk: bytes, enc: bytes, *, impl: str = None) -> bytes:
    """The shared secret for enc under the private key sk (ML-KEM: seed or dk; X-Wing: seed). A
    wrong key or an altered enc gives an unrelated secret (ML-KEM implicit rejection), so the AEAD
    that follows fails."""
    mlkem = _mlkem()
    if len(enc) != ENC_LEN.get(kem, -1):
        raise InvalidTag(f"{KEM_NAMES.get(kem, hex(kem))} enc has {len(enc)} bytes")
    if kem == KEM_MLKEM768:
        dk = mlkem.keygen(768, sk, impl=impl)[1] if len(sk) == MLKEM_SEED else sk
        return mlkem.decaps(768, dk, enc, impl=impl)
    if kem == KEM_MLKEM768_X25519:
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

        ms, xs = xwing_expand(sk)
        _, dk = mlkem.keygen(768, ms, impl=impl)
        sk_x = X25519PrivateKey.from_private_bytes(xs)
        ct_m, ct_x = enc[:MLKEM_CT], enc[MLKEM_CT:]
        try:
            ss_x = sk_x.exchange(X25519PublicKey.from_public_bytes(ct_x))
        except ValueError:  # a low-order point (all-zero shared secret)
            raise InvalidTag("X25519 share rejected") from None
        return _combine(mlkem.decaps(768, dk, ct_m, impl=impl), ss_x, ct_x, sk_x.public_key().public_bytes_raw())
    raise ValueError(f"unsupported KEM 0x{kem:04x}")


# ---- RFC 9180 key schedule (Base mode) and single-shot seal/open ----


def _suite_id(kem):
    return (
        b"HPKE"
        + kem.to_bytes(2, "big")
        + KDF_HKDF_SHA256.to_bytes(2, "big")
        + AEAD_CHACHA20_POLY1305.to_bytes(2, "big")
    )


def _labeled_extract(sid, salt, label, ikm):
    return hkdf_extract(salt, b"HPKE-v1" + sid + label + ikm)


def _labeled_expand(sid, prk, label, info, n):
    return hkdf_expand(prk, n.to_bytes(2, "big") + b"HPKE-v1" + sid + label + info, n)


def key_schedule(kem: int, shared_secret: bytes, info: bytes):
    """RFC 9180 5.1 KeySchedule for mode_base (no PSK): (key, base_nonce)."""
    sid = _suite_id(kem)
    ctx = b"\x00" + _labeled_extract(sid, b"", b"psk_id_hash", b"") + _labeled_extract(sid, b"", b"info_hash", info)
    secret = _labeled_extract(sid, shared_secret, b"secret", b"")
    return _labeled_expand(sid, secret, b"key", ctx, _NK), _labeled_expand(sid, secret, b"base_nonce", ctx, _NN)


def seal(kem: int, pk: bytes, plaintext: bytes, info: bytes = b"", rand: bytes = None, *, impl: str = None) -> bytes:
    """SealBase single-shot: enc || ChaCha20-Poly1305(key, base_nonce, plaintext, aad="").
    (``rand``: fixed KEM randomness, for known-answer tests only.)"""
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    ss, enc = encap(kem, pk, rand, impl=impl)
    key, n = key_schedule(kem, ss, info)
    return enc + ChaCha20Poly1305(key).encrypt(n, plaintext, b"")


def open(kem: int, sk: bytes, blob: bytes, info: bytes = b"", *, impl: str = None) -> bytes:  # noqa: A001
    """OpenBase single-shot of enc || ct; nuri.InvalidTag when sk is not the recipient's key or the
    blob was altered."""
    from cryptography.exceptions import InvalidTag as PycaInvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    n_enc = ENC_LEN.get(kem)
    if n_enc is None:
        raise ValueError(f"unsupported KEM 0x{kem:04x}")
    if len(blob) < n_enc + _NT:
        raise InvalidTag("HPKE ciphertext too short")
    ss = decap(kem, sk, blob[:n_enc], impl=impl)
    key, n = key_schedule(kem, ss, info)
    try:
        return ChaCha20Poly1305(key).decrypt(n, blob[n_enc:], b"")
    except PycaInvalidTag:
        raise InvalidTag("HPKE open failed (not this recipient's key, or altered)") from None
