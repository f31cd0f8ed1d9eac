"""The CUDA kernels of the key search, written as PTX by one emitter.

Two kernels come from the same description (the bit-plane PIPO rounds below):

* the **generic** kernel (``generic_ptx``): its search parameters (template planes, lane patterns,
  counter planes, shared rounds: libnuri's ``nuri_keysearch_gpu_params``) sit in ``__constant__``
  ``c_params``; each thread keeps its key planes in its column of shared memory. ``make gpu``
  assembles it with the pinned CUDA 12 ptxas into SASS for every supported GPU and ships it, with
  the PTX, as the fatbin ``ks_kernel.fatbin``;
* the **specialised** kernel (``specialised_ptx``): emitted at run time for one search from the
  same parameters. Every known key bit and every lane pattern is a literal, so the key XORs
  fold into the S-box's logic (a constant plane costs nothing, an inverted one flips a truth
  table); only the counter planes (the batch number's bits) are registers, and nothing is read
  from memory in the rounds. The driver JIT-compiles it for the GPU it finds.

Layout (as src/keysearch/ks_bitplane.h, which also defines the parameters): a 32-bit word holds one
bit of 32 candidates. State plane ``s = 8 j + b`` is bit b of row X[j]; key plane ``q = 8 B + b`` is
bit b of key byte B, and round key RK_i uses planes ``64 (i mod NW) + s``, with bit b of i added to
plane b (the round constant).
Candidate bits 0..4 select the lane, the higher bits are the batch number. The S-box of column c
reads slot c of every row and writes row j to slot ``(c + R[j]) mod 8``: the R-layer is a fixed
renaming, so every round maps the same registers to the same registers and a loop of NW rounds
(2 for PIPO-64/128, 4 for PIPO-64/256) keeps its state in place. The rounds run in such a loop
(about 6 KB of SASS for PIPO-64/128, which fits the instruction caches; a fully unrolled search is
about 95 KB and stalls on instruction fetch). Round 1 is unrolled before the loop (its inputs are
mostly constants in the specialised kernel) and the last round is unrolled after it, with the early
abort: column 0 gives 8 ciphertext bits, and the other 7 columns run only if a lane matches them
(12% of batches). Each thread loops over batches (grid-stride), so the launch is sized by the
device's SM count.

The emitter folds constants itself and writes plain and/or/xor/not; ptxas fuses them into LOP3.
Only the small PTX subset below is used, so that the tests' fake driver (tests/keysearch/fake_cuda.c)
can run the emitted text itself: the kernels are checked on the host by executing exactly the PTX
that a GPU would be given."""

M32 = 0xFFFFFFFF
LANES_LOG2 = 5
PTX_VERSION = "7.0"  # CUDA 11.0: every driver since JIT-compiles it (a CUDA 12.0 driver reads up to 8.0)
PTX_TARGET = "sm_75"  # the oldest GPU the SASS covers (Turing)
R_ROT = (0, 7, 4, 3, 6, 5, 1, 2)  # R-layer: row j rotates left by R_ROT[j]
PARAMS_BYTES = 2824  # bp_params (src/keysearch/ks_bitplane.h): first, last, init[64], target[64], kconst, kctr, kbit
OFF_FIRST, OFF_LAST, OFF_INIT, OFF_TARGET, OFF_KCONST, OFF_KCTR, OFF_KBIT = 0, 4, 8, 264, 520, 1544, 2568
KERNEL_NAMES = {16: "nuri_ks_search_128", 32: "nuri_ks_search_256"}
CTR_NAMES = {16: "nuri_ks_ctr_128", 32: "nuri_ks_ctr_256"}
ROUNDS = {16: 13, 32: 17}
GENERIC_BLOCK = {16: 64, 32: 32}  # 32 KiB of key planes per block
SPECIALISED_BLOCK = 128


class Params:
    """bp_params decoded (the bytes of nuri_keysearch_gpu_params)."""

    def __init__(self, raw, key_len):
        import struct

        if len(raw) != PARAMS_BYTES:
            raise ValueError(f"GPU parameters must be {PARAMS_BYTES} bytes, got {len(raw)}")
        self.key_len, self.nw = key_len, key_len // 8
        self.first, self.last = struct.unpack_from("<II", raw, OFF_FIRST)
        self.init = list(struct.unpack_from("<64I", raw, OFF_INIT))
        self.target = list(struct.unpack_from("<64I", raw, OFF_TARGET))
        self.kconst = list(struct.unpack_from("<256I", raw, OFF_KCONST))
        self.kctr = list(struct.unpack_from("<256I", raw, OFF_KCTR))
        self.kbit = list(raw[OFF_KBIT : OFF_KBIT + 256])
        if self.first != 0 or self.last > ROUNDS[key_len]:
            raise ValueError("GPU parameters: the kernels start at round 0 and end by the last round")


class Emitter:
    """PTX text with registers allocated on demand and bitwise operations folded on constants.
    A value is an int (a 32-bit constant) or a register name."""

    def __init__(self):
        self.lines, self.n = [], {"r": 0, "rd": 0, "p": 0}
        self._not = {}
        self.labels = 0
        self.counts = {}  # logic operations emitted per section (the report's PTX figures)
        self.section = None

    def reg(self, kind="r"):
        self.n[kind] += 1
        return f"%{kind}{self.n[kind]}"

    def label(self, stem):
        self.labels += 1
        return f"{stem}_{self.labels}"

    def emit(self, text):
        self.lines.append("\t" + text)

    def place(self, label):
        self.lines.append(f"{label}:")

    @staticmethod
    def fmt(v):
        return f"0x{v & M32:08X}" if isinstance(v, int) else v

    def _logic(self, op, a, b):
        r = self.reg()
        self.emit(f"{op}.b32 {r}, {self.fmt(a)}, {self.fmt(b)};")
        if self.section is not None:
            self.counts[self.section] = self.counts.get(self.section, 0) + 1
        return r

    def not_(self, a):
        if isinstance(a, int):
            return ~a & M32
        if a in self._not:
            return self._not[a]
        r = self.reg()
        self.emit(f"not.b32 {r}, {a};")
        if self.section is not None:
            self.counts[self.section] = self.counts.get(self.section, 0) + 1
        self._not[a], self._not[r] = r, a
        return r

    def xor(self, a, b):
        if isinstance(a, int) and isinstance(b, int):
            return a ^ b
        if isinstance(a, int):
            a, b = b, a
        if b == 0:
            return a
        if b == M32:
            return self.not_(a)
        if a == b:
            return 0
        return self._logic("xor", a, b)

    def and_(self, a, b):
        if isinstance(a, int) and isinstance(b, int):
            return a & b
        if isinstance(a, int):
            a, b = b, a
        if b == 0:
            return 0
        if b == M32 or a == b:
            return a
        return self._logic("and", a, b)

    def or_(self, a, b):
        if isinstance(a, int) and isinstance(b, int):
            return a | b
        if isinstance(a, int):
            a, b = b, a
        if b == M32:
            return M32
        if b == 0 or a == b:
            return a
        return self._logic("or", a, b)

    def mov(self, dst, v):
        self.emit(f"mov.b32 {dst}, {self.fmt(v)};")

    def assign(self, dsts, vals):
        """dsts[k] = vals[k] for all k at once (a value may be one of the destinations)."""
        clash = set(dsts) & {v for v in vals if isinstance(v, str)}
        vals = list(vals)
        for k, v in enumerate(vals):
            if v in clash and dsts[k] != v:
                t = self.reg()
                self.mov(t, v)
                vals[k] = t
        for d, v in zip(dsts, vals):
            if d != v:
                self.mov(d, v)

    def header(self, name, block, params, extra_decls=()):
        """The entry's first lines; the register declarations are inserted by text()."""
        self.name, self.block = name, block
        self.params = params
        self.decls = list(extra_decls)

    def text(self):
        ps = ",\n".join(f"\t.param .{t} {n}" for n, t in self.params)
        regs = [f"\t.reg .b32 %r<{self.n['r'] + 1}>;", f"\t.reg .b64 %rd<{self.n['rd'] + 1}>;"]
        regs.append(f"\t.reg .pred %p<{self.n['p'] + 1}>;")
        return (
            f".visible .entry {self.name}(\n{ps}\n)\n.maxntid {self.block}, 1, 1\n{{\n"
            + "\n".join(regs + self.decls + self.lines)
            + "\n}\n"
        )


def sbox_column(e, x):
    """PIPO's S-box on the 8 planes x[0..7] of one column (the designers' bitsliced gates, spec
    section 1, with x2's inversion moved to the outputs); returns the 8 output planes y[0..7]."""
    x0, x1, x2, x3, x4, x5, x6, x7 = x
    x5 = e.xor(x5, e.and_(x7, x6))
    x4 = e.xor(x4, e.and_(x3, x5))
    x7 = e.xor(x7, x4)
    x6 = e.xor(x6, x3)
    x3 = e.xor(x3, e.or_(x4, x5))
    x5 = e.xor(x5, x7)
    x4 = e.xor(x4, e.and_(x5, x6))
    x2 = e.xor(x2, e.and_(x1, x0))
    x0 = e.xor(x0, e.or_(x2, x1))
    x1 = e.xor(x1, e.or_(x2, x0))
    x7 = e.xor(x7, x1)
    x3 = e.not_(e.xor(x3, x2))
    x4 = e.xor(x4, x0)
    t0, t1, t2 = x7, x3, x4
    x6 = e.xor(x6, e.and_(t0, x5))
    t0 = e.xor(t0, x6)
    x6 = e.xor(x6, e.or_(t2, t1))
    t1 = e.xor(t1, x5)
    x5 = e.xor(x5, e.or_(x6, t2))
    t2 = e.xor(t2, e.and_(t1, t0))
    return [x7, e.xor(x0, t1), e.not_(e.xor(x2, t0)), x6, x5, x4, x3, e.xor(x1, t2)]


def round_columns(e, st, key, cols=range(8)):
    """S-layer + R-layer + key addition of the given columns: {slot: plane}. key(s) gives the round
    key's plane for state slot s (a constant or a register)."""
    out = {}
    for c in cols:
        y = sbox_column(e, [st[8 * j + c] for j in range(8)])
        for j in range(8):
            s = 8 * j + (c + R_ROT[j]) % 8
            out[s] = e.xor(y[j], key(s))
    return out


def match(e, planes, target, slots):
    """Lanes whose planes equal the target planes on `slots`."""
    m = M32
    for s in slots:
        m = e.and_(m, e.not_(e.xor(planes[s], target[s])))
    return m


COL0_SLOTS = [8 * j + R_ROT[j] for j in range(8)]  # where column 0's outputs land


class _Search:
    """Emits one search kernel. `p` = Params (specialised) or None (generic: from c_params)."""

    def __init__(self, key_len, p=None, block=None):
        self.key_len, self.nw, self.p = key_len, key_len // 8, p
        self.block = block or (SPECIALISED_BLOCK if p else GENERIC_BLOCK[key_len])
        self.e = Emitter()

    # -- key planes --
    def _rc(self, i, s):
        """Plane s's round-constant bit of round i (int round or a register holding it)."""
        if s >= 8:
            return 0
        if isinstance(i, int):
            return M32 if i >> s & 1 else 0
        e = self.e
        r = e.reg()
        e.emit(f"bfe.s32 {r}, {i}, {s}, 1;")
        return r

    def key_fn(self, word, i, rc_bits=range(5)):
        """key(s) for round i with key word `word` (ints in the specialised kernel; the generic
        kernel's word may be a register holding the shared-memory offset of the word)."""
        e, cache = self.e, {}
        rcs = {s: self._rc(i, s) for s in rc_bits} if not isinstance(i, int) else {}

        def key(s):
            if s in cache:
                return cache[s]
            rc = (M32 if i >> s & 1 else 0) if isinstance(i, int) else rcs.get(s, 0)
            if self.p is not None:
                q = 64 * word + s
                v = e.xor(self.p.kconst[q], self.cp[self.p.kbit[q]] if self.p.kctr[q] else 0)
            else:
                v = e.reg()
                off = 4 * self.block * s
                e.emit(f"ld.volatile.shared.u32 {v}, [{word}+{off}];")
            cache[s] = v = e.xor(v, rc)
            return v

        return key

    def rc_bits_varying(self, first_round, iters):
        """Round-constant bits that differ between iterations of the loop body's rounds."""
        bits = set()
        for j in range(self.nw):
            vals = {first_round + self.nw * it + j for it in range(iters)}
            for b in range(5):
                if len({v >> b & 1 for v in vals}) > 1:
                    bits.add(b)
        return bits

    def emit(self, name):
        e, p, nw, blk = self.e, self.p, self.nw, self.block
        decls = []
        if p is None:
            decls.append(f"\t.shared .align 4 .b8 s_kp[{4 * 64 * nw * blk}];")
        e.header(
            name,
            blk,
            [("first_batch", "u64"), ("nbatches", "u64"), ("hits", "u64"), ("nhits", "u64"), ("max_hits", "u32")],
            decls,
        )
        first, nb, hits, nhits = (e.reg("rd") for _ in range(4))
        maxh = e.reg()
        for reg, (pname, t) in zip((first, nb, hits, nhits, maxh), e.params):
            e.emit(f"ld.param.{t} {reg}, [{pname}];")
        for reg in (hits, nhits):  # device pointers are generic addresses
            e.emit(f"cvta.to.global.u64 {reg}, {reg};")
        tid, ntid, ctaid, nctaid = (e.reg() for _ in range(4))
        for reg, sreg in zip((tid, ntid, ctaid, nctaid), ("%tid.x", "%ntid.x", "%ctaid.x", "%nctaid.x")):
            e.emit(f"mov.u32 {reg}, {sreg};")
        b, stride, t64 = e.reg("rd"), e.reg("rd"), e.reg("rd")
        e.emit(f"mul.wide.u32 {b}, {ctaid}, {ntid};")
        e.emit(f"cvt.u64.u32 {t64}, {tid};")
        e.emit(f"add.u64 {b}, {b}, {t64};")
        e.emit(f"mul.wide.u32 {stride}, {nctaid}, {ntid};")
        pr = e.reg("p")
        done, top, nxt = e.label("DONE"), e.label("BATCH"), e.label("NEXT")
        e.emit(f"setp.ge.u64 {pr}, {b}, {nb};")
        e.emit(f"@{pr} bra {done};")
        if p is None:
            kbase = e.reg("rd")
            e.emit(f"mov.u64 {kbase}, s_kp;")
            tid4 = e.reg("rd")
            e.emit(f"mul.wide.u32 {tid4}, {tid}, 4;")
            e.emit(f"add.u64 {kbase}, {kbase}, {tid4};")
        e.place(top)
        batch, lo, hi = e.reg("rd"), e.reg(), e.reg()
        e.emit(f"add.u64 {batch}, {first}, {b};")
        e.emit(f"cvt.u32.u64 {lo}, {batch};")
        th = e.reg("rd")
        e.emit(f"shr.u64 {th}, {batch}, 32;")
        e.emit(f"cvt.u32.u64 {hi}, {th};")
        self.lo, self.hi, self.batch = lo, hi, batch

        def cp_reg(bit):
            r = e.reg()
            e.emit(f"bfe.s32 {r}, {lo if bit < 32 else hi}, {bit % 32}, 1;")
            return r

        if p is not None:
            used = sorted({p.kbit[q] for q in range(64 * nw) if p.kctr[q]})
            self.cp = {bit: cp_reg(bit) for bit in used}
            init, target, last = [p.init[s] for s in range(64)], [p.target[s] for s in range(64)], p.last
            state = [e.xor(init[s], self.key_fn(0, 0)(s)) for s in range(64)]
            self.rounds_static(state, target, last, nxt, hits, nhits, maxh)
        else:
            self.prepare_keys_generic(kbase)
            self.rounds_generic(kbase, nxt, hits, nhits, maxh)
        e.place(nxt)
        e.emit(f"add.u64 {b}, {b}, {stride};")
        e.emit(f"setp.lt.u64 {pr}, {b}, {nb};")
        e.emit(f"@{pr} bra {top};")
        e.place(done)
        e.emit("ret;")
        return e.text()

    # -- the specialised kernel: every round number and key word known --
    def rounds_static(self, state, target, last, nxt, hits, nhits, maxh):
        e, nw = self.e, self.nw
        if last == 0:
            self.report(match(e, state, target, range(64)), hits, nhits, maxh)
            return
        i = 1
        if last > 1:  # round 1 unrolled: its inputs are mostly constants
            e.section = "rounds"
            state = self.full_round(state, i % nw, i)
            i += 1
        iters = (last - i) // nw
        if iters >= 2:
            state = self.loop(state, i, iters)
            i += nw * iters
        e.section = "rounds"
        while i < last:
            state = self.full_round(state, i % nw, i)
            i += 1
        self.last_round(state, target, last % nw, last, nxt, hits, nhits, maxh)

    def full_round(self, st, word, i, rc_bits=range(5)):
        out = round_columns(self.e, st, self.key_fn(word, i, rc_bits))
        return [out[s] for s in range(64)]

    def loop(self, state, i0, iters):
        """Rounds i0 .. i0 + nw * iters - 1 as a loop of nw rounds (register i holds the round)."""
        e, nw = self.e, self.nw
        regs = [e.reg() for _ in range(64)]
        for r, v in zip(regs, state):
            e.mov(r, v)
        ir, cnt = e.reg(), e.reg()
        e.emit(f"mov.u32 {ir}, {i0};")
        e.emit(f"mov.u32 {cnt}, {iters};")
        head = e.label("ROUNDS")
        e.place(head)
        e.emit('.pragma "nounroll";')
        e.section = "loop"
        varying = self.rc_bits_varying(i0, iters)
        st = regs
        for j in range(nw):
            # the round constant: bits that are the same in every iteration are literals
            ij = e.reg()
            e.emit(f"add.u32 {ij}, {ir}, {j};")
            fixed = (i0 + j) & ~sum(1 << b for b in varying)
            key = self.key_fn((i0 + j) % nw, ij, sorted(varying))
            base = key

            def key_j(s, base=base, fixed=fixed):
                v = base(s)
                return e.xor(v, M32 if s < 8 and s not in varying and fixed >> s & 1 else 0)

            out = round_columns(e, st, key_j)
            st = [out[s] for s in range(64)]
        e.section = None
        e.assign(regs, st)
        pr = e.reg("p")
        e.emit(f"add.u32 {ir}, {ir}, {nw};")
        e.emit(f"sub.u32 {cnt}, {cnt}, 1;")
        e.emit(f"setp.ne.u32 {pr}, {cnt}, 0;")
        e.emit(f"@{pr} bra {head};")
        return regs

    def last_round(self, st, target, word, i, nxt, hits, nhits, maxh):
        """The last round with the early abort (i, word: ints or registers)."""
        e = self.e
        e.section = "last0"
        key = self.key_fn(word, i)
        out = round_columns(e, st, key, [0])
        m0 = match(e, out, target, COL0_SLOTS)
        pr = e.reg("p")
        e.section = None
        e.emit(f"setp.eq.u32 {pr}, {self.fmt_reg(m0)}, 0;")
        e.emit(f"@{pr} bra {nxt};")
        e.section = "last_rest"
        out.update(round_columns(e, st, key, range(1, 8)))
        m = e.and_(m0, match(e, out, target, [s for s in range(64) if s not in COL0_SLOTS]))
        e.section = None
        self.report(m, hits, nhits, maxh)

    def fmt_reg(self, v):
        if isinstance(v, int):
            r = self.e.reg()
            self.e.mov(r, v)
            return r
        return v

    def report(self, m, hits, nhits, maxh):
        """Appends (batch << 5) + lane for every set lane of m to the hit buffer."""
        e = self.e
        m = self.fmt_reg(m)
        mm, lane, one, bit, slot = e.reg(), e.reg(), e.reg(), e.reg(), e.reg()
        pr, pz = e.reg("p"), e.reg("p")
        e.emit(f"mov.b32 {mm}, {m};")
        e.emit(f"mov.b32 {one}, 1;")
        loop, end, skip = e.label("HIT"), e.label("HITS_DONE"), e.label("HIT_FULL")
        e.place(loop)
        e.emit(f"setp.eq.u32 {pz}, {mm}, 0;")
        e.emit(f"@{pz} bra {end};")
        e.emit(f"bfind.u32 {lane}, {mm};")
        e.emit(f"shl.b32 {bit}, {one}, {lane};")
        e.emit(f"xor.b32 {mm}, {mm}, {bit};")
        e.emit(f"atom.global.add.u32 {slot}, [{nhits}], 1;")
        e.emit(f"setp.ge.u32 {pr}, {slot}, {maxh};")
        e.emit(f"@{pr} bra {skip};")
        idx, l64, addr, off = e.reg("rd"), e.reg("rd"), e.reg("rd"), e.reg("rd")
        e.emit(f"shl.b64 {idx}, {self.batch}, {LANES_LOG2};")
        e.emit(f"cvt.u64.u32 {l64}, {lane};")
        e.emit(f"add.u64 {idx}, {idx}, {l64};")
        e.emit(f"mul.wide.u32 {off}, {slot}, 8;")
        e.emit(f"add.u64 {addr}, {hits}, {off};")
        e.emit(f"st.global.u64 [{addr}], {idx};")
        e.place(skip)
        e.emit(f"bra.uni {loop};")
        e.place(end)

    # -- the generic kernel: parameters from c_params --
    def prepare_keys_generic(self, kbase):
        """Key planes of this batch into the thread's shared-memory column:
        kconst[q] ^ (kctr[q] & -(batch bit kbit[q]))."""
        e, blk = self.e, self.block
        for q in range(64 * self.nw):
            kc, kt, kb, t64, t, bitv = e.reg(), e.reg(), e.reg(), e.reg("rd"), e.reg(), e.reg()
            e.emit(f"ld.const.u32 {kc}, [c_params+{OFF_KCONST + 4 * q}];")
            e.emit(f"ld.const.u32 {kt}, [c_params+{OFF_KCTR + 4 * q}];")
            e.emit(f"ld.const.u8 {kb}, [c_params+{OFF_KBIT + q}];")
            # bit kb of the 64-bit batch number as all-ones or zero
            e.emit(f"shr.u64 {t64}, {self.batch}, {kb};")
            e.emit(f"cvt.u32.u64 {t}, {t64};")
            e.emit(f"and.b32 {t}, {t}, 1;")
            e.emit(f"neg.s32 {bitv}, {t};")
            v = e.xor(kc, e.and_(kt, bitv))
            e.emit(f"st.shared.u32 [{kbase}+{4 * blk * q}], {v};")

    def rounds_generic(self, kbase, nxt, hits, nhits, maxh):
        """Round 0 .. last (c_params.last, at run time): round 0, then pairs of rounds in a loop, an
        odd round left over, then the last round with the early abort."""
        e, nw, blk = self.e, self.nw, self.block
        wsize = 4 * blk * 64

        def word_addr(i):
            """Shared-memory address of key word i mod nw (i a register)."""
            w, off, a = e.reg(), e.reg("rd"), e.reg("rd")
            e.emit(f"and.b32 {w}, {i}, {nw - 1};")
            e.emit(f"mul.wide.u32 {off}, {w}, {wsize};")
            e.emit(f"add.u64 {a}, {kbase}, {off};")
            return a

        init, target = [], []
        for s in range(64):
            r = e.reg()
            e.emit(f"ld.const.u32 {r}, [c_params+{OFF_INIT + 4 * s}];")
            init.append(r)
        k0 = self.key_fn(kbase, 0)
        st = [e.reg() for _ in range(64)]
        for s in range(64):
            e.mov(st[s], e.xor(init[s], k0(s)))
        last, i = e.reg(), e.reg()
        e.emit(f"ld.const.u32 {last}, [c_params+{OFF_LAST}];")
        for s in range(64):
            r = e.reg()
            e.emit(f"ld.const.u32 {r}, [c_params+{OFF_TARGET + 4 * s}];")
            target.append(r)
        pz, pl = e.reg("p"), e.reg("p")
        some = e.label("ROUNDS_GENERIC")
        e.emit(f"setp.ne.u32 {pz}, {last}, 0;")
        e.emit(f"@{pz} bra {some};")
        self.report(match(e, st, target, range(64)), hits, nhits, maxh)
        e.emit(f"bra.uni {nxt};")
        e.place(some)
        e.emit(f"mov.u32 {i}, 1;")
        head, tail = e.label("PAIR"), e.label("PAIRS_DONE")
        e.place(head)
        e.emit('.pragma "nounroll";')
        pend = e.reg()
        e.emit(f"add.u32 {pend}, {i}, 1;")
        e.emit(f"setp.ge.u32 {pl}, {pend}, {last};")
        e.emit(f"@{pl} bra {tail};")
        cur = st
        for j in range(2):
            ij = e.reg()
            e.emit(f"add.u32 {ij}, {i}, {j};")
            out = round_columns(e, cur, self.key_fn(word_addr(ij), ij))
            cur = [out[s] for s in range(64)]
        e.assign(st, cur)
        e.emit(f"add.u32 {i}, {i}, 2;")
        e.emit(f"bra.uni {head};")
        e.place(tail)
        podd, lastr = e.reg("p"), e.label("LAST")
        e.emit(f"setp.ge.u32 {podd}, {i}, {last};")
        e.emit(f"@{podd} bra {lastr};")
        out = round_columns(e, st, self.key_fn(word_addr(i), i))
        e.assign(st, [out[s] for s in range(64)])
        e.emit(f"add.u32 {i}, {i}, 1;")
        e.place(lastr)
        self.last_round(st, target, word_addr(i), i, nxt, hits, nhits, maxh)


def _module(bodies):
    return (
        f"//\n// nuri PIPO key search (nuri.keysearch.ptx)\n//\n.version {PTX_VERSION}\n.target {PTX_TARGET}\n"
        ".address_size 64\n\n" + "\n".join(bodies)
    )


def generic_ptx():
    """The generic search kernels (both key sizes) and the CTR kernels, as one PTX module."""
    bodies = [f".const .align 4 .b8 c_params[{PARAMS_BYTES}];\n"]
    for key_len in (16, 32):
        bodies.append(_Search(key_len).emit(KERNEL_NAMES[key_len]))
    bodies.append(f".const .align 4 .b8 c_rkp[{4 * 64 * 18}];\n")
    for key_len in (16, 32):
        bodies.append(_ctr(key_len))
    return _module(bodies)


def specialised_ptx(raw_params, key_len, block=SPECIALISED_BLOCK):
    """The search kernel specialised for one search (bytes of nuri_keysearch_gpu_params)."""
    p = Params(raw_params, key_len)
    s = _Search(key_len, p, block)
    text = _module([s.emit(KERNEL_NAMES[key_len])])
    return text, s.e.counts


def logic_ops_per_key(counts, key_len, last, p_full=None):
    """Expected logic operations (PTX, before ptxas fuses them) per candidate of a specialised
    kernel: the loop body counted once per iteration, the last round's 7 columns weighted by the
    share of batches that pass the early abort (1 - (255/256)^32)."""
    if p_full is None:
        p_full = 1 - (255 / 256) ** 32
    nw = key_len // 8
    iters = (last - 2) // nw if last > 1 else 0
    iters = iters if iters >= 2 else 0
    per_batch = (
        counts.get("rounds", 0)
        + iters * counts.get("loop", 0)
        + counts.get("last0", 0)
        + p_full * counts.get("last_rest", 0)
    )
    return per_batch / 32


# ---- PIPO-CTR with the same rounds (the throughput check; not used by the search) ----


def _ctr(key_len):
    """CTR keystream kernel: thread t encrypts the 32 counter blocks ctr0 + 32 t + lane (ctr0 a
    multiple of 32; 64-bit big-endian counters, block byte j = row X[j]) under the round-key planes
    in c_rkp (word 64 i + s: all-ones if bit s of RK_i is set), XORs them into in[] and writes
    out[]: 256 bytes per thread, little-endian words."""
    e = Emitter()
    e.header(
        CTR_NAMES[key_len],
        128,
        [("ctr0", "u64"), ("rounds", "u32"), ("nbatches", "u64"), ("src", "u64"), ("dst", "u64")],
    )
    ctr0, rounds, nb, src, dst = e.reg("rd"), e.reg(), e.reg("rd"), e.reg("rd"), e.reg("rd")
    for reg, (pname, t) in zip((ctr0, rounds, nb, src, dst), e.params):
        e.emit(f"ld.param.{t} {reg}, [{pname}];")
    for reg in (src, dst):  # device pointers are generic addresses
        e.emit(f"cvta.to.global.u64 {reg}, {reg};")
    tid, ntid, ctaid = e.reg(), e.reg(), e.reg()
    for reg, sreg in zip((tid, ntid, ctaid), ("%tid.x", "%ntid.x", "%ctaid.x")):
        e.emit(f"mov.u32 {reg}, {sreg};")
    t, t64 = e.reg("rd"), e.reg("rd")
    e.emit(f"mul.wide.u32 {t}, {ctaid}, {ntid};")
    e.emit(f"cvt.u64.u32 {t64}, {tid};")
    e.emit(f"add.u64 {t}, {t}, {t64};")
    pr = e.reg("p")
    done = e.label("DONE")
    e.emit(f"setp.ge.u64 {pr}, {t}, {nb};")
    e.emit(f"@{pr} bra {done};")
    hb, lo, hi, th = e.reg("rd"), e.reg(), e.reg(), e.reg("rd")
    e.emit(f"shr.u64 {hb}, {ctr0}, {LANES_LOG2};")
    e.emit(f"add.u64 {hb}, {hb}, {t};")
    e.emit(f"cvt.u32.u64 {lo}, {hb};")
    e.emit(f"shr.u64 {th}, {hb}, 32;")
    e.emit(f"cvt.u32.u64 {hi}, {th};")
    st = [0] * 64
    for v in range(64):  # counter value bit v is bit v % 8 of byte 7 - v / 8
        s = 8 * (7 - v // 8) + v % 8
        if v < LANES_LOG2:
            plane = sum(1 << ln for ln in range(32) if ln >> v & 1)
        else:
            bit = v - LANES_LOG2
            plane = e.reg()
            e.emit(f"bfe.s32 {plane}, {lo if bit < 32 else hi}, {bit % 32}, 1;")
        k = e.reg()
        e.emit(f"ld.const.u32 {k}, [c_rkp+{4 * s}];")
        st[s] = e.xor(plane, k)
    regs = [e.reg() for _ in range(64)]
    for r, v in zip(regs, st):
        e.mov(r, v)
    i, kaddr, off = e.reg(), e.reg("rd"), e.reg("rd")
    e.emit(f"mov.u64 {kaddr}, c_rkp;")
    e.emit(f"mov.u32 {i}, 1;")
    head, tail = e.label("ROUND"), e.label("ROUNDS_DONE")
    e.place(head)
    e.emit('.pragma "nounroll";')
    ka = e.reg("rd")
    e.emit(f"mul.wide.u32 {off}, {i}, 256;")
    e.emit(f"add.u64 {ka}, {kaddr}, {off};")
    cache = {}

    def key(s):
        if s not in cache:
            r = e.reg()
            e.emit(f"ld.const.u32 {r}, [{ka}+{4 * s}];")
            cache[s] = r
        return cache[s]

    out = round_columns(e, regs, key)
    e.assign(regs, [out[s] for s in range(64)])
    e.emit(f"add.u32 {i}, {i}, 1;")
    e.emit(f"setp.le.u32 {pr}, {i}, {rounds};")
    e.emit(f"@{pr} bra {head};")
    e.place(tail)
    # transpose each 32 x 32 bit block: word l of half h = bytes 4 h .. 4 h + 3 of block l
    for h in range(2):
        a = regs[32 * h : 32 * h + 32]
        a = [a[k] for k in range(32)]
        for j, mask in ((16, 0x0000FFFF), (8, 0x00FF00FF), (4, 0x0F0F0F0F), (2, 0x33333333), (1, 0x55555555)):
            for k in range(32):
                if k & j:
                    continue
                # swap the high j bits of a[k]'s blocks with the low of a[k + j]'s
                sh, x, tt, u = e.reg(), e.reg(), e.reg(), e.reg()
                e.emit(f"shr.b32 {sh}, {a[k]}, {j};")
                e.emit(f"xor.b32 {x}, {sh}, {a[k + j]};")
                e.emit(f"and.b32 {tt}, {x}, 0x{mask:08X};")
                e.emit(f"shl.b32 {u}, {tt}, {j};")
                a[k + j] = e.xor(a[k + j], tt)
                a[k] = e.xor(a[k], u)
        base_in, base_out, toff = e.reg("rd"), e.reg("rd"), e.reg("rd")
        e.emit(f"mul.lo.u64 {toff}, {t}, 256;")
        e.emit(f"add.u64 {base_in}, {src}, {toff};")
        e.emit(f"add.u64 {base_out}, {dst}, {toff};")
        for ln in range(32):
            w, r = e.reg(), e.reg()
            e.emit(f"ld.global.u32 {w}, [{base_in}+{8 * ln + 4 * h}];")
            e.emit(f"xor.b32 {r}, {w}, {a[ln]};")
            e.emit(f"st.global.u32 [{base_out}+{8 * ln + 4 * h}], {r};")
    e.place(done)
    e.emit("ret;")
    return e.text()
