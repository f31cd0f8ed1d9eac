/* The byte-sliced key-search engine body, written once with GCC/Clang vector extensions and
 * compiled per target (portable/ with 128-bit vectors, avx2/ with 256-bit ones, avx512/ with 512-bit
 * ones; the tests also run the 512-bit build without AVX-512, see avx512/ks_avx512.c). The includer
 * defines KS_NW (64-bit elements per vector), KS_SEARCH (the static function's name) and may define
 * KS_ANY(v) (nonzero if any bit of v is set) and KS_NS (1 or 2 states per pass, rounds interleaved;
 * state h holds the candidates whose bit LB equals h).
 *
 * Layout: vector x_j holds state byte X[j] of LANES = 8 * KS_NW candidates, one per byte lane
 * (lane l = byte l of the vector in memory order). Key plane P[b] holds key byte b of every lane.
 * Candidate bits 0..LB-1 (LB = log2 LANES) select the lane and never change: their key bits are a
 * fixed lane pattern. The higher bits are the same in every lane of a pass: the counter lives in
 * sliced form in the planes, and going to the next pass flips the key bits of the counter bits
 * that changed (two on average) in the planes, as broadcasts. Known key bits are the template
 * folded into the planes once.
 *
 * Per pass: rounds first+1..last of the plan (ks_impl.h: the shared rounds are computed once per
 * call), then an early abort: the last round's row X[0] needs 10 of its 77 operations (S5_1
 * to x7, S3, extend, key) and must match one target byte in some lane (1 - (255/256)^LANES of the
 * passes: 6% of 16-lane passes, 12% of 32-lane ones, 22% of 2 x 32); only those passes finish
 * the round and compare all 8 rows. */
#include "ks_impl.h"

typedef uint64_t vw __attribute__((vector_size(8 * KS_NW)));
typedef signed char vb __attribute__((vector_size(8 * KS_NW)));
#define LANES (8 * KS_NW)
#ifndef KS_NS
#define KS_NS 1
#endif
#define BC(b)    ((vw){0} + (uint64_t)(0x0101010101010101ULL * (uint8_t)(b))) /* byte b in every lane */
#define EQ(a, b) ((vw)((vb)(a) == (vb)(b)))                                   /* 0xFF where bytes equal */

#ifndef KS_ANY
/* by pointer: a 512-bit vector argument would change the ABI where AVX-512 is off (-Wpsabi) */
static inline int ks_any(const vw *v)
{
    uint64_t r = 0;
    for (int e = 0; e < KS_NW; e++) r |= (*v)[e];
    return r != 0;
}
#define KS_ANY(v) ks_any(&(v))
#endif

/* every byte rotated left by r (1..7) */
#define ROTL(x, r)                                                        \
    ((((x) << (r)) & (0x0101010101010101ULL * ((0xFFu << (r)) & 0xFF))) | \
     (((x) >> (8 - (r))) & (0x0101010101010101ULL * ((1u << (r)) - 1))))

/* S-layer (spec §1 gates) on x0..x7; outputs y0..y7 */
#define SLAYER(x, y)         \
    do {                     \
        vw t0_, t1_, t2_;    \
        x##5 ^= x##7 & x##6; \
        x##4 ^= x##3 & x##5; \
        x##7 ^= x##4;        \
        x##6 ^= x##3;        \
        x##3 ^= x##4 | x##5; \
        x##5 ^= x##7;        \
        x##4 ^= x##5 & x##6; \
        x##2 ^= x##1 & x##0; \
        x##0 ^= x##2 | x##1; \
        x##1 ^= x##2 | x##0; \
        x##2 = ~x##2;        \
        x##7 ^= x##1;        \
        x##3 ^= x##2;        \
        x##4 ^= x##0;        \
        t0_ = x##7;          \
        t1_ = x##3;          \
        t2_ = x##4;          \
        x##6 ^= t0_ & x##5;  \
        t0_ ^= x##6;         \
        x##6 ^= t2_ | t1_;   \
        t1_ ^= x##5;         \
        x##5 ^= x##6 | t2_;  \
        t2_ ^= t1_ & t0_;    \
        x##2 ^= t0_;         \
        y##7 = x##1 ^ t2_;   \
        y##6 = x##3;         \
        y##5 = x##4;         \
        y##4 = x##5;         \
        y##3 = x##6;         \
        y##2 = x##2;         \
        y##1 = x##0 ^ t1_;   \
        y##0 = x##7;         \
    } while (0)

/* one round: S-layer, R-layer (rotations 0,7,4,3,6,5,1,2), round key planes K[0..7] */
#define ROUND(x, K, rc)                    \
    do {                                   \
        vw y0, y1, y2, y3, y4, y5, y6, y7; \
        SLAYER(x, y);                      \
        x##0 = y0 ^ (K)[0] ^ (rc);         \
        x##1 = ROTL(y1, 7) ^ (K)[1];       \
        x##2 = ROTL(y2, 4) ^ (K)[2];       \
        x##3 = ROTL(y3, 3) ^ (K)[3];       \
        x##4 = ROTL(y4, 6) ^ (K)[4];       \
        x##5 = ROTL(y5, 5) ^ (K)[5];       \
        x##6 = ROTL(y6, 1) ^ (K)[6];       \
        x##7 = ROTL(y7, 2) ^ (K)[7];       \
    } while (0)

static size_t KS_SEARCH(const ks_plan *p, uint64_t start, uint64_t count, uint64_t *hits, size_t max_hits,
                        uint64_t *done)
{
    /* NS states per pass, rounds interleaved (independent work for out-of-order cores); state h
     * holds candidates base + h * LANES + lane, so it differs from state 0 in candidate bit LB. */
    enum { LB = __builtin_ctz(LANES), STEP = LANES * KS_NS, SB = __builtin_ctz(STEP) };
    const unsigned nb = p->key_len, lane_bits = p->k < LB ? p->k : LB;
    vw P[KS_NS][NURI_KEYSEARCH_MAX_KEY_BYTES];
    uint8_t cur[NURI_KEYSEARCH_MAX_KEY_BYTES], pat[NURI_KEYSEARCH_MAX_KEY_BYTES][LANES];
    memset(pat, 0, sizeof pat);
    for (unsigned l = 0; l < LANES; l++)
        for (unsigned b = 0; b < lane_bits; b++)
            if (l >> b & 1) pat[p->pos[b] >> 3][l] |= (uint8_t)(1u << (p->pos[b] & 7));
    uint64_t base = start & ~(uint64_t)(STEP - 1), last_idx = start + (count - 1);
    nuri_ks_plan_key(p, base, cur); /* base < 2^k and its lane bits are 0 */
    for (unsigned b = 0; b < nb; b++) {
        vw v;
        memcpy(&v, pat[b], sizeof v);
        for (unsigned h = 0; h < KS_NS; h++) P[h][b] = v ^ BC(cur[b]);
    }
    for (unsigned h = 1; h < KS_NS; h++) /* candidate bits LB.. of h */
        for (unsigned b = LB; b < SB && b < p->k; b++)
            if (h >> (b - LB) & 1) P[h][p->pos[b] >> 3] ^= BC(1u << (p->pos[b] & 7));
    const unsigned first = p->first, last = p->last, nw = p->nwords;
    const vw *RK[KS_NS][NURI_PIPO_MAX_ROUNDS + 1]; /* round i's key planes (no division in the loop) */
    vw RC[NURI_PIPO_MAX_ROUNDS + 1];               /* round constant i in every lane */
    for (unsigned i = 0; i <= p->rounds; i++) {
        for (unsigned h = 0; h < KS_NS; h++) RK[h][i] = P[h] + 8 * (i % nw);
        RC[i] = BC(i);
    }
    size_t nh = 0;
    *done = count;
    for (;;) {
        vw eq[KS_NS];
#define INIT(x, K)                                                                                                 \
    vw x##0 = BC(p->init[0]) ^ (K)[0] ^ RC[first], x##1 = BC(p->init[1]) ^ (K)[1], x##2 = BC(p->init[2]) ^ (K)[2], \
       x##3 = BC(p->init[3]) ^ (K)[3], x##4 = BC(p->init[4]) ^ (K)[4], x##5 = BC(p->init[5]) ^ (K)[5],             \
       x##6 = BC(p->init[6]) ^ (K)[6], x##7 = BC(p->init[7]) ^ (K)[7]
/* early abort: row X[0] of the last round (y0 = x7 after S5_1, S3 and extend) matches somewhere */
#define ROW0_EQ(x, K)                                                                                        \
    EQ(x##7 ^ (x##4 ^ (x##3 & (x##5 ^ (x##7 & x##6)))) ^                                                     \
           (x##1 ^ ((x##2 ^ (x##1 & x##0)) | (x##0 ^ ((x##2 ^ (x##1 & x##0)) | x##1)))) ^ (K)[0] ^ RC[last], \
       BC(p->target[0]))
#define MATCH(x)                                                                                                       \
    EQ((x##0 ^ BC(p->target[0])) | (x##1 ^ BC(p->target[1])) | (x##2 ^ BC(p->target[2])) | (x##3 ^ BC(p->target[3])) | \
           (x##4 ^ BC(p->target[4])) | (x##5 ^ BC(p->target[5])) | (x##6 ^ BC(p->target[6])) |                         \
           (x##7 ^ BC(p->target[7])),                                                                                  \
       (vw){0})
        INIT(x, RK[0][first]);
#if KS_NS == 2
        INIT(z, RK[1][first]);
#endif
        for (unsigned i = first + 1; i < last; i++) {
            ROUND(x, RK[0][i], RC[i]);
#if KS_NS == 2
            ROUND(z, RK[1][i], RC[i]);
#endif
        }
        int candidate = 1;
        if (last > first) {
            vw any = ROW0_EQ(x, RK[0][last]);
#if KS_NS == 2
            any |= ROW0_EQ(z, RK[1][last]);
#endif
            candidate = KS_ANY(any);
            if (candidate) {
                ROUND(x, RK[0][last], RC[last]);
#if KS_NS == 2
                ROUND(z, RK[1][last], RC[last]);
#endif
            }
        }
        if (candidate) {
            eq[0] = MATCH(x);
#if KS_NS == 2
            eq[1] = MATCH(z);
#endif
            for (unsigned h = 0; h < KS_NS; h++) {
                if (!KS_ANY(eq[h])) continue;
                uint8_t m[LANES];
                memcpy(m, &eq[h], sizeof m);
                for (unsigned l = 0; l < LANES; l++) {
                    uint64_t idx = base + h * LANES + l;
                    if (!m[l] || idx < start || idx > last_idx) continue;
                    hits[nh++] = idx;
                    if (nh == max_hits) {
                        *done = idx - start + 1;
                        goto out;
                    }
                }
            }
        }
#undef INIT
#undef ROW0_EQ
#undef MATCH
        if (last_idx - base < STEP) break;
        uint64_t next = base + STEP, diff = (base ^ next) >> SB;
        while (diff) { /* the counter, in sliced form: flip the changed candidate bits */
            unsigned b = (unsigned)__builtin_ctzll(diff) + SB;
            diff &= diff - 1;
            for (unsigned h = 0; h < KS_NS; h++) P[h][p->pos[b] >> 3] ^= BC(1u << (p->pos[b] & 7));
        }
        base = next;
    }
out:
    nuri_wipe(P, sizeof P);
    nuri_wipe(cur, sizeof cur);
    return nh;
}
