#!/usr/bin/env python3
"""Generates src/fea/fea_aes_consts.h: the constants of the FEA kernels built on the AES
S-box instruction (x86 AESENCLAST, ARMv8 AESE), derived here from the two S-boxes.

FEA's S-box is inversion in GF(2^8)/(x^8+x^4+x^3+x^2+1) followed by an affine map (spec section 4);
the AES S-box is inversion in GF(2^8)/0x11b followed by another. So, with L1 the field isomorphism
(GF(2)-linear on bytes), S(x) = L2(SubBytes_AES(L1 x)) ^ c with L2 linear. This script
  1. finds L1 (a root of 0x11d's polynomial in the AES field: t^k -> r^k), and derives L2 and c
     from the two tables; it checks the identity on all 256 bytes;
  2. folds L2, the constant and M's coefficients into nibble tables: one SD layer is
        SD(x) = XOR_d P_d( T_d[lo(z)] ^ T'_d[hi(z)] ),   z = SubBytes_AES(L1 x) (in AES byte order)
     where T_d(z) = c_d * L2(z) in GF(2^8)/0x171 (the constant K = (XOR_k c_k) * c folded into T_0),
     and P_d a byte shuffle that places term d (also undoing ShiftRows or pre-applying it);
  3. the "first layer" tables also apply L1 to the result (L1 * c_d * L2, L1(K)), so the second
     SD of a round starts directly at the AES instruction;
  4. checks SD on random words against the spec's SD, through a model of the instruction.
Reads the S-box and M from src/fea/fea_tables.h (facts of the standard).
Usage: scripts/gen_fea_aes.py  (rewrites the header; run from anywhere)"""

import pathlib
import random
import re

root = pathlib.Path(__file__).resolve().parent.parent
tables = (root / "src/fea/fea_tables.h").read_text()
SBOX = [int(v, 16) for v in re.findall(r"0x([0-9a-f]{2})", tables.split("fea_sbox[256] = {")[1].split("};")[0])]
MC = [int(v, 16) for v in re.findall(r"0x([0-9a-f]{2})", tables.split("fea_mc[8] = {")[1].split("};")[0])]
assert len(SBOX) == 256 and sorted(SBOX) == list(range(256)) and len(MC) == 8


def gmul(a, b, poly):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a <<= 1
        if a & 0x100:
            a ^= poly
        b >>= 1
    return r


def ginv(a, poly):
    return next((b for b in range(256) if gmul(a, b, poly) == 1), 0)


# ---------------------------------------------------------------- AES S-box (from its definition)
def aes_affine(b):
    r = 0x63
    for i in range(8):
        bit = 0
        for k in (0, 4, 5, 6, 7):
            bit ^= (b >> ((i + k) % 8)) & 1
        r ^= bit << i
    return r


AES = [aes_affine(ginv(x, 0x11B)) for x in range(256)]
AES_INV = [0] * 256
for x, y in enumerate(AES):
    AES_INV[y] = x


def linear_from_columns(cols):
    def f(x):
        r = 0
        for j in range(8):
            if (x >> j) & 1:
                r ^= cols[j]
        return r

    return [f(x) for x in range(256)]


# ---------------------------------------------------------------- 1. L1, L2, c
# a root r of t^8+t^4+t^3+t^2+1 in GF(2^8)/0x11b: L1(t^k) = r^k is a field isomorphism
def poly_11d_at(r):
    acc = 0
    for k in (8, 4, 3, 2, 0):
        p = 1
        for _ in range(k):
            p = gmul(p, r, 0x11B)
        acc ^= p
    return acc


L1 = L2 = None
for r in range(2, 256):
    if poly_11d_at(r) != 0:
        continue
    cols, p = [], 1
    for _ in range(8):
        cols.append(p)
        p = gmul(p, r, 0x11B)
    l1 = linear_from_columns(cols)
    if sorted(l1) != list(range(256)):
        continue
    l1inv = [0] * 256
    for x, y in enumerate(l1):
        l1inv[y] = x
    # S(x) = L2(AES(L1 x)) ^ c  <=>  L2(w) ^ c = S(L1^-1(AES^-1(w)))
    g = [SBOX[l1inv[AES_INV[w]]] for w in range(256)]
    c = g[0]
    l2 = linear_from_columns([g[1 << j] ^ c for j in range(8)])
    if all(l2[w] ^ c == g[w] for w in range(256)):
        L1, L2, CONST = l1, l2, c
        break
assert L1 is not None, "no isomorphism found"
for x in range(256):
    assert SBOX[x] == L2[AES[L1[x]]] ^ CONST


# ---------------------------------------------------------------- 2./3. SD as nibble tables
# The SD layer on one 64-bit word (byte 0 = most significant) in the spec's terms.
def sd_spec(x):
    s = [SBOX[(x >> (56 - 8 * j)) & 0xFF] for j in range(8)]
    y = 0
    for i in range(8):
        v = 0
        for j in range(8):
            v ^= gmul(MC[(i + j) % 8], s[j], 0x171)
        y = (y << 8) | v
    return y


KSUM = 0
for cc in MC:
    KSUM ^= cc
K = gmul(KSUM, CONST, 0x171)  # every output byte gets (XOR_k c_k) * c


def nibble_tables(fn):
    return [fn(n) for n in range(16)], [fn(n << 4) for n in range(16)]


# T2: plain SD output; T1: L1 applied (feeds the next SD's AES instruction directly)
T2 = [nibble_tables(lambda z, d=d: gmul(MC[d], L2[z], 0x171)) for d in range(8)]
T1 = [nibble_tables(lambda z, d=d: L1[gmul(MC[d], L2[z], 0x171)]) for d in range(8)]
for n in range(16):  # constants folded into term 0's low-nibble table
    T2[0][0][n] ^= K
    T1[0][0][n] ^= L1[K]
L1T = nibble_tables(lambda z: L1[z])

# x86 AESENCLAST(s, 0) = ShiftRows(SubBytes(s)): output byte p = SubBytes(s)[SR[p]] (state byte
# p = row p % 4, column p // 4; row r rotates left by r). ARMv8 AESE(s, 0) = SubBytes(ShiftRows(s)):
# the same bytes in the same places (SubBytes is bytewise), so one shuffle table serves both.
SR = [4 * ((p // 4 + p % 4) % 4) + p % 4 for p in range(16)]
SR_INV = [0] * 16
for p, q in enumerate(SR):
    SR_INV[q] = p


# Term d of M: output byte i (big-endian index, memory byte 7 - i of its 64-bit word) takes
# c_d * s_j with j = (d - i) mod 8, s_j in memory byte 7 - j, which the AES instruction left at
# position SR_INV[...]. Two 64-bit words per 16-byte lane.
PERM = []
for d in range(8):
    perm = []
    for p in range(16):
        v, i = p // 8, 7 - p % 8
        j = (d - i) % 8
        perm.append(SR_INV[8 * v + 7 - j])
    PERM.append(perm)


# ---------------------------------------------------------------- 4. check through a model
def aesenclast0(st):  # 16 bytes -> 16 bytes
    sub = [AES[b] for b in st]
    return [sub[SR[p]] for p in range(16)]


def lookup(tab, st):
    lo, hi = tab
    return [lo[b & 15] ^ hi[b >> 4] for b in st]


def sd_model(words, tabs, apply_l1_in=True):
    st = []
    for w in words:
        st += list(w.to_bytes(8, "little"))
    if apply_l1_in:
        st = lookup(L1T, st)
    z = aesenclast0(st)
    acc = [0] * 16
    for d in range(8):
        t = lookup(tabs[d], z)
        acc = [acc[p] ^ t[PERM[d][p]] for p in range(16)]
    return [int.from_bytes(bytes(acc[8 * v : 8 * v + 8]), "little") for v in range(2)]


def l1_word(w):
    return int.from_bytes(bytes(L1[b] for b in w.to_bytes(8, "little")), "little")


rng = random.Random(15)
for _ in range(2000):
    a, b, ka, kb = (rng.getrandbits(64) for _ in range(4))
    assert sd_model([a, b], T2) == [sd_spec(a), sd_spec(b)]
    # F = SD(SD(x ^ ka) ^ kb): first layer with T1 (output in the L1 image), key L1(kb)
    u = sd_model([a ^ ka, b ^ ka], T1)
    v = sd_model([u[0] ^ l1_word(kb), u[1] ^ l1_word(kb)], T2, apply_l1_in=False)
    assert v == [sd_spec(sd_spec(a ^ ka) ^ kb), sd_spec(sd_spec(b ^ ka) ^ kb)]


# ---------------------------------------------------------------- write
def row(v):
    return "{" + ", ".join(f"0x{b:02x}" for b in v) + "}"


out = [
    "/* Generated by scripts/gen_fea_aes.py (derived from fea_sbox and the AES S-box, checked there",
    " * on all 256 bytes and on SD of random words). S(x) = L2(SubBytes_AES(L1 x)) ^ 0x%02x; L1 is the" % CONST,
    " * isomorphism GF(2^8)/0x11d -> GF(2^8)/0x11b. Every table is a 16-byte pshufb/tbl table.",
    " *   fea_aes_l1[0/1]:      L1 on the low / high nibble",
    " *   fea_aes_t2[d][0/1]:   c_d * L2(z) on the low / high nibble of z (d = 0: constant K folded in)",
    " *   fea_aes_t1[d][0/1]:   L1(c_d * L2(z)) (a first layer whose output feeds the next AES step)",
    " *   fea_aes_perm[d]:      byte shuffle placing term d in two 64-bit words (ShiftRows undone) */",
    "#ifndef NURI_FEA_AES_CONSTS_H",
    "#define NURI_FEA_AES_CONSTS_H",
    "",
    "#include <stdint.h>",
    "",
    "#define FEA_AES_CONST 0x%02x" % CONST,
    "static const uint8_t __attribute__((aligned(16))) fea_aes_l1[2][16] = {%s, %s};" % (row(L1T[0]), row(L1T[1])),
    "static const uint8_t __attribute__((aligned(16))) fea_aes_t1[8][2][16] = {",
]
out += ["    {%s, %s}," % (row(T1[d][0]), row(T1[d][1])) for d in range(8)]
out += ["};", "static const uint8_t __attribute__((aligned(16))) fea_aes_t2[8][2][16] = {"]
out += ["    {%s, %s}," % (row(T2[d][0]), row(T2[d][1])) for d in range(8)]
out += ["};", "static const uint8_t __attribute__((aligned(16))) fea_aes_perm[8][16] = {"]
out += ["    {%s}," % ", ".join(str(v) for v in PERM[d]) for d in range(8)]
out += ["};", "#endif", ""]
path = root / "src/fea/fea_aes_consts.h"
path.parent.mkdir(exist_ok=True)
path.write_text("\n".join(out))
print(f"L1 columns {[L1[1 << j] for j in range(8)]}, L2 columns {[L2[1 << j] for j in range(8)]}, c 0x{CONST:02x}")
print(f"wrote {path.relative_to(root)}")
