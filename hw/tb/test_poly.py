"""Polynomial engine: NTT, inverse NTT, base multiplication (and multiply-accumulate), add, sub
against the FIPS 203 models.

The engine's NBU parameter comes from the build (run.py builds one simulator per NBU). Every
command is also timed in core cycles (cmd_valid to done) and written to $NURI_HW_CYCLES as JSON.
"""

import json
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

import models

Q = models.Q
OP = {"zero": 0, "ntt": 1, "intt": 2, "mul": 3, "add": 4, "sub": 5, "mac": 6, "intt128": 7}


def nbu(dut):
    return int(dut.NBU.value)


def words(dut, poly):
    w = 2 * nbu(dut)
    return [sum(c << (12 * i) for i, c in enumerate(poly[k : k + w])) for k in range(0, 256, w)]


async def start(dut):
    cocotb.start_soon(Clock(dut.clk, 10, units="ns").start())
    for s in (
        "cmd_valid",
        "host_we",
        "host_re",
        "cmd_op",
        "cmd_a",
        "cmd_b",
        "cmd_c",
        "host_slot",
        "host_word",
        "host_wdata",
        "cmd_stage",
        "cmd_sbuf",
        "stage_we",
        "stage_buf",
        "stage_word",
        "stage_wdata",
    ):
        getattr(dut, s).value = 0
    dut.rst.value = 1
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst.value = 0
    await RisingEdge(dut.clk)


async def load(dut, slot, poly):
    for k, wv in enumerate(words(dut, poly)):
        dut.host_we.value = 1
        dut.host_slot.value = slot
        dut.host_word.value = k
        dut.host_wdata.value = wv
        await RisingEdge(dut.clk)
    dut.host_we.value = 0


async def read(dut, slot):
    w = 2 * nbu(dut)
    out = []
    for k in range(256 // w):
        dut.host_re.value = 1
        dut.host_slot.value = slot
        dut.host_word.value = k
        await RisingEdge(dut.clk)
        dut.host_re.value = 0
        await RisingEdge(dut.clk)
        await ReadOnly()
        v = int(dut.host_rdata.value)
        out += [(v >> (12 * i)) & 0xFFF for i in range(w)]
        await RisingEdge(dut.clk)
    return out


CYCLES = {}


def offer(dut, op, a, b, c=0, stage=None):
    """Drives a command (cmd_valid set); stage = buffer for operand a."""
    dut.cmd_op.value = OP[op]
    dut.cmd_a.value = a
    dut.cmd_b.value = b
    dut.cmd_c.value = c
    dut.cmd_stage.value = int(stage is not None)
    dut.cmd_sbuf.value = stage or 0
    dut.cmd_valid.value = 1


async def run(dut, op, a, b, c=0, stage=None, while_running=None):
    """One command; stage = buffer for operand a; while_running: a coroutine started with it."""
    offer(dut, op, a, b, c, stage)
    await RisingEdge(dut.clk)
    dut.cmd_valid.value = 0
    dut.cmd_stage.value = 0
    if while_running is not None:
        cocotb.start_soon(while_running)
    cycles = 1
    while True:
        await RisingEdge(dut.clk)
        await ReadOnly()
        if dut.cmd_err.value == 1:
            await RisingEdge(dut.clk)  # leave the read-only phase before driving again
            return None
        if dut.done.value == 1:
            break
        cycles += 1
    await RisingEdge(dut.clk)
    CYCLES[op] = cycles
    return cycles


def rand_poly(rng):
    return [rng.randrange(Q) for _ in range(256)]


@cocotb.test()
async def ntt_intt(dut):
    await start(dut)
    rng = random.Random(203 + nbu(dut))
    for trial in range(3):
        f = rand_poly(rng) if trial else [3328] * 256  # all q-1: the largest values
        await load(dut, 0, f)
        assert await run(dut, "ntt", 0, 1) is not None
        got = await read(dut, 1)
        assert got == models.ntt(f), "NTT"
        # INTT: a -> b, the last layer scaled by 1/128
        await run(dut, "intt", 1, 2)
        got = await read(dut, 2)
        assert got == models.intt(models.ntt(f)), "INTT"
        assert got == f
        # INTT128: the 7 layers unscaled, a -> b
        await load(dut, 1, f)
        await run(dut, "intt128", 1, 4)
        assert await read(dut, 4) == [x * 128 % Q for x in models.intt(f)], "INTT128"


@cocotb.test()
async def basemul_add_sub(dut):
    await start(dut)
    rng = random.Random(11 + nbu(dut))
    for _ in range(3):
        f, g = rand_poly(rng), rand_poly(rng)
        await load(dut, 2, f)
        await load(dut, 4, g)
        await run(dut, "mul", 2, 4, 3)
        assert await read(dut, 3) == models.basemul(f, g)
        await run(dut, "add", 2, 4, 5)
        assert await read(dut, 5) == [(x + y) % Q for x, y in zip(f, g)]
        await run(dut, "sub", 2, 4, 7)
        assert await read(dut, 7) == [(x - y) % Q for x, y in zip(f, g)]


@cocotb.test()
async def multiply_accumulate(dut):
    """MAC c += a o b: a sum of three products, the accumulator starting from random values (as
    keygen's t^ starts from e^) and the operands left unchanged."""
    await start(dut)
    rng = random.Random(31 + nbu(dut))
    acc = rand_poly(rng)
    await load(dut, 9, acc)
    for _ in range(3):
        f, g = rand_poly(rng), rand_poly(rng)
        await load(dut, 6, f)
        await load(dut, 8, g)
        await run(dut, "mac", 6, 8, 9)
        acc = [(x + y) % Q for x, y in zip(acc, models.basemul(f, g))]
        assert await read(dut, 9) == acc, "MAC"
        assert await read(dut, 6) == f and await read(dut, 8) == g
    assert await run(dut, "mac", 6, 8, 10) is None  # result in the operands' bank


async def load_stage(dut, buf, poly):
    """Fills staging buffer buf through the stage port (usable while a command runs)."""
    for k, wv in enumerate(words(dut, poly)):
        dut.stage_we.value = 1
        dut.stage_buf.value = buf
        dut.stage_word.value = k
        dut.stage_wdata.value = wv
        await RisingEdge(dut.clk)
    dut.stage_we.value = 0


@cocotb.test()
async def staging_buffers(dut):
    """Operand a from a staging buffer (NTT, MUL, MAC, ADD, SUB), the other buffer filled while
    each command runs, as the core overlaps sampling with the engine."""
    await start(dut)
    rng = random.Random(77 + nbu(dut))
    f, g, h, e = (rand_poly(rng) for _ in range(4))
    await load_stage(dut, 0, f)
    await run(dut, "ntt", 1, 2, stage=0, while_running=load_stage(dut, 1, g))  # scratch 1
    assert await read(dut, 2) == models.ntt(f), "NTT from a buffer"
    await run(dut, "mul", 0, 2, 3, stage=1, while_running=load_stage(dut, 0, h))
    acc = models.basemul(g, models.ntt(f))
    assert await read(dut, 3) == acc, "MUL from a buffer"
    await run(dut, "mac", 0, 2, 3, stage=0, while_running=load_stage(dut, 1, e))
    acc = [(x + y) % Q for x, y in zip(acc, models.basemul(h, models.ntt(f)))]
    assert await read(dut, 3) == acc, "MAC from a buffer"
    await run(dut, "add", 0, 3, 4, stage=1)
    assert await read(dut, 4) == [(x + y) % Q for x, y in zip(e, acc)], "ADD from a buffer"
    await run(dut, "sub", 0, 3, 6, stage=1)
    assert await read(dut, 6) == [(x - y) % Q for x, y in zip(e, acc)], "SUB from a buffer"
    assert await run(dut, "add", 0, 3, 5, stage=1) is None  # b and c in one bank
    # INTT128 folding buffer 1 into its last layer (128 INTT(a) + s), buffer 0 filled meanwhile
    await run(dut, "intt128", 3, 4, stage=1, while_running=load_stage(dut, 0, h))
    got = await read(dut, 4)
    assert got == [(128 * x + y) % Q for x, y in zip(models.intt(acc), e)], "INTT128 + buffer"
    # INTT (scaled) subtracted from buffer 0 (s - INTT(a)), buffer 1 filled meanwhile
    await run(dut, "intt", 4, 5, stage=0, while_running=load_stage(dut, 1, f))
    assert await read(dut, 5) == [(y - x) % Q for x, y in zip(models.intt(got), h)], "buffer - INTT"
    assert await run(dut, "intt", 0, 2, stage=1) is None  # a and b in one bank


@cocotb.test()
async def zero_wipes_everything(dut):
    """ZERO (the core's wipe) clears all 16 slots and both staging buffers; the engine then
    computes as before."""
    await start(dut)
    rng = random.Random(5 + nbu(dut))
    for slot in range(16):
        await load(dut, slot, rand_poly(rng))
    f = rand_poly(rng)
    await load_stage(dut, 0, f)
    await load_stage(dut, 1, f)
    await run(dut, "mul", 0, 2, 3, stage=1)  # a MUL leaves products in the datapath
    assert await run(dut, "zero", 0, 0) is not None
    for slot in range(16):
        assert await read(dut, slot) == [0] * 256, f"slot {slot} after ZERO"
    for buf in (0, 1):  # a buffer's content, through ADD with 0
        await run(dut, "add", 0, 2, 3, stage=buf)
        assert await read(dut, 3) == [0] * 256, f"staging buffer {buf} after ZERO"
    assert await run(dut, "zero", 0, 0, stage=0) is None
    # ZERO a = 2: slot rows 0, 1 (slots 0-3) only
    for slot in range(6):
        await load(dut, slot, f)
    await run(dut, "zero", 2, 0)
    for slot in range(6):
        assert await read(dut, slot) == ([0] * 256 if slot < 4 else f), f"slot {slot}, ZERO a = 2"
    # ZERO a = 1: slot row 0 (slots 0, 1) only, though it runs as long as a = 2 (the staging
    # buffers' clear)
    for slot in range(4):
        await load(dut, slot, f)
    await run(dut, "zero", 1, 0)
    for slot in range(4):
        assert await read(dut, slot) == ([0] * 256 if slot < 2 else f), f"slot {slot}, ZERO a = 1"
    await load(dut, 0, f)
    await run(dut, "ntt", 0, 1)
    assert await read(dut, 1) == models.ntt(f)


@cocotb.test()
async def polynomial_product(dut):
    """INTT(NTT(f) o NTT(g)) is the negacyclic product f*g mod (X^256 + 1): a check independent
    of the NTT model's ordering conventions."""
    await start(dut)
    rng = random.Random(7)
    f = [rng.randrange(Q) for _ in range(256)]
    g = [rng.randrange(-3, 4) % Q for _ in range(256)]
    want = [0] * 256
    for i, x in enumerate(f):
        for j, y in enumerate(g):
            k = i + j
            if k < 256:
                want[k] = (want[k] + x * y) % Q
            else:
                want[k - 256] = (want[k - 256] - x * y) % Q
    await load(dut, 0, f)
    await load(dut, 2, g)
    await run(dut, "ntt", 0, 1)
    await run(dut, "ntt", 2, 3)
    await run(dut, "mul", 1, 3, 4)
    await run(dut, "intt", 4, 5)
    assert await read(dut, 5) == want


@cocotb.test()
async def refused_commands(dut):
    await start(dut)
    assert await run(dut, "ntt", 0, 2) is None  # same bank
    assert await run(dut, "mul", 1, 2, 3) is None  # operands in different banks
    assert await run(dut, "add", 0, 2, 4) is None  # result in the operands' bank
    # the engine still works afterwards
    f = list(range(256))
    await load(dut, 0, f)
    assert await run(dut, "ntt", 0, 1) is not None
    assert await read(dut, 1) == models.ntt(f)


@cocotb.test()
async def chained_commands(dut):
    """A command given while the last one drains (ready while busy) starts at once when the two
    cannot meet: ADDs from the two staging buffers in turn (each one's last words read at R while
    the next one is current), a MUL -> MAC chain, and an NTT after an NTT; each result against
    the models, and every one of them must have chained."""
    await start(dut)
    rng = random.Random(11 + nbu(dut))
    f, g = rand_poly(rng), rand_poly(rng)
    b = [rand_poly(rng) for _ in range(4)]
    await load_stage(dut, 0, f)
    await load_stage(dut, 1, g)
    for i, p in enumerate(b):
        await load(dut, 2 * i, p)  # slots 0, 2, 4, 6: bank 0
    # (op, a, b, c, stage): reads bank 0, writes bank 1, so each may chain after the one before
    cmds = [
        ("add", 0, 0, 1, 0),
        ("add", 0, 2, 3, 1),
        ("sub", 0, 4, 5, 0),
        ("mul", 0, 0, 7, 1),
        ("mac", 0, 2, 7, 0),
        ("ntt", 4, 9, 0, None),
        ("ntt", 6, 11, 0, None),
    ]
    chained = 0
    for k, (op, a, bb, c, stage) in enumerate(cmds):
        offer(dut, op, a, bb, c, stage)
        while True:  # held until the engine takes it
            await ReadOnly()
            took = dut.ready.value == 1
            chained += took and k > 0 and dut.busy.value == 1
            await RisingEdge(dut.clk)
            if took:
                break
        dut.cmd_valid.value = 0
        await ReadOnly()
        assert dut.cmd_err.value == 0, f"{op} refused"
        await RisingEdge(dut.clk)
    while dut.busy.value == 1:
        await RisingEdge(dut.clk)
    for _ in range(4):
        await RisingEdge(dut.clk)
    dut.cmd_stage.value = 0
    assert chained == len(cmds) - 1, f"{chained} of {len(cmds) - 1} commands chained"
    assert await read(dut, 1) == [(x + y) % Q for x, y in zip(f, b[0])], "add from buffer 0"
    assert await read(dut, 3) == [(x + y) % Q for x, y in zip(g, b[1])], "add from buffer 1"
    assert await read(dut, 5) == [(x - y) % Q for x, y in zip(f, b[2])], "sub from buffer 0"
    prod = [(x + y) % Q for x, y in zip(models.basemul(g, b[0]), models.basemul(f, b[1]))]
    assert await read(dut, 7) == prod, "mul -> mac"
    assert await read(dut, 9) == models.ntt(b[2]), "ntt after the mac"
    assert await read(dut, 11) == models.ntt(b[3]), "ntt after an ntt"


@cocotb.test()
async def reset_mid_command(dut):
    """A reset cuts a command short and empties the pipeline: the host's writes right after it
    land, and none of the command's writes still in flight lands after them."""
    await start(dut)
    rng = random.Random(77)
    await load(dut, 0, rand_poly(rng))
    offer(dut, "ntt", 0, 1)
    await RisingEdge(dut.clk)
    dut.cmd_valid.value = 0
    for _ in range(50):  # layer 1 or 2 of 7: words in flight
        await RisingEdge(dut.clk)
    dut.rst.value = 1
    await RisingEdge(dut.clk)
    dut.rst.value = 0
    want1, want0 = rand_poly(rng), rand_poly(rng)
    await load(dut, 1, want1)
    await load(dut, 0, want0)
    for _ in range(16):
        await RisingEdge(dut.clk)
    assert await read(dut, 1) == want1
    assert await read(dut, 0) == want0


@cocotb.test()
async def record_cycles(dut):
    path = os.environ.get("NURI_HW_CYCLES")
    assert set(CYCLES) == set(OP), CYCLES
    if path:
        with open(path, "w") as fh:
            json.dump({"nbu": nbu(dut), "cycles": CYCLES}, fh)
