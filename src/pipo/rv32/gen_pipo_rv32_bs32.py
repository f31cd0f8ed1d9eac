#!/usr/bin/env python3
"""Generates pipo_rv32_bs32.S, the round core of nuri's 32-block bitsliced PIPO-64 kernel for
rv32imac. Run from this folder: python3 gen_pipo_rv32_bs32.py (the .S file is committed).

Layout (shared with pipo_rv32_bs32.c): one state bit of 32 blocks per 32-bit word, lane b =
block b. Plane (j, c) = bit c of row X[j] = word 8j + c of a 64-word state buffer. The core works
on a workspace:
    bytes    0..255   state buffer 0       bytes 256..511  state buffer 1
    bytes  512 + 64*b + 4*(2c + h) + (j & 3), h = j >> 2: round-key mask byte (0x00 or 0xFF) of
           plane (j, c) for key block b (the C glue expands them once per call).
           Decryption: block b = 1..rounds-1 holds K_(rounds-b). Encryption (and CTR) reads 4
           slots only: block b = 0..3 holds RK_b, and round key RK_i (i >= 1) is slot i % 4 with
           the round constant bits i & ~3 applied by the core as NOTs of planes (0, c >= 2).
           This relies on the key schedule of nuri_pipo_key_init (RK_i = K_(i mod w) ^ i with
           w = 2 or 4 key words, so RK_i ^ RK_(i mod 4) = i ^ (i mod 4)); RK_0 and RK_rounds are
           added in the block domain by the glue, and rounds <= 4 need only the slots 1..3.
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

import itertools

from gen_pipo_rv32 import HEADER, INV_IN, INV_OPS, INV_OUT, ROT, S_OPS, S_OUT, Emitter, run_ops

MAX_ROUNDS = 17
X = ["a2", "a3", "a4", "a5", "a6", "a7", "t3", "t4"]
TMP = ["t0", "t1", "t2", "t5", "t6"]


def plane_off(buf, j, c):
    return 256 * buf + 4 * (8 * j + c)


def mask_off(blk, j, c):
    return 512 + 64 * blk + 4 * (2 * c + (j >> 2)) + (j & 3)


# CTR (rows of a batch of big-endian counters: only a few counter bit-planes change from one batch
# to the next, so round 1 is cached column by column):
#   bytes  768..1023  R1: round-1 output planes at their home words (R-layer applied), with the
#                     round-2 key (mask slot 1) already XORed in
#   bytes 1024..1279  the counter planes with the whitening key XORed in
# (they overlap decryption's mask blocks 4.., which CTR never uses)
# nuri_pipo_rv32_bs32_r1(ws, colmask) recomputes the R1 columns in colmask (public: counter
# bits); nuri_pipo_rv32_bs32_core_ctr(ws, rounds) runs rounds 2.. from R1 (rounds >= 3).
R1_OFF = 768
CTR_OFF = 1024

# Register residency: the planes produced late in a round and consumed early in the next stay in
# registers (no sw/lw). Pool: every register but zero, sp, gp, tp, a0 (workspace), a1 (rounds
# left); the callee-saved ones are saved in the prologue.
POOL = [
    "a2",
    "a3",
    "a4",
    "a5",
    "a6",
    "a7",
    "t0",
    "t1",
    "t2",
    "t3",
    "t4",
    "t5",
    "t6",
    "s0",
    "s1",
    "s2",
    "s3",
    "s4",
    "s5",
    "s6",
    "s7",
    "s8",
    "s9",
    "s10",
    "s11",
    "ra",
]
SAVED = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "ra"]
WORK = {"enc": 11, "dec": 12}  # S-box working set: 8 inputs + 3 (inverse: 4) live temporaries


def slots(direction):
    """per column slot c: [(j, load position)], [(j, store position)] (positions (j, c'))"""
    res = []
    for c in range(8):
        if direction == "enc":
            res.append(([(j, (j, c)) for j in range(8)], [(j, (j, (c + ROT[j]) % 8)) for j in range(8)]))
        else:
            res.append(([(j, (j, (c + ROT[j]) % 8)) for j in range(8)], [(j, (j, c)) for j in range(8)]))
    return res


def choose_residents(direction):
    """Planes kept in registers across a round boundary (the same set at every boundary):
    shortest producer-to-consumer spans first, at most len(POOL) - WORK bystanders (planes held
    while another column is computed) at every column slot."""
    sl = slots(direction)
    prod = {pos: c for c, (_, outs) in enumerate(sl) for _, pos in outs}
    cons = {pos: c for c, (ins, _) in enumerate(sl) for _, pos in ins}
    cap = len(POOL) - WORK[direction]
    chosen = []
    for pos in sorted(prod, key=lambda q: (8 - prod[q] + cons[q], q)):
        trial = chosen + [pos]
        ok = all(sum(1 for q in trial if cons[q] > u) + sum(1 for q in trial if prod[q] < u) <= cap for u in range(8))
        if ok:
            chosen.append(pos)
    return set(chosen)


class Alloc:
    def __init__(self):
        self.free = list(POOL)
        self.reg_of = {}  # resident plane position -> register

    def take(self):
        return self.free.pop(0)

    def give(self, r):
        self.free.append(r)
        self.free.sort(key=POOL.index)


def emit_round(em, al, direction, n, last, resident, src_off, keyed=True, reload=False):
    """Round n (1-based). src_off(pos) = byte offset of a plane to load; stores go to buffer
    n % 2. Planes in `resident` stay in registers for round n + 1 unless `last`."""
    dst = n % 2
    for c, (ins, outs) in enumerate(slots(direction)):
        regs = {}
        for j, pos in ins:
            if pos in al.reg_of:
                regs[j] = al.reg_of.pop(pos)
                if reload:
                    em("lw %s, %d(a0)" % (regs[j], src_off(pos)))
            else:
                regs[j] = al.take()
                em("lw %s, %d(a0)" % (regs[j], src_off(pos)))
            if n >= 2 and keyed:
                t = al.take()
                if direction == "enc":  # key K_(n-1) = slot (n-1) % 4 ^ constant bits 2.. of n-1
                    em("lb %s, %d(a0)" % (t, mask_off((n - 1) % 4, pos[0], pos[1])))
                else:
                    em("lb %s, %d(a0)" % (t, mask_off(n - 1, pos[0], pos[1])))
                em("xor %s, %s, %s" % (regs[j], regs[j], t))
                if direction == "enc" and pos[0] == 0 and pos[1] >= 2 and ((n - 1) >> pos[1]) & 1:
                    em("not %s, %s" % (regs[j], regs[j]))
                al.give(t)
        assert len(al.free) >= WORK[direction] - 8, (n, c, len(al.free))
        if direction == "enc":
            names = run_ops(em, S_OPS, {"x%d" % j: regs[j] for j in range(8)}, list(al.free))
            out = {j: names[S_OUT[j]] for j in range(8)}
        else:
            names = run_ops(em, INV_OPS, {nm: regs[j] for nm, j in INV_IN.items()}, list(al.free))
            out = {j: names[INV_OUT[j]] for j in range(8)}
        used = set(regs.values()) | set(out.values())
        al.free = [r for r in al.free if r not in out.values()]
        for r in used - set(out.values()):
            al.give(r)
        for r in out.values():
            if r in al.free:
                al.free.remove(r)
        for j, pos in outs:
            if pos in resident and not last:
                al.reg_of[pos] = out[j]
            else:
                em("sw %s, %d(a0)" % (out[j], plane_off(dst, pos[0], pos[1])))
                al.give(out[j])


def gen_core(direction):
    em = Emitter()
    name = direction
    fn = "nuri_pipo_rv32_bs32_core_%s" % name
    em.raw("    .globl %s\n    .type %s, @function\n    .align 2\n%s:" % (fn, fn, fn))
    em("addi sp, sp, -64")
    for i, r in enumerate(SAVED):
        em("sw %s, %d(sp)" % (r, 4 * i))
    em("beqz a1, .L%s_exit0" % name)
    resident = choose_residents(direction)
    al = Alloc()
    exits = []
    states = {}
    for n in range(1, MAX_ROUNDS + 1):

        def src_off(pos, b=(n - 1) % 2):
            return plane_off(b, pos[0], pos[1])

        emit_round(em, al, direction, n, n == MAX_ROUNDS, resident, src_off)
        states[n] = (dict(al.reg_of), list(al.free))
        if n < MAX_ROUNDS:
            if n == 2:
                em.label("nuri_pipo_rv32_bs32_after2_%s" % direction)
            em("addi a1, a1, -1")
            em("beqz a1, .L%s_exit%d" % (name, n))
            exits.append((n, dict(al.reg_of)))
    exits.append((MAX_ROUNDS, {}))
    em("j .L%s_exit%d" % (name, MAX_ROUNDS))
    em.label(".L%s_exit0" % name)
    em("j .L%s_ret" % name)
    for n, reg_of in exits:
        em.label(".L%s_exit%d" % (name, n))
        for pos, r in sorted(reg_of.items()):
            em("sw %s, %d(a0)" % (r, plane_off(n % 2, pos[0], pos[1])))
        if n % 2:
            em("addi a0, a0, 256")
        em("j .L%s_ret" % name)
    em.label(".L%s_ret" % name)
    for i, r in enumerate(SAVED):
        em("lw %s, %d(sp)" % (r, 4 * i))
    em("addi sp, sp, 64")
    em("ret")
    em.raw("    .size %s, .-%s\n" % (fn, fn))
    return "\n".join(em.lines) + "\n", states


def gen_ctr_core(states):
    """nuri_pipo_rv32_bs32_core_ctr(ws, rounds), rounds >= 2: round 2 from the R1 cache (its key
    already added), every input loaded into the register that the encryption core's round 2 finds
    it in (so both cores leave round 2 in the same registers), then the encryption core from its
    round-2 exit test on (same stack frame)."""
    em = Emitter()
    fn = "nuri_pipo_rv32_bs32_core_ctr"
    em.raw("    .globl %s\n    .type %s, @function\n    .align 2\n%s:" % (fn, fn, fn))
    em("addi sp, sp, -64")
    for i, r in enumerate(SAVED):
        em("sw %s, %d(sp)" % (r, 4 * i))
    al = Alloc()
    al.reg_of, al.free = dict(states[1][0]), list(states[1][1])
    emit_round(
        em,
        al,
        "enc",
        2,
        False,
        choose_residents("enc"),
        lambda pos: R1_OFF + 4 * (8 * pos[0] + pos[1]),
        keyed=False,
        reload=True,
    )
    assert (al.reg_of, al.free) == states[2], "the CTR core must leave round 2 as the encryption core does"
    em("addi a1, a1, -1")
    em("j nuri_pipo_rv32_bs32_after2_enc")
    em.raw("    .size %s, .-%s\n" % (fn, fn))
    return "\n".join(em.lines) + "\n"


def gen_r1():
    """void nuri_pipo_rv32_bs32_r1(ws, unsigned colmask): for each S-box column c in colmask,
    round 1 of the counter planes (whitening key included) -> R1, R-layer applied and the
    round-2 key added. colmask is public (which counter bits changed)."""
    em = Emitter()
    fn = "nuri_pipo_rv32_bs32_r1"
    em.raw("    .globl %s\n    .type %s, @function\n    .align 2\n%s:" % (fn, fn, fn))
    em("addi sp, sp, -16")
    em("sw s0, 0(sp)")
    em("sw s1, 4(sp)")
    r1_body(em, ".Lr1_skip")
    em("lw s0, 0(sp)")
    em("lw s1, 4(sp)")
    em("addi sp, sp, 16")
    em("ret")
    em.raw("    .size %s, .-%s\n" % (fn, fn))
    return "\n".join(em.lines) + "\n"


def r1_body(em, lbl):
    """round 1 of the columns in a1 (clobbers a1..a7, t0..t6, s0, s1)"""
    em("addi a2, a0, %d" % CTR_OFF)
    regs = ["a3", "a4", "a5", "a6", "a7", "t3", "t4", "t5", "t0", "t1", "t2", "t6", "s0", "s1"]
    for c in range(8):
        em("andi t0, a1, %d" % (1 << c))
        em("beqz t0, %s%d" % (lbl, c))
        x = regs[:8]
        for j in range(8):
            em("lw %s, %d(a2)" % (x[j], 4 * (8 * j + c)))
        names = run_ops(em, S_OPS, {"x%d" % j: x[j] for j in range(8)}, regs[8:])
        out = {j: names[S_OUT[j]] for j in range(8)}
        spare = [r for r in regs if r not in out.values()][0]
        for j in range(8):
            pos = (j, (c + ROT[j]) % 8)
            em("lb %s, %d(a0)" % (spare, mask_off(1, pos[0], pos[1])))
            em("xor %s, %s, %s" % (out[j], out[j], spare))
            em("sw %s, %d(a0)" % (out[j], R1_OFF + 4 * (8 * pos[0] + pos[1])))
        em.label("%s%d" % (lbl, c))


def swapmove(em, a, b, sh, m, t):
    """t = ((a >> sh) ^ b) & m; b ^= t; a ^= t << sh"""
    em("srli %s, %s, %d" % (t, a, sh))
    em("xor %s, %s, %s" % (t, t, b))
    em("and %s, %s, %s" % (t, t, m))
    em("xor %s, %s, %s" % (b, b, t))
    em("slli %s, %s, %d" % (t, t, sh))
    em("xor %s, %s, %s" % (a, a, t))


SAVE = ["s0", "s1", "s2", "s3", "s4", "s5"]


def prologue(em, fn):
    em.raw("    .globl %s\n    .type %s, @function\n    .align 2\n%s:" % (fn, fn, fn))
    em("addi sp, sp, -32")
    for i, r in enumerate(SAVE):
        em("sw %s, %d(sp)" % (r, 4 * i))


def epilogue(em, fn):
    for i, r in enumerate(SAVE):
        em("lw %s, %d(sp)" % (r, 4 * i))
    em("addi sp, sp, 32")
    em("ret")
    em.raw("    .size %s, .-%s\n" % (fn, fn))


# The 64 planes are two 32x32 bit matrices (h = 0, 1: plane word 32h + p, p = 8(j & 3) + c);
# block b's word h is bit b of those planes. A 32x32 transpose is five swapmove layers, one per
# bit of the word index; they commute. Layers on index bits 0..2 (c) run on groups of 8 words,
# layers on bits 3..4 (j & 3) on groups of 4 words, each group in registers.
D = ["a4", "a5", "a6", "a7", "t3", "t4", "t5", "t6"]
MASK = {16: "s0", 8: "s1", 4: "s2", 2: "s3", 1: "s4"}


def masks(em):
    for sh, m in ((16, 0x0000FFFF), (8, 0x00FF00FF), (4, 0x0F0F0F0F), (2, 0x33333333), (1, 0x55555555)):
        em("li %s, 0x%08x" % (MASK[sh], m))


def layers_c(em, w):
    for sh, pairs in (
        (4, [(0, 4), (1, 5), (2, 6), (3, 7)]),
        (2, [(0, 2), (1, 3), (4, 6), (5, 7)]),
        (1, [(0, 1), (2, 3), (4, 5), (6, 7)]),
    ):
        for a, b in pairs:
            swapmove(em, w[a], w[b], sh, MASK[sh], "t0")


def layers_j(em, w):
    for sh, pairs in ((16, [(0, 2), (1, 3)]), (8, [(0, 1), (2, 3)])):
        for a, b in pairs:
            swapmove(em, w[a], w[b], sh, MASK[sh], "t0")


def pass_c(em):
    """in place on the planes at a0: layers on index bits 0..2"""
    for h in range(2):
        for jj in range(4):
            base = 4 * (32 * h + 8 * jj)
            for c in range(8):
                em("lw %s, %d(a0)" % (D[c], base + 4 * c))
            layers_c(em, D)
            for c in range(8):
                em("sw %s, %d(a0)" % (D[c], base + 4 * c))


def gen_in():
    """void nuri_pipo_rv32_bs32_in(uint32_t *st, const uint32_t *in, const uint32_t k[2]):
    32 blocks (word-aligned) XOR k -> 64 planes."""
    em = Emitter()
    fn = "nuri_pipo_rv32_bs32_in"
    prologue(em, fn)
    masks(em)
    em("lw a3, 0(a2)")
    em("lw a2, 4(a2)")
    key = ["a3", "a2"]
    for h in range(2):
        for c in range(8):
            for jj in range(4):
                b = 8 * jj + c
                em("lw %s, %d(a1)" % (D[jj], 8 * b + 4 * h))
                em("xor %s, %s, %s" % (D[jj], D[jj], key[h]))
            layers_j(em, D[:4])
            for jj in range(4):
                em("sw %s, %d(a0)" % (D[jj], 4 * (32 * h + 8 * jj + c)))
    pass_c(em)
    epilogue(em, fn)
    return "\n".join(em.lines) + "\n"


def gen_out(with_x):
    """void nuri_pipo_rv32_bs32_out(uint32_t *st, uint32_t *out, const uint32_t k[2])
    void nuri_pipo_rv32_bs32_out_xor(uint32_t *st, uint32_t *out, const uint32_t k[2], const uint32_t *x):
    64 planes -> 32 blocks XOR k (XOR x: out may equal x); st is clobbered."""
    em = Emitter()
    fn = "nuri_pipo_rv32_bs32_out" + ("_xor" if with_x else "")
    prologue(em, fn)
    masks(em)
    pass_c(em)
    em("lw s5, 0(a2)")
    em("lw a2, 4(a2)")
    key = ["s5", "a2"]
    for h in range(2):
        for c in range(8):
            for jj in range(4):
                em("lw %s, %d(a0)" % (D[jj], 4 * (32 * h + 8 * jj + c)))
            layers_j(em, D[:4])
            for jj in range(4):
                b = 8 * jj + c
                em("xor %s, %s, %s" % (D[jj], D[jj], key[h]))
                if with_x:
                    em("lw t0, %d(a3)" % (8 * b + 4 * h))
                    em("xor %s, %s, t0" % (D[jj], D[jj]))
                em("sw %s, %d(a1)" % (D[jj], 8 * b + 4 * h))
    epilogue(em, fn)
    return "\n".join(em.lines) + "\n"


def out_c_body(em, base0):
    """the end of a fixed-round CTR batch: the planes at a0 + base0, their index-bit 3..4 layers
    done, get the layers on index bits 0..2 per group of 8 words, then the key (pointer a2) and
    x (a3) XORed in -> out (a1; may equal x). Clobbers a2, a4..a7, t0..t6, s0..s5."""
    for sh, m in ((4, 0x0F0F0F0F), (2, 0x33333333), (1, 0x55555555)):
        em("li %s, 0x%08x" % (MASK[sh], m))
    em("lw s5, 0(a2)")
    em("lw a2, 4(a2)")
    key = ["s5", "a2"]
    for h in range(2):
        for jj in range(4):
            base = base0 + 4 * (32 * h + 8 * jj)
            for c in range(8):
                em("lw %s, %d(a0)" % (D[c], base + 4 * c))
            layers_c(em, D)
            for c in range(8):
                b = 8 * jj + c
                em("xor %s, %s, %s" % (D[c], D[c], key[h]))
                em("lw t0, %d(a3)" % (8 * b + 4 * h))
                em("xor %s, %s, t0" % (D[c], D[c]))
                em("sw %s, %d(a1)" % (D[c], 8 * b + 4 * h))


def gen_helpers():
    """void nuri_pipo_rv32_bs32_masks(uint8_t *dst, const uint64_t *rk, int stride, unsigned nblocks):
    nblocks mask blocks of 16 words (dst += 64 each), the key of each at rk, rk + stride (bytes),
    ...: word 2c + h = bytes 0x00/0xFF from bit c of the 4 bytes of key word h.
    void nuri_pipo_rv32_bs32_wipe(uint32_t *p, unsigned n16): zeroes 16 * n16 words."""
    em = Emitter()
    fn = "nuri_pipo_rv32_bs32_masks"
    em.raw("    .globl %s\n    .type %s, @function\n    .align 2\n%s:" % (fn, fn, fn))
    em("beqz a3, 2f")
    em("li t0, 0x01010101")
    em("li t1, 255")
    em.label("1")
    em("lw a4, 0(a1)")
    em("lw a5, 4(a1)")
    for c in range(8):
        for h, w in enumerate(("a4", "a5")):
            if c:
                em("srli t2, %s, %d" % (w, c))
                em("and t2, t2, t0")
            else:
                em("and t2, %s, t0" % w)
            em("mul t2, t2, t1")
            em("sw t2, %d(a0)" % (4 * (2 * c + h)))
    em("add a1, a1, a2")
    em("addi a0, a0, 64")
    em("addi a3, a3, -1")
    em("bnez a3, 1b")
    em.label("2")
    em("ret")
    em.raw("    .size %s, .-%s\n" % (fn, fn))
    fn = "nuri_pipo_rv32_bs32_wipe"
    em.raw("    .globl %s\n    .type %s, @function\n    .align 2\n%s:" % (fn, fn, fn))
    em("beqz a1, 2f")
    em.label("1")
    for i in range(16):
        em("sw zero, %d(a0)" % (4 * i))
    em("addi a0, a0, 64")
    em("addi a1, a1, -1")
    em("bnez a1, 1b")
    em.label("2")
    em("ret")
    em.raw("    .size %s, .-%s\n" % (fn, fn))
    return "\n".join(em.lines) + "\n"


# ---- fixed-round CTR cores (rounds 2..R from the R1 cache, R known at generation time) ----
# No round counter: a1 joins the pool (27 registers). Each S-box column loads its inputs lazily
# (just before their first use, key added at once), runs its operations in a greedy order that
# keeps few values live, and stores each non-resident output as soon as it is final and dead.
# The planes kept in registers across a round boundary are chosen greedily (shortest producer-
# to-consumer spans first) under an exact register count of that schedule.
FPOOL = ["a1"] + POOL
FIXED_ROUNDS = {13: 2, 17: 4}  # rounds -> key words (mask slots used)


def ssa_sbox():
    """S_OPS as single-assignment ops [(op, dst, a, b)] on wires; inputs 'i0'..'i7'; outputs."""
    cur = {"x%d" % j: "i%d" % j for j in range(8)}
    ops = []
    for k, (op, d, a, b) in enumerate(S_OPS):
        w = "w%d" % k
        ops.append((op, w, cur[a], cur[b] if b else None))
        cur[d] = w
    return ops, {j: cur[S_OUT[j]] for j in range(8)}


SSA_OPS, SSA_OUT = ssa_sbox()


def column_schedule(res_in, res_out, keyed, avail):
    """Greedy op order for one column. res_in: input rows already in registers; res_out: output
    rows that stay in registers. avail: registers free for this column (pool minus bystanders
    of other columns). Returns (order, peak) where peak = most registers the column holds."""
    uses = {}
    for k, (_op, _d, a, b) in enumerate(SSA_OPS):
        for w in (a, b):
            if w:
                uses.setdefault(w, set()).add(k)
    outw = {w: j for j, w in SSA_OUT.items()}
    live = set("i%d" % j for j in res_in)
    done, order, peak = set(), [], len(live)
    loaded = set(live)
    while len(done) < len(SSA_OPS):
        best = None
        for k, (_op, d, a, b) in enumerate(SSA_OPS):
            if k in done or any(w and w.startswith("w") and w not in live and w not in loaded for w in (a, b)):
                continue
            if any(w and w.startswith("w") and w not in loaded for w in (a, b)):
                continue
            cnt = len(live)
            pk = cnt
            for w in (a, b):
                if w and w not in loaded:
                    cnt += 1
                    pk = max(pk, cnt + (1 if keyed else 0))
            freed = sum(
                1 for w in set((a, b)) if w and uses[w] - done == {k} and not (w in outw and outw[w] in res_out)
            )
            pk = max(pk, cnt - freed + 1)
            after = cnt - freed + 1
            if d in outw and not uses.get(d) and outw[d] not in res_out:
                after -= 1
            key = (after, pk, k)
            if best is None or key < best[0]:
                best = (key, k, pk)
        (after, pk, _), k, _ = best
        op, d, a, b = SSA_OPS[k]
        for w in (a, b):
            if w and w not in loaded:
                loaded.add(w)
                live.add(w)
        for w in (a,) if a == b else (a, b):
            if w and uses[w] - done == {k} and not (w in outw and outw[w] in res_out):
                live.discard(w)
        live.add(d)
        loaded.add(d)
        if d in outw and not uses.get(d) and outw[d] not in res_out:
            live.discard(d)
        done.add(k)
        order.append(k)
        peak = max(peak, pk)
    return order, peak


def fixed_feasible(resident):
    """steady-state round: every column's schedule fits beside its bystanders"""
    sl = slots("enc")
    prod = {pos: c for c, (_, outs) in enumerate(sl) for _, pos in outs}
    cons = {pos: c for c, (ins, _) in enumerate(sl) for _, pos in ins}
    for c, (ins, outs) in enumerate(sl):
        by = sum(1 for q in resident if cons[q] > c) + sum(1 for q in resident if prod[q] < c)
        res_in = [j for j, pos in ins if pos in resident]
        res_out = [j for j, pos in outs if pos in resident]
        _, peak = column_schedule(res_in, res_out, True, len(FPOOL) - by)
        if by + peak > len(FPOOL):
            return False
    return True


def fixed_residents():
    sl = slots("enc")
    prod = {pos: c for c, (_, outs) in enumerate(sl) for _, pos in outs}
    cons = {pos: c for c, (ins, _) in enumerate(sl) for _, pos in ins}
    chosen = []
    for pos in sorted(prod, key=lambda q: (8 - prod[q] + cons[q], q)):
        if fixed_feasible(chosen + [pos]):
            chosen.append(pos)
    return set(chosen)


def gen_ctr_fixed(rounds):
    """void nuri_pipo_rv32_bs32_ctr<rounds>(ws, unsigned cols, uint8_t *out, const uint32_t k[2],
    const uint8_t *x): one CTR batch: round 1 of the columns in cols (as nuri_pipo_rv32_bs32_r1),
    rounds 2..rounds from R1 (round-2 key already in R1), the first two layers of the output
    transposition (index bits 3..4, swapmoves by 16 and 8) and then the rest of it with the key
    k and x XORed in (as nuri_pipo_rv32_bs32_out_c_xor) -> out. The last round keeps the output planes of
    some groups (h, c) (the 4 planes (4h + jj, c)) in registers until the group is complete
    and transposes them there; the other groups are stored and transposed after the round.
    The groups held are chosen greedily (shortest hold first) as long as the registers last."""
    # holding a group saves 8 loads/stores, keeping a plane across the last boundary 2: groups
    # first (with no plane kept into the last round), then the planes that still fit
    resident = fixed_residents()
    sl = slots("enc")
    prod = {pos: c for c, (_, outs) in enumerate(sl) for _, pos in outs}
    cons = {pos: c for c, (ins, _) in enumerate(sl) for _, pos in ins}

    def fits(hold, last_res):
        try:
            gen_ctr_fixed_hold(rounds, resident, hold, last_res, order)
        except IndexError:
            return False
        return True

    best = None
    for order, groups_first in itertools.product(last_orders(4), (True, False)):
        hold, last_res = set(), set()
        spans = []
        for h in range(2):
            for c in range(8):
                at = [order.index((c - ROT[4 * h + jj]) % 8) for jj in range(4)]
                spans.append((sum(max(at) - x for x in at), max(at), (h, c)))
        steps = [("g", g) for _, _, g in sorted(spans)]
        planes = [("p", q) for q in sorted(resident, key=lambda q: (8 - prod[q] + cons[q], q))]
        for kind, x in steps + planes if groups_first else planes + steps:
            if kind == "g" and fits(hold | {x}, last_res):
                hold.add(x)
            elif kind == "p" and fits(hold, last_res | {x}):
                last_res.add(x)
        gain = 8 * len(hold) + 2 * len(last_res)
        if best is None or gain > best[0]:
            best = (gain, hold, last_res, order)
    _, hold, last_res, order = best
    text = gen_ctr_fixed_hold(rounds, resident, hold, last_res, order)
    return text, len(resident), len(hold), len(last_res)


def last_orders(k):
    """the k column orders of the last round that keep the fewest output planes waiting for
    their groups (peak, then total), if every group were held"""
    groups = [[(c - ROT[4 * h + jj]) % 8 for jj in range(4)] for h in range(2) for c in range(8)]
    res = []
    for order in itertools.permutations(range(8)):
        pos = {c: i for i, c in enumerate(order)}
        held = [
            sum(sum(1 for x in cols if pos[x] <= i) for cols in groups if max(pos[x] for x in cols) > i)
            for i in range(8)
        ]
        res.append((max(held), sum(held), order))
    res.sort()
    return [tuple(range(8))] + [o for _, _, o in res[:k]]


def gen_ctr_fixed_hold(rounds, resident, hold, last_res, last_order):
    """resident: planes kept across the boundaries before rounds 3..rounds-1; last_res: across
    the boundary before the last round; hold: output groups the last round transposes in place;
    last_order: the order of the last round's columns"""
    # mask slots read: RK_i = slot i % nslots ^ constant bits i & ~(nslots - 1), nslots = the
    # number of key words (PIPO-64/128: 13 rounds, 2 words; PIPO-64/256: 17 rounds, 4 words)
    nslots = FIXED_ROUNDS[rounds]
    em = Emitter()
    fn = "nuri_pipo_rv32_bs32_ctr%d" % rounds
    em.raw("    .globl %s\n    .type %s, @function\n    .align 2\n%s:" % (fn, fn, fn))
    em("addi sp, sp, -80")
    for i, r in enumerate(SAVED + ["a2", "a3", "a4"]):
        em("sw %s, %d(sp)" % (r, 4 * i))
    r1_body(em, ".Lc%d_r1_" % rounds)
    free = list(FPOOL)
    reg_of = {}  # resident plane -> register

    def take():
        return free.pop(0)

    def give(r):
        free.append(r)
        free.sort(key=FPOOL.index)

    uses = {}
    for k, (_op, _d, a, b) in enumerate(SSA_OPS):
        for w in (a, b):
            if w:
                uses.setdefault(w, set()).add(k)
    outw = {w: j for j, w in SSA_OUT.items()}
    held = {}
    ready = []
    jmask = {}

    def flush(g, w):
        """the index-bit 3..4 layers on group g (registers w[jj]) and its stores"""
        t = take()
        for a, b in ((0, 2), (1, 3)):  # swapmove by 16 without a mask
            em("srli %s, %s, 16" % (t, w[a]))
            em("xor %s, %s, %s" % (t, t, w[b]))
            em("slli %s, %s, 16" % (t, t))
            em("xor %s, %s, %s" % (w[a], w[a], t))
            em("srli %s, %s, 16" % (t, t))
            em("xor %s, %s, %s" % (w[b], w[b], t))
        if not jmask:
            jmask[8] = take()
            em("li %s, 0x00ff00ff" % jmask[8])
        for a, b in ((0, 1), (2, 3)):
            swapmove(em, w[a], w[b], 8, jmask[8], t)
        give(t)
        for jj in range(4):
            em("sw %s, %d(a0)" % (w[jj], plane_off(rounds % 2, 4 * g[0] + jj, g[1])))
            give(w[jj])

    for n in range(2, rounds + 1):
        last = n == rounds
        dst = n % 2
        sl = slots("enc")
        for c in last_order if last else range(8):
            ins, outs = sl[c]
            in_pos = dict(ins)
            out_pos = dict(outs)
            res_in = [j for j in range(8) if in_pos[j] in reg_of]
            if last:
                res_out = [j for j in range(8) if (j >> 2, out_pos[j][1]) in hold]
            else:
                res_out = [j for j in range(8) if out_pos[j] in (last_res if n == rounds - 1 else resident)]
            order, _ = column_schedule(res_in, res_out, n > 2, 0)
            reg = {"i%d" % j: reg_of.pop(in_pos[j]) for j in res_in}

            def keyadd(j, r):
                if n == 2:
                    return
                t = take()
                pos = in_pos[j]
                em("lb %s, %d(a0)" % (t, mask_off((n - 1) % nslots, pos[0], pos[1])))
                em("xor %s, %s, %s" % (r, r, t))
                if pos[0] == 0 and (1 << pos[1]) >= nslots and ((n - 1) >> pos[1]) & 1:
                    em("not %s, %s" % (r, r))
                give(t)

            for j in res_in:
                keyadd(j, reg["i%d" % j])
            done = set()

            def finish(w):
                j = outw[w]
                if j in res_out and last:
                    g = (j >> 2, out_pos[j][1])
                    held.setdefault(g, {})[j & 3] = reg.pop(w)
                    if len(held[g]) == 4:  # after the current op, which may still read w
                        ready.append(g)
                elif j in res_out:
                    reg_of[out_pos[j]] = reg.pop(w)
                else:
                    em("sw %s, %d(a0)" % (reg[w], plane_off(dst, out_pos[j][0], out_pos[j][1])))
                    give(reg.pop(w))

            for k in order:
                op, d, a, b = SSA_OPS[k]
                for w in (a, b):
                    if w and w not in reg:
                        j = int(w[1:])
                        r = take()
                        pos = in_pos[j]
                        src = R1_OFF + 4 * (8 * pos[0] + pos[1]) if n == 2 else plane_off((n - 1) % 2, pos[0], pos[1])
                        em("lw %s, %d(a0)" % (r, src))
                        reg[w] = r
                        keyadd(j, r)
                ra, rb = reg[a], reg[b] if b else None
                for w in (a,) if a == b else (a, b):
                    if w and uses[w] - done == {k}:
                        if w in outw:
                            finish(w)
                        else:
                            give(reg.pop(w))
                rd = take()
                if op == "not":
                    em("not %s, %s" % (rd, ra))
                else:
                    em("%s %s, %s, %s" % (op, rd, ra, rb))
                reg[d] = rd
                done.add(k)
                if d in outw and not uses.get(d):
                    finish(d)
                while ready:
                    g = ready.pop(0)
                    flush(g, held.pop(g))
            assert not reg, reg
    assert not reg_of and not held
    for h in range(2):  # the groups not held: transposed from memory
        for c in range(8):
            if (h, c) in hold:
                continue
            w = [take() for _ in range(4)]
            for jj in range(4):
                em("lw %s, %d(a0)" % (w[jj], plane_off(rounds % 2, 4 * h + jj, c)))
            flush((h, c), w)
    em("lw a1, 52(sp)")
    em("lw a2, 56(sp)")
    em("lw a3, 60(sp)")
    out_c_body(em, 256 * (rounds % 2))
    for i, r in enumerate(SAVED):
        em("lw %s, %d(sp)" % (r, 4 * i))
    em("addi sp, sp, 80")
    em("ret")
    em.raw("    .size %s, .-%s\n" % (fn, fn))
    return "\n".join(em.lines) + "\n"


if __name__ == "__main__":
    enc, states = gen_core("enc")
    ctr = gen_ctr_core(states) + "\n" + gen_r1()
    dec, _ = gen_core("dec")
    for r in FIXED_ROUNDS:
        text_r, nres, nhold, nlast = gen_ctr_fixed(r)
        ctr += "\n" + text_r
        print(
            "fixed-round CTR core, %d rounds: %d residents per round boundary (%d into the last round), "
            "%d of 16 output groups transposed in registers" % (r, nres, nlast, nhold)
        )
    print("residents per round boundary: enc %d, dec %d" % (len(choose_residents("enc")), len(choose_residents("dec"))))
    text = (
        HEADER.replace("gen_pipo_rv32.py", "gen_pipo_rv32_bs32.py")
        % "32 blocks bitsliced: round core and transpositions"
        + "\n"
        + enc
        + "\n"
        + ctr
        + "\n"
        + dec
        + "\n"
        + gen_in()
        + "\n"
        + gen_out(False)
        + "\n"
        + gen_out(True)
        + "\n"
        + gen_helpers()
    )
    open("pipo_rv32_bs32.S", "w").write(text)
