"""nuri.aead: Schwaemm KAT records, round trips, tamper rejection, argument checks."""
import os

import pytest

import nuri
from nuri import aead, sparkle
from vectors import SHARED_VECTORS, records

CLASSES = [aead.Schwaemm128_128, aead.Schwaemm256_128, aead.Schwaemm192_192, aead.Schwaemm256_256]
FILES = ["LWC_AEAD_KAT_128_128.txt", "LWC_AEAD_KAT_128_256.txt", "LWC_AEAD_KAT_192_192.txt",
         "LWC_AEAD_KAT_256_256.txt"]
# (class, Count, CT) records from the NIST KAT files (Key/Nonce/PT/AD = 00 01 02 ...)
KAT = [
    (aead.Schwaemm256_128, 1, 0, 0, "9E3F9F2E8E26E7D00A9EB92730717A51"),
    (aead.Schwaemm256_128, 2, 0, 1, "57F83C3E696AE65582DD27FE6FC2F239"),
    (aead.Schwaemm128_128, 34, 1, 0, "FE2647AA4FB548ACF44067BEC0337B4D25"),
]
SHARED = SHARED_VECTORS / "sparkle"


@pytest.mark.parametrize("cls,count,mlen,adlen,ct", KAT)
def test_kat_records(cls, count, mlen, adlen, ct):
    a = cls(bytes(range(cls.key_size)))
    nonce = bytes(range(cls.nonce_size))
    assert a.encrypt(nonce, bytes(range(mlen)), bytes(range(adlen))).hex().upper() == ct
    assert a.decrypt(nonce, bytes.fromhex(ct), bytes(range(adlen))) == bytes(range(mlen))




@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared vectors not present")
@pytest.mark.parametrize("cls,name", list(zip(CLASSES, FILES)))
def test_kat_files(cls, name):
    n = 0
    for r in records(SHARED / name):
        if int(r["Count"]) % 7:  # every 7th record keeps the test quick; C tests cover them all
            continue
        a = cls(bytes.fromhex(r["Key"]))
        nonce, pt, ad, ct = (bytes.fromhex(r[k]) for k in ("Nonce", "PT", "AD", "CT"))
        assert a.encrypt(nonce, pt, ad) == ct
        assert a.decrypt(nonce, ct, ad) == pt
        n += 1
    assert n > 100


@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("impl", sparkle.implementations())
def test_round_trip_and_tamper(cls, impl):
    key = os.urandom(cls.key_size)
    a, ref = cls(key, impl=impl), cls(key, impl="ref")
    for n in (0, 1, 15, 16, 17, 33, 100, 2000):
        nonce, msg, ad = os.urandom(cls.nonce_size), os.urandom(n), os.urandom(n % 37)
        ct = a.encrypt(nonce, msg, ad)
        assert len(ct) == n + cls.tag_size
        assert ct == ref.encrypt(nonce, msg, ad)
        assert a.decrypt(nonce, ct, ad) == msg
        for i in {0, len(ct) // 2, len(ct) - 1}:
            bad = bytearray(ct)
            bad[i] ^= 0x01
            with pytest.raises(nuri.InvalidTag):
                a.decrypt(nonce, bytes(bad), ad)
        with pytest.raises(nuri.InvalidTag):
            a.decrypt(bytes([nonce[0] ^ 0x80]) + nonce[1:], ct, ad)
        with pytest.raises(nuri.InvalidTag):
            a.decrypt(nonce, ct, ad + b"\x00")


def test_associated_data_default_and_batch():
    a = aead.Schwaemm256_128(bytes(16))
    nonce = bytes(32)
    assert a.encrypt(nonce, b"x") == a.encrypt(nonce, b"x", b"")
    nonces = [os.urandom(32) for _ in range(21)]
    msgs = [os.urandom(i * 5) for i in range(21)]
    ads = [os.urandom(i % 4) for i in range(21)]
    for impl in sparkle.implementations():
        b = aead.Schwaemm256_128(bytes(16), impl=impl)
        assert b.encrypt_many(nonces, msgs, ads) == [a.encrypt(n, m, d) for n, m, d in zip(nonces, msgs, ads)]
        assert b.encrypt_many(nonces, msgs) == [a.encrypt(n, m) for n, m in zip(nonces, msgs)]
    assert a.encrypt_many([], []) == []


@pytest.mark.parametrize("cls", CLASSES)
def test_bad_lengths(cls):
    with pytest.raises(ValueError, match="key must be"):
        cls(bytes(cls.key_size - 1))
    a = cls(bytes(cls.key_size))
    with pytest.raises(ValueError, match="nonce must be"):
        a.encrypt(bytes(cls.nonce_size + 1), b"", b"")
    with pytest.raises(ValueError, match="nonce must be"):
        a.decrypt(bytes(3), bytes(40), b"")
    with pytest.raises(ValueError, match="tag"):
        a.decrypt(bytes(cls.nonce_size), bytes(cls.tag_size - 1), b"")
    with pytest.raises(TypeError):
        a.encrypt(bytes(cls.nonce_size), "text", b"")
    assert len(cls.generate_key()) == cls.key_size
