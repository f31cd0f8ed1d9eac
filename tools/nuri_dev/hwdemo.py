"""The ML-KEM hardware core in the main job (``nuri report``, ``make demo``): ML-KEM-768 with two
dual-butterfly units (NBU = 2) in the Verilator simulation, KeyGen, Encaps and Decaps, each output
compared bit for bit with nuri's C library (nuri.mlkem), and the core's cycles as bench records.
The full sweep (every level and NBU, synthesis estimates, Fmax) is `make hw-report`."""

import os
import shutil
import time

from nuri import hw, mlkem

LEVEL, NBU = 768, 2
# The deterministic inputs first (an all-zero m and the seed 00 01 .. 3f), then random ones.
FIXED_SEED, FIXED_M = bytes(range(64)), bytes(32)


def _record(op, metric, values):
    vals = sorted(values)
    return {
        "family": "mlkem-hw",
        "impl": f"bu{NBU}",
        "op": op,
        "param": f"ML-KEM-{LEVEL}",
        "size": 1,
        "platform": "verilator",
        "metric": metric,
        "median": vals[len(vals) // 2],
        "min": vals[0],
        "max": vals[-1],
        "runs": len(vals),
    }


def missing():
    """Why the simulation cannot run here (None when it can)."""
    if "verilator" not in hw.backends():
        return "the nuri-dev toolkit's verilator backend is not installed (make python)"
    for tool in ("verilator", "g++", "make"):
        if not shutil.which(tool):
            return f"not installed: {tool} (scripts/bootstrap.sh hwsim)"
    return None


def run(trials=3, log=print):
    """-> (records, (part name, status, why)). Each trial: keygen, encaps, decaps, and decaps of a
    ciphertext with one bit flipped (implicit rejection), every output equal to nuri.mlkem's."""
    name = "ML-KEM hardware"
    why = missing()
    if why:
        return [], (name, "skipped", why)
    t0 = time.monotonic()
    log(f"report: ML-KEM-{LEVEL} hardware core, NBU = {NBU}, Verilator (built on first use) ...")
    try:
        dev = hw.simulator(LEVEL, nbu=NBU)
    except RuntimeError as e:
        return [], (name, "failed", str(e).splitlines()[0])
    built = time.monotonic() - t0
    cycles = {op: [] for op in ("keygen", "encaps", "decaps")}
    io = {op: [] for op in cycles}
    bad = []
    for i in range(trials):
        seed, m = (FIXED_SEED, FIXED_M) if i == 0 else (os.urandom(64), os.urandom(32))
        ek, dk = hw.keygen(LEVEL, seed, device=dev)
        cycles["keygen"].append(dev.cycles[0])
        io["keygen"].append(dev.cycles[1])
        if (ek, dk) != mlkem.keygen(LEVEL, seed):
            bad.append(f"keygen differs from nuri.mlkem (trial {i})")
        ss, ct = hw.encaps(LEVEL, ek, m=m, device=dev)
        cycles["encaps"].append(dev.cycles[0])
        io["encaps"].append(dev.cycles[1])
        if (ss, ct) != mlkem.encaps(LEVEL, ek, m=m):
            bad.append(f"encaps differs from nuri.mlkem (trial {i})")
        got = hw.decaps(LEVEL, dk, ct, device=dev)
        cycles["decaps"].append(dev.cycles[0])
        io["decaps"].append(dev.cycles[1])
        if got != ss or got != mlkem.decaps(LEVEL, dk, ct):
            bad.append(f"decaps differs from nuri.mlkem (trial {i})")
        flipped = bytearray(ct)
        flipped[i % len(ct)] ^= 1 << (i % 8)
        if hw.decaps(LEVEL, dk, bytes(flipped), device=dev) != mlkem.decaps(LEVEL, dk, bytes(flipped)):
            bad.append(f"implicit rejection differs from nuri.mlkem (trial {i})")
    recs = [_record(op, "cycles", v) for op, v in cycles.items()]
    recs += [_record(op, "io_cycles", v) for op, v in io.items()]
    took = time.monotonic() - t0
    if bad:
        return recs, (name, "failed", "; ".join(bad[:3]))
    c = {op: sorted(v)[len(v) // 2] for op, v in cycles.items()}
    return recs, (
        name,
        "ok",
        f"ML-KEM-{LEVEL} NBU {NBU} in Verilator: keygen {c['keygen']:,}, encaps {c['encaps']:,}, decaps "
        f"{c['decaps']:,} cycles; {trials} keygen/encaps/decaps + implicit rejection bit-exact with the C "
        f"library; {took:.1f} s ({built:.1f} s to build or load the model)",
    )
