"""nuri.hash: Esch256/Esch384 KAT records, hashlib-style API, chunking, copy, batch."""

import os

import pytest

from nuri import hash as H
from nuri import sparkle

from vectors import VECTORS, passed, records

KAT = [
    (H.Esch256, "", "C0E815D78B875DC768C6C8B3AFA51987CD69E5C087D387368628A511CFAD5730"),
    (H.Esch256, "00", "D515FD9C2852D9D6F00C9CF01D858AF467EEDF21FF68CC14C005B3EFF7A6ECD3"),
    (H.Esch256, "0001", "FBCAD7AB77FD4CC844534D2716D08C092B40B86E00647ECAA429AFDFE3B3FC43"),
]


@pytest.mark.parametrize("cls,msg,md", KAT)
def test_kat_records(cls, msg, md):
    assert cls(bytes.fromhex(msg)).hexdigest().upper() == md
    assert H.esch256(bytes.fromhex(msg)).hex().upper() == md


@pytest.mark.parametrize("fn,name", [(H.esch256, "LWC_HASH_KAT_256.txt"), (H.esch384, "LWC_HASH_KAT_384.txt")])
def test_kat_files(fn, name):
    recs = list(records(VECTORS / "sparkle" / name))
    assert len(recs) == 1025
    for r in recs:
        assert fn(bytes.fromhex(r["Msg"])).hex().upper() == r["MD"]
    passed(__name__, name, len(recs))


@pytest.mark.parametrize("cls,size", [(H.Esch256, 32), (H.Esch384, 48)])
def test_api(cls, size):
    h = cls()
    assert h.digest_size == size and h.block_size == 16 and h.name == cls.__name__.lower()
    data = os.urandom(1000)
    one = cls(data).digest()
    assert len(one) == size
    pos = 0
    for step in (0, 1, 15, 16, 17, 3, 100, 500):
        h.update(data[pos : pos + step])
        pos += step
    c = h.copy()
    h.update(data[pos:])
    assert h.digest() == one and h.digest() == one  # digest() does not end the object
    c.update(data[pos:])
    assert c.hexdigest() == one.hex()
    h.update(b"more")
    assert h.digest() != one


@pytest.mark.parametrize("impl", sparkle.implementations())
def test_impls_and_batch(impl):
    msgs = [os.urandom(n) for n in (0, 1, 16, 17, 64, 64, 64, 200, 31, 32, 33, 5, 64, 64, 64, 64, 1000)]
    ref = [H.esch256(m) for m in msgs]
    assert [H.Esch256(m, impl=impl).digest() for m in msgs] == ref
    assert H.esch256_many(msgs, impl=impl) == ref
    assert H.esch384_many(msgs, impl=impl) == [H.esch384(m) for m in msgs]
    assert H.esch256_many([]) == []


def test_types():
    with pytest.raises(TypeError):
        H.esch256("text")
    with pytest.raises(TypeError):
        H.Esch384().update(5)
