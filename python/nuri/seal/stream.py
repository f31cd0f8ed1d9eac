"""The STREAM payload (Hoang, Reyhanitabar, Rogaway, Vizar, CRYPTO 2015), written once for every
nuri-seal version and for video segments::

    chunk_i = Schwaemm256-128.encrypt(key, prefix (23) | BE64(i) | last (1), plaintext_i, ad)

Every plaintext chunk holds exactly ``chunk_size`` bytes except the final one (0..chunk_size bytes,
flag 0x01); an empty payload is one empty final chunk. The index detects reordering and splicing,
the flag truncation and appended data.

Chunks are independent, so both directions work on groups of chunks at once: a group is split
between worker threads (the C calls release the GIL) and, for sealing, each share goes through the
multi-instance Schwaemm kernels (``encrypt_many``). While a group is computed the next one is read,
so memory stays at a few groups whatever the size of the input.
"""
import os
import struct
from concurrent.futures import ThreadPoolExecutor

from .._util import read_full
from ..exceptions import InvalidTag

TAG_LEN = 16
PREFIX_LEN = 23
KEY_LEN = 16
GROUP_BYTES = 4 << 20  # chunks handled together; memory is about three groups
_FAIL = "failed to authenticate (wrong key, or the data was modified, truncated or reordered)"


def nonce(prefix: bytes, i: int, last: bool) -> bytes:
    return prefix + struct.pack(">Q", i) + (b"\x01" if last else b"\x00")


def default_workers():
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(n, 8))


class _Done:
    """An already computed result, shaped like a future."""

    def __init__(self, value):
        self.value = value

    def result(self):
        return self.value


class Payload:
    """A STREAM payload: Schwaemm256-128 key (16 bytes), nonce prefix (23 bytes) and the associated
    data bound into every chunk."""

    def __init__(self, key: bytes, prefix: bytes, ad: bytes, chunk_size: int, workers: int = None):
        from ..aead import Schwaemm256_128

        if len(key) != KEY_LEN or len(prefix) != PREFIX_LEN:
            raise ValueError("payload key must be 16 bytes and nonce prefix 23 bytes")
        self.aead, self.prefix, self.ad, self.chunk_size = Schwaemm256_128(key), prefix, ad, chunk_size
        self.workers = workers or default_workers()
        self.group = max(1, GROUP_BYTES // chunk_size)

    # -- one group: [(index, last, data)] -> [sealed or opened data], in order --

    def _seal_share(self, share):
        return self.aead.encrypt_many([nonce(self.prefix, i, last) for i, last, _ in share],
                                      [d for _, _, d in share], [self.ad] * len(share))

    def _open_share(self, share):
        many = getattr(self.aead, "decrypt_many", None)  # one call for the share where the C batch exists
        if many is not None and len(share) > 1:
            try:
                out = many([nonce(self.prefix, i, last) for i, last, _ in share], [d for _, _, d in share],
                           [self.ad] * len(share))
                if all(isinstance(p, bytes) for p in out):
                    return out, None
            except (InvalidTag, ValueError):
                pass
            # some chunk failed: find the first one, releasing the ones before it
        out = []
        for i, last, d in share:
            try:
                out.append(self.aead.decrypt(nonce(self.prefix, i, last), d, self.ad))
            except (InvalidTag, ValueError):
                return out, i
        return out, None

    def _split(self, group):
        k = min(self.workers, len(group))
        step = -(-len(group) // k)
        return [group[j:j + step] for j in range(0, len(group), step)]

    def _run(self, pool, fn, group):
        """Starts fn on each share of the group; returns futures (computed here when one share)."""
        shares = self._split(group)
        if pool is None or len(shares) == 1:
            return [_Done(fn(s)) for s in shares]
        return [pool.submit(fn, s) for s in shares]

    def _pipeline(self, groups, fn, emit):
        """Computes fn over the shares of each group while the next group is read; emit(group, results)."""
        pool = ThreadPoolExecutor(self.workers) if self.workers > 1 else None
        try:
            it = iter(groups)
            cur = next(it, None)
            pending = self._run(pool, fn, cur) if cur else None
            while cur:
                nxt = next(it, None)  # read ahead while the workers compute
                done = [p.result() for p in pending]
                pending = self._run(pool, fn, nxt) if nxt else None
                emit(cur, done)
                cur = nxt
        finally:
            if pool is not None:
                pool.shutdown(wait=True)

    # -- whole payloads --

    def _groups(self, fin, block):
        """Yields groups [(index, last, bytes)] of ``block``-byte reads; the final one is flagged
        (it is short, or the read after it is empty)."""
        cur = read_full(fin, block)
        i = 0
        while True:
            group = []
            while len(group) < self.group:
                if len(cur) < block:
                    group.append((i, True, cur))
                    yield group
                    return
                nxt = read_full(fin, block)
                if not nxt:
                    group.append((i, True, cur))
                    yield group
                    return
                group.append((i, False, cur))
                cur, i = nxt, i + 1
            yield group

    def seal(self, fin, write, progress=None):
        """Reads plaintext from fin, calls write with each sealed chunk. Returns the plaintext length."""
        total = [0]

        def emit(group, results):
            for share in results:
                for c in share:
                    write(c)
            n = sum(len(d) for _, _, d in group)
            total[0] += n
            if progress:
                progress(n)

        self._pipeline(self._groups(fin, self.chunk_size), self._seal_share, emit)
        return total[0]

    def open(self, fin, write, progress=None):
        """Reads sealed chunks from fin and calls write with each chunk's plaintext once it (and every
        chunk before it) has authenticated. Raises InvalidTag naming the first chunk that fails, and on
        truncation or data after the final chunk. Returns the plaintext length."""
        total = [0]

        def emit(group, results):
            for out, bad in results:
                for p in out:
                    write(p)
                    total[0] += len(p)
                if bad is not None:
                    raise InvalidTag(f"chunk {bad} {_FAIL}")
            if progress:
                progress(sum(len(d) for _, _, d in group))

        self._pipeline(self._groups(fin, self.chunk_size + TAG_LEN), self._open_share, emit)
        return total[0]
