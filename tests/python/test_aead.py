"""nuri.aead: Schwaemm KAT records, round trips, tamper rejection, argument checks."""

import os

import pytest

import nuri
from nuri import aead, sparkle

from vectors import VECTORS, passed, records

CLASSES = [aead.Schwaemm128_128, aead.Schwaemm256_128, aead.Schwaemm192_192, aead.Schwaemm256_256]
FILES = ["LWC_AEAD_KAT_128_128.txt", "LWC_AEAD_KAT_128_256.txt", "LWC_AEAD_KAT_192_192.txt", "LWC_AEAD_KAT_256_256.txt"]
# (class, Count, CT) records from the NIST KAT files (Key/Nonce/PT/AD = 00 01 02 ...)
KAT = [
    (aead.Schwaemm256_128, 1, 0, 0, "9E3F9F2E8E26E7D00A9EB92730717A51"),
    (aead.Schwaemm256_128, 2, 0, 1, "57F83C3E696AE65582DD27FE6FC2F239"),
    (aead.Schwaemm128_128, 34, 1, 0, "FE2647AA4FB548ACF44067BEC0337B4D25"),
]


@pytest.mark.parametrize("cls,count,mlen,adlen,ct", KAT)
def test_kat_records(cls, count, mlen, adlen, ct):
    a = cls(bytes(range(cls.key_size)))
    nonce = bytes(range(cls.nonce_size))
    assert a.encrypt(nonce, bytes(range(mlen)), bytes(range(adlen))).hex().upper() == ct
    assert a.decrypt(nonce, bytes.fromhex(ct), bytes(range(adlen))) == bytes(range(mlen))


@pytest.mark.parametrize("cls,name", list(zip(CLASSES, FILES)))
def test_kat_files(cls, name):
    n = 0
    for r in records(VECTORS / "sparkle" / name):
        a = cls(bytes.fromhex(r["Key"]))
        nonce, pt, ad, ct = (bytes.fromhex(r[k]) for k in ("Nonce", "PT", "AD", "CT"))
        assert a.encrypt(nonce, pt, ad) == ct
        assert a.decrypt(nonce, ct, ad) == pt
        n += 1
    assert n == 33 * 33
    passed(__name__, name, n)


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
def test_into_overlap(cls):
    """Exact aliasing (a message's output at its own input's address) is in place and allowed; an
    output that overlaps an input otherwise, or another output, is refused with ValueError and
    nothing written. Before, an output shifted forward by 1..64 bytes gave a ciphertext whose tag
    never verified, silently."""
    key = os.urandom(cls.key_size)
    a = cls(key)
    t = cls.tag_size
    nonce, msg = os.urandom(cls.nonce_size), os.urandom(300)
    want = a.encrypt(nonce, msg, b"ad")
    for d in list(range(-64, 0)) + list(range(1, 65)):
        buf = bytearray(600)
        buf[100:400] = msg
        before = bytes(buf)
        with pytest.raises(ValueError, match="overlap"):
            a.encrypt_spans_into([nonce], buf, [(100, 300)], buf, [100 + d], [b"ad"])
        assert bytes(buf) == before, d
        buf[100 : 100 + len(want)] = want
        before = bytes(buf)
        with pytest.raises(ValueError, match="overlap"):
            a.decrypt_spans_into([nonce], buf, [(100, len(want))], buf, [100 + d], [b"ad"])
        assert bytes(buf) == before, d
        mv = memoryview(buf)
        with pytest.raises(ValueError, match="overlap"):
            a.encrypt_many_into([nonce], [mv[100:400]], [mv[100 + d : 100 + d + 300 + t]], [b"ad"])
        del mv
    # in place: the same address
    buf = bytearray(600)
    buf[100:400] = msg
    a.encrypt_spans_into([nonce], buf, [(100, 300)], buf, [100], [b"ad"])
    assert bytes(buf[100 : 100 + len(want)]) == want
    a.decrypt_spans_into([nonce], buf, [(100, len(want))], buf, [100], [b"ad"])
    assert bytes(buf[100:400]) == msg
    # across messages: output 0 runs into input 1, or into output 1
    buf = bytearray(2000)
    buf[0:300], buf[300:600] = msg, msg
    before = bytes(buf)
    with pytest.raises(ValueError, match="overlap"):
        a.encrypt_spans_into([nonce, nonce], buf, [(0, 300), (300, 300)], buf, [0, 1000], [b"", b""])
    with pytest.raises(ValueError, match="overlap"):
        a.encrypt_spans_into([nonce, nonce], buf, [(0, 300), (300, 300)], buf, [1000, 1000 + 300], [b"", b""])
    assert bytes(buf) == before
    # disjoint outputs in the same buffer, right after each other, are fine
    a.encrypt_spans_into([nonce, nonce], buf, [(0, 300), (300, 300)], buf, [1000, 1000 + 300 + t], [b"", b""])


@pytest.mark.parametrize("cls", CLASSES)
def test_batches_into_buffers(cls):
    """encrypt_many_into / decrypt_many / decrypt_many_into and the span forms, every implementation
    against one-shot calls: uniform runs of 64 KiB + 5-byte chunks (the transposed path) with a short
    last one, in place and into slices; a tampered message is zeroed, named in ``failed``, the
    others open; bad buffers are ValueError/TypeError."""
    import gc

    key = os.urandom(cls.key_size)
    a = cls(key)
    lens = [65541] * 11 + [100] + [33] * 3 + [0]
    nonces = [os.urandom(cls.nonce_size) for _ in lens]
    msgs = [os.urandom(n) for n in lens]
    ads = [os.urandom(i % 3 * 16) for i in range(len(lens))]
    want = [a.encrypt(n, m, d) for n, m, d in zip(nonces, msgs, ads)]
    t = cls.tag_size
    for impl in sparkle.implementations():
        b = cls(key, impl=impl)
        outs = [bytearray(len(m) + t) for m in msgs]
        b.encrypt_many_into(nonces, msgs, outs, ads)
        assert [bytes(o) for o in outs] == want, impl
        assert b.decrypt_many(nonces, want, ads) == msgs, impl
        # spans of one buffer into another, then opened in place
        src = b"".join(msgs)
        spans, o = [], 0
        for n in lens:
            spans.append((o, n))
            o += n
        dst = bytearray(len(src) + t * len(lens))
        offs = [so + t * i for i, (so, _) in enumerate(spans)]
        b.encrypt_spans_into(nonces, src, spans, dst, offs, ads)
        assert bytes(dst) == b"".join(want), impl
        dst[offs[4] + 7] ^= 1  # message 4: a ciphertext byte
        with pytest.raises(nuri.InvalidTag) as e:
            b.decrypt_spans_into(nonces, dst, [(d, n + t) for d, (_, n) in zip(offs, spans)], dst, offs, ads)
        assert e.value.failed == [4]
        for i, (d, (_, n)) in enumerate(zip(offs, spans)):
            assert bytes(dst[d : d + n]) == (bytes(n) if i == 4 else msgs[i]), (impl, i)
        # memoryview slices as the outputs of decrypt_many_into
        back = bytearray(sum(lens))
        mv = memoryview(back)
        views = [mv[so : so + n] for so, n in spans]
        bad = list(want)
        bad[11] = want[11][:-1] + bytes([want[11][-1] ^ 1])  # message 11: its tag
        with pytest.raises(nuri.InvalidTag, match="message 11"):
            b.decrypt_many_into(nonces, bad, views, ads)
        b.decrypt_many_into(nonces, want, views, ads)
        assert bytes(back) == src
        del views, mv
        gc.collect()
    with pytest.raises(ValueError, match="outputs"):
        a.encrypt_many_into(nonces[:1], msgs[:1], [bytearray(lens[0])])
    with pytest.raises(TypeError, match="writable"):
        a.encrypt_many_into(nonces[:1], msgs[:1], [bytes(lens[0] + t)])
    with pytest.raises(ValueError, match="outside"):
        a.encrypt_spans_into(nonces[:1], bytes(10), [(5, 6)], bytearray(100), [0])
    with pytest.raises(ValueError, match="tag"):
        a.decrypt_many_into(nonces[:1], [bytes(t - 1)], [bytearray(0)])
    with pytest.raises(ValueError, match="one nonce per message"):
        a.encrypt_many_into(nonces[:2], msgs[:1], [bytearray(lens[0] + t)])
    a.encrypt_many_into([], [], [])


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
