"""The STREAM payload (Hoang, Reyhanitabar, Rogaway, Vizar, CRYPTO 2015), written once for every
nuri-seal version and for video segments::

    chunk_i = Schwaemm256-128.encrypt(key, prefix (23) | BE64(i) | last (1), plaintext_i, ad)

Every plaintext chunk holds exactly ``chunk_size`` bytes except the final one (0..chunk_size bytes,
flag 0x01); an empty payload is one empty final chunk. The index detects reordering and splicing,
the flag truncation and appended data.

Chunks are independent, so both directions work on groups of chunks at once, without copies: a
group is read with ``readinto`` into a preallocated buffer, split into one share per core, each
share sealed or opened by one C batch call (``encrypt_spans_into`` / ``decrypt_spans_into``: the
transposed multi-instance Schwaemm kernel, GIL released; the first share in the calling thread, the
others in worker threads) straight into a preallocated output buffer, and the group is written with
one call by a writer thread. While a group is computed the next one is read and the previous one
written; two input and two output buffers are all the memory, whatever the size of the input.
"""

import io
import os
import stat
import struct
import threading
from concurrent.futures import ThreadPoolExecutor

from .._native import ffi, lib
from ..exceptions import InvalidTag

TAG_LEN = 16
PREFIX_LEN = 23
KEY_LEN = 16
GROUP_BYTES = 4 << 20  # chunks handled together; memory is four groups (two in, two out), kept for reuse
_FAIL = "failed to authenticate (wrong key, or the data was modified, truncated or reordered)"


def nonce(prefix: bytes, i: int, last: bool) -> bytes:
    return prefix + struct.pack(">Q", i) + (b"\x01" if last else b"\x00")


def default_workers():
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(n, 8))


_POOLS = {}
_POOLS_LOCK = threading.Lock()


def _pool(workers, role="worker"):
    """One long-lived thread pool per role and size (starting threads per file costs milliseconds);
    a forked child makes its own (the parent's threads do not exist there)."""
    with _POOLS_LOCK:
        pid, pool = _POOLS.get((role, workers), (None, None))
        if pool is None or pid != os.getpid():
            pool = ThreadPoolExecutor(workers, thread_name_prefix=f"nuri-seal-{role}")
            _POOLS[role, workers] = (os.getpid(), pool)
        return pool


_SPARE = []  # wiped group buffers kept for the next payload (a fresh 4 MiB buffer costs ~2.5 ms of page faults)
_SPARE_MAX = 8


def _take(size):
    """A zeroed-or-wiped bytearray of exactly size bytes, from the spares when one fits."""
    with _POOLS_LOCK:
        for i, b in enumerate(_SPARE):
            if len(b) == size:
                return _SPARE.pop(i)
    return bytearray(size)


def _give(buf, n):
    """Wipes the first n bytes of buf (what was used; untouched pages stay unmapped) and keeps it."""
    if n:
        lib.nuri_wipe(ffi.from_buffer(buf), n)
    with _POOLS_LOCK:
        _SPARE.append(buf)
        del _SPARE[:-_SPARE_MAX]


def _fill(fin, mv):
    """Reads into the memoryview until it is full or EOF (pipes return short reads); returns the count."""
    got, n = 0, len(mv)
    readinto = getattr(fin, "readinto", None)
    while got < n:
        if readinto is not None:
            k = readinto(mv[got:])
        else:
            b = fin.read(n - got)
            k = len(b)
            mv[got : got + k] = b
        if not k:
            break
        got += k
    return got


def _remaining(fin):
    """Bytes left in a regular file or a BytesIO (to size the buffers of a small input), else None."""
    try:
        if isinstance(fin, io.BytesIO):
            with fin.getbuffer() as b:
                return max(0, len(b) - fin.tell())
        st = os.fstat(fin.fileno())
        if not stat.S_ISREG(st.st_mode):
            return None
        return max(0, st.st_size - fin.tell())
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None


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

    def _groups(self, fin, unit, per_group, bufs, used):
        """Yields (first chunk index, buffer, byte count, final) for groups of ``per_group`` chunks of
        ``unit`` input bytes, reading into the two buffers in turn. Each read asks for one byte more
        than a group: that byte, carried to the next group, says whether more data follows, so the
        final chunk (short, or full with nothing after it) is flagged without reading a chunk ahead.
        used[i] keeps the most bytes ever read into bufs[i]."""
        size = per_group * unit
        carry, index, k = None, 0, 0
        while True:
            buf = bufs[k % 2]
            start = 0
            if carry is not None:
                buf[0] = carry
                start = 1
            with memoryview(buf) as mv:
                n = start + _fill(fin, mv[start : size + 1])
            used[k % 2] = max(used[k % 2], n)
            if n <= size:
                yield index, buf, n, True
                return
            carry = buf[size]
            yield index, buf, size, False
            index += per_group
            k += 1

    @staticmethod
    def _chunks(n, unit, final):
        """(offset, length) of the chunks of a group of n bytes (an empty final group is one empty chunk)."""
        spans = [(o, min(unit, n - o)) for o in range(0, n, unit)]
        return spans if spans or not final else [(0, 0)]

    def _seal_share(self, src, dst, index, spans, last, final):
        """Seals the chunks at spans [(offset, length)] of one group (the chunk at offset o has index
        index + o // chunk_size) into dst; returns None."""
        cs, out_unit = self.chunk_size, self.chunk_size + TAG_LEN
        nonces = [nonce(self.prefix, index + o // cs, final and o == last) for o, _ in spans]
        self.aead.encrypt_spans_into(
            nonces, src, spans, dst, [(o // cs) * out_unit for o, _ in spans], [self.ad] * len(spans)
        )
        return None

    def _open_share(self, src, dst, index, spans, last, final):
        """Opens the chunks at spans of one group into dst; returns the position in the group of the
        first chunk that fails, or None."""
        cs, unit = self.chunk_size, self.chunk_size + TAG_LEN
        bad = [o // unit for o, n in spans if n < TAG_LEN]  # shorter than a tag: a cut final chunk
        spans = [(o, n) for o, n in spans if n >= TAG_LEN]
        nonces = [nonce(self.prefix, index + o // unit, final and o == last) for o, _ in spans]
        try:
            self.aead.decrypt_spans_into(
                nonces, src, spans, dst, [(o // unit) * cs for o, _ in spans], [self.ad] * len(spans)
            )
        except InvalidTag as e:
            bad += [spans[i][0] // unit for i in e.failed]
        return min(bad) if bad else None

    def _run(self, fin, unit_in, unit_out, share_fn, plan, write, progress):
        """The pipeline. Three things run at once: this thread reads group k+1, the workers compute
        group k, and a writer thread writes group k-1 (in order; its output buffer is reused only
        after it was written). plan(group, spans, share results) -> (bytes to write from the start of
        the group's output buffer, error to raise after writing them or None, progress amount,
        payload bytes)."""
        per_group = self.group
        left = _remaining(fin)
        if left is not None:  # a regular file smaller than a group: buffers of its size
            per_group = max(1, min(per_group, -(-left // unit_in)))
        ins = [_take(per_group * unit_in + 1) for _ in range(2)]
        outs = [_take(per_group * unit_out) for _ in range(2)]
        used = [0, 0]  # bytes of ins[i] / outs[i] ever filled (what the end wipes)
        pool = _pool(self.workers - 1) if self.workers > 1 else None
        writer = _pool(1, "writer") if self.workers > 1 else None

        def start(group, k):
            index, buf, n, final = group
            spans = self._chunks(n, unit_in, final)
            last = spans[-1][0]
            src, dst = buf, outs[k % 2]  # bytearrays, no memoryviews: cffi holds no view in a cycle
            per = -(-len(spans) // max(1, min(self.workers, len(spans))))
            shares = [spans[j : j + per] for j in range(0, len(spans), per)]
            if pool is None or len(shares) == 1:
                return [_Done(share_fn(src, dst, index, sh, last, final)) for sh in shares], spans
            # the other shares to the workers, the first one here (one thread wake-up fewer per group)
            futs = [pool.submit(share_fn, src, dst, index, sh, last, final) for sh in shares[1:]]
            try:
                first = _Done(share_fn(src, dst, index, shares[0], last, final))
            except BaseException:
                for f in futs:  # they use the buffers: let them finish before anything is wiped
                    try:
                        f.result()
                    except Exception:
                        pass
                raise
            return [first] + futs, spans

        def put(buf, n):
            if n:
                write(memoryview(buf)[:n])

        running, pending = [], None  # futures that still use the buffers
        total = 0
        try:
            groups = self._groups(fin, unit_in, per_group, ins, used)
            cur = next(groups)
            running, spans = start(cur, 0)
            k = 0
            while cur is not None:
                nxt = next(groups, None)  # read ahead while the workers compute
                results = [f.result() for f in running]
                running = []
                if pending is not None:  # group k-1 written: its output buffer is free again
                    fut, amount = pending
                    pending = None
                    fut.result()
                    if progress and amount:
                        progress(amount)
                if nxt is not None:
                    running, nspans = start(nxt, k + 1)
                n, err, amount, counted = plan(cur, spans, results)
                total += counted
                if writer is None or err is not None:
                    put(outs[k % 2], n)
                    if err is not None:
                        raise err
                    if progress and amount:
                        progress(amount)
                else:
                    pending = (writer.submit(put, outs[k % 2], n), amount)
                if nxt is not None:
                    spans = nspans
                cur, k = nxt, k + 1
            if pending is not None:
                fut, amount = pending
                pending = None
                fut.result()
                if progress and amount:
                    progress(amount)
            return total
        finally:
            for f in running + ([pending[0]] if pending else []):  # an error meanwhile: let them finish
                try:
                    f.result()
                except Exception:
                    pass
            for i in range(2):  # plaintext on one side or the other
                _give(ins[i], min(len(ins[i]), used[i]))
                _give(outs[i], min(len(outs[i]), (used[i] // unit_in + 1) * unit_out))

    # -- whole payloads --

    def seal(self, fin, write, progress=None):
        """Reads plaintext from fin, calls write with the sealed chunks (one bytes-like object per group
        of chunks, valid only during the call; the calls come in order, from a writer thread when
        there are several workers). Returns the plaintext length."""

        def plan(group, spans, results):
            n = sum(n for _, n in spans)
            return n + TAG_LEN * len(spans), None, n, n

        return self._run(fin, self.chunk_size, self.chunk_size + TAG_LEN, self._seal_share, plan, write, progress)

    def open(self, fin, write, progress=None):
        """Reads sealed chunks from fin and calls write with the plaintext of each group of chunks once
        they (and every chunk before them) have authenticated (bytes-like, valid only during the call;
        in order, from a writer thread when there are several workers). Raises InvalidTag naming the
        first chunk that fails (after writing the chunks before it), and on truncation or data after
        the final chunk. Returns the plaintext length."""

        def plan(group, spans, results):
            bad = min((r for r in results if r is not None), default=None)
            good = spans if bad is None else spans[:bad]
            n = sum(n - TAG_LEN for _, n in good)
            err = None if bad is None else InvalidTag(f"chunk {group[0] + bad} {_FAIL}")
            return n, err, sum(n for _, n in spans), n

        return self._run(fin, self.chunk_size + TAG_LEN, self.chunk_size, self._open_share, plan, write, progress)
