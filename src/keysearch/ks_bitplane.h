/* PIPO key search in the bit-plane layout, as plain C: the parameters of the GPU kernels
 * (bp_params, filled by bp_prepare: libnuri's nuri_keysearch_gpu_params) and a C model of the
 * search they run, one batch of 32 candidates per call. The kernels themselves are PTX written by
 * python/nuri/keysearch/ptx.py from the same layout; tests/keysearch/test_bitplane.c checks this
 * model against the CPU engines, and the Python tests run the emitted PTX itself (fake driver).
 *
 * Layout: a 32-bit word holds one bit of 32 candidates. State plane s = 8 j + b is bit b of row
 * X[j]; key plane q = 8 B + b is bit b of key byte B, so round key RK_i uses planes
 * 64 (i mod w) + s. The S-layer is the bitsliced S-box on the 8 planes of each column, written as
 * 27 three-input operations with its round-key XORs. The R-layer costs nothing: a column's
 * outputs are written to their rotated slots. Candidate bits 0..4 select the lane (fixed lane
 * patterns); the higher bits are the batch number, the counter, turned into all-ones/zero planes
 * (bitsliced form); known key bits are the template's constant planes (bp_params). Early abort:
 * column 0 of the last round gives 8 ciphertext bits; the other 7 columns run only if some lane
 * matches them (12% of batches). first/last are the rounds all candidates share (ks_impl.h); FIRST0
 * = 1 (the GPU kernels' case) fixes first = 0 (the plan is prepared with first = 0 and init =
 * plaintext). */
#ifndef NURI_KS_BITPLANE_H
#define NURI_KS_BITPLANE_H

#include <stdint.h>

#define BP_FN static inline
#define BP_UNROLL

typedef uint32_t bp_w;
#define BP_LB    5
#define BP_LANES 32u

/* f(a, b, c), one LOP3 on a GPU (imm: its truth table with a = F0, b = CC, c = AA) */
#define BP_LOP3(a, b, c, imm, expr) (expr)
#define BP_KEY(rk, i)               ((rk)[i])
#define XAND(a, b, c)               BP_LOP3(a, b, c, 0x78, (a) ^ ((b) & (c))) /* a ^ (b & c) */
#define XOR_OR(a, b, c)             BP_LOP3(a, b, c, 0x1E, (a) ^ ((b) | (c))) /* a ^ (b | c) */
#define X2(a, b)                    BP_LOP3(a, b, b, 0x3C, (a) ^ (b))
#define XN2(a, b)                   BP_LOP3(a, b, b, 0xC3, ~((a) ^ (b)))
#define X3(a, b, c)                 BP_LOP3(a, b, c, 0x96, (a) ^ (b) ^ (c))
#define XN3(a, b, c)                BP_LOP3(a, b, c, 0x69, ~((a) ^ (b) ^ (c)))

/* What every batch of a search shares, prepared on the host by bp_prepare. */
typedef struct bp_params {
    uint32_t first, last;
    bp_w init[64], target[64]; /* shared-round states as planes (all-ones or zero) */
    bp_w kconst[256];          /* key planes: template bits and the lane patterns of candidate bits 0..4 */
    bp_w kctr[256];            /* all-ones where the plane is a counter bit */
    uint8_t kbit[256];         /* which batch-number bit that is */
} bp_params;

/* From a search plan: nwords key words, shared rounds first..last with their states, the
 * template (unknown bits cleared) and the k candidate bit positions pos[] (8 * byte + bit). */
BP_FN void bp_prepare(bp_params *p, unsigned nwords, unsigned first, unsigned last, const uint8_t *init,
                      const uint8_t *target, const uint8_t *key, const uint16_t *pos, unsigned k)
{
    p->first = first;
    p->last = last;
    for (unsigned s = 0; s < 64; s++) {
        p->init[s] = (init[s >> 3] >> (s & 7) & 1) ? ~0u : 0u;
        p->target[s] = (target[s >> 3] >> (s & 7) & 1) ? ~0u : 0u;
    }
    for (unsigned q = 0; q < 256; q++) {
        p->kconst[q] = q < 64 * nwords && (key[q >> 3] >> (q & 7) & 1) ? ~0u : 0u;
        p->kctr[q] = 0;
        p->kbit[q] = 0;
    }
    for (unsigned b = 0; b < k; b++) {
        if (b < BP_LB) {
            bp_w pat = 0;
            for (unsigned l = 0; l < BP_LANES; l++) pat |= (bp_w)(l >> b & 1) << l;
            p->kconst[pos[b]] ^= pat;
        } else {
            p->kctr[pos[b]] = ~0u;
            p->kbit[pos[b]] = (uint8_t)(b - BP_LB);
        }
    }
}

/* Column c of round i: S-box of st's column c (spec §1 gates, fused into 3-input operations),
 * outputs XORed with the round key and written to their R-layer slots in nx. */
BP_FN void bp_column(const bp_w *st, bp_w *nx, const bp_w *rk, const unsigned KS, unsigned i, unsigned c)
{
    bp_w x0 = st[c], x1 = st[8 + c], x2 = st[16 + c], x3 = st[24 + c], x4 = st[32 + c], x5 = st[40 + c],
         x6 = st[48 + c], x7 = st[56 + c], t0, t1, t2;
    x5 = XAND(x5, x7, x6);
    x4 = XAND(x4, x3, x5);
    x7 = X2(x7, x4);
    x6 = X2(x6, x3);
    x3 = XOR_OR(x3, x4, x5);
    x5 = X2(x5, x7);
    x4 = XAND(x4, x5, x6);
    x2 = XAND(x2, x1, x0);
    x0 = XOR_OR(x0, x2, x1);
    x1 = XOR_OR(x1, x2, x0); /* x2 = ~x2 folded below */
    x7 = X2(x7, x1);
    x3 = XN2(x3, x2);
    x4 = X2(x4, x0);
    t0 = x7;
    t1 = x3;
    t2 = x4;
    x6 = XAND(x6, t0, x5);
    t0 = X2(t0, x6);
    x6 = XOR_OR(x6, t2, t1);
    t1 = X2(t1, x5);
    x5 = XOR_OR(x5, x6, t2);
    t2 = XAND(t2, t1, t0);
    /* y7 = x1^t2, y6 = x3, y5 = x4, y4 = x5, y3 = x6, y2 = ~x2^t0, y1 = x0^t1, y0 = x7; row j goes to
     * bit (c + R[j]) & 7 with R = (0,7,4,3,6,5,1,2); the round constant i flips row 0's bits */
#define S_(j, r) (8 * (j) + ((c + (r)) & 7))
    unsigned s0 = S_(0, 0);
    nx[s0] = (i >> c & 1) ? XN2(x7, BP_KEY(rk, (s0)*KS)) : X2(x7, BP_KEY(rk, (s0)*KS));
    nx[S_(1, 7)] = X3(x0, t1, BP_KEY(rk, (S_(1, 7)) * KS));
    nx[S_(2, 4)] = XN3(x2, t0, BP_KEY(rk, (S_(2, 4)) * KS));
    nx[S_(3, 3)] = X2(x6, BP_KEY(rk, (S_(3, 3)) * KS));
    nx[S_(4, 6)] = X2(x5, BP_KEY(rk, (S_(4, 6)) * KS));
    nx[S_(5, 5)] = X2(x4, BP_KEY(rk, (S_(5, 5)) * KS));
    nx[S_(6, 1)] = X2(x3, BP_KEY(rk, (S_(6, 1)) * KS));
    nx[S_(7, 2)] = X3(x1, t2, BP_KEY(rk, (S_(7, 2)) * KS));
#undef S_
}

/* lanes (bit l = candidate 32 * batch + l) among 8 planes of column 0 of the last round that
 * match the target */
BP_FN bp_w bp_match_col0(const bp_params *p, const bp_w *nx)
{
    const unsigned R[8] = {0, 7, 4, 3, 6, 5, 1, 2};
    bp_w m = ~0u;
    BP_UNROLL
    for (unsigned j = 0; j < 8; j++) m &= ~(nx[8 * j + R[j]] ^ p->target[8 * j + R[j]]);
    return m;
}

/* Key planes of batch `batch` (candidates 32 * batch + lane): the template's constant planes with
 * the batch number's bits applied (the counter in bitsliced form). kp[q * KS] for q < 64 NW. */
BP_FN void bp_key_planes(const bp_params *p, uint64_t batch, bp_w *kp, const unsigned NW, const unsigned KS)
{
    BP_UNROLL
    for (unsigned q = 0; q < 64 * NW; q++)
        kp[q * KS] = p->kconst[q] ^ (p->kctr[q] & (0u - (bp_w)(batch >> p->kbit[q] & 1)));
}

/* Searches one batch with key planes kp (stride KS words: 1 on the CPU, the block size for a
 * thread's column of GPU shared memory). NW key words (2 or 4), RMAX rounds (13 or 17) and KS are
 * compile-time constants at the call site. Returns the lanes whose state after round `last` equals
 * the target, i.e. the candidates that map the first pair. */
BP_FN bp_w bp_search_batch(const bp_params *p, const bp_w *kp, const unsigned NW, const unsigned RMAX,
                           const unsigned KS, const int FIRST0)
{
    bp_w a[64], b[64];
    const unsigned first = FIRST0 ? 0 : p->first, last = p->last;
    BP_UNROLL
    for (unsigned s = 0; s < 64; s++) { /* state after round `first`; odd rounds read a, even ones b */
        bp_w v = p->init[s] ^ kp[(64 * (first % NW) + s) * KS];
        if (s < 8 && (first >> s & 1)) v = ~v;
        a[s] = v;
        if (!FIRST0) b[s] = v;
    }
    if (last == first) {
        bp_w m = ~0u;
        BP_UNROLL
        for (unsigned s = 0; s < 64; s++) m &= ~(a[s] ^ p->target[s]);
        return m;
    }
    BP_UNROLL
    for (unsigned i = 1; i <= RMAX; i++) {
        if (i <= first) continue;
        bp_w *st = (i & 1) ? a : b, *nx = (i & 1) ? b : a;
        const bp_w *rk = kp + 64 * (i % NW) * KS;
        bp_column(st, nx, rk, KS, i, 0);
        if (i == last && !bp_match_col0(p, nx)) return 0; /* early abort */
        BP_UNROLL
        for (unsigned c = 1; c < 8; c++) bp_column(st, nx, rk, KS, i, c);
        if (i == last) {
            bp_w m = ~0u;
            BP_UNROLL
            for (unsigned s = 0; s < 64; s++) m &= ~(nx[s] ^ p->target[s]);
            return m;
        }
    }
    return 0;
}


/* ---- PIPO-CTR keystream with the same bit-plane rounds (bulk encryption, 32 blocks per call) ----
 * Round-key planes are uniform words: rkp[64 i + 8 j + b] = all-ones if bit b of byte j of RK_i is
 * set (RK_i as in nuri_pipo_key_init, round constants included). Counter block of lane l: the
 * 64-bit big-endian value ctr0 + l (mod 2^64), byte i = state row X[i]. */
BP_FN void bp_round_key_planes(const uint64_t *rk, unsigned rounds, bp_w *rkp)
{
    for (unsigned i = 0; i <= rounds; i++)
        for (unsigned s = 0; s < 64; s++) rkp[64 * i + s] = (rk[i] >> s & 1) ? ~0u : 0u;
}

/* out[8 l + j] = in[8 l + j] ^ byte j of E(counter block ctr0 + l), l < 32 (in NULL: the keystream).
 * RMAX (13 or 17) compile-time. */
BP_FN void bp_ctr_keystream(const bp_w *rkp, unsigned rounds, uint64_t ctr0, const uint8_t *in, uint8_t *out,
                            const unsigned RMAX)
{
    bp_w a[64], b[64];
    /* counter planes: lanes below `wrap` hold hi * 32 + lo + l, the others (hi + 1) * 32 + lo + l - 32 */
    uint64_t hi = ctr0 >> BP_LB;
    unsigned lo = (unsigned)(ctr0 & (BP_LANES - 1));
    bp_w wrap_lanes = lo ? ~0u << (BP_LANES - lo) : 0u;
    BP_UNROLL
    for (unsigned v = 0; v < 64; v++) { /* value bit v = bit (v & 7) of byte 7 - v / 8 */
        bp_w plane = 0;
        if (v < BP_LB) {
            for (unsigned l = 0; l < BP_LANES; l++) plane |= (bp_w)(((lo + l) >> v) & 1) << l;
        } else {
            bp_w lo_hi = (hi >> (v - BP_LB) & 1) ? ~0u : 0u, hi_hi = ((hi + 1) >> (v - BP_LB) & 1) ? ~0u : 0u;
            plane = (lo_hi & ~wrap_lanes) | (hi_hi & wrap_lanes);
        }
        unsigned s = 8 * (7 - v / 8) + (v & 7);
        a[s] = plane ^ rkp[s];
    }
    BP_UNROLL
    for (unsigned i = 1; i <= RMAX; i++) {
        bp_w *st = (i & 1) ? a : b, *nx = (i & 1) ? b : a;
        BP_UNROLL
        for (unsigned c = 0; c < 8; c++) bp_column(st, nx, rkp + 64 * i, 1, 0, c); /* constants are in rkp */
        if (i == rounds) {
            BP_UNROLL
            for (unsigned l = 0; l < BP_LANES; l++) BP_UNROLL
            for (unsigned j = 0; j < 8; j++) {
                unsigned byte = 0;
                BP_UNROLL
                for (unsigned bit = 0; bit < 8; bit++) byte |= (unsigned)(nx[8 * j + bit] >> l & 1) << bit;
                out[8 * l + j] = (uint8_t)((in ? in[8 * l + j] : 0) ^ byte);
            }
            return;
        }
    }
}

#endif
