"""A second, minimal decoder of the nuri-seal formats written from docs/seal-format.md alone: the
standard library for HKDF/HMAC, pyca/cryptography's HPKE for the recipient stanzas, argon2-cffi for
passphrases and only the Schwaemm256-128 primitive from nuri. It must open every known-answer file in
tests/seal/kat/ (and a fresh file nuri writes) to the same plaintext as nuri."""

import hashlib
import hmac
import os
import struct

import pytest

if os.environ.get("CI"):  # scripts/deps/seal.pip installs pyca/cryptography >= 50: never skip in CI
    import cryptography.hazmat.primitives.hpke  # noqa: F401

pytest.importorskip("nuri.aead")
P = pytest.importorskip("cryptography.hazmat.primitives.hpke")
from cryptography.hazmat.primitives.asymmetric import mlkem as PM  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import x25519 as PX  # noqa: E402

from nuri.aead import Schwaemm256_128  # noqa: E402

KAT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "seal", "kat")


def hkdf(ikm, salt, info, n):
    prk = hmac.new(salt or bytes(32), ikm, hashlib.sha256).digest()
    out, t, i = b"", b"", 1
    while len(out) < n:
        t = hmac.new(prk, t + info + bytes([i]), hashlib.sha256).digest()
        out, i = out + t, i + 1
    return out[:n]


def payload(body, key, prefix, ad, cs):
    aead, blocks = Schwaemm256_128(key), [body[j : j + cs + 16] for j in range(0, len(body), cs + 16)] or [b""]
    return b"".join(
        aead.decrypt(prefix + struct.pack(">Q", i) + bytes([i == len(blocks) - 1]), blk, ad)
        for i, blk in enumerate(blocks)
    )


def open_v1(blob, key=None, passphrase=None):
    assert blob[:9] == b"NURISEAL\x01"
    kdf, log2, _, t, m, p = struct.unpack(">BBBIII", blob[9:24])
    salt = blob[24:56]
    if kdf == 1:
        from argon2.low_level import Type, hash_secret_raw

        key = hash_secret_raw(passphrase, salt, time_cost=t, memory_cost=m, parallelism=p, hash_len=32, type=Type.ID)
    okm = hkdf(key, salt, b"nuri-seal/v1 payload", 39)
    return payload(blob[56:], okm[:16], okm[16:], blob[:56], 1 << log2)


def pyca_identity(data):
    if len(data) == 64:
        return 0x0041, PM.MLKEM768PrivateKey.from_seed_bytes(data)
    e = hashlib.shake_256(data).digest(96)
    return 0x647A, P.MLKEM768X25519PrivateKey(
        PM.MLKEM768PrivateKey.from_seed_bytes(e[:64]), PX.X25519PrivateKey.from_private_bytes(e[64:])
    )


def v2_header(blob):
    assert blob[:9] == b"NURISEAL\x02"
    kind, log2, _, salt, n = struct.unpack(">BBB32sH", blob[9:46])
    pos, stanzas = 46, []
    for _ in range(n):
        kem, ln = struct.unpack(">HH", blob[pos : pos + 4])
        stanzas.append((kem, blob[pos + 4 : pos + 4 + ln]))
        pos += 4 + ln
    return kind, 1 << log2, salt, stanzas, blob[:pos], blob[pos : pos + 32], pos + 32


def v2_file_key(stanzas, salt, body, mac, ident):
    kem_id, priv = pyca_identity(ident)
    kem = {0x0041: P.KEM.MLKEM768, 0x647A: P.KEM.MLKEM768_X25519}[kem_id]
    suite = P.Suite(kem, P.KDF.HKDF_SHA256, P.AEAD.CHACHA20_POLY1305)
    for k, st in stanzas:
        if k == kem_id:
            try:
                fk = suite.decrypt(st, priv, info=b"nuri-seal/v2 file key")
                break
            except Exception:
                continue
    else:
        raise AssertionError("not a recipient")
    assert hmac.compare_digest(hmac.new(hkdf(fk, salt, b"nuri-seal/v2 header", 32), body, hashlib.sha256).digest(), mac)
    return fk


def open_v2(blob, ident):
    kind, cs, salt, stanzas, body, mac, end = v2_header(blob)
    assert kind == 0
    fk = v2_file_key(stanzas, salt, body, mac, ident)
    okm = hkdf(fk, salt, b"nuri-seal/v2 payload", 39)
    return payload(blob[end:], okm[:16], okm[16:], mac, cs)


def open_video(d, ident):
    blob = open(os.path.join(d, "stream.nseal"), "rb").read()
    kind, cs, salt, stanzas, body, mac, end = v2_header(blob)
    assert kind == 1 and end == len(blob)
    fk = v2_file_key(stanzas, salt, body, mac, ident)
    lines = open(os.path.join(d, "playlist.m3u8")).read().split()
    names = [ln for ln in lines if not ln.startswith("#")]
    assert "#EXT-X-ENDLIST" in lines and names  # complete: an end mark, and a final segment (below)
    out = b""
    for i, name in enumerate(names):
        assert name == f"seg{i:05d}.ts.nseal"
        okm = hkdf(fk, salt, b"nuri-seal/v2 segment" + struct.pack(">Q", i), 39)
        out += payload(
            open(os.path.join(d, name), "rb").read(), okm[:16], okm[16:], mac + bytes([i == len(names) - 1]), cs
        )
    return out


def kat(name):
    with open(os.path.join(KAT, name), "rb") as f:
        return f.read()


def test_known_answer_files():
    pt = kat("plaintext.bin")
    assert open_v1(kat("v1-key.nseal"), key=bytes(range(16))) == pt
    assert open_v1(kat("v1-key-empty.nseal"), key=bytes(range(16))) == b""
    assert open_v1(kat("v1-passphrase.nseal"), passphrase=b"correct horse battery staple") == pt
    for ident in ("mlkem768.seed", "mlkem768-x25519.seed"):
        assert open_v2(kat("v2-two-recipients.nseal"), kat("ids/" + ident)) == pt
        assert open_video(os.path.join(KAT, "video"), kat("ids/" + ident)) == pt


def test_fresh_nuri_files():
    from nuri import seal

    for kem in ("mlkem768-x25519",):
        pk, sk = seal.generate(kem)
        for n in (0, 1, 65536, 200001):
            data = os.urandom(n)
            assert open_v2(seal.seal_bytes(None, data, recipients=[pk]), sk) == data
    k = os.urandom(32)
    assert open_v1(seal.seal_bytes(k, b"abc" * 50000), key=k) == b"abc" * 50000
