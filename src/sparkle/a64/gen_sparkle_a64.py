#!/usr/bin/env python3
"""Generates sparkle_a64.S: SPARKLE256/384/512 for AArch64 (A64 general registers only).

    python3 src/sparkle/a64/gen_sparkle_a64.py > src/sparkle/a64/sparkle_a64.S

Design (register-scheduled):
  * every state word x_i, y_i and all eight round constants c0..c7 live in general registers
    for the whole permutation; memory is touched only to load the state at entry and store it
    at exit;
  * the branch permutation of the linear layer is done by renaming registers, not by moves:
    after one step the register that held x_{h+j}^x_j^ty becomes x_{(j+h-1) mod h} and the one
    that held x_j becomes x_{h+j}. The renaming has period 2h (h = nb/2) and the step constant
    c[s mod 8] has period 8, so the loop body is unrolled over lcm(2h, 8) steps (8 for
    SPARKLE256/512, 24 for SPARKLE384) and comes back to the starting register assignment;
  * any step count >= 1 is supported: after each step a 64-bit counter register
    ((2^32 - steps) << 32 | s) is advanced by 0x1_0000_0001; its low half is the step number s
    XORed into y1, and the carry out of bit 63 (b.cs) says the last step is done. Each exit
    point stores the state with the register assignment of that step position;
  * A64 `add` has no ROR operand, so x += ROTR(y, r) is `ror t, y, #r; add x, x, t` with a
    scratch t; `eor` does take ROR operands, so y ^= ROTR(x, s) is one instruction, and so is
    each use of the linear function l(v) = ROTR(v ^ (v << 16), 16) (`eor r, r, w, ror #16`
    with w = v ^ (v << 16)). Alzettes are interleaved two (or more) at a time, one scratch
    register each.
Instruction count per step: 15 per Alzette, 2 for the step constants, 4h+2(h-1)+2 for the
linear layer, 2 for the loop counter.
"""

import math
import sys

RC = [0xB7E15162, 0xBF715880, 0x38B4DA56, 0x324E7738, 0xBB1185EB, 0x4F7C7B57, 0xCFBFA1C8, 0xC2B3293D]

# Registers usable inside a routine: x0 (the state pointer, spilled to the stack), x1-x17,
# x19-x30 (callee-saved ones are saved in the prologue). x18 (platform register) and sp
# are never touched.
POOL = [f"x{i}" for i in range(1, 18)] + [f"x{i}" for i in range(19, 31)] + ["x0"]
FRAME = 112


def w(reg):
    return "w" + reg[1:]


class Gen:
    def __init__(self, out):
        self.out = out

    def emit(self, s=""):
        self.out.append(("    " + s) if s and not s.endswith(":") else s)


def routine(g, nb):
    h = nb // 2
    name = f"nuri_sparkle{64 * nb}_a64"
    pool = list(POOL)
    # Loop counter and increment first (steps arrives in w2, the pointer in x0).
    cnt = "x2"
    pool.remove("x2")
    inc = pool.pop(0)  # x1
    xs = [pool.pop(0) for _ in range(nb)]
    ys = [pool.pop(0) for _ in range(nb)]
    cs = [pool.pop(0) for _ in range(8)]
    temps = pool[:]  # what is left (x0 last)
    ntemp = min(len(temps), 4)
    temps = temps[:ntemp]
    assert ntemp >= 2, (nb, ntemp)

    g.emit(f".type {name}, %function")
    g.emit(".p2align 4")
    g.emit(f"{name}:")
    g.emit(f"stp x29, x30, [sp, #-{FRAME}]!")
    for k, (a, b) in enumerate([(19, 20), (21, 22), (23, 24), (25, 26), (27, 28)]):
        g.emit(f"stp x{a}, x{b}, [sp, #{16 * (k + 1)}]")
    g.emit("str x0, [sp, #96]")
    # counter = ((2^32 - steps) mod 2^32) << 32, low half = step number 0
    g.emit("neg w2, w2")
    g.emit(f"lsl {cnt}, x2, #32")
    g.emit(f"mov {inc}, #0x100000001")
    # constants
    base = temps[0]
    g.emit(f"adrp {base}, .Lsparkle_a64_rc")
    g.emit(f"add {base}, {base}, :lo12:.Lsparkle_a64_rc")
    for k in range(0, 8, 2):
        g.emit(f"ldp {w(cs[k])}, {w(cs[k + 1])}, [{base}, #{4 * k}]")
    # state (x0 is last in the pool, so it is read before anything can reuse it)
    for i in range(nb):
        g.emit(f"ldp {w(xs[i])}, {w(ys[i])}, [x0, #{8 * i}]")

    period = math.lcm(2 * h, 8)
    X, Y = list(xs), list(ys)
    mappings = {}  # tuple(X+Y) -> label id
    exits = []
    g.emit(f".Lloop{nb}:")
    for pos in range(period):
        # step constants
        g.emit(f"eor {w(Y[0])}, {w(Y[0])}, {w(cs[pos % 8])}")
        g.emit(f"eor {w(Y[1])}, {w(Y[1])}, {w(cnt)}")
        # Alzettes, interleaved ntemp at a time
        for g0 in range(0, nb, ntemp):
            grp = list(range(g0, min(nb, g0 + ntemp)))
            seqs = []
            for k, i in enumerate(grp):
                x, y, c, t = w(X[i]), w(Y[i]), w(cs[i]), w(temps[k])
                seqs.append(
                    [
                        f"ror {t}, {y}, #31",
                        f"add {x}, {x}, {t}",
                        f"eor {y}, {y}, {x}, ror #24",
                        f"eor {x}, {x}, {c}",
                        f"ror {t}, {y}, #17",
                        f"add {x}, {x}, {t}",
                        f"eor {y}, {y}, {x}, ror #17",
                        f"eor {x}, {x}, {c}",
                        f"add {x}, {x}, {y}",
                        f"eor {y}, {y}, {x}, ror #31",
                        f"eor {x}, {x}, {c}",
                        f"ror {t}, {y}, #24",
                        f"add {x}, {x}, {t}",
                        f"eor {y}, {y}, {x}, ror #16",
                        f"eor {x}, {x}, {c}",
                    ]
                )
            for n in range(len(seqs[0])):
                for s in seqs:
                    g.emit(s[n])
        # linear layer: tx, ty = v ^ (v << 16); uses are eor ..., ror #16
        tx, ty = w(temps[0]), w(temps[1])
        g.emit(f"eor {tx}, {w(X[0])}, {w(X[1])}")
        g.emit(f"eor {ty}, {w(Y[0])}, {w(Y[1])}")
        for j in range(2, h):
            g.emit(f"eor {tx}, {tx}, {w(X[j])}")
            g.emit(f"eor {ty}, {ty}, {w(Y[j])}")
        g.emit(f"eor {tx}, {tx}, {tx}, lsl #16")
        g.emit(f"eor {ty}, {ty}, {ty}, lsl #16")
        for j in range(h):
            g.emit(f"eor {w(X[h + j])}, {w(X[h + j])}, {w(X[j])}")
            g.emit(f"eor {w(Y[h + j])}, {w(Y[h + j])}, {w(Y[j])}")
        for j in range(h):
            g.emit(f"eor {w(X[h + j])}, {w(X[h + j])}, {ty}, ror #16")
            g.emit(f"eor {w(Y[h + j])}, {w(Y[h + j])}, {tx}, ror #16")
        # rename: new x_j = old x_{h+(j+1)%h}, new x_{h+j} = old x_j
        X = [X[h + (j + 1) % h] for j in range(h)] + X[:h]
        Y = [Y[h + (j + 1) % h] for j in range(h)] + Y[:h]
        key = tuple(X + Y)
        if key not in mappings:
            mappings[key] = len(mappings)
            exits.append((mappings[key], list(X), list(Y)))
        g.emit(f"adds {cnt}, {cnt}, {inc}")
        g.emit(f"b.cs .Lexit{nb}_{mappings[key]}")
    assert X == xs and Y == ys, "register renaming must have period dividing the unroll"
    g.emit(f"b .Lloop{nb}")
    for mid, EX, EY in exits:
        g.emit(f".Lexit{nb}_{mid}:")
        p = temps[0]
        g.emit(f"ldr {p}, [sp, #96]")
        for i in range(nb):
            g.emit(f"stp {w(EX[i])}, {w(EY[i])}, [{p}, #{8 * i}]")
        g.emit(f"b .Lret{nb}")
    g.emit(f".Lret{nb}:")
    for k, (a, b) in enumerate([(19, 20), (21, 22), (23, 24), (25, 26), (27, 28)]):
        g.emit(f"ldp x{a}, x{b}, [sp, #{16 * (k + 1)}]")
    g.emit(f"ldp x29, x30, [sp], #{FRAME}")
    g.emit("ret")
    g.emit(f".size {name}, .-{name}")
    g.emit()


def main():
    out = []
    g = Gen(out)
    out.append("/* Generated by gen_sparkle_a64.py -- do not edit; see the generator for the design. */")
    out.append("/* SPARKLE256/384/512 permutations, AArch64 A64 (general registers only). */")
    out.append("")
    out.append("    .text")
    out.append("    .arch armv8-a")
    out.append("")
    out.append("/* void nuri_sparkle_a64_permute(uint32_t *state, unsigned nb, unsigned steps) */")
    g.emit(".global nuri_sparkle_a64_permute")
    g.emit(".type nuri_sparkle_a64_permute, %function")
    g.emit(".p2align 4")
    g.emit("nuri_sparkle_a64_permute:")
    g.emit("cbz w2, 1f")
    g.emit("cmp w1, #4")
    g.emit("b.eq nuri_sparkle256_a64")
    g.emit("cmp w1, #6")
    g.emit("b.eq nuri_sparkle384_a64")
    g.emit("cmp w1, #8")
    g.emit("b.eq nuri_sparkle512_a64")
    g.emit("1:")
    g.emit("ret")
    g.emit(".size nuri_sparkle_a64_permute, .-nuri_sparkle_a64_permute")
    out.append("")
    for nb in (4, 6, 8):
        routine(g, nb)
    out.append("    .section .rodata")
    out.append("    .p2align 3")
    out.append(".Lsparkle_a64_rc:")
    for k in range(0, 8, 4):
        out.append("    .word " + ", ".join(f"0x{c:08x}" for c in RC[k : k + 4]))
    out.append("")
    out.append('    .section .note.GNU-stack, "", %progbits')
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
