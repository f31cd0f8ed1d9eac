#!/usr/bin/env python3
"""Generates src/fea/bitplane/fea_bitplane_gen.h: straight-line C for one FEA SD layer on bit
planes (the 8 S-boxes of a layer at once; word W has bit q of plane b = bit b of byte position q).

S-box: FEA's S-box is A * inv(x) + 0x62 with inv in GF(2^8)/0x11d (spec section 4). Here the
inversion runs in the tower field GF((2^4)^2) = GF(16)[y]/(y^2 + y + lambda), GF(16) =
GF(2)[z]/(z^4 + z + 1), where a_h y + a_l has the inverse (a_h D^-1) y + (a_h + a_l) D^-1 with
D = lambda a_h^2 + a_h a_l + a_l^2: three GF(16) multiplications (16 AND each) and one GF(16)
inversion (its algebraic normal form). The field isomorphism X is folded into the input linear
map, A * X^-1 and the constant into the output map. Linear maps are emitted with greedy sharing
of XOR pairs (Paar's heuristic).

M: output byte i = XOR_j c[(i + j) mod 8] s_j. If byte j sits at position -j + tau (the layout
the transposition gives), the output lands at i + tau as out = XOR_k c_k * ROTL^k(S): Horner
over k with one rotation per step, each c_k * S a linear map of the 8 planes. The layer flips the
layout (sigma -> -sigma), so the next layer uses rotations the other way (ROTR): two layers (one
F) bring the layout back. Every term is checked here against the spec's SD on random words
through a model of the emitted operations (8-bit planes), and the S-box circuit on all 256 bytes.
Reads the S-box and M from src/fea/fea_tables.h.
Usage: scripts/gen_fea_bitplane.py"""

import pathlib
import random
import re

root = pathlib.Path(__file__).resolve().parent.parent
tables = (root / "src/fea/fea_tables.h").read_text()
SBOX = [int(v, 16) for v in re.findall(r"0x([0-9a-f]{2})", tables.split("fea_sbox[256] = {")[1].split("};")[0])]
MC = [int(v, 16) for v in re.findall(r"0x([0-9a-f]{2})", tables.split("fea_mc[8] = {")[1].split("};")[0])]


def gmul(a, b, poly, deg=8):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a <<= 1
        if a >> deg:
            a ^= poly
        b >>= 1
    return r


def g16(a, b):
    return gmul(a, b, 0x13, 4)


def g16inv(a):
    return next((b for b in range(16) if g16(a, b) == 1), 0)


# ---------------------------------------------------------------- the tower field
LAM = next(lam for lam in range(1, 16) if all(g16(y, y) ^ y ^ lam for y in range(16)))  # y^2+y+lam irreducible


def tmul(a, b):  # tower elements as (hi << 4) | lo
    ah, al, bh, bl = a >> 4, a & 15, b >> 4, b & 15
    hh = g16(ah, bh)  # y^2 = y + lam
    hi = hh ^ g16(ah, bl) ^ g16(al, bh)
    lo = g16(hh, LAM) ^ g16(al, bl)
    return (hi << 4) | lo


def tinv(a):
    ah, al = a >> 4, a & 15
    d = g16(g16(ah, ah), LAM) ^ g16(ah, al) ^ g16(al, al)
    di = g16inv(d)
    return (g16(ah, di) << 4) | g16(ah ^ al, di)


for a in range(1, 256):
    assert tmul(a, tinv(a)) == 1


def tpow(a, k):
    r = 1
    for _ in range(k):
        r = tmul(r, a)
    return r


# isomorphism X: t -> r, r a root of t^8+t^4+t^3+t^2+1 in the tower field
R = next(r for r in range(2, 256) if tpow(r, 8) ^ tpow(r, 4) ^ tpow(r, 3) ^ tpow(r, 2) ^ 1 == 0)
XCOL = [tpow(R, k) for k in range(8)]


def lin(cols, x):
    r = 0
    for j in range(8):
        if (x >> j) & 1:
            r ^= cols[j]
    return r


Xmap = [lin(XCOL, x) for x in range(256)]
assert sorted(Xmap) == list(range(256))
Xinv = [0] * 256
for x, y in enumerate(Xmap):
    Xinv[y] = x
inv11d = [0] + [next(b for b in range(256) if gmul(a, b, 0x11D) == 1) for a in range(1, 256)]
for a in range(256):
    assert Xinv[tinv(Xmap[a])] == inv11d[a]
ACOL = [SBOX[inv11d[1 << j]] ^ SBOX[0] for j in range(8)]  # S(x) = A inv(x) + S(0)
for x in range(256):
    assert SBOX[x] == lin(ACOL, inv11d[x]) ^ SBOX[0]
POSTCOL = [lin(ACOL, Xinv[1 << j]) for j in range(8)]  # A X^-1
CONST = SBOX[0]


# ---------------------------------------------------------------- circuit builder
class Circuit:
    def __init__(self, inputs):
        self.lines, self.n, self.gates = [], 0, {"xor": 0, "and": 0, "not": 0}
        self.sim = {}  # name -> 256-bit truth table over the S-box input
        for b, name in enumerate(inputs):
            self.sim[name] = sum(1 << x for x in range(256) if (x >> b) & 1)

    def new(self, expr, val, kind):
        name = f"t{self.n}"
        self.n += 1
        self.lines.append(f"W {name} = {expr};")
        self.sim[name] = val
        self.gates[kind] += 1
        return name

    def xor(self, a, b):
        return self.new(f"{a} ^ {b}", self.sim[a] ^ self.sim[b], "xor")

    def and_(self, a, b):
        return self.new(f"{a} & {b}", self.sim[a] & self.sim[b], "and")

    def not_(self, a):
        return self.new(f"~{a}", self.sim[a] ^ ((1 << 256) - 1), "not")

    def linear(self, rows, ins):
        """rows[i] = set of input indices XORed into output i (Paar: share the most frequent pair)."""
        sig = list(ins)
        rows = [set(r) for r in rows]
        while True:
            count = {}
            for r in rows:
                rl = sorted(r)
                for a in range(len(rl)):
                    for b in range(a + 1, len(rl)):
                        count[(rl[a], rl[b])] = count.get((rl[a], rl[b]), 0) + 1
            if not count or max(count.values()) < 2:
                break
            (a, b), _ = max(count.items(), key=lambda kv: (kv[1], -kv[0][0], -kv[0][1]))
            sig.append(self.xor(sig[a], sig[b]))
            new = len(sig) - 1
            for r in rows:
                if a in r and b in r:
                    r -= {a, b}
                    r.add(new)
        outs = []
        for r in rows:
            rl = sorted(r)
            if not rl:
                raise ValueError("zero row")
            acc = sig[rl[0]]
            for i in rl[1:]:
                acc = self.xor(acc, sig[i])
            outs.append(acc)
        return outs

    def gf16_mul(self, a, b):
        p = [None] * 7
        for i in range(4):
            for j in range(4):
                t = self.and_(a[i], b[j])
                p[i + j] = t if p[i + j] is None else self.xor(p[i + j], t)
        # z^4 = z + 1, z^5 = z^2 + z, z^6 = z^3 + z^2
        c0 = self.xor(p[0], p[4])
        c1 = self.xor(self.xor(p[1], p[4]), p[5])
        c2 = self.xor(self.xor(p[2], p[5]), p[6])
        c3 = self.xor(p[3], p[6])
        return [c0, c1, c2, c3]

    def gf16_inv(self, d):
        """ANF of each output bit of d -> d^-1, monomials shared."""
        anf = []
        for ob in range(4):
            f = [(g16inv(x) >> ob) & 1 for x in range(16)]
            for i in range(4):  # Moebius transform
                for x in range(16):
                    if x & (1 << i):
                        f[x] ^= f[x ^ (1 << i)]
            anf.append([m for m in range(16) if f[m]])
        mono = {}

        def monomial(m):
            if m in mono:
                return mono[m]
            bits = [i for i in range(4) if m & (1 << i)]
            if len(bits) == 1:
                mono[m] = d[bits[0]]
            else:
                top = 1 << bits[-1]
                mono[m] = self.and_(monomial(m ^ top), d[bits[-1]])
            return mono[m]

        outs = []
        for terms in anf:
            assert 0 not in terms  # inv(0) = 0: no constant term
            acc = monomial(terms[0])
            for m in terms[1:]:
                acc = self.xor(acc, monomial(m))
            outs.append(acc)
        return outs


def matrix_rows(cols, nin, nout):
    return [[j for j in range(nin) if (cols[j] >> i) & 1] for i in range(nout)]


ins = [f"x[{b}]" for b in range(8)]
c = Circuit(ins)
a = c.linear(matrix_rows(XCOL, 8, 8), ins)  # tower bits: a[0..3] = a_l, a[4..7] = a_h
al, ah = a[:4], a[4:]
# D = lam a_h^2 + a_l^2 + a_h a_l: the squares and the scaling are linear in (a_l, a_h)
sqcols = [0] * 8
for j in range(8):
    v = 1 << j
    vh, vl = v >> 4, v & 15
    sqcols[j] = g16(g16(vh, vh), LAM) ^ g16(vl, vl)
dlin = c.linear(matrix_rows(sqcols, 8, 4), a)
prod = c.gf16_mul(ah, al)
d = [c.xor(dlin[i], prod[i]) for i in range(4)]
di = c.gf16_inv(d)
s = [c.xor(ah[i], al[i]) for i in range(4)]
oh = c.gf16_mul(ah, di)
ol = c.gf16_mul(s, di)
o = ol + oh
outs = c.linear(matrix_rows(POSTCOL, 8, 8), o)
outs = [c.not_(outs[i]) if (CONST >> i) & 1 else outs[i] for i in range(8)]
for i in range(8):
    want = sum(1 << x for x in range(256) if (SBOX[x] >> i) & 1)
    assert c.sim[outs[i]] == want, f"S-box bit {i}"
sbox_lines = c.lines + [f"x[{i}] = {outs[i]};" for i in range(8)]
sbox_gates = dict(c.gates)


# ---------------------------------------------------------------- M on planes
def mul_rows(cc):  # rows of the 8x8 matrix of multiplication by cc in GF(2^8)/0x171
    cols = [gmul(cc, 1 << j, 0x171) for j in range(8)]
    return matrix_rows(cols, 8, 8)


def emit_m(rot):
    """out = XOR_k c_k * ROT^k(S), Horner from k = 7 down; per output plane, only the S planes."""
    lines, nx = [], 0
    for p in range(8):
        acc = None
        for k in range(7, -1, -1):
            row = mul_rows(MC[k])[p]
            term = " ^ ".join(f"s{j}" for j in row)
            nx += len(row) - 1
            if acc is None:
                acc = f"({term})"
            else:
                acc = f"{rot}({acc}) ^ {term}"
                nx += 1
        lines.append(f"x[{p}] = {acc};")
    return ["W " + ", ".join(f"s{j} = x[{j}]" for j in range(8)) + ";"] + lines, nx


ml_lines, m_ops = emit_m("ROTL1")
mr_lines, _ = emit_m("ROTR1")


# ---------------------------------------------------------------- model check of one F
def rotl8(v, k):
    return ((v << k) | (v >> (8 - k))) & 0xFF


def planes_of(x):  # transposition: bit q of plane b = bit b of LSB-first byte q (BE byte j = 7 - q)
    return [sum(((x >> (8 * q + b)) & 1) << q for q in range(8)) for b in range(8)]


def word_of(P):
    return sum(((P[b] >> q) & 1) << (8 * q + b) for q in range(8) for b in range(8))


def sbox_planes(P):
    out = [0] * 8
    for q in range(8):
        v = sum(((P[b] >> q) & 1) << b for b in range(8))
        s = SBOX[v]
        for b in range(8):
            out[b] |= ((s >> b) & 1) << q
    return out


def m_planes(S, left):
    out = [0] * 8
    for p in range(8):
        acc = None
        for k in range(7, -1, -1):
            t = 0
            for j in mul_rows(MC[k])[p]:
                t ^= S[j]
            acc = t if acc is None else (rotl8(acc, 1) if left else rotl8(acc, 7)) ^ t
        out[p] = acc
    return out


def sd_spec(x):
    sb = [SBOX[(x >> (56 - 8 * j)) & 0xFF] for j in range(8)]
    y = 0
    for i in range(8):
        v = 0
        for j in range(8):
            v ^= gmul(MC[(i + j) % 8], sb[j], 0x171)
        y = (y << 8) | v
    return y


def bswap(x):
    return int.from_bytes(x.to_bytes(8, "little"), "big")


def rotr_planes(P):
    return [rotl8(v, 7) for v in P]


rng = random.Random(15)
for _ in range(300):
    x, ka, kb = (rng.getrandbits(64) for _ in range(3))
    # one SD (key schedule): layout -j+7 in, ROTL M, layout j-1 out: back through bswap and ROTL1
    P = m_planes(sbox_planes(planes_of(x)), True)
    assert word_of([rotl8(v, 1) for v in P]) == bswap(sd_spec(x))
    # F: SD(SD(x ^ ka) ^ kb); kb in the middle layout = ROTR1(planes(bswap(kb)))
    P = m_planes(sbox_planes(planes_of(x ^ ka)), True)
    K = rotr_planes(planes_of(bswap(kb)))
    P = m_planes(sbox_planes([P[b] ^ K[b] for b in range(8)]), False)
    assert word_of(P) == sd_spec(sd_spec(x ^ ka) ^ kb)

# ---------------------------------------------------------------- write
out = (
    [
        "/* Generated by scripts/gen_fea_bitplane.py (checked there: the S-box circuit on all 256 bytes,",
        " * SD and F on random words through a model of this code). W is the plane word type and",
        " * ROTL1/ROTR1 rotate each 8-bit group of positions by one; both are defined by the includer.",
        f" * S-box: tower-field inversion, lambda = 0x{LAM:x}: {sbox_gates['and']} AND, {sbox_gates['xor']} XOR,"
        f" {sbox_gates['not']} NOT.",
        f" * M: {m_ops} XOR (rotations included) per layout. */",
        "#ifndef NURI_FEA_BITPLANE_GEN_H",
        "#define NURI_FEA_BITPLANE_GEN_H",
        "",
        "/* x[b] = plane b (bit b of every byte) -> S applied to every byte */",
        "static inline void fea_bp_sbox(W x[8])",
        "{",
    ]
    + ["    " + line for line in sbox_lines]
    + [
        "}",
        "",
        "/* M on planes whose byte j sits at position 7 - j; the result has byte i at position i - 1 */",
        "static inline void fea_bp_m_rotl(W x[8])",
        "{",
    ]
    + ["    " + line for line in ml_lines]
    + [
        "}",
        "",
        "/* M on planes whose byte j sits at position j - 1; the result has byte i at position 7 - i */",
        "static inline void fea_bp_m_rotr(W x[8])",
        "{",
    ]
    + ["    " + line for line in mr_lines]
    + ["}", "#endif", ""]
)
path = root / "src/fea/bitplane/fea_bitplane_gen.h"
path.parent.mkdir(exist_ok=True)
path.write_text("\n".join(out))
print(f"lambda 0x{LAM:x}, S-box gates {sbox_gates}, M ops {m_ops}; wrote {path.relative_to(root)}")
