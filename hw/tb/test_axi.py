"""The AXI wrapper (mlkem_axi): AXI4-Lite command/status and 64-bit AXI4-Stream byte strings,
a keygen/encaps/decaps triple against nuri.mlkem with random stalls on both streams, a rejected
ek (zero output, STATUS bit), a refused command (wrong level), and the cycle registers; after
every command the core's lane RAM holds no secret (read through the hierarchy).
"""

import random
import sys
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import gen_prog  # noqa: E402

import nuri.mlkem as ref  # noqa: E402

LEVEL = {2: 512, 3: 768, 4: 1024}
REG_CMD, REG_STATUS, REG_CYCLES, REG_IO, REG_INFO = 0x00, 0x04, 0x08, 0x0C, 0x10
OPS = {"keygen": 0, "encaps": 1, "decaps": 2}


async def reset(dut):
    cocotb.start_soon(Clock(dut.clk, 10, units="ns").start())
    for s in (
        "s_axil_awaddr",
        "s_axil_awvalid",
        "s_axil_wdata",
        "s_axil_wstrb",
        "s_axil_wvalid",
        "s_axil_bready",
        "s_axil_araddr",
        "s_axil_arvalid",
        "s_axil_rready",
        "s_axis_tdata",
        "s_axis_tvalid",
        "s_axis_tlast",
        "m_axis_tready",
    ):
        getattr(dut, s).value = 0
    dut.rst.value = 1
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    await RisingEdge(dut.clk)


async def lite_write(dut, addr, value):
    dut.s_axil_awaddr.value = addr
    dut.s_axil_wdata.value = value
    dut.s_axil_wstrb.value = 0xF
    dut.s_axil_awvalid.value = 1
    dut.s_axil_wvalid.value = 1
    dut.s_axil_bready.value = 1
    while True:
        await RisingEdge(dut.clk)
        await ReadOnly()
        if dut.s_axil_bvalid.value == 1:
            break
    await RisingEdge(dut.clk)
    dut.s_axil_awvalid.value = 0
    dut.s_axil_wvalid.value = 0
    dut.s_axil_bready.value = 0


async def lite_read(dut, addr):
    dut.s_axil_araddr.value = addr
    dut.s_axil_arvalid.value = 1
    dut.s_axil_rready.value = 1
    await RisingEdge(dut.clk)
    dut.s_axil_arvalid.value = 0
    while True:
        await ReadOnly()
        if dut.s_axil_rvalid.value == 1:
            v = int(dut.s_axil_rdata.value)
            break
        await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.s_axil_rready.value = 0
    return v


async def send(dut, data, rng):
    """Input beats with random gaps; a beat moves on an edge where TVALID and TREADY are high."""
    beats = [int.from_bytes(data[i : i + 8], "little") for i in range(0, len(data), 8)]
    i = 0
    while i < len(beats):
        valid = rng.random() >= 0.2
        dut.s_axis_tvalid.value = int(valid)
        dut.s_axis_tdata.value = beats[i]
        dut.s_axis_tlast.value = int(i == len(beats) - 1)
        await ReadOnly()
        took = valid and dut.s_axis_tready.value == 1
        await RisingEdge(dut.clk)
        i += int(took)
    dut.s_axis_tvalid.value = 0
    dut.s_axis_tlast.value = 0


async def receive(dut, rng):
    """Output beats with random back-pressure, up to TLAST."""
    out = bytearray()
    while True:
        ready = rng.random() >= 0.2
        dut.m_axis_tready.value = int(ready)
        await ReadOnly()
        got = ready and dut.m_axis_tvalid.value == 1
        last = got and dut.m_axis_tlast.value == 1
        if got:
            out += int(dut.m_axis_tdata.value).to_bytes(8, "little")
        await RisingEdge(dut.clk)
        if last:
            break
    dut.m_axis_tready.value = 0
    return bytes(out)


async def command(dut, op, data, rng):
    k = int(dut.K.value)
    await lite_write(dut, REG_CMD, OPS[op] | (k << 8))
    sender = cocotb.start_soon(send(dut, data, rng))
    out = await receive(dut, rng)
    await sender
    status = await lite_read(dut, REG_STATUS)
    # no secret left in the core's lane RAM: the output lanes were zeroed as they left, the core
    # wiped the rest (keygen leaves only its public ek; encaps the public c and ek)
    lanes = gen_prog.layout(k)
    mem = dut.core.mem
    if op == "keygen":
        secret = range(0, lanes["EK"])
    elif op == "encaps":
        secret = range(lanes["M"], lanes["KR"] + 8)  # m, H(ek), K, r
    else:
        secret = (
            list(range(0, lanes["EK"]))
            + list(range(lanes["Z"], lanes["Z"] + 4))
            + list(range(lanes["M"], lanes["END"]))
        )
    assert all(int(mem[a].value) == 0 for a in secret), f"{op}: secret lanes left in the core"
    return out, status


@cocotb.test()
async def triple_through_axi(dut):
    await reset(dut)
    k = int(dut.K.value)
    lvl = LEVEL[k]
    rng = random.Random(99)
    info = await lite_read(dut, REG_INFO)
    assert info & 0xFF == k and (info >> 8) & 0xFF == int(dut.NBU.value)
    seed = rng.randbytes(64)
    ek, dk = ref.keygen(lvl, seed)
    out, status = await command(dut, "keygen", seed, rng)
    assert status == 0b10, hex(status)
    assert out == ek + dk
    core = await lite_read(dut, REG_CYCLES)
    io = await lite_read(dut, REG_IO)
    dut._log.info(f"keygen: {core} core cycles, {io} I/O cycles (with random stalls)")
    assert 1000 < core < 100000 and io >= (len(seed) + len(out)) // 8
    m = rng.randbytes(32)
    ss, ct = ref.encaps(lvl, ek, m=m)
    out, status = await command(dut, "encaps", ek + m, rng)
    assert status == 0b10 and out == ss + ct
    out, status = await command(dut, "decaps", dk + ct, rng)
    assert status == 0b10 and out == ss
    # a rejected ek: all-zero output of the usual length, ek_bad set
    bad = bytearray(ek)
    bad[0], bad[1] = 0xFF, bad[1] | 0x0F
    out, status = await command(dut, "encaps", bytes(bad) + m, rng)
    assert status == 0b110 and out == bytes(32 + len(ct))
    # a command for another level is refused
    await lite_write(dut, REG_CMD, 0 | ((k % 4 + 2 if k != 2 else 3) << 8))
    assert await lite_read(dut, REG_STATUS) & 0b100000
