#!/usr/bin/env python3
"""Generates the ML-KEM core's micro-programs (hw/rtl/mlkem_prog.vh) from FIPS 203, and runs them
in a Python interpreter (`run`) that the tests compare with nuri's C library, so a wrong program
is found before the RTL is simulated.

The core (hw/rtl/mlkem_core.v) has a lane RAM (64-bit words) holding every byte string and 16
polynomial slots in the engine (slot s in bank s & 1, see poly_engine.v). The programs are fully
unrolled per K: every address, nonce and slot is a constant of the instruction, so the sequencer
is a counter and a ROM, and the control flow never depends on a secret.

Lane RAM layout (lane addresses, k = K):
  DKP = 0            dk_pke = ByteEncode12(s^)        48k lanes
  EK  = 48k          ek = ByteEncode12(t^) || rho     48k + 4 lanes (rho at 96k)
  H   = 96k + 4      H(ek)                            4 lanes   (so dk = [0, 96k + 12))
  Z   = 96k + 8      z                                4 lanes
  C   = 96k + 12     ciphertext c                     4 (du k + dv) lanes (J(z || c) reads Z..)
  M   = after c      m (4) and H(ek) or h (4) for G(m || h)
  KR  = M + 8        K (4) and r (4) from G
  HC  = M + 16       H(ek) recomputed by decaps
  KB  = M + 20       K-bar = J(z || c)
Keygen takes d || z at H (d is absorbed by G before G's output overwrites it with rho || sigma).
"""

import hashlib
import sys
from pathlib import Path

HW = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HW / "tb"))
import models  # noqa: E402

OPS = ("keygen", "encaps", "decaps")
PARAMS = {2: (3, 2, 10, 4), 3: (2, 2, 10, 4), 4: (2, 2, 11, 5)}  # eta1, eta2, du, dv

# instruction opcodes
I_END, I_HASH, I_SAMPLE, I_ENG, I_ENC, I_ENCCMP, I_DEC, I_LOAD4, I_CMP4, I_SEL4, I_WIPE = range(11)
# hash modes (keccak_sponge) and sampler modes
SHA3_256, SHA3_512, SHAKE128, SHAKE256 = range(4)
S_NTT, S_CBD2, S_CBD3 = range(3)
INV128 = 3303  # 128^-1 mod q
ENG = {"zero": 0, "ntt": 1, "intt": 2, "mul": 3, "add": 4, "sub": 5, "mac": 6, "intt128": 7}
# instruction fields: name -> (lsb, width); mirrored by the localparams in mlkem_core.v
FIELDS = {
    "op": (0, 4),
    "mode": (4, 2),
    "abase": (6, 10),
    "alen": (16, 10),
    "bbase": (26, 10),
    "blen": (36, 4),
    "tailn": (40, 2),
    "tail": (42, 16),
    "dst": (58, 10),
    "nout": (68, 4),
    "smode": (72, 2),
    "sa": (74, 4),
    "sb": (78, 4),
    "sc": (82, 4),
    "eop": (86, 3),
    "d": (89, 4),
    "chk": (93, 1),
    "restart": (93, 1),
    "scale": (94, 1),
    "addm": (94, 1),
    "beside": (93, 1),
    "stream": (72, 1),
    "stage": (95, 1),
    "sbuf": (96, 1),
    "wsp": (97, 1),
    "wcd": (98, 1),
}
IW = 99  # instruction width


def layout(k):
    _, _, du, dv = PARAMS[k]
    lay = {
        "DKP": 0,
        "EK": 48 * k,
        "RHO": 96 * k,
        "H": 96 * k + 4,
        "Z": 96 * k + 8,
        "C": 96 * k + 12,
        "CLEN": 4 * (du * k + dv),
    }
    lay["M"] = lay["C"] + lay["CLEN"]
    lay["KR"] = lay["M"] + 8
    lay["HC"] = lay["M"] + 16
    lay["KB"] = lay["M"] + 20
    lay["END"] = lay["M"] + 24
    return lay


def secret_lanes(k, op):
    """Lane regions (base, count) holding secrets other than the output at the end of op: encaps
    m (and the public H(ek) beside it) and r; decaps dk_pke, z, m', H(ek), r', the recomputed
    H(ek) and K-bar."""
    L = layout(k)
    if op == "encaps":
        return [(L["M"], 8), (L["KR"] + 4, 4)]
    if op == "decaps":
        return [(L["DKP"], 48 * k), (L["Z"], 4), (L["M"], 8), (L["KR"] + 4, 12)]
    return []


def io_regions(k, op):
    """(input regions, output regions) as (lane base, lane count), in byte-string order."""
    L = layout(k)
    if op == "keygen":
        return [(L["H"], 8)], [(L["EK"], 48 * k + 4), (L["DKP"], 96 * k + 12)]
    if op == "encaps":
        return [(L["EK"], 48 * k + 4), (L["M"], 4)], [(L["KR"], 4), (L["C"], L["CLEN"])]
    return [(L["DKP"], 96 * k + 12 + L["CLEN"])], [(L["KR"], 4)]


STAGE = 16  # pseudo-slots 16, 17: the staging buffers


class Slots:
    """Polynomial slot allocation with the engine's bank rules, and the two staging buffers.

    Every ENG command runs while the sequencer goes on; an instruction that uses the engine waits
    for it. SAMPLE and DEC into a staging buffer (pseudo-slot STAGE + buffer) run beside the
    engine, and an ENG takes its operand a from the buffer. A buffer may be refilled once the
    command reading it has finished, which holds when a later command has started: the buffers
    alternate, and `stage` checks that the most recent command does not read the one it hands out.
    """

    def __init__(self, prog):
        self.free = {0: [0, 2, 4, 6, 8, 10, 12, 14], 1: [1, 3, 5, 7, 9, 11, 13, 15]}
        self.prog = prog
        self.next_buf = 0
        self.reading = None  # the staging buffer read by the most recent ENG command
        self.used = set()

    def alloc(self, bank):
        """The lowest free slot, so the wipe (ZERO of the slot rows used) stays short."""
        s = min(self.free[bank])
        self.free[bank].remove(s)
        self.used.add(s)
        return s

    def release(self, *slots):
        for s in slots:
            if s < STAGE:
                self.free[s & 1].append(s)

    def stage(self):
        buf = STAGE + self.next_buf
        assert buf != self.reading, "staging buffer refilled while a command may read it"
        self.next_buf ^= 1
        return buf

    def eng(self, op, a, b, c=0, scratch=0, fold=None):
        """An engine command; a staging buffer as operand a, or (INTT, INTT128) as `fold`, the
        buffer the last layer adds to (INTT128) or subtracts from (INTT) its result."""
        ins = {"op": I_ENG, "eop": ENG[op], "sa": a, "sb": b, "sc": c}
        self.reading = None
        if a >= STAGE:
            ins.update(stage=1, sbuf=a - STAGE, sa=scratch)
            self.reading = a
        if fold is not None:
            assert op in ("intt", "intt128") and fold >= STAGE
            ins.update(stage=1, sbuf=fold - STAGE)
            self.reading = fold
        self.prog.append(ins)

    def ntt(self, a, bank=None):
        """NTT a (destroyed, or a staging buffer) into a new slot of the other bank (of `bank`)."""
        if a >= STAGE:
            b = self.alloc(bank)
            t = self.alloc(1 - bank)  # the layers ping-pong through t
            self.eng("ntt", a, b, scratch=t)
            self.release(t)
            return b
        b = self.alloc(1 - (a & 1))
        self.eng("ntt", a, b)
        self.release(a)
        return b

    def intt(self, a, sub_from=None):
        """INTT(a), or staging buffer sub_from minus it, into a new slot of the other bank; frees a."""
        b = self.alloc(1 - (a & 1))
        self.eng("intt", a, b, fold=sub_from)
        self.release(a)
        return b

    def intt128(self, a, add=None):
        """128 INTT(a) (unscaled), plus staging buffer `add`, into a new slot of the other bank;
        frees a."""
        b = self.alloc(1 - (a & 1))
        self.eng("intt128", a, b, fold=add)
        self.release(a)
        return b

    def mac(self, a, b, acc=None):
        """acc + a o b (a in b's bank or a staging buffer, freed; b kept) by a MAC pass into acc (a
        slot in the other bank), or into a new slot by MUL when acc is None."""
        assert a >= STAGE or a & 1 == b & 1
        if acc is None:
            acc = self.alloc(1 - (b & 1))
            self.eng("mul", a, b, acc)
        else:
            assert acc & 1 != b & 1
            self.eng("mac", a, b, acc)
        self.release(a)
        return acc


def hash_(prog, mode, abase, alen, dst=0, nout=0, bbase=0, blen=0, tail=b""):
    prog.append(
        {
            "op": I_HASH,
            "mode": mode,
            "abase": abase,
            "alen": alen,
            "bbase": bbase,
            "blen": blen,
            "tailn": len(tail),
            "tail": int.from_bytes(tail, "little"),
            "dst": dst,
            "nout": nout,
        }
    )


def _target(ins, slot):
    if slot >= STAGE:
        ins.update(stage=1, sbuf=slot - STAGE)
    else:
        ins["sa"] = slot
    return ins


def sample(prog, mode, smode, seed, tail, slot, scale=False):
    prog.append(
        _target(
            {
                "op": I_SAMPLE,
                "mode": mode,
                "abase": seed,
                "alen": 4,
                "tailn": len(tail),
                "tail": int.from_bytes(tail, "little"),
                "smode": smode,
                "scale": int(scale),
            },
            slot,
        )
    )


def enc(prog, slot, d, base, compare=False, addm=False):
    """ENC / ENCCMP of a slot; addm: plus Decompress_1 of the 256 bits LOAD4 left in tmp."""
    prog.append({"op": I_ENCCMP if compare else I_ENC, "sa": slot, "d": d, "abase": base, "addm": int(addm)})


def wipe(prog, base, n):
    prog.append({"op": I_WIPE, "abase": base, "alen": n})


def dec(prog, base, d, slot, chk=False):
    prog.append(_target({"op": I_DEC, "abase": base, "d": d, "chk": int(chk)}, slot))


def cbd(prog, sl, eta, seed, nonce, scale=False):
    """SamplePolyCBD into a staging buffer."""
    s = sl.stage()
    sample(prog, SHAKE256, S_CBD2 if eta == 2 else S_CBD3, seed, bytes([nonce]), s, scale)
    return s


def encrypt(prog, sl, k, seed_r, compare, beside_last=None):
    """K-PKE.Encrypt(ek at EK, m at M, r at seed_r): c at C, or compared with C.
    beside_last(): appends instructions to run beside the last inverse NTT (the sequencer has
    the most room there: nothing else is left to sample or decode).

    Scheduled so the sequencer fills a staging buffer while the engine works: each CBD beside the
    NTT before it, each A^ sample beside the MAC before it, e1 / e2 beside the row's last MAC
    (the inverse NTT adds it in its last layer), and the first operand of the next row (A^ or
    t^) beside the row's inverse NTT."""
    L = layout(k)
    eta1, eta2, du, dv = PARAMS[k]
    # y^ in bank 0 with t^; the sums accumulate in bank 1. y is sampled times 128^-1, so the
    # inverse NTTs of the sums skip their scaling pass (intt128)
    yh = [sl.ntt(cbd(prog, sl, eta1, seed_r, j, scale=True), bank=0) for j in range(k)]

    def a_hat(i, j):
        a = sl.stage()
        sample(prog, SHAKE128, S_NTT, L["RHO"], bytes([i, j]), a)  # A^T[i][j] = A[j][i]
        return a

    def t_hat(j):
        t = sl.stage()
        dec(prog, L["EK"] + 48 * j, 12, t, chk=True)  # FIPS 203 7.2
        return t

    first = a_hat(0, 0)
    for i in range(k):
        u = None
        for j in range(k):
            u = sl.mac(first if j == 0 else a_hat(i, j), yh[j], u)
        e1 = cbd(prog, sl, eta2, seed_r, k + i)
        u = sl.intt128(u, add=e1)
        first = a_hat(i + 1, 0) if i + 1 < k else t_hat(0)
        if i + 1 < k:
            # beside the next row's MUL (the codec unit; the sponge unit samples meanwhile)
            enc(prog, u, du, L["C"] + 4 * du * i, compare)
            sl.release(u)
    # the last u is encoded beside v's first MAC, after t^_1 is decoded: the codec unit decodes
    # every t^_j, and t^_1 cannot be decoded earlier (its buffer is the last fold's operand)
    v = None
    for j in range(k):
        v = sl.mac(first, yh[j], v)
        if j == 0:
            first = t_hat(1)
            enc(prog, u, du, L["C"] + 4 * du * (k - 1), compare)
            sl.release(u)
        elif j + 1 < k:
            first = t_hat(j + 1)
    sl.release(*yh)
    e2 = cbd(prog, sl, eta2, seed_r, 2 * k)
    v = sl.intt128(v, add=e2)
    if beside_last:
        beside_last()
    # + mu = Decompress_1(m): m's 4 lanes in tmp, added as v is encoded (no ADD pass)
    prog.append({"op": I_LOAD4, "abase": L["M"]})
    enc(prog, v, dv, L["C"] + 4 * du * k, compare, addm=True)
    sl.release(v)


def program(k, op):
    L = layout(k)
    eta1, _, du, dv = PARAMS[k]
    prog = []
    sl = Slots(prog)
    if op == "keygen":
        hash_(prog, SHA3_512, L["H"], 4, dst=L["RHO"], nout=8, tail=bytes([k]))  # rho || sigma
        sigma = L["H"]
        sh = [sl.ntt(cbd(prog, sl, eta1, sigma, j), bank=0) for j in range(k)]  # s^ in bank 0
        e = cbd(prog, sl, eta1, sigma, k)  # beside the last NTT
        for i in range(k):
            t = sl.ntt(e, bank=1)  # e^ ...
            for j in range(k):
                a = sl.stage()
                sample(prog, SHAKE128, S_NTT, L["RHO"], bytes([j, i]), a)
                t = sl.mac(a, sh[j], t)  # ... + A^ o s^
                if i == 0:  # dk_pke's s^_j beside its first MAC
                    enc(prog, sh[j], 12, L["DKP"] + 48 * j)
            if i + 1 < k:
                e = cbd(prog, sl, eta1, sigma, k + i + 1)  # beside the last MAC
            enc(prog, t, 12, L["EK"] + 48 * i)
            sl.release(t)
        sl.release(*sh)
        hash_(prog, SHA3_256, L["EK"], 48 * k + 4, dst=L["H"], nout=4)
    elif op == "encaps":
        hash_(prog, SHA3_256, L["EK"], 48 * k + 4, dst=L["M"] + 4, nout=4)
        hash_(prog, SHA3_512, L["M"], 8, dst=L["KR"], nout=8)
        encrypt(prog, sl, k, L["KR"] + 4, compare=False)
    else:
        # decryption; the sponge hashes H(ek) (the FIPS 203 7.3 check) and K-bar = J(z || c)
        # beside it, as both depend on the input only
        def hash_ek():
            hash_(prog, SHA3_256, L["EK"], 48 * k + 4, dst=L["HC"], nout=4)

        def hash_j():
            hash_(prog, SHAKE256, L["Z"], 4 + L["CLEN"], dst=L["KB"], nout=4)

        w = None
        for i in range(k):
            u = sl.stage()
            dec(prog, L["C"] + 4 * du * i, du, u)
            if i == 0:
                hash_ek()
            uh = sl.ntt(u, bank=1)  # bank 1, beside s; w in bank 0
            if i == 1:
                hash_j()  # once H(ek) is done
            s = sl.stage()
            dec(prog, L["DKP"] + 48 * i, 12, s)
            if i > 0:  # dk_pke's s_(i-1), no longer needed,
                wipe(prog, L["DKP"] + 48 * (i - 1), 48)  # wiped beside the NTT
            w = sl.mac(s, uh, w)
            sl.release(uh)
        # v beside the last MAC, and the last part of dk_pke wiped beside it too
        v = sl.stage()
        dec(prog, L["C"] + 4 * du * k, dv, v)
        wipe(prog, L["DKP"] + 48 * (k - 1), 48)
        prog.append({"op": I_LOAD4, "abase": L["HC"]})  # 7.3: only a flag, reported at the end
        prog.append({"op": I_CMP4, "abase": L["H"]})
        m = sl.intt(w, sub_from=v)  # v - INTT(s^T u)
        enc(prog, m, 1, L["M"])
        sl.release(m)
        hash_(prog, SHA3_512, L["M"], 4, bbase=L["H"], blen=4, dst=L["KR"], nout=8)
        encrypt(prog, sl, k, L["KR"] + 4, compare=True)
    # the wipe: every slot and staging buffer (engine ZERO), and beside it the lanes holding
    # secrets that are not the output (keygen has none: sigma and d are overwritten, dk is output);
    # decaps selects K or K-bar beside it too
    sl.eng("zero", max(sl.used) // 2 + 1, 0)  # slot rows 0 .. a-1
    if op == "decaps":
        prog.append({"op": I_LOAD4, "abase": L["KB"]})
        prog.append({"op": I_SEL4, "abase": L["KR"]})
    for base, n in secret_lanes(k, op):
        if not (op == "decaps" and base == L["DKP"]):  # decaps wiped dk_pke already
            wipe(prog, base, n)
            prog[-1]["restart"] = 1  # and the sponge, sampler and codec
    prog.append({"op": I_END})
    schedule(prog)
    assert all(len(v) == 8 for v in sl.free.values()), f"slot leak in {op} k={k}"
    return prog


# ---- the wait bits: which unit an instruction waits for ---------------------------------------
P_OPS = (I_HASH, I_SAMPLE)  # the sponge unit
C_OPS = (I_ENC, I_ENCCMP, I_DEC, I_LOAD4, I_CMP4, I_SEL4, I_WIPE)  # the codec unit


def _uses(ins):
    """What an instruction touches: (lanes read, lanes written, staging buffers written, host port
    use ('r' slot / 'w' slot / None), restarts the sponge)."""
    g = lambda f: ins.get(f, 0)  # noqa: E731
    o = ins["op"]
    rd, wr, sw, host = set(), set(), set(), None
    span = lambda b, n: set(range(b, b + n))  # noqa: E731
    if o in (I_HASH, I_SAMPLE):
        rd = span(g("abase"), g("alen")) | span(g("bbase"), g("blen"))
        if o == I_HASH:
            wr = span(g("dst"), g("nout"))
    elif o in (I_ENC, I_ENCCMP):
        (wr if o == I_ENC else rd).update(span(g("abase"), 4 * g("d")))
        host = ("r", g("sa"))
    elif o == I_DEC:
        rd = span(g("abase"), 4 * g("d"))
    elif o in (I_LOAD4, I_CMP4):
        rd = span(g("abase"), 4)
    elif o == I_SEL4:
        rd = wr = span(g("abase"), 4)
    elif o == I_WIPE:
        wr = span(g("abase"), g("alen"))
    if o in (I_SAMPLE, I_DEC):
        if g("stage"):
            sw = {g("sbuf")}
        else:
            host = ("w", g("sa"))
    return rd, wr, sw, host, o == I_WIPE and g("restart")


def _beside(eng, enc):
    """An ENG command that leaves the engine's host port free for ENC/ENCCMP of slot enc: a MUL,
    MAC, ADD or SUB with operand a from a staging buffer reads b's bank on port 1 only
    (poly_engine host_rd_ok) and writes the other bank."""
    return (
        eng["eop"] in (ENG["mul"], ENG["mac"], ENG["add"], ENG["sub"])
        and eng.get("stage", 0)
        and eng["sb"] & 1 == enc & 1
        and eng["sc"] != enc
    )


def _stream(eng, enc):
    """Is slot enc the result of the NTT / INTT command eng? ENC/ENCCMP of it may then start in
    its last layer (poly_engine tail: port 0 of b's bank is free, words read as they are written)."""
    return eng["eop"] in (ENG["ntt"], ENG["intt"], ENG["intt128"]) and eng["sb"] == enc


def _conflict(x, y):
    """Must instruction x wait for y (the last one given to another unit, maybe still running)?"""
    if x["op"] == I_END:
        return True
    xr, xw, xs, xh, xrst = _uses(x)
    yr, yw, ys, yh, yrst = _uses(y)
    if x["op"] == I_ENG:
        if yh is not None and not (yh[0] == "r" and _beside(x, yh[1])):
            return True  # the host port, or a slot the command uses
        if x["eop"] == ENG["zero"]:
            return bool(ys)  # ZERO clears both staging buffers
        return bool(x.get("stage", 0)) and x.get("sbuf", 0) in ys  # the buffer it reads
    if (xr & yw) or (xw & yr) or (xw & yw):
        return True  # lanes
    if xs and ys:
        return True  # one write port into the staging buffers
    if xh is not None and yh is not None:
        return True  # one host port
    if (xrst and y["op"] in P_OPS) or (yrst and x["op"] in P_OPS):
        return True  # the final WIPE restarts the sponge
    return False


def schedule(prog):
    """Sets each instruction's wait bits (wsp: the sponge unit idle, wcd: the codec unit idle). The
    core dispatches in program order, an instruction waits for its own unit, and the last
    instruction given to each unit is the only one that can still run; x waits for that unit if
    it conflicts with that instruction (lanes, the staging buffers' write port, the engine's host
    port, the sponge restart). `run` below executes the program in order, so wait bits that miss a
    dependency show up as a mismatch in the RTL, and mlkem_core checks the ports in simulation."""
    last = {"P": None, "C": None}
    eng = None
    for ins in prog:
        # mlkem_core's absorb addresses start at abase, abase + 1 (ra_cur, ra_nxt)
        assert ins["op"] not in P_OPS or ins["alen"] >= 2, "a HASH/SAMPLE's first segment needs 2 lanes"
        if ins["op"] == I_ENG:
            eng = ins
        elif ins["op"] in (I_ENC, I_ENCCMP) and eng is not None and _beside(eng, ins["sa"]):
            ins["beside"] = 1  # runs beside the command (else waits for the engine)
        elif ins["op"] in (I_ENC, I_ENCCMP) and eng is not None and _stream(eng, ins["sa"]):
            ins["stream"] = 1  # reads the NTT/INTT's result from its last layer on
        own = "P" if ins["op"] in P_OPS else "C" if ins["op"] in C_OPS else None
        for unit, bit in (("P", "wsp"), ("C", "wcd")):
            y = last[unit]
            if unit != own and y is not None and _conflict(ins, y):
                ins[bit] = 1
                last[unit] = None
        if ins["op"] in P_OPS:
            last["P"] = ins
        elif ins["op"] in C_OPS:
            last["C"] = ins
    return prog


def word(ins):
    w = 0
    for name, v in ins.items():
        lsb, width = FIELDS[name]
        assert 0 <= v < (1 << width), (name, v)
        w |= v << lsb
    return w


# ---- the interpreter (what the RTL must do, in Python) ----------------------------------------
def _lanes_bytes(mem, base, n):
    return b"".join(mem[base + i].to_bytes(8, "little") for i in range(n))


def _put(mem, base, data):
    for i in range(0, len(data), 8):
        mem[base + i // 8] = int.from_bytes(data[i : i + 8], "little")


def _hash(mode, data, n):
    if mode == SHA3_256:
        return hashlib.sha3_256(data).digest()
    if mode == SHA3_512:
        return hashlib.sha3_512(data).digest()
    return (hashlib.shake_128 if mode == SHAKE128 else hashlib.shake_256)(data).digest(n)


def run(k, op, inp):
    """Runs the program on the input byte string; returns (output bytes, flags)."""
    mem = [0] * 1024
    slots = [[0] * 256 for _ in range(STAGE + 2)]
    poison = [None] * 256  # a scratch slot's content: any use fails
    flags = {"ek_bad": 0, "dk_bad": 0, "fail": 0}
    ins_r, outs_r = io_regions(k, op)
    pos = 0
    for base, n in ins_r:
        _put(mem, base, inp[pos : pos + 8 * n])
        pos += 8 * n
    assert pos == len(inp)
    tmp = [0] * 4
    for ins in program(k, op):
        g = lambda f: ins.get(f, 0)  # noqa: E731
        o = ins["op"]
        tgt = STAGE + g("sbuf") if g("stage") else g("sa")  # SAMPLE / DEC destination
        if o in (I_HASH, I_SAMPLE):
            data = _lanes_bytes(mem, g("abase"), g("alen")) + _lanes_bytes(mem, g("bbase"), g("blen"))
            data += g("tail").to_bytes(2, "little")[: g("tailn")]
            if o == I_HASH:
                _put(mem, g("dst"), _hash(g("mode"), data, 8 * g("nout"))[: 8 * g("nout")])
            elif g("smode") == S_NTT:
                slots[tgt] = models.sample_ntt(_hash(g("mode"), data, 1344))
            else:
                eta = 2 if g("smode") == S_CBD2 else 3
                f = models.sample_cbd(_hash(g("mode"), data, 64 * eta), eta)
                slots[tgt] = [x * INV128 % models.Q for x in f] if g("scale") else f
        elif o == I_ENG:
            a, b, c = slots[tgt], slots[g("sb")], slots[g("sc")]
            e = g("eop")
            if e in (ENG["intt"], ENG["intt128"]):  # a buffer here is the fold operand
                a, fold = slots[g("sa")], (slots[tgt] if g("stage") else [0] * 256)
            if e == ENG["zero"]:
                rows = g("sa") or 8
                assert all(x == [0] * 256 for x in slots[2 * rows : STAGE]), "ZERO misses a slot"
                slots = [[0] * 256 for _ in range(STAGE + 2)]
            elif e == ENG["ntt"]:
                slots[g("sb")] = models.ntt(a)
                slots[g("sa")] = poison
            elif e == ENG["intt"]:
                r = models.intt(a)
                slots[g("sb")] = [(y - x) % models.Q for x, y in zip(r, fold)] if g("stage") else r
                slots[g("sa")] = poison
            elif e == ENG["intt128"]:
                slots[g("sb")] = [(x * 128 + y) % models.Q for x, y in zip(models.intt(a), fold)]
                slots[g("sa")] = poison
            elif e == ENG["mul"]:
                slots[g("sc")] = models.basemul(a, b)
            elif e == ENG["mac"]:
                slots[g("sc")] = [(x + y) % models.Q for x, y in zip(c, models.basemul(a, b))]
            elif e == ENG["add"]:
                slots[g("sc")] = [(x + y) % models.Q for x, y in zip(a, b)]
            else:
                slots[g("sc")] = [(x - y) % models.Q for x, y in zip(a, b)]
        elif o in (I_ENC, I_ENCCMP):
            d = g("d")
            f = slots[g("sa")]
            if g("addm"):
                f = [(x + models.decompress((tmp[c // 64] >> (c % 64)) & 1, 1)) % models.Q for c, x in enumerate(f)]
            f = f if d == 12 else [models.compress(x, d) for x in f]
            data = models.byte_encode(f, d)
            if o == I_ENC:
                _put(mem, g("abase"), data)
            else:
                flags["fail"] |= int(data != _lanes_bytes(mem, g("abase"), 4 * d))
        elif o == I_DEC:
            d = g("d")
            f = models.byte_decode(_lanes_bytes(mem, g("abase"), 4 * d), d)
            if d == 12:
                flags["ek_bad"] |= g("chk") & int(any(x >= models.Q for x in f))
                slots[tgt] = f
            else:
                slots[tgt] = [models.decompress(x, d) for x in f]
        elif o == I_LOAD4:
            tmp = mem[g("abase") : g("abase") + 4]
        elif o == I_CMP4:
            flags["dk_bad"] |= int(tmp != mem[g("abase") : g("abase") + 4])
        elif o == I_SEL4:
            if flags["fail"]:
                mem[g("abase") : g("abase") + 4] = tmp
        elif o == I_WIPE:
            mem[g("abase") : g("abase") + g("alen")] = [0] * g("alen")
        elif o == I_END:
            break
    out = b"".join(_lanes_bytes(mem, b, n) for b, n in outs_r)
    return out, flags


PC_BITS = 7  # instructions per program: at most 128


def emit():
    """mlkem_prog.vh: one memory of (op, pc) -> instruction per K, initialised by constant
    assignments (read registered into iw, so synthesis maps it to block RAM)."""
    lines = [
        "// Generated by hw/scripts/gen_prog.py: the ML-KEM micro-programs, unrolled per K.",
        "// Word {op, pc} of prog is instruction pc of op (0 keygen, 1 encaps, 2 decaps); fields",
        "// are listed in gen_prog.py FIELDS. Read registered into iw, so it maps to block RAM.",
        f"reg [{IW - 1}:0] prog [0:{(3 << PC_BITS) - 1}];",
        "generate",
    ]
    for k in (2, 3, 4):
        lines += [f"    {'if' if k == 2 else 'else if'} (K == {k}) begin : prog_k{k}", "        initial begin"]
        for n, op in enumerate(OPS):
            p = program(k, op)
            assert len(p) <= 1 << PC_BITS, f"{op} k={k}: {len(p)} instructions"
            for pc, ins in enumerate(p):
                lines.append(f"            prog[{(n << PC_BITS) + pc}] = {IW}'h{word(ins):0{(IW + 3) // 4}x};")
        lines += ["        end", "    end"]
    lines += ["endgenerate", ""]
    (HW / "rtl" / "mlkem_prog.vh").write_text("\n".join(lines))


if __name__ == "__main__":
    emit()
    for k in (2, 3, 4):
        print(f"K={k}: " + ", ".join(f"{op} {len(program(k, op))}" for op in OPS))
