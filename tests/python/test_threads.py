"""One object wrapping a mutable C context, used from 8 threads at once (cffi releases the GIL during C
calls): every such object holds a per-object lock, so no digest is wrong and nothing crashes.
Identical chunks make every interleaving process the same message, so the result is checkable."""

import collections
import threading

import pytest

from nuri import hash as H
from nuri import pipo

THREADS, ROUNDS = 8, 300


def hammer(fn):
    errors = []
    start = threading.Barrier(THREADS)

    def worker():
        try:
            start.wait()
            for _ in range(ROUNDS):
                fn()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    ts = [threading.Thread(target=worker) for _ in range(THREADS)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []


@pytest.mark.parametrize("cls,one_shot", [(H.Esch256, H.esch256), (H.Esch384, H.esch384)])
def test_esch_object_from_8_threads(cls, one_shot):
    chunk = bytes(range(256)) * 4 + b"odd"  # not a multiple of the 16-byte rate: exercises the buffer
    h = cls()
    digests = []
    hammer(lambda: (h.update(chunk), digests.append(len(h.digest()))))
    assert h.digest() == one_shot(chunk * (THREADS * ROUNDS))
    assert set(digests) == {h.digest_size}


@pytest.mark.parametrize("mode,iv", [("ctr", bytes(8)), ("ecb", None), ("cbc", bytes(8))])
@pytest.mark.parametrize("encrypting", [True, False])
def test_pipo_stream_from_8_threads(mode, iv, encrypting):
    key = bytes(range(16))
    chunk = bytes(range(64))  # whole blocks: each update returns exactly its own output blocks
    s = (pipo.Encryptor if encrypting else pipo.Decryptor)(key, mode, iv=iv, padding="none")
    outs = []
    lock = threading.Lock()

    def step():
        c = s.update(chunk)
        with lock:
            outs.append(c)

    hammer(step)
    assert s.finalize() == b""
    full = (pipo.encrypt if encrypting else pipo.decrypt)(key, chunk * (THREADS * ROUNDS), mode, iv=iv, padding="none")
    pieces = [full[i : i + len(chunk)] for i in range(0, len(full), len(chunk))]
    # identical input chunks: whatever the interleaving, every update's output is one aligned piece of
    # the one-shot result, each piece exactly once
    assert collections.Counter(outs) == collections.Counter(pieces)


def test_sealer_from_8_threads():
    """seal.Sealer: chunk i is sealed under nonce i. Without the lock two threads could read the same index
    while the AEAD call has released the GIL, and seal two chunks under one nonce."""
    from nuri import seal
    from nuri.seal.stream import nonce

    s = seal.Sealer(key=bytes(range(16)), chunk_log2=10)
    chunk = bytes(range(256)) * 4  # exactly one chunk: each update seals the previous one
    outs = []
    lock = threading.Lock()

    def step():
        c = s.update(chunk)
        with lock:
            outs.append(c)

    hammer(step)
    last = s.finalize()
    n = THREADS * ROUNDS
    p = s._p
    want = [p.aead.encrypt(nonce(p.prefix, i, False), chunk, p.ad) for i in range(n - 1)]
    assert collections.Counter(o for o in outs if o) == collections.Counter(want)
    assert last == p.aead.encrypt(nonce(p.prefix, n - 1, True), chunk, p.ad)
