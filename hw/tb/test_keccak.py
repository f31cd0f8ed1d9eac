"""Keccak-f[1600] core: against the Python model on random states, and against hashlib."""

import hashlib
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge

import models


async def permute(dut, value):
    dut.state_in.value = value
    dut.start.value = 1
    await RisingEdge(dut.clk)
    dut.start.value = 0
    cycles = 0
    while True:
        await RisingEdge(dut.clk)
        cycles += 1
        if dut.done.value == 1:
            return int(dut.state.value), cycles


async def reset(dut):
    cocotb.start_soon(Clock(dut.clk, 10, units="ns").start())
    dut.rst.value = 1
    dut.start.value = 0
    dut.state_in.value = 0
    for s in ("go", "clear", "xor_we", "xor_lane", "xor_data"):
        getattr(dut, s).value = 0
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst.value = 0


@cocotb.test()
async def random_states(dut):
    await reset(dut)
    rng = random.Random(1600)
    for _ in range(20):
        lanes = [rng.getrandbits(64) for _ in range(25)]
        got, cycles = await permute(dut, models.lanes_to_int(lanes))
        assert got == models.lanes_to_int(models.keccak_f1600(lanes))
        # 24 rounds after the load edge; cocotb samples `done` before the
        # updates of the edge it waits for, so it is seen one edge later.
        assert cycles == 25, cycles


@cocotb.test()
async def sha3_and_shake_single_block(dut):
    """One padded block through the core gives hashlib's SHA3-256 / SHAKE128 outputs."""
    await reset(dut)
    for msg in (b"", b"abc", bytes(range(100))):
        for rate, dsep, ref in (
            (136, 0x06, hashlib.sha3_256(msg).digest()),
            (168, 0x1F, hashlib.shake_128(msg).digest(168)),
        ):
            block = bytearray(200)
            block[: len(msg)] = msg
            block[len(msg)] ^= dsep
            block[rate - 1] ^= 0x80
            got, _ = await permute(dut, models.bytes_to_int(bytes(block)))
            out = got.to_bytes(200, "little")[: len(ref)]
            assert out == ref, (msg, rate)
