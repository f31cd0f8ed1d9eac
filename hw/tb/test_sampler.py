"""Samplers: SampleNTT on SHAKE128(rho || j || i) and SamplePolyCBD (eta 2, 3, plain and scaled
by 128^-1) on SHAKE256(sigma || N), through the sponge and the word packer, against FIPS 203 models
fed by hashlib."""

import hashlib
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

import models
from stream import feed_message


async def reset(dut):
    cocotb.start_soon(Clock(dut.clk, 10, units="ns").start())
    for s in ("init", "hash_mode", "sample_mode", "scale", "in_valid", "in_data", "in_bytes", "in_last"):
        getattr(dut, s).value = 0
    dut.rst.value = 1
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst.value = 0


async def sample(dut, hash_mode, sample_mode, seed, scale=0):
    w = 2 * int(dut.NBU.value)
    dut.init.value = 1
    dut.hash_mode.value = hash_mode
    dut.sample_mode.value = sample_mode
    dut.scale.value = scale
    await RisingEdge(dut.clk)
    dut.init.value = 0
    await feed_message(dut, seed)
    coeffs = {}
    cycles = 0
    while len(coeffs) < 256 // w:
        await ReadOnly()
        if dut.word_valid.value == 1:
            idx = int(dut.word_index.value)
            v = int(dut.word.value)
            coeffs[idx] = [(v >> (12 * i)) & 0xFFF for i in range(w)]
        await RisingEdge(dut.clk)
        cycles += 1
        assert cycles < 5000
    return [c for k in sorted(coeffs) for c in coeffs[k]]


@cocotb.test()
async def sample_ntt(dut):
    await reset(dut)
    rng = random.Random(7)
    for t in range(4):
        seed = bytes(rng.randrange(256) for _ in range(32)) + bytes([t, 3 - t])
        want = models.sample_ntt(hashlib.shake_128(seed).digest(1024))
        assert await sample(dut, 2, 0, seed) == want


@cocotb.test()
async def sample_cbd(dut):
    await reset(dut)
    rng = random.Random(8)
    for eta in (2, 3):
        for n in range(3):
            seed = bytes(rng.randrange(256) for _ in range(32)) + bytes([n])
            want = models.sample_cbd(hashlib.shake_256(seed).digest(64 * eta), eta)
            assert await sample(dut, 3, eta - 1, seed) == want
            # scaled by 128^-1 mod q (encryption's y, whose products skip the INTT scaling)
            scaled = [x * 3303 % models.Q for x in want]
            assert await sample(dut, 3, eta - 1, seed, scale=1) == scaled
