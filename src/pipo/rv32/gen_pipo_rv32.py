#!/usr/bin/env python3
"""Generates the PIPO-64 RV32 (rv32imac) assembly kernels of nuri: pipo_rv32_1blk.S and
pipo_rv32_4blk.S. Run from this folder: python3 gen_pipo_rv32.py (the .S files are committed).

State layout (block byte j = PIPO row X[j], bit c of X[j] = S-box column c):
  1blk: row j in the low byte of register X[j]; the upper bits hold garbage that only the R-layer
        must not see, so each rotated row is masked once (andi) before its two shifts.
  4blk: row j of 4 blocks in one 32-bit register (lane b = block b); lane rotations with shifts and
        one mask per rotation amount (7 masks live in registers); round keys pre-expanded by the
        C glue to 32 bits (each key byte replicated in the 4 lanes).
The S-layer is the designers' bitsliced S-box (34 logic instructions per round). Its output rows
land in permuted registers; the key addition (xor dst, src, key) moves each row back to its home
register, so the permutation costs nothing unless it has a cycle that no free destination breaks.
"""

ROT = [0, 7, 4, 3, 6, 5, 1, 2]

# ---- the S-layer as three-address operations on symbolic names (x0..x7, t0..t2) ----
# Each op: (op, dst, a, b); op in and/or/xor/not. Result: rows Y[j] held by names (see OUT).
S_OPS = [
    # S5_1
    ("and", "u", "x7", "x6"),
    ("xor", "x5", "x5", "u"),
    ("and", "u", "x3", "x5"),
    ("xor", "x4", "x4", "u"),
    ("xor", "x7", "x7", "x4"),
    ("xor", "x6", "x6", "x3"),
    ("or", "u", "x4", "x5"),
    ("xor", "x3", "x3", "u"),
    ("xor", "x5", "x5", "x7"),
    ("and", "u", "x5", "x6"),
    ("xor", "x4", "x4", "u"),
    # S3
    ("and", "u", "x1", "x0"),
    ("xor", "x2", "x2", "u"),
    ("or", "u", "x2", "x1"),
    ("xor", "x0", "x0", "u"),
    ("or", "u", "x2", "x0"),
    ("xor", "x1", "x1", "u"),
    ("not", "x2", "x2", None),
    # extend
    ("xor", "x7", "x7", "x1"),
    ("xor", "x3", "x3", "x2"),
    ("xor", "x4", "x4", "x0"),
    # S5_2 (t0 = x7, t1 = x3, t2 = x4 as copies: computed straight into t0..t2)
    ("and", "u", "x7", "x5"),
    ("xor", "x6", "x6", "u"),
    ("xor", "t0", "x7", "x6"),
    ("or", "u", "x4", "x3"),
    ("xor", "x6", "x6", "u"),
    ("xor", "t1", "x3", "x5"),
    ("or", "u", "x6", "x4"),
    ("xor", "x5", "x5", "u"),
    ("and", "t2", "t1", "t0"),
    ("xor", "t2", "x4", "t2"),
    # truncate and bit swap
    ("xor", "x2", "x2", "t0"),
    ("xor", "x1", "x1", "t2"),
    ("xor", "x0", "x0", "t1"),
]
S_OUT = {0: "x7", 1: "x0", 2: "x2", 3: "x6", 4: "x5", 5: "x4", 6: "x3", 7: "x1"}

# inverse S-layer, input rows X[j] named x7=X0, x0'=X1 ... as in ref/pipo_ref.c inv_sbox()
# (x1, x0, x2 start as the rows X7, X1, X2 that the last step of the forward S-box produced)
INV_IN = {"x7": 0, "x3": 6, "x4": 5, "x5": 4, "x6": 3, "x1": 7, "x0": 1, "x2": 2}
INV_OPS = [
    ("or", "u", "x6", "x4"),
    ("xor", "x5", "x5", "u"),
    ("xor", "t1", "x3", "x5"),
    ("or", "u", "x4", "x3"),
    ("xor", "x6", "x6", "u"),
    ("xor", "t0", "x7", "x6"),
    ("and", "u", "x7", "x5"),
    ("xor", "x6", "x6", "u"),
    ("and", "t2", "t1", "t0"),
    ("xor", "t2", "x4", "t2"),
    ("xor", "x1", "x1", "t2"),
    ("xor", "x0", "x0", "t1"),
    ("xor", "x2", "x2", "t0"),
    # undo extend
    ("xor", "x7", "x7", "x1"),
    ("xor", "x3", "x3", "x2"),
    ("xor", "x4", "x4", "x0"),
    # undo S3
    ("not", "x2", "x2", None),
    ("or", "u", "x2", "x0"),
    ("xor", "x1", "x1", "u"),
    ("or", "u", "x2", "x1"),
    ("xor", "x0", "x0", "u"),
    ("and", "u", "x1", "x0"),
    ("xor", "x2", "x2", "u"),
    # undo S5_1
    ("and", "u", "x5", "x6"),
    ("xor", "x4", "x4", "u"),
    ("xor", "x5", "x5", "x7"),
    ("or", "u", "x4", "x5"),
    ("xor", "x3", "x3", "u"),
    ("xor", "x6", "x6", "x3"),
    ("xor", "x7", "x7", "x4"),
    ("and", "u", "x3", "x5"),
    ("xor", "x4", "x4", "u"),
    ("and", "u", "x7", "x6"),
    ("xor", "x5", "x5", "u"),
]
INV_OUT = {j: "x%d" % j for j in range(8)}


class Emitter:
    def __init__(self):
        self.lines = []

    def __call__(self, s):
        self.lines.append("    " + s)

    def label(self, s):
        self.lines.append(s + ":")

    def raw(self, s):
        self.lines.append(s)


def run_ops(em, ops, names, free):
    """Emits ops; names maps symbolic name -> register (inputs pre-bound). Fresh names (u, t0..)
    take registers from `free`. Returns the final name->register map."""
    names = dict(names)
    free = list(free)
    for op, d, a, b in ops:
        ra = names[a]
        rb = names[b] if b else None
        if d not in names:
            names[d] = free.pop(0)
        rd = names[d]
        if op == "not":
            em("not %s, %s" % (rd, ra))
        else:
            em("%s %s, %s, %s" % (op, rd, ra, rb))
        # the scratch name u is dead after each xor that consumes it
        if op == "xor" and b == "u":
            free.insert(0, names.pop("u"))
    return names


def keyed_move(em, src, home, key_src, spare):
    """Parallel 'home[j] = src[j] ^ key[j]' for j = 0..7. key_src(j) emits the key load and
    returns its register. src[j] are current registers; cycles broken with a mv into spare."""
    pending = {j: src[j] for j in range(8)}
    moves = 0
    while pending:
        progressed = False
        for j in sorted(pending):
            h = home[j]
            busy = any(pending[i] == h for i in pending if i != j)
            if not busy:
                k = key_src(j)
                em("xor %s, %s, %s" % (h, pending[j], k))
                del pending[j]
                progressed = True
        if not progressed:
            j = min(pending)
            em("mv %s, %s" % (spare, pending[j]))
            pending[j] = spare
            moves += 1
    return moves


HEADER = """/* Generated by src/pipo/rv32/gen_pipo_rv32.py: do not edit. PIPO-64 for rv32imac (%s). */
    .text
    .option norvc
"""
# norvc: 32-bit encodings only, so instruction counts do not depend on compression; the
# counts (QEMU -icount, minstret) are instructions either way.


def gen_1blk():
    """void nuri_pipo_rv32_1blk_{enc,dec}(const uint64_t *rk, unsigned rounds, uint8_t *out,
    const uint8_t *in, size_t n)"""
    em = Emitter()
    em.raw(HEADER % "one block at a time, rows in the low byte of 8 registers")
    X = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"]
    # a0 rk, a1 key end (rk + 8*rounds), a2 out, a3 in, a4 n; a5 key cursor
    # scratch: t0..t6, a6, a7
    for direction in ("enc", "dec"):
        fn = "nuri_pipo_rv32_1blk_%s" % direction
        em.raw("    .globl %s\n    .type %s, @function\n    .align 2\n%s:" % (fn, fn, fn))
        em("addi sp, sp, -32")
        for i, r in enumerate(X):
            em("sw %s, %d(sp)" % (r, 4 * i))
        em("slli a1, a1, 3")
        em("add a1, a0, a1")  # &rk[rounds]
        em("beqz a4, 9f")
        em.label("1")
        for j in range(8):
            em("lbu %s, %d(a3)" % (X[j], j))
        first = "a0" if direction == "enc" else "a1"
        for j in range(8):
            em("lbu t0, %d(%s)" % (j, first))
            em("xor %s, %s, t0" % (X[j], X[j]))
        if direction == "enc":
            em("mv a5, a0")
            em("beq a5, a1, 3f")
        else:
            em("mv a5, a1")
            em("beq a5, a0, 3f")
        em.label("2")
        if direction == "enc":
            names = {"x%d" % j: X[j] for j in range(8)}
            names = run_ops(em, S_OPS, names, ["t0", "t1", "t2", "t3"])
            rows = {j: names[S_OUT[j]] for j in range(8)}
            used = set(rows.values())
            spare = [r for r in ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "a6", "a7"] if r not in used]
            # rotations: row j (j >= 1) rotl by ROT[j]; results may go to a spare register so that
            # the keyed move below has no cycle
            out = dict(rows)
            em("addi a5, a5, 8")
            dst_pool = list(spare[2:])
            for j in range(1, 8):
                r = rows[j]
                k = ROT[j]
                em("andi %s, %s, 0xff" % (spare[0], r))
                em("slli %s, %s, %d" % (spare[1], spare[0], k))
                em("srli %s, %s, %d" % (spare[0], spare[0], 8 - k))
                # break a cycle: if the home register of this row's value is needed elsewhere
                d = r
                if X[j] != r and any(rows[i] == X[j] for i in range(8) if i != j) and dst_pool:
                    d = dst_pool.pop(0)
                em("or %s, %s, %s" % (d, spare[1], spare[0]))
                out[j] = d

            def key_src(j):
                em("lbu %s, %d(a5)" % (spare[0], j))
                return spare[0]

            keyed_move(em, out, X, key_src, spare[1])
            em("bne a5, a1, 2b")
        else:
            em("addi a5, a5, -8")
            # inverse R-layer in place: rotl by 8 - ROT[j]
            for j in range(1, 8):
                k = (8 - ROT[j]) % 8
                em("andi t0, %s, 0xff" % X[j])
                em("slli t1, t0, %d" % k)
                em("srli t0, t0, %d" % (8 - k))
                em("or %s, t1, t0" % X[j])
            names = {n: X[j] for n, j in INV_IN.items()}
            names = run_ops(em, INV_OPS, names, ["t0", "t1", "t2", "t3"])
            rows = {j: names[INV_OUT[j]] for j in range(8)}
            used = set(rows.values())
            spare = [r for r in ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "a6", "a7"] if r not in used]

            def key_src(j):
                em("lbu %s, %d(a5)" % (spare[0], j))
                return spare[0]

            keyed_move(em, rows, X, key_src, spare[1])
            em("bne a5, a0, 2b")
        em.label("3")
        for j in range(8):
            em("sb %s, %d(a2)" % (X[j], j))
        em("addi a3, a3, 8")
        em("addi a2, a2, 8")
        em("addi a4, a4, -1")
        em("bnez a4, 1b")
        em.label("9")
        for i, r in enumerate(X):
            em("lw %s, %d(sp)" % (r, 4 * i))
        em("addi sp, sp, 32")
        em("ret")
        em.raw("    .size %s, .-%s\n" % (fn, fn))
    return "\n".join(em.lines) + "\n"


def swapmove(em, a, b, shift, mask, t):
    """t = ((a >> shift) ^ b) & mask; b ^= t; a ^= t << shift"""
    em("srli %s, %s, %d" % (t, a, shift))
    em("xor %s, %s, %s" % (t, t, b))
    em("and %s, %s, %s" % (t, t, mask))
    em("xor %s, %s, %s" % (b, b, t))
    em("slli %s, %s, %d" % (t, t, shift))
    em("xor %s, %s, %s" % (a, a, t))


def transpose4(em, w, m8, m16, t):
    """4x4 byte transpose of words w[0..3] (word b byte j -> word j byte b)."""
    swapmove(em, w[0], w[1], 8, m8, t)
    swapmove(em, w[2], w[3], 8, m8, t)
    swapmove(em, w[0], w[2], 16, m16, t)
    swapmove(em, w[1], w[3], 16, m16, t)


def gen_4blk():
    """void nuri_pipo_rv32_4blk_{enc,dec}(const uint32_t *ek, unsigned rounds, uint32_t *out,
                                          const uint32_t *in, size_t ngroups)
    ek: (rounds+1) x 8 words, word j of round key i = key byte j replicated in 4 lanes.
    in/out: 4-byte aligned, 4 blocks (32 bytes) per group."""
    em = Emitter()
    em.raw(HEADER % "4 blocks per pass, one state byte of 4 blocks per register")
    X = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"]
    # masks M[k] for k = 1..7: lane bits k..7 set
    M = {1: "s8", 2: "s9", 3: "s10", 4: "s11", 5: "gp", 6: "tp", 7: "ra"}
    # a0 ek, a1 key end, a2 out, a3 in, a4 groups left; a5 key cursor; a6 m8, a7 m16
    # scratch t0..t6
    saved = X + ["s8", "s9", "s10", "s11", "gp", "tp", "ra"]
    for direction in ("enc", "dec"):
        fn = "nuri_pipo_rv32_4blk_%s" % direction
        em.raw("    .globl %s\n    .type %s, @function\n    .align 2\n%s:" % (fn, fn, fn))
        em("addi sp, sp, -64")
        for i, r in enumerate(saved):
            em("sw %s, %d(sp)" % (r, 4 * i))
        em("slli a1, a1, 5")
        em("add a1, a0, a1")  # &ek[rounds]
        for k in range(1, 8):
            lane = (0xFF << k) & 0xFF
            em("li %s, 0x%08x" % (M[k], lane * 0x01010101))
        em("li a6, 0x00ff00ff")
        em("li a7, 0x0000ffff")
        em("beqz a4, 9f")
        em.label("1")
        # load: words lo_b (rows 0..3 of block b) into X[0..3] order lo0..lo3, hi into X[4..7]
        for b in range(4):
            em("lw %s, %d(a3)" % (X[b], 8 * b))
            em("lw %s, %d(a3)" % (X[4 + b], 8 * b + 4))
        transpose4(em, X[0:4], "a6", "a7", "t0")
        transpose4(em, X[4:8], "a6", "a7", "t0")
        first = "a0" if direction == "enc" else "a1"
        for j in range(8):
            em("lw t0, %d(%s)" % (4 * j, first))
            em("xor %s, %s, t0" % (X[j], X[j]))
        if direction == "enc":
            em("mv a5, a0")
            em("beq a5, a1, 3f")
        else:
            em("mv a5, a1")
            em("beq a5, a0, 3f")
        em.label("2")

        def rot(j, r, k, d, ta, tb):
            # lanes of r rotated left by k into d: b = r >> (8-k); a = r << k; d = b ^ ((a ^ b) & M_k)
            em("slli %s, %s, %d" % (ta, r, k))
            em("srli %s, %s, %d" % (tb, r, 8 - k))
            em("xor %s, %s, %s" % (ta, ta, tb))
            em("and %s, %s, %s" % (ta, ta, M[k]))
            em("xor %s, %s, %s" % (d, tb, ta))

        if direction == "enc":
            names = {"x%d" % j: X[j] for j in range(8)}
            names = run_ops(em, S_OPS, names, ["t0", "t1", "t2", "t3"])
            rows = {j: names[S_OUT[j]] for j in range(8)}
            used = set(rows.values())
            spare = [r for r in ["t0", "t1", "t2", "t3", "t4", "t5", "t6"] if r not in used]
            em("addi a5, a5, 32")
            out = dict(rows)
            dst_pool = list(spare[2:])
            for j in range(1, 8):
                r = rows[j]
                d = r
                if X[j] != r and any(rows[i] == X[j] for i in range(8) if i != j) and dst_pool:
                    d = dst_pool.pop(0)
                rot(j, r, ROT[j], d, spare[0], spare[1])
                out[j] = d

            def key_src(j):
                em("lw %s, %d(a5)" % (spare[0], 4 * j))
                return spare[0]

            keyed_move(em, out, X, key_src, spare[1])
            em("bne a5, a1, 2b")
        else:
            em("addi a5, a5, -32")
            for j in range(1, 8):
                rot(j, X[j], (8 - ROT[j]) % 8, X[j], "t0", "t1")
            names = {n: X[j] for n, j in INV_IN.items()}
            names = run_ops(em, INV_OPS, names, ["t0", "t1", "t2", "t3"])
            rows = {j: names[INV_OUT[j]] for j in range(8)}
            used = set(rows.values())
            spare = [r for r in ["t0", "t1", "t2", "t3", "t4", "t5", "t6"] if r not in used]

            def key_src(j):
                em("lw %s, %d(a5)" % (spare[0], 4 * j))
                return spare[0]

            keyed_move(em, rows, X, key_src, spare[1])
            em("bne a5, a0, 2b")
        em.label("3")
        # the byte transpose is an involution: the same network brings rows back to blocks
        transpose4(em, X[0:4], "a6", "a7", "t0")
        transpose4(em, X[4:8], "a6", "a7", "t0")
        for b in range(4):
            em("sw %s, %d(a2)" % (X[b], 8 * b))
            em("sw %s, %d(a2)" % (X[4 + b], 8 * b + 4))
        em("addi a3, a3, 32")
        em("addi a2, a2, 32")
        em("addi a4, a4, -1")
        em("bnez a4, 1b")
        em.label("9")
        for i, r in enumerate(saved):
            em("lw %s, %d(sp)" % (r, 4 * i))
        em("addi sp, sp, 64")
        em("ret")
        em.raw("    .size %s, .-%s\n" % (fn, fn))
    return "\n".join(em.lines) + "\n"


if __name__ == "__main__":
    open("pipo_rv32_1blk.S", "w").write(gen_1blk())
    open("pipo_rv32_4blk.S", "w").write(gen_4blk())
