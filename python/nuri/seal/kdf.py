"""Key derivation for nuri-seal: HKDF-SHA-256 (RFC 5869, from pyca/cryptography) and Argon2id
(RFC 9106, from argon2-cffi) with bounds on what a file header may ask for."""

# RFC 9106 section 4, second recommended option (64 MiB, 3 passes, 4 lanes).
ARGON2_DEFAULT = (3, 65536, 4)
# What a header may legally hold (anything else is a malformed header).
ARGON2_MAX_T, ARGON2_MAX_P, ARGON2_MAX_M_KIB = 64, 64, 1 << 21
# What open() spends without being asked to (a crafted header with t=64, m=2 GiB and 64 lanes would
# keep a reader busy for minutes). Like age's scrypt work-factor limit, a file that asks for
# more is refused unless the caller raises the limit (CLI: open --argon2-max T,M,P).
ARGON2_OPEN_LIMIT = (8, 1 << 18, 8)  # 8 passes, 256 MiB, 8 lanes


class Argon2LimitError(ValueError):
    """A passphrase header asks for more Argon2 work than the caller allowed."""


def hkdf_extract(salt: bytes, ikm: bytes) -> bytes:
    """HKDF-Extract with HMAC-SHA-256 (an empty salt means 32 zero bytes, RFC 5869 2.2)."""
    from cryptography.hazmat.primitives import hashes, hmac

    h = hmac.HMAC(salt or bytes(32), hashes.SHA256())
    h.update(ikm)
    return h.finalize()


def hkdf_expand(prk: bytes, info: bytes, length: int) -> bytes:
    """HKDF-Expand with HMAC-SHA-256."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand

    return HKDFExpand(hashes.SHA256(), length, info).derive(prk)


def hkdf_sha256(ikm: bytes, salt: bytes, info: bytes, length: int) -> bytes:
    """HKDF (RFC 5869) with HMAC-SHA-256: Expand(Extract(salt, ikm), info, length)."""
    return hkdf_expand(hkdf_extract(salt, ikm), info, length)


def check_argon2_header(t: int, m: int, p: int) -> bool:
    """True when (t, m KiB, p lanes) is a legal Argon2id parameter set for a header."""
    return 1 <= t <= ARGON2_MAX_T and 1 <= p <= ARGON2_MAX_P and 8 * p <= m <= ARGON2_MAX_M_KIB


def argon2id(passphrase, salt: bytes, params, limit=ARGON2_OPEN_LIMIT) -> bytes:
    """Argon2id(passphrase, salt, t, m KiB, p lanes) -> 32 bytes. Refuses (Argon2LimitError) a
    parameter set above ``limit`` (t, m, p) before spending any time; None means no limit."""
    t, m, p = params
    if limit is not None and (t > limit[0] or m > limit[1] or p > limit[2]):
        raise Argon2LimitError(
            f"the file asks for Argon2id t={t}, m={m} KiB, lanes={p}, above the limit t={limit[0]}, "
            f"m={limit[1]} KiB, lanes={limit[2]} (raise it with --argon2-max T,M,P if you trust the file)"
        )
    try:
        from argon2.low_level import Type, hash_secret_raw
    except ImportError:
        raise ImportError("passphrases need the argon2-cffi package (pip install argon2-cffi)") from None
    if isinstance(passphrase, str):
        passphrase = passphrase.encode()
    return hash_secret_raw(passphrase, salt, time_cost=t, memory_cost=m, parallelism=p, hash_len=32, type=Type.ID)
