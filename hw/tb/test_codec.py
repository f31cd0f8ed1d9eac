"""Codec: ByteEncode_d(Compress_d(f)) and Decompress_d(ByteDecode_d(B)) against FIPS 203 models for
every d ML-KEM uses; the d = 12 modulus check flags a field >= q; compress/decompress constants
checked exhaustively (the RTL's shift-add division is the same arithmetic)."""

import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

import models

Q = models.Q
DS = (1, 4, 5, 10, 11, 12)


def test_constants_exhaustively():
    # the RTL's arithmetic (rtl/codec.vh): one truncated product p ~ 2^21 x / q for every d,
    # rounded at bit 20 - d; Decompress_d through the 12-bit left-aligned field. FIPS 203 rounds exactly.
    for d in DS[:-1]:
        for x in range(Q):
            p = (x << 9) + (x << 7) - (x << 3) - (x << 1) - (x >> 5) - (x >> 8) - 2 + (1 << (20 - d))
            assert 0 <= p < 1 << 22 and (p >> (21 - d)) % (1 << d) == models.compress(x, d)
        for y in range(1 << d):
            assert (Q * (y << (12 - d)) + 2048) >> 12 == models.decompress(y, d)
    # with m (encryption's v + Decompress_1(m) = v + 1665, d = 1, 4, 5): K = 2^20 + 315 more
    for d in (1, 4, 5):
        for x in range(Q):
            p = (x << 9) + (x << 7) - (x << 3) - (x << 1) - (x >> 5) - (x >> 8) - 2 + (1 << (20 - d))
            assert ((p + (1 << 20) + 315) >> (21 - d)) % (1 << d) == models.compress((x + 1665) % Q, d)


@cocotb.test()
async def constants(dut):
    test_constants_exhaustively()


async def reset(dut, d):
    cocotb.start_soon(Clock(dut.clk, 10, units="ns").start())
    for s in ("start", "s_word_valid", "s_word", "s_word_m", "s_lane_ready", "d_lane_valid", "d_lane"):
        getattr(dut, s).value = 0
    dut.rst.value = 1
    dut.d.value = d
    await RisingEdge(dut.clk)
    dut.rst.value = 0
    dut.start.value = 1
    await RisingEdge(dut.clk)
    dut.start.value = 0


async def serialize(dut, d, f, gaps=None, m=None):
    """gaps: a random.Random to offer words and take lanes only some cycles (else every cycle);
    m: 256 bits, each adding 1665 to its coefficient before Compress (word_m)."""
    w = 2 * int(dut.NBU.value)
    await reset(dut, d)
    words = [sum(c << (12 * i) for i, c in enumerate(f[k : k + w])) for k in range(0, 256, w)]
    mbits = [sum(b << i for i, b in enumerate((m or [0] * 256)[k : k + w])) for k in range(0, 256, w)]
    out = b""
    k = 0
    for _ in range(4000):
        offer = k < len(words) and (gaps is None or gaps.random() < 0.6)
        ready = gaps is None or gaps.random() < 0.6
        dut.s_word_valid.value = int(offer)
        dut.s_word.value = words[k] if offer else 0
        dut.s_word_m.value = mbits[k] if offer else 0
        dut.s_lane_ready.value = int(ready)
        await ReadOnly()
        took = offer and dut.s_word_ready.value == 1
        if ready and dut.s_lane_valid.value == 1:
            out += int(dut.s_lane.value).to_bytes(8, "little")
        await RisingEdge(dut.clk)
        k += took
        if len(out) >= 32 * d:
            break
    dut.s_word_valid.value = 0
    dut.s_lane_ready.value = 0
    assert len(out) == 32 * d, f"serializer stalled: d = {d}, W = {w}, {len(out) // 8} of {4 * d} lanes"
    return out


async def deserialize(dut, d, data, gaps=None):
    """gaps: a random.Random to offer lanes only some cycles (else every cycle)."""
    w = 2 * int(dut.NBU.value)
    await reset(dut, d)
    lanes = [int.from_bytes(data[i : i + 8], "little") for i in range(0, len(data), 8)]
    got = {}
    k = 0
    for _ in range(4000):
        offer = k < len(lanes) and (gaps is None or gaps.random() < 0.5)
        dut.d_lane_valid.value = int(offer)
        dut.d_lane.value = lanes[k] if offer else 0
        await ReadOnly()
        took = offer and dut.d_lane_ready.value == 1
        if dut.d_word_valid.value == 1:
            v = int(dut.d_word.value)
            got[int(dut.d_word_index.value)] = [(v >> (12 * i)) & 0xFFF for i in range(w)]
        await RisingEdge(dut.clk)
        k += took
        if len(got) == 256 // w:
            break
    dut.d_lane_valid.value = 0
    # a lane-accept rule that leaves fewer than d W bits held and takes no lane stalls for good
    assert len(got) == 256 // w, f"deserializer stalled: d = {d}, W = {w}, {len(got)} of {256 // w} words"
    assert k == len(lanes), (d, w, k)
    await RisingEdge(dut.clk)
    await ReadOnly()
    bad = dut.d_bad.value == 1
    await RisingEdge(dut.clk)
    return [c for i in sorted(got) for c in got[i]], bad


@cocotb.test()
async def encode(dut):
    rng = random.Random(10)
    for d in DS:
        f = [rng.randrange(Q) for _ in range(256)]
        f[:4] = [0, Q - 1, Q // 2, Q // 2 + 1]
        want = models.byte_encode(f if d == 12 else [models.compress(x, d) for x in f], d)
        assert await serialize(dut, d, f) == want, d


@cocotb.test()
async def encode_every_value(dut):
    # Compress_d of every x < q through the RTL (13 polynomials per d)
    xs = list(range(Q))
    xs += xs[: (-len(xs)) % 256]
    for d in DS[:-1]:
        for k in range(0, len(xs), 256):
            f = xs[k : k + 256]
            want = models.byte_encode([models.compress(x, d) for x in f], d)
            assert await serialize(dut, d, f) == want, (d, k)


@cocotb.test()
async def encode_plus_mu(dut):
    # v + Decompress_1(m) compressed (the core's addm) for every x < q, m = 0 and 1 mixed
    rng = random.Random(11)
    xs = list(range(Q))
    xs += xs[: (-len(xs)) % 256]
    for d in (1, 4, 5):
        for k in range(0, len(xs), 256):
            f = xs[k : k + 256]
            m = [rng.randrange(2) for _ in range(256)]
            want = models.byte_encode([models.compress((x + 1665 * b) % Q, d) for x, b in zip(f, m)], d)
            assert await serialize(dut, d, f, m=m) == want, (d, k)


@cocotb.test()
async def decode(dut):
    rng = random.Random(11)
    for d in DS:
        if d == 12:
            f = [rng.randrange(Q) for _ in range(256)]
            data = models.byte_encode(f, 12)
            got, bad = await deserialize(dut, d, data)
            assert got == f and not bad
            for pos, val in ((0, Q), (255, 4095), (100, Q + 1)):
                g = list(f)
                g[pos] = val
                got, bad = await deserialize(dut, d, models.byte_encode(g, 12))
                assert bad, (pos, val)
        else:
            data = bytes(rng.randrange(256) for _ in range(32 * d))
            want = [models.decompress(y, d) for y in models.byte_decode(data, d)]
            got, bad = await deserialize(dut, d, data)
            assert got == want and not bad, d


@cocotb.test()
async def decode_every_value(dut):
    # Decompress_d of every d-bit value through the RTL
    for d in DS[:-1]:
        ys = [y % (1 << d) for y in range(max(256, 1 << d))]
        for k in range(0, len(ys), 256):
            data = models.byte_encode(ys[k : k + 256], d)
            got, bad = await deserialize(dut, d, data)
            assert got == [models.decompress(y, d) for y in ys[k : k + 256]] and not bad, (d, k)


@cocotb.test()
async def every_d_with_gaps(dut):
    # every d at this W (the run.py units codec_nbu1/codec/codec_nbu4: W = 2, 4, 8), lanes and
    # words offered and taken on random cycles as well as every cycle: every word out, in order,
    # bit-exact, and no stall (d = 11 at W = 8, 88 bits a word, once deadlocked at 80 bits held)
    rng = random.Random(12)
    for d in DS:
        for gaps in (None, random.Random(d), random.Random(100 + d)):
            f = [rng.randrange(Q) for _ in range(256)]
            want = models.byte_encode(f if d == 12 else [models.compress(x, d) for x in f], d)
            assert await serialize(dut, d, f, gaps) == want, (d, gaps)
            data = bytes(rng.randrange(256) for _ in range(32 * d)) if d < 12 else want
            want_f = [models.decompress(y, d) for y in models.byte_decode(data, d)] if d < 12 else f
            got, bad = await deserialize(dut, d, data, gaps)
            assert got == want_f and not bad, (d, gaps)
