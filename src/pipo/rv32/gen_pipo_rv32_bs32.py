#!/usr/bin/env python3
"""Generates pipo_rv32_bs32.S, the round core of nuri's 32-block bitsliced PIPO-64 kernel for
rv32imac. Run from this folder: python3 gen_pipo_rv32_bs32.py (the .S file is committed).

Layout (shared with pipo_rv32_bs32.c): one state bit of 32 blocks per 32-bit word, lane b =
block b. Plane (j, c) = bit c of row X[j] = word 8j + c of a 64-word state buffer. The core works
on a workspace:
    bytes    0..255   state buffer 0       bytes 256..511  state buffer 1
    bytes  512 + 64*b + 4*(2c + h) + (j & 3), h = j >> 2: round-key mask byte (0x00 or 0xFF) of
           plane (j, c) for key block b = 1..rounds-1 (the C glue expands them once per call).
Round n = 1..rounds reads buffer (n-1) % 2 and writes buffer n % 2, so both buffers always
hold planes at their home words: the R-layer is only the choice of store address. The key
whitening before round 1 and the key after the last round are added by the C glue in the block
domain (before/after the transposition), so the core adds keys 1..rounds-1 only, as sign-
extended mask bytes (lb) XORed into the S-box inputs of rounds 2..rounds.

Encryption round n, column c: x_j = A[j][c] ^ K_(n-1)[j][c]; S-box; B[j][(c + r_j) % 8] = y_j.
Decryption iteration n (K_b = K_(rounds-b) in the mask table): x_j = A[j][(c + r_j) % 8] ^ key of
the same plane; inverse S-box; B[j][c] = y_j.
The S-layer is the designers' 34-instruction bitsliced S-box (and its inverse), shared with
gen_pipo_rv32.py. Only caller-saved registers are used.

  uint32_t *nuri_pipo_rv32_bs32_core_{enc,dec}(uint32_t *ws, unsigned rounds)
returns the buffer holding the result (ws or ws + 64).
"""
from gen_pipo_rv32 import S_OPS, S_OUT, INV_OPS, INV_IN, INV_OUT, ROT, Emitter, run_ops, HEADER

MAX_ROUNDS = 17
X = ["a2", "a3", "a4", "a5", "a6", "a7", "t3", "t4"]
TMP = ["t0", "t1", "t2", "t5", "t6"]


def plane_off(buf, j, c):
    return 256 * buf + 4 * (8 * j + c)


def mask_off(blk, j, c):
    return 512 + 64 * blk + 4 * (2 * c + (j >> 2)) + (j & 3)


def gen_core(direction):
    em = Emitter()
    fn = "nuri_pipo_rv32_bs32_core_%s" % direction
    em.raw("    .globl %s\n    .type %s, @function\n    .align 2\n%s:" % (fn, fn, fn))
    em("beqz a1, 9f")
    for n in range(1, MAX_ROUNDS + 1):
        src, dst = (n - 1) % 2, n % 2
        for c in range(8):
            # load column c (enc) / the planes that the inverse R-layer brings to column c (dec)
            for j in range(8):
                cc = c if direction == "enc" else (c + ROT[j]) % 8
                em("lw %s, %d(a0)" % (X[j], plane_off(src, j, cc)))
                if n >= 2:
                    em("lb t0, %d(a0)" % mask_off(n - 1, j, cc))
                    em("xor %s, %s, t0" % (X[j], X[j]))
            if direction == "enc":
                names = {"x%d" % j: X[j] for j in range(8)}
                names = run_ops(em, S_OPS, names, TMP)
                out = {j: names[S_OUT[j]] for j in range(8)}
                for j in range(8):
                    em("sw %s, %d(a0)" % (out[j], plane_off(dst, j, (c + ROT[j]) % 8)))
            else:
                names = {nm: X[j] for nm, j in INV_IN.items()}
                names = run_ops(em, INV_OPS, names, TMP)
                out = {j: names[INV_OUT[j]] for j in range(8)}
                for j in range(8):
                    em("sw %s, %d(a0)" % (out[j], plane_off(dst, j, c)))
        if n < MAX_ROUNDS:
            em("addi a1, a1, -1")
            em("beqz a1, %df" % (1 if dst == 1 else 9))
    em.label("1")
    em("addi a0, a0, 256")
    em.label("9")
    em("ret")
    em.raw("    .size %s, .-%s\n" % (fn, fn))
    return "\n".join(em.lines) + "\n"


if __name__ == "__main__":
    text = HEADER % "32 blocks bitsliced, round core" + "\n" + gen_core("enc") + "\n" + gen_core("dec")
    open("pipo_rv32_bs32.S", "w").write(text)
