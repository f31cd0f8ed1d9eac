"""The whole ML-KEM core (mlkem_core, K from the build) against nuri's C library and known answers.

Checks, at the build's level: keygen of the ACVP keyGen vectors (tests/vectors/mlkem) and of random
seeds against nuri.mlkem.keygen; encaps against nuri.mlkem.encaps; decaps of valid ciphertexts;
implicit rejection (a flipped ciphertext bit gives J(z || c), as nuri.mlkem.decaps); the FIPS 203
7.2 modulus check (an ek coefficient >= q sets ek_bad) and 7.3 hash check (a dk with a wrong H(ek)
sets dk_bad); and the ACVP encapDecap vectors. After every operation the secrets that are not
its output are checked to be wiped (lane RAM, engine slots and staging buffers, sponge state).
Core cycles (start to done) per operation go to
$NURI_HW_CYCLES. NURI_HW_QUICK=1 runs one random triple instead of three.
"""

import json
import os
import random
import sys
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge, with_timeout

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import gen_prog  # noqa: E402

import nuri.mlkem as ref  # noqa: E402

OPS = {"keygen": 0, "encaps": 1, "decaps": 2}
LEVEL = {2: 512, 3: 768, 4: 1024}
VECTORS = Path(__file__).resolve().parents[2] / "tests" / "vectors" / "mlkem"
CYCLES = {}
HANG_CYCLES = 200_000  # the test clock is 10 ns
# NURI_HW_PROFILE=1: the busy cycles of each timed operation by the instruction waiting in the
# dispatcher (iw), by what the engine, the sponge unit and the codec unit are running, and how many
# of them the engine was idle
PROFILE_NAMES = {
    0: "END",
    1: "HASH",
    2: "SAMPLE",
    3: "ENG",
    4: "ENC",
    5: "ENCCMP",
    6: "DEC",
    7: "LOAD4",
    8: "CMP4",
    9: "SEL4",
    10: "WIPE",
}
ENG_NAMES = {0: "zero", 1: "ntt", 2: "intt", 3: "mul", 4: "add", 5: "sub", 6: "mac", 7: "intt128"}


def k_of(dut):
    return int(dut.K.value)


async def reset(dut):
    cocotb.start_soon(Clock(dut.clk, 10, units="ns").start())
    dut.start.value = 0
    dut.op.value = 0
    dut.host_we.value = 0
    dut.host_addr.value = 0
    dut.host_waddr.value = 0
    dut.host_wdata.value = 0
    dut.rst.value = 1
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst.value = 0
    await RisingEdge(dut.clk)


async def run(dut, op, data):
    """Writes the input byte string, runs op, returns (output bytes, flags)."""
    k = k_of(dut)
    ins, outs = gen_prog.io_regions(k, op)
    assert len(data) == 8 * sum(n for _, n in ins)
    pos = 0
    for base, n in ins:
        for i in range(n):
            dut.host_we.value = 1
            dut.host_waddr.value = base + i
            dut.host_wdata.value = int.from_bytes(data[pos : pos + 8], "little")
            pos += 8
            await RisingEdge(dut.clk)
    dut.host_we.value = 0
    dut.op.value = OPS[op]
    dut.start.value = 1
    await RisingEdge(dut.clk)
    dut.start.value = 0

    async def wait_done():
        while True:
            await RisingEdge(dut.done)
            await ReadOnly()
            if dut.done.value == 1:
                return

    # a hang (e.g. a codec that stops taking lanes) fails the test instead of running forever:
    # the slowest operation (ML-KEM-1024 decaps at NBU 1) takes ~16k cycles
    await with_timeout(wait_done(), 10 * HANG_CYCLES, "ns")
    flags = {f: int(getattr(dut, f).value) for f in ("ek_bad", "dk_bad", "prog_err")}
    await RisingEdge(dut.clk)
    out = bytearray()
    for base, n in outs:
        for i in range(n):
            dut.host_addr.value = base + i
            await RisingEdge(dut.clk)
            await RisingEdge(dut.clk)
            await ReadOnly()
            out += int(dut.host_rdata.value).to_bytes(8, "little")
            await RisingEdge(dut.clk)
    assert flags["prog_err"] == 0, "the engine refused a command of the program"
    await check_wiped(dut, op)
    return bytes(out), flags


async def read_lane(dut, addr):
    dut.host_addr.value = addr
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    await ReadOnly()
    v = int(dut.host_rdata.value)
    await RisingEdge(dut.clk)
    return v


async def check_wiped(dut, op):
    """After an operation the lanes with secrets that are not the output are zero, and so is
    every word of the engine's slots and staging buffers (read through the hierarchy)."""
    for base, n in gen_prog.secret_lanes(k_of(dut), op):
        for i in range(n):
            assert await read_lane(dut, base + i) == 0, f"{op}: lane {base + i} not wiped"
    words = 256 // (2 * int(dut.NBU.value))
    pe = dut.pe
    for ram, n in (
        (pe.bank0s0, 4 * words),
        (pe.bank0s1, 4 * words),
        (pe.bank1s0, 4 * words),
        (pe.bank1s1, 4 * words),
        (pe.stage0, words),
        (pe.stage1, words),
    ):
        assert all(int(ram.mem[i].value) == 0 for i in range(n)), f"{op}: engine {ram._name}"
    assert int(dut.sp.state.value) == 0 or op == "keygen", f"{op}: sponge state"


async def timed(dut, op, data):
    """run() with the core cycles counted by a monitor (start accepted -> done)."""
    counter = {"n": 0}

    prof = {} if os.environ.get("NURI_HW_PROFILE") else None
    trace = [] if os.environ.get("NURI_HW_PROFILE") == "trace" else None  # (cycle, pc, name, engine busy)

    idle = []

    def add(key):
        prof[key] = prof.get(key, 0) + 1

    async def count():
        while True:
            await RisingEdge(dut.clk)
            await ReadOnly()
            if dut.busy.value == 1:
                counter["n"] += 1
                if prof is not None:
                    # the instruction waiting in the dispatcher (iw), and what each unit is doing
                    iw = int(dut.iw.value)
                    name = PROFILE_NAMES.get(iw & 15, "?")
                    if name == "ENG":
                        name += "/" + ENG_NAMES.get((iw >> 86) & 7, "?")
                    elif name == "SAMPLE":
                        name += "/ntt" if (iw >> 72) & 3 == 0 else "/cbd"
                    add("waiting " + name)
                    eng, sp, cd = int(dut.pe.busy.value), int(dut.pst.value) != 0, int(dut.cst.value) != 0
                    add("engine busy" if eng else "engine idle")
                    if sp:
                        add("sponge unit " + PROFILE_NAMES.get(int(dut.piw.value) & 15, "?"))
                    if cd:
                        add("codec unit " + PROFILE_NAMES.get(int(dut.ciw.value) & 15, "?"))
                    if not (eng or sp or cd):
                        add("all units idle")
                    if trace is not None and (not trace or trace[-1][1] != int(dut.pc.value)):
                        trace.append((counter["n"], int(dut.pc.value), name, eng))
                    if trace is not None and not eng:  # engine idle runs: (first cycle, length, pc)
                        if idle and idle[-1][0] + idle[-1][1] == counter["n"]:
                            idle[-1][1] += 1
                        else:
                            idle.append([counter["n"], 1, int(dut.pc.value) - 2])

    task = cocotb.start_soon(count())
    out, flags = await run(dut, op, data)
    task.kill()
    CYCLES.setdefault(op, counter["n"])
    if prof is not None:
        dut._log.info(
            "profile %s: %d cycles: %s",
            op,
            counter["n"],
            ", ".join(f"{k} {v}" for k, v in sorted(prof.items(), key=lambda x: -x[1])),
        )
    if trace is not None:
        dut._log.info(
            "engine idle %s (first cycle, length, pc in iw): %s", op, " ".join(f"{c}+{n}@{pc}" for c, n, pc in idle)
        )
        dut._log.info(
            "trace %s (cycle, pc, the instruction now waiting in iw: "
            "the one before it was dispatched then, engine busy): %s",
            op,
            " ".join(f"{c}:{pc}:{n}:{b}" for c, pc, n, b in trace),
        )
    return out, flags


def save_cycles():
    path = os.environ.get("NURI_HW_CYCLES")
    if path:
        old = json.loads(Path(path).read_text()) if Path(path).exists() else {"cycles": {}}
        old["cycles"].update(CYCLES)
        Path(path).write_text(json.dumps(old))


def acvp_groups(name, k):
    """The test groups of one ACVP file at the build's level."""
    groups = json.loads((VECTORS / name).read_text())["testGroups"]
    return [g for g in groups if g["parameterSet"] == f"ML-KEM-{LEVEL[k]}"]


@cocotb.test()
async def acvp_keygen(dut):
    """Every ACVP keyGen vector of the level (the first one timed for the cycle counts)."""
    await reset(dut)
    k = k_of(dut)
    n = 0
    for g in acvp_groups("acvp_keyGen_subset.json", k):
        for t in g["tests"]:
            seed = bytes.fromhex(t["d"]) + bytes.fromhex(t["z"])
            out, _ = await (timed(dut, "keygen", seed) if n == 0 else run(dut, "keygen", seed))
            ek, dk = out[: 384 * k + 32], out[384 * k + 32 :]
            assert ek == bytes.fromhex(t["ek"]), f"ACVP keyGen ek tc {t['tcId']}"
            assert dk == bytes.fromhex(t["dk"]), f"ACVP keyGen dk tc {t['tcId']}"
            n += 1
    assert n == 5
    dut._log.info(f"acvp_keyGen_subset.json: {n} vectors passed (ML-KEM-{LEVEL[k]})")
    save_cycles()


@cocotb.test()
async def random_triples(dut):
    """keygen, encaps, decaps, implicit rejection, against nuri.mlkem, random inputs."""
    await reset(dut)
    k = k_of(dut)
    lvl = LEVEL[k]
    rng = random.Random(4203 + k)
    for _ in range(1 if os.environ.get("NURI_HW_QUICK") else 3):
        seed = rng.randbytes(64)
        want_ek, want_dk = ref.keygen(lvl, seed)
        out, _ = await timed(dut, "keygen", seed)
        assert out == want_ek + want_dk, "keygen"
        m = rng.randbytes(32)
        ss, ct = ref.encaps(lvl, want_ek, m=m)
        out, flags = await timed(dut, "encaps", want_ek + m)
        assert flags["ek_bad"] == 0
        assert out == ss + ct, "encaps"
        out, flags = await timed(dut, "decaps", want_dk + ct)
        assert flags["dk_bad"] == 0
        assert out == ss, "decaps"
        bad = bytearray(ct)
        bit = rng.randrange(8 * len(ct))
        bad[bit // 8] ^= 1 << (bit % 8)
        out, _ = await run(dut, "decaps", want_dk + bytes(bad))
        assert out == ref.decaps(lvl, want_dk, bytes(bad)), "implicit rejection"
        assert out != ss
    save_cycles()


@cocotb.test()
async def rejected_keys(dut):
    """7.2: an ek coefficient of q sets ek_bad; 7.3: a dk with a wrong H(ek) sets dk_bad."""
    await reset(dut)
    k = k_of(dut)
    lvl = LEVEL[k]
    ek, dk = ref.keygen(lvl, bytes(range(64)))
    bad_ek = bytearray(ek)
    j = 3 * 37 + 3 * 128 * (k - 1)  # the last polynomial, coefficient 74: set it to q
    bad_ek[j] = 3329 & 0xFF
    bad_ek[j + 1] = (bad_ek[j + 1] & 0xF0) | (3329 >> 8)
    _, flags = await run(dut, "encaps", bytes(bad_ek) + bytes(32))
    assert flags["ek_bad"] == 1, "modulus check"
    _, flags = await run(dut, "encaps", ek + bytes(32))
    assert flags["ek_bad"] == 0
    bad_dk = bytearray(dk)
    bad_dk[768 * k + 32 + 5] ^= 0x40  # inside the stored H(ek)
    ss, ct = ref.encaps(lvl, ek, m=bytes(32))
    _, flags = await run(dut, "decaps", bytes(bad_dk) + ct)
    assert flags["dk_bad"] == 1, "hash check"
    out, flags = await run(dut, "decaps", dk + ct)
    assert flags["dk_bad"] == 0 and out == ss


@cocotb.test()
async def acvp_encap_decap(dut):
    """Every ACVP encapDecap vector of the level but the wrong-length keys (a length check is the
    driver's, ValueError, not the core's)."""
    await reset(dut)
    k = k_of(dut)
    n = skipped = 0
    for g in acvp_groups("acvp_encapDecap_subset.json", k):
        for t in g["tests"]:
            if "wrong length" in t.get("derived_reason", ""):
                skipped += 1
                continue
            if g["function"] == "encapsulation":
                out, _ = await run(dut, "encaps", bytes.fromhex(t["ek"]) + bytes.fromhex(t["m"]))
                assert out == bytes.fromhex(t["k"]) + bytes.fromhex(t["c"]), f"encaps tc {t['tcId']}"
            elif g["function"] == "decapsulation":
                out, _ = await run(dut, "decaps", bytes.fromhex(t["dk"]) + bytes.fromhex(t["c"]))
                assert out == bytes.fromhex(t["k"]), f"decaps tc {t['tcId']}"
            elif g["function"] == "encapsulationKeyCheck":
                _, flags = await run(dut, "encaps", bytes.fromhex(t["ek"]) + bytes(32))
                assert flags["ek_bad"] == (0 if t["testPassed"] else 1), f"ek check tc {t['tcId']}"
            else:
                dk = bytes.fromhex(t["dk"])
                ct = bytes(gen_prog.layout(k)["CLEN"] * 8)
                _, flags = await run(dut, "decaps", dk + ct)
                assert flags["dk_bad"] == (0 if t["testPassed"] else 1), f"dk check tc {t['tcId']}"
            n += 1
    assert n + skipped == 20 and n >= 15
    dut._log.info(f"acvp_encapDecap_subset.json: {n} vectors passed, {skipped} wrong-length keys left to the driver")
