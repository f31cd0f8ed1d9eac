#!/usr/bin/env python3
"""Generates sparkle_neon.S: SPARKLE256/384/512 for AArch64 ASIMD (NEON).

    python3 src/sparkle/neon/gen_sparkle_neon.py > src/sparkle/neon/sparkle_neon.S

Design (the Alzette boxes of one step run in vector lanes):
  * the x-words and the y-words are kept in separate vectors, one lane per branch
    (ld2/st2 de-interleave the x0,y0,x1,y1,... memory order):
      SPARKLE256: X = (x0,x1,x2,x3), Y = (y0,..,y3): one vector each;
      SPARKLE384: left half (x0,x1,x2,-) and right half (x3,x4,x5,-) in two vectors
                  (lane 3 carries a harmless junk value that never reaches lanes 0-2);
      SPARKLE512: left (x0..x3) and right (x4..x7);
    so every Alzette instruction works on all branches of a half (or of the whole state) at once,
    with the round constants c_i in the matching lanes of a constant vector;
  * rotations: ROTR(v, r) = `shl t, v, #(32-r)` + `sri t, v, #r`, and `rev32 t.8h, v.8h` for r = 16;
  * linear layer: horizontal XORs with rev64/ext (tbl for the 3-lane halves of SPARKLE384),
    l(v) = ROTR(v ^ (v << 16), 16) as shl/eor/rev32, and the branch rotation of the new left half
    with `ext v, u, u, #4` (SPARKLE512), `ext X, V, X, #8` after rev64 (SPARKLE256) or one tbl
    (SPARKLE384). The new right half is the old left half: the two vector registers swap roles
    (renaming, no moves);
  * step constants: y0 ^= c[s mod 8], y1 ^= s is one XOR with (c_j, j, 0, 0) (j = s mod 8, eight
    precomputed vectors; the body is unrolled over 8 steps) and one with (0, 8*floor(s/8), 0, 0);
  * any step count >= 1: a general-register counter is decremented after each step and each
    exit point stores with that position's register assignment.
Only v0-v7 and v16-v31 are used (v8-v15 are callee-saved in the AAPCS64), and no stack.
"""

import sys

RC = [0xB7E15162, 0xBF715880, 0x38B4DA56, 0x324E7738, 0xBB1185EB, 0x4F7C7B57, 0xCFBFA1C8, 0xC2B3293D]

VREGS = [f"v{i}" for i in range(0, 8)] + [f"v{i}" for i in range(16, 32)]


def rotr(out, t, v, r):
    """t = ROTR32(v, r) lane-wise."""
    if r == 16:
        out.append(f"rev32 {t}.8h, {v}.8h")
    else:
        out.append(f"shl {t}.4s, {v}.4s, #{32 - r}")
        out.append(f"sri {t}.4s, {v}.4s, #{r}")


def alzette(x, y, c, t):
    s = []
    for r, q in ((31, 24), (17, 17), (0, 31), (24, 16)):
        if r == 0:
            s.append(f"add {x}.4s, {x}.4s, {y}.4s")
        else:
            rotr(s, t, y, r)
            s.append(f"add {x}.4s, {x}.4s, {t}.4s")
        rotr(s, t, x, q)
        s.append(f"eor {y}.16b, {y}.16b, {t}.16b")
        s.append(f"eor {x}.16b, {x}.16b, {c}.16b")
    return s


def ell(out, t, tmp):
    """t = ROTR(t ^ (t << 16), 16) lane-wise."""
    out.append(f"shl {tmp}.4s, {t}.4s, #16")
    out.append(f"eor {t}.16b, {t}.16b, {tmp}.16b")
    out.append(f"rev32 {t}.8h, {t}.8h")


def routine(out, nb):
    name = f"nuri_sparkle{64 * nb}_neon"

    def e(s):
        return out.append(("    " + s) if not s.endswith(":") else s)

    regs = list(VREGS)
    two = nb > 4
    if two:
        XL, YL, XR, YR = regs[0:4]  # (XL,YL) and (XR,YR) consecutive for ld2/st2
        del regs[0:4]
    else:
        X, Y = regs[0:2]
        del regs[0:2]
    CA = regs.pop(0)
    CB = regs.pop(0) if two else None
    K = [regs.pop(0) for _ in range(8)]
    S8 = regs.pop(0)
    EIGHT = regs.pop(0)
    IDX1 = regs.pop(0) if nb == 6 else None
    IDX2 = regs.pop(0) if nb == 6 else None
    T = regs  # temporaries
    tbl = f".Lsparkle_neon_k{nb}"

    e(f".type {name}, %function")
    e(".p2align 4")
    e(f"{name}:")
    # constants: CA, (CB), K0..K7, EIGHT, (IDX1, IDX2) from the table
    e(f"adrp x3, {tbl}")
    e(f"add x3, x3, :lo12:{tbl}")
    consts = [CA] + ([CB] if two else []) + K + [EIGHT] + ([IDX1, IDX2] if nb == 6 else [])
    for r in consts:
        e(f"ld1 {{{r}.4s}}, [x3], #16")
    e(f"movi {S8}.16b, #0")
    # state
    if nb == 4:
        e(f"ld2 {{{X}.4s, {Y}.4s}}, [x0]")
    elif nb == 8:
        e(f"ld2 {{{XL}.4s, {YL}.4s}}, [x0]")
        e("add x3, x0, #32")
        e(f"ld2 {{{XR}.4s, {YR}.4s}}, [x3]")
    else:
        e(f"ld2 {{{XL}.2s, {YL}.2s}}, [x0]")
        e("add x3, x0, #16")
        e(f"ld2 {{{XL}.s, {YL}.s}}[2], [x3]")
        e("add x3, x0, #24")
        e(f"ld2 {{{XR}.2s, {YR}.2s}}, [x3]")
        e("add x3, x0, #40")
        e(f"ld2 {{{XR}.s, {YR}.s}}[2], [x3]")

    e(f".Lnloop{nb}:")
    exits = {}
    for pos in range(8):
        if nb == 4:
            e(f"eor {Y}.16b, {Y}.16b, {K[pos]}.16b")
            e(f"eor {Y}.16b, {Y}.16b, {S8}.16b")
            for s in alzette(X, Y, CA, T[0]):
                e(s)
            t0, t1, t2, t3, t4 = T[0:5]
            # tx in all lanes of t0, W_x = R ^ ext(R,R,8) in t1 (R = rev64 X)
            for (
                V,
                tq,
                tw,
            ) in ((X, t0, t1), (Y, t3, t4)):
                e(f"rev64 {tq}.4s, {V}.4s")
                e(f"ext {tw}.16b, {tq}.16b, {tq}.16b, #8")
                e(f"eor {tw}.16b, {tw}.16b, {tq}.16b")
                e(f"eor {tq}.16b, {tq}.16b, {V}.16b")
                e(f"dup {tq}.4s, {tq}.s[0]")
                ell(out, tq, t2)
            # x side gets ty (t3), y side gets tx (t0)
            e(f"eor {t1}.16b, {t1}.16b, {t3}.16b")
            e(f"eor {t4}.16b, {t4}.16b, {t0}.16b")
            e(f"ext {X}.16b, {t1}.16b, {X}.16b, #8")
            e(f"ext {Y}.16b, {t4}.16b, {Y}.16b, #8")
            key = 0
        else:
            e(f"eor {YL}.16b, {YL}.16b, {K[pos]}.16b")
            e(f"eor {YL}.16b, {YL}.16b, {S8}.16b")
            a = alzette(XL, YL, CA, T[0])
            b = alzette(XR, YR, CB, T[1])
            for i in range(len(a)):
                e(a[i])
                e(b[i])
            t0, t1, t2, t3 = T[0:4]
            for V, tq, tw in ((XL, t0, t1), (YL, t2, t3)):
                if nb == 8:
                    e(f"rev64 {tq}.4s, {V}.4s")
                    e(f"eor {tq}.16b, {tq}.16b, {V}.16b")
                    e(f"ext {tw}.16b, {tq}.16b, {tq}.16b, #8")
                    e(f"eor {tq}.16b, {tq}.16b, {tw}.16b")
                else:
                    e(f"tbl {tq}.16b, {{{V}.16b}}, {IDX1}.16b")
                    e(f"tbl {tw}.16b, {{{V}.16b}}, {IDX2}.16b")
                    e(f"eor {tq}.16b, {tq}.16b, {tw}.16b")
                    e(f"eor {tq}.16b, {tq}.16b, {V}.16b")
                ell(out, tq, tw)
            # u = right ^ left ^ t(other); new left = u rotated by one branch
            e(f"eor {XR}.16b, {XR}.16b, {XL}.16b")
            e(f"eor {YR}.16b, {YR}.16b, {YL}.16b")
            e(f"eor {XR}.16b, {XR}.16b, {t2}.16b")
            e(f"eor {YR}.16b, {YR}.16b, {t0}.16b")
            if nb == 8:
                e(f"ext {XR}.16b, {XR}.16b, {XR}.16b, #4")
                e(f"ext {YR}.16b, {YR}.16b, {YR}.16b, #4")
            else:
                e(f"tbl {XR}.16b, {{{XR}.16b}}, {IDX1}.16b")
                e(f"tbl {YR}.16b, {{{YR}.16b}}, {IDX1}.16b")
            XL, YL, XR, YR = XR, YR, XL, YL
            key = (XL, YL, XR, YR)
        if key not in exits:
            exits[key] = len(exits)
        e("subs w2, w2, #1")
        e(f"b.eq .Lnexit{nb}_{exits[key]}")
    e(f"add {S8}.4s, {S8}.4s, {EIGHT}.4s")
    e(f"b .Lnloop{nb}")
    for key, mid in exits.items():
        e(f".Lnexit{nb}_{mid}:")
        if nb == 4:
            e(f"st2 {{{X}.4s, {Y}.4s}}, [x0]")
        else:
            xl, yl, xr, yr = key
            if nb == 8:
                e(f"st2 {{{xl}.4s, {yl}.4s}}, [x0]")
                e("add x3, x0, #32")
                e(f"st2 {{{xr}.4s, {yr}.4s}}, [x3]")
            else:
                e(f"st2 {{{xl}.2s, {yl}.2s}}, [x0]")
                e("add x3, x0, #16")
                e(f"st2 {{{xl}.s, {yl}.s}}[2], [x3]")
                e("add x3, x0, #24")
                e(f"st2 {{{xr}.2s, {yr}.2s}}, [x3]")
                e("add x3, x0, #40")
                e(f"st2 {{{xr}.s, {yr}.s}}[2], [x3]")
        e("ret")
    e(f".size {name}, .-{name}")
    out.append("")


def table(out, nb):
    out.append(f".Lsparkle_neon_k{nb}:")
    words = []
    if nb == 4:
        words += RC[0:4]
    elif nb == 6:
        words += RC[0:3] + [0] + RC[3:6] + [0]
    else:
        words += RC[0:8]
    for j in range(8):
        words += [RC[j], j, 0, 0]
    words += [0, 8, 0, 0]
    for k in range(0, len(words), 4):
        out.append("    .word " + ", ".join(f"0x{v:08x}" for v in words[k : k + 4]))
    if nb == 6:

        def idx(lanes):
            return ", ".join(f"0x{4 * lane + b:02x}" for lane in lanes for b in range(4))

        out.append("    .byte " + idx([1, 2, 0, 3]))  # (x1, x2, x0, junk)
        out.append("    .byte " + idx([2, 0, 1, 3]))  # (x2, x0, x1, junk)


def main():
    out = []
    out.append("/* Generated by gen_sparkle_neon.py -- do not edit; see the generator for the design. */")
    out.append("/* SPARKLE256/384/512 permutations, AArch64 ASIMD (Alzette boxes in vector lanes). */")
    out.append("")
    out.append("    .text")
    out.append("    .arch armv8-a+simd")
    out.append("")
    out.append("/* void nuri_sparkle_neon_permute(uint32_t *state, unsigned nb, unsigned steps) */")
    for s in [".global nuri_sparkle_neon_permute", ".type nuri_sparkle_neon_permute, %function", ".p2align 4"]:
        out.append("    " + s)
    out.append("nuri_sparkle_neon_permute:")
    for s in [
        "cbz w2, 1f",
        "cmp w1, #4",
        "b.eq nuri_sparkle256_neon",
        "cmp w1, #6",
        "b.eq nuri_sparkle384_neon",
        "cmp w1, #8",
        "b.eq nuri_sparkle512_neon",
    ]:
        out.append("    " + s)
    out.append("1:")
    out.append("    ret")
    out.append("    .size nuri_sparkle_neon_permute, .-nuri_sparkle_neon_permute")
    out.append("")
    for nb in (4, 6, 8):
        routine(out, nb)
    out.append("    .section .rodata")
    out.append("    .p2align 4")
    for nb in (4, 6, 8):
        table(out, nb)
    out.append("")
    out.append('    .section .note.GNU-stack, "", %progbits')
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
