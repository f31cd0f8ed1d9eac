#!/usr/bin/env python3
"""Generates FEA's library tables from the facts of the standard (TTAK.KO-12.0275: S-box, M
coefficients, round constants; written below), so the kernels never depend on the test vectors:

  src/fea/fea_tables.h           S-box, M coefficients, round constants
  src/fea/table/fea_ttables.h    8 T-tables (S-layer and M combined) for the `table` kernel
  src/fea/gfni/fea_gfni_consts.h GF2P8AFFINE(INV)QB matrices for the S-box (spec section 4) with
                                 M folded in, and the byte shuffles of M's decomposition

The GFNI algebra and the T-tables are checked here (all 256 S-box values, SD on random words)
before writing, and the facts against the copy of the standard's tables in
tests/vectors/fea/fea_tables.txt. Run by scripts/autogen. Usage: scripts/gen_fea_tables.py"""

import pathlib
import random
import re

root = pathlib.Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------- facts of the standard
SBOX = [
    0x62,
    0x31,
    0x70,
    0x8E,
    0xBC,
    0x30,
    0x9C,
    0x78,
    0xE0,
    0x5C,
    0xCE,
    0xBB,
    0x42,
    0xAC,
    0xB8,
    0xDF,
    0x29,
    0xE7,
    0x86,
    0x5F,
    0xEE,
    0xBA,
    0x3F,
    0x87,
    0xC0,
    0x36,
    0xC3,
    0x14,
    0x7C,
    0xEC,
    0x73,
    0xDA,
    0x57,
    0x72,
    0xF6,
    0x77,
    0x98,
    0x3B,
    0xC5,
    0xC4,
    0x4C,
    0x52,
    0x81,
    0x20,
    0x15,
    0x97,
    0x26,
    0xFC,
    0x8B,
    0x3C,
    0xAF,
    0x6E,
    0xC8,
    0x7E,
    0xF0,
    0x40,
    0x24,
    0xA1,
    0xB1,
    0x54,
    0xFF,
    0xAD,
    0x51,
    0xBD,
    0xC1,
    0x13,
    0x41,
    0xB5,
    0x6B,
    0x94,
    0x63,
    0xD6,
    0xDE,
    0x6F,
    0x89,
    0xD2,
    0xA9,
    0xD4,
    0x17,
    0x38,
    0xA5,
    0xF2,
    0xE3,
    0xDB,
    0x47,
    0x66,
    0xED,
    0xCB,
    0x4E,
    0xD5,
    0x05,
    0x60,
    0x8C,
    0x06,
    0x92,
    0xA3,
    0xBE,
    0x68,
    0x56,
    0xA7,
    0x80,
    0x32,
    0xFA,
    0x6C,
    0x8F,
    0x88,
    0xD9,
    0x50,
    0x0A,
    0x21,
    0x3D,
    0x75,
    0x71,
    0x01,
    0xE5,
    0x7A,
    0xC6,
    0xB9,
    0x82,
    0x64,
    0xD1,
    0x00,
    0x7D,
    0x2B,
    0xA0,
    0x1A,
    0x5E,
    0xF5,
    0x35,
    0x90,
    0x2F,
    0x2A,
    0x83,
    0x49,
    0x5A,
    0xA8,
    0xD8,
    0x8D,
    0x46,
    0x96,
    0xDC,
    0xB0,
    0xC9,
    0xDD,
    0xCD,
    0x65,
    0x44,
    0xC7,
    0x43,
    0x67,
    0x55,
    0xEB,
    0xE1,
    0x9D,
    0x34,
    0x74,
    0xB3,
    0x4A,
    0xCA,
    0xD7,
    0x79,
    0xBF,
    0xF7,
    0x99,
    0x6A,
    0x2D,
    0xEF,
    0x85,
    0xE2,
    0x5D,
    0xFE,
    0x11,
    0x0F,
    0x19,
    0xCC,
    0xE4,
    0x58,
    0x09,
    0x8A,
    0x1B,
    0x6D,
    0x91,
    0x9F,
    0x4B,
    0x61,
    0x2C,
    0x2E,
    0xCF,
    0x27,
    0x10,
    0x18,
    0xB7,
    0x1D,
    0x0C,
    0x9B,
    0x39,
    0x7F,
    0xD3,
    0x84,
    0xA4,
    0xF9,
    0x76,
    0x33,
    0xF4,
    0xF3,
    0xD0,
    0x07,
    0x0E,
    0x22,
    0x1F,
    0xFD,
    0x25,
    0x12,
    0x08,
    0x1E,
    0x4D,
    0xB6,
    0xB4,
    0x53,
    0x37,
    0xE8,
    0xB2,
    0x9E,
    0x93,
    0x02,
    0xE9,
    0xF1,
    0x3A,
    0x0B,
    0xFB,
    0x45,
    0x69,
    0xEA,
    0xF8,
    0xC2,
    0x1C,
    0x04,
    0x59,
    0x03,
    0x48,
    0x16,
    0xA2,
    0x4F,
    0x3E,
    0x9A,
    0x23,
    0xAA,
    0xAE,
    0x5B,
    0xE6,
    0x95,
    0xAB,
    0x7B,
    0x0D,
    0x28,
    0xA6,
]
C = [0x28, 0x1A, 0x7B, 0x78, 0xC3, 0xD0, 0x42, 0x40]  # M[i][j] = C[(i + j) % 8]
RC = {  # (variant, key bits): round constants
    (1, 128): [
        0x71366FBD8EEF2E7D,
        0x9063FF208A85D13F,
        0xFDB54B3C9A86CB08,
        0xF2EA772BE55E4DE0,
        0x7C8814F95B9F8D0B,
        0xEB21FBFFCCBB8DF5,
    ],
    (1, 192): [
        0xD2F928B5C6C08B51,
        0x4CBE190CDCC2962C,
        0xD0A2A85F772C8A07,
        0xE3FB1D49F5932802,
        0x047117EEE8007DFE,
        0x4390E40073A64C7D,
        0xEE9FAB45168DDADC,
    ],
    (1, 256): [
        0x8F1C67DA8E609269,
        0x9B705F1835E0CDDC,
        0x6BF524A08A50A621,
        0x6B3C821900ADAB39,
        0x1F0EB84F4DE6881C,
        0x887FBA6319CBF504,
        0x51547790DD0B8145,
        0xAD7C1F118CA88090,
    ],
    (2, 128): [
        0xC9E3B39803F2F6AF,
        0x40F343267298B62D,
        0x8A0D175B8BAAFA2B,
        0xE7B876206DEBAC98,
        0x559552FB4AFA1B10,
        0xED2EAE35C1382144,
        0x27573B291169B825,
        0x3E96CA16224AE8C5,
        0x1ACBDA11317C387E,
    ],
    (2, 192): [
        0xA4198D55053B7CB5,
        0xBE1442D9B7E08DF0,
        0x3D97EEEA5149358C,
        0xAA9782D20CC69850,
        0x5071F733039A8ED5,
        0x625C15071EA7BCA1,
        0xCF37D8F11024C664,
        0x86D094E21E74D0A5,
        0x47DF6E91FC91754B,
        0x1F0B2F23B88200E7,
        0x29816E82B43E6464,
    ],
    (2, 256): [
        0x93C7673007E5ED5E,
        0x81E6864CE5316C5B,
        0x141A2EB71755F457,
        0xCF70EC40DBD75930,
        0xAB2AA5F695F43621,
        0xDA5D5C6B82704288,
        0x4EAE765222D3704A,
        0x7D2D942C4495D18A,
        0x3597B42262F870FD,
        0x73D53787626CC076,
        0x4ADF41D8ECAFEE96,
        0xE59D0F633ACA9195,
    ],
}

# the same facts as the copy of the standard's tables among the test vectors
t = (root / "tests" / "vectors" / "fea" / "fea_tables.txt").read_text()
s = []
for line in t.splitlines():
    m = re.match(r"^([0-9a-f]): ((?:[0-9a-f]{2} ?){16})$", line.strip())
    if m:
        s += [int(v, 16) for v in m.group(2).split()]
assert s == SBOX, "S-box differs from tests/vectors/fea/fea_tables.txt"
assert [int(v, 16) for v in re.search(r"c = ((?:[0-9a-f]{2} ?){8})", t).group(1).split()] == C
rcs = 0
for m in re.finditer(r"^FEA-(\d)/(\d+) \(\d+\): ([0-9A-F ]+)$", t, re.M):
    assert RC[(int(m.group(1)), int(m.group(2)))] == [int(v, 16) for v in m.group(3).split()]
    rcs += 1
assert rcs == len(RC), f"{rcs} round-constant rows in fea_tables.txt"
assert sorted(SBOX) == list(range(256)) and len(RC) == 6


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


def sd(x):
    """SD layer as the spec prose: byte 0 = most significant."""
    s = [SBOX[(x >> (56 - 8 * j)) & 0xFF] for j in range(8)]
    y = 0
    for i in range(8):
        v = 0
        for j in range(8):
            v ^= gmul(C[(i + j) % 8], s[j], 0x171)
        y = (y << 8) | v
    return y


# ---------------------------------------------------------------- GFNI semantics (Intel SDM)
def affine_byte(x, mat, b):
    r = 0
    for i in range(8):
        row = (mat >> (8 * (7 - i))) & 0xFF
        r |= (bin(row & x).count("1") & 1) << i
    return r ^ b


def aes_inv(x):
    if x == 0:
        return 0
    for y in range(1, 256):
        if gmul(x, y, 0x11B) == 1:
            return y


def mat_of(f):
    """GFNI qword of a linear byte map f (row for output bit i is byte 7-i)."""
    q = 0
    for i in range(8):
        row = 0
        for j in range(8):
            if (f(1 << j) >> i) & 1:
                row |= 1 << j
        q |= row << (8 * (7 - i))
    return q


BMAT, APMAT = 0xFFAACC88F0A0C080, 0xDD9DBC820BCEA756
for x in range(256):
    assert affine_byte(aes_inv(affine_byte(x, BMAT, 0)), APMAT, 0x62) == SBOX[x]


def Bmap(v):
    return affine_byte(v, BMAT, 0)


def Alin(v):  # the linear part of the output affine map (no constant)
    return affine_byte(v, APMAT, 0)


def mulc(c):
    return lambda v: gmul(c, v, 0x171)


# SD = XOR over d of P_d(c_d * S(x)); P_d: output byte i (MSB-first) takes input byte (d - i) mod 8.
# M1[d]: x_B -> B(c_d * A' inv(x_B)) (keeps the next SD's input in the B basis); M2[d]: no B.
M1 = [mat_of(lambda v, c=c: Bmap(gmul(c, Alin(v), 0x171))) for c in C]
M2 = [mat_of(lambda v, c=c: gmul(c, Alin(v), 0x171)) for c in C]
K1 = 0
K2 = 0
for c in C:
    K1 ^= Bmap(gmul(c, 0x62, 0x171))
    K2 ^= gmul(c, 0x62, 0x171)
# vpshufb index per d (little-endian byte p = MSB-first byte 7-p), for both qwords of a 128-bit lane
SHUF = []
for d in range(8):
    idx = []
    for o in (0, 8):
        for p in range(8):
            i = 7 - p
            j = (d - i) % 8
            idx.append(o + 7 - j)
    SHUF.append(idx)


def gfni_sd(x, first):
    mats, k = (M1, K1) if first else (M2, K2)
    xb = bytes((x >> (8 * p)) & 0xFF for p in range(8))  # little-endian bytes
    t = [Bmap(v) for v in xb]
    y = [k] * 8
    for d in range(8):
        u = [affine_byte(aes_inv(v), mats[d], 0) for v in t]
        for p in range(8):
            y[p] ^= u[SHUF[d][p]]
    return sum(v << (8 * p) for p, v in enumerate(y))


rnd = random.Random(1)
for _ in range(200):
    x = rnd.getrandbits(64)
    assert gfni_sd(x, False) == sd(x)
    yb = gfni_sd(x, True)
    assert yb == sum(Bmap((sd(x) >> (8 * p)) & 0xFF) << (8 * p) for p in range(8))

# ---------------------------------------------------------------- T-tables
T = []
for j in range(8):
    row = []
    for v in range(256):
        s = SBOX[v]
        w = 0
        for i in range(8):
            w = (w << 8) | gmul(C[(i + j) % 8], s, 0x171)
        row.append(w)
    T.append(row)
for _ in range(50):
    x = rnd.getrandbits(64)
    y = 0
    for j in range(8):
        y ^= T[j][(x >> (56 - 8 * j)) & 0xFF]
    assert y == sd(x)

hdr = [
    "/* Generated by scripts/gen_fea_tables.py from the facts of the standard (FEA:",
    " * S-box, M coefficients, round constants). */",
    "#ifndef NURI_FEA_TABLES_H",
    "#define NURI_FEA_TABLES_H",
    "",
    "#include <stdint.h>",
    "",
    "static const uint8_t fea_sbox[256] = {",
]
for i in range(0, 256, 16):
    hdr.append("    " + ", ".join(f"0x{v:02x}" for v in SBOX[i : i + 16]) + ",")
hdr.append("};")
hdr.append("/* M[i][j] = fea_mc[(i + j) % 8] in GF(2^8) mod x^8+x^6+x^5+x^4+1 (byte 0 = most significant) */")
hdr.append("static const uint8_t fea_mc[8] = {" + ", ".join(f"0x{v:02x}" for v in C) + "};")
hdr.append("/* round constants; index [variant-1][key size 128/192/256 -> 0/1/2] */")
hdr.append("static const uint64_t fea_rc[2][3][12] = {")
for v in (1, 2):
    hdr.append("    {")
    for kb in (128, 192, 256):
        hdr.append("        {" + ", ".join(f"0x{r:016x}ULL" for r in RC[(v, kb)]) + "},")
    hdr.append("    },")
hdr.append("};")
hdr.append("#endif")
(root / "src/fea/fea_tables.h").write_text("\n".join(hdr) + "\n")

tt = [
    "/* Generated by scripts/gen_fea_tables.py: T_j[v] = M column j times S(v), as a 64-bit word",
    " * (byte 0 = most significant), so SD(x) = XOR_j T_j[byte j of x]. Used by the `table` kernel. */",
    "#ifndef NURI_FEA_TTABLES_H",
    "#define NURI_FEA_TTABLES_H",
    "",
    "#include <stdint.h>",
    "",
    "static const uint64_t fea_T[8][256] = {",
]
for j in range(8):
    tt.append("    {")
    for i in range(0, 256, 4):
        tt.append("        " + ", ".join(f"0x{w:016x}ULL" for w in T[j][i : i + 4]) + ",")
    tt.append("    },")
tt += ["};", "#endif"]
(root / "src/fea/table/fea_ttables.h").write_text("\n".join(tt) + "\n")

g = [
    "/* Generated by scripts/gen_fea_tables.py (checked there against the S-box and SD).",
    " * S(x) = GF2P8AFFINEINVQB(GF2P8AFFINEQB(x, FEA_GFNI_B, 0), A', 0x62) (spec section 4).",
    " * SD(x) = K ^ XOR_d shuffle_d(GF2P8AFFINEINVQB(B(x), M_d, 0)) where M_d = c_d * A' (M2) or",
    " * B * c_d * A' (M1, output kept in the B basis for the next SD), K the folded constants. */",
    "#ifndef NURI_FEA_GFNI_CONSTS_H",
    "#define NURI_FEA_GFNI_CONSTS_H",
    "",
    "#include <stdint.h>",
    "",
    f"#define FEA_GFNI_B 0x{BMAT:016x}ULL",
    f"#define FEA_GFNI_K1 0x{K1:02x}",
    f"#define FEA_GFNI_K2 0x{K2:02x}",
    "static const uint64_t fea_gfni_m1[8] = {" + ", ".join(f"0x{m:016x}ULL" for m in M1) + "};",
    "static const uint64_t fea_gfni_m2[8] = {" + ", ".join(f"0x{m:016x}ULL" for m in M2) + "};",
    "static const uint8_t fea_gfni_shuf[8][16] = {",
]
for idx in SHUF:
    g.append("    {" + ", ".join(str(v) for v in idx) + "},")
g += ["};", "#endif"]
(root / "src/fea/gfni/fea_gfni_consts.h").write_text("\n".join(g) + "\n")
print("wrote src/fea/fea_tables.h, src/fea/table/fea_ttables.h, src/fea/gfni/fea_gfni_consts.h")
