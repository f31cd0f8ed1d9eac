/* ML-KEM kernels in AVX2 ("avx2"): sixteen 16-bit coefficients per ymm register.
 *  - Montgomery products by constants in the mulhi form (hi(a*b) - hi(lo(a*b*q^-1) * q)), the same
 *    arithmetic as opt, so every kernel's output equals opt's (tests compare each one with ref);
 *  - NTT / inverse NTT: layers len >= 16 between whole registers; the last three layers inside
 *    a register pair after 128-, 64- and 32-bit shuffles, which are undone before storing, so
 *    the NTT domain keeps FIPS 203's coefficient order (no conversion at the packing boundary);
 *  - base multiplication with vpmaddwd over the (2i, 2i+1) pairs, 32-bit sums of k products,
 *    one Montgomery reduction at the end;
 *  - CBD with in-register nibble tables (vpshufb) for eta = 2 and 3-bit slice sums for eta = 3;
 *  - matrix expansion and noise through the four-way AVX2 Keccak (src/common/keccakx4_avx2.c);
 *    rejection sampling with a shuffle table indexed by the acceptance mask (the XOF output
 *    comes from rho, which is public).
 * Twiddle layouts and tables come from scripts/gen_mlkem_avx2_tables.py (tables_avx2.h).
 * No secret-dependent branches or memory indices. Compiled with -mavx2 only. */
#include <immintrin.h>

#include "../mlkem_impl.h"
#include "../zetas.h"
#include "keccak_job.h"
#include "tables_avx2.h"

#define V             __m256i
#define LOAD(p)       _mm256_load_si256((const V *)(p))
#define STORE(p, v)   _mm256_store_si256((V *)(p), (v))
#define STORE_U(p, v) _mm256_storeu_si256((V *)(p), (v))

static inline V qv(void) { return _mm256_set1_epi16(MLKEM_Q); }

/* a * b * R^-1 mod q with bq = b * q^-1 mod 2^16; |result| < q for |b| <= q/2. */
static inline V mulq(V a, V b, V bq)
{
    V hi = _mm256_mulhi_epi16(a, b);
    V lo = _mm256_mullo_epi16(a, bq);
    return _mm256_sub_epi16(hi, _mm256_mulhi_epi16(lo, qv()));
}

/* a - round(a * 20159 / 2^26) * q, |result| <= q/2 + 1 for any int16 a. */
static inline V barrett(V a)
{
    V t = _mm256_mulhi_epi16(a, _mm256_set1_epi16(20159));
    t = _mm256_srai_epi16(_mm256_add_epi16(t, _mm256_set1_epi16(512)), 10);
    return _mm256_sub_epi16(a, _mm256_mullo_epi16(t, qv()));
}

/* Cooley-Tukey (forward) and Gentleman-Sande (inverse) butterflies. */
#define CT(a, b, z, zq)                  \
    do {                                 \
        V t_ = mulq((b), (z), (zq));     \
        (b) = _mm256_sub_epi16((a), t_); \
        (a) = _mm256_add_epi16((a), t_); \
    } while (0)
#define GS(a, b, z, zq)                                   \
    do {                                                  \
        V t_ = (a);                                       \
        (a) = _mm256_add_epi16(t_, (b));                  \
        (b) = mulq(_mm256_sub_epi16((b), t_), (z), (zq)); \
    } while (0)

/* The in-register shuffles. x, y: two registers of consecutive coefficients.
 * X/Y pair the 8-coefficient halves (len 8), A/B the 4-coefficient quarters (len 4), P/Q the
 * 2-coefficient pairs (len 2); each step is its own inverse's mirror (see the _inv forms). */
static inline void split128(V *X, V *Y, V x, V y)
{
    *X = _mm256_permute2x128_si256(x, y, 0x20);
    *Y = _mm256_permute2x128_si256(x, y, 0x31);
}
static inline void split64(V *A, V *B, V X, V Y)
{
    *A = _mm256_unpacklo_epi64(X, Y);
    *B = _mm256_unpackhi_epi64(X, Y);
}
static inline void split32(V *P, V *Q, V A, V B)
{
    *P = _mm256_blend_epi32(A, _mm256_slli_epi64(B, 32), 0xAA);
    *Q = _mm256_blend_epi32(_mm256_srli_epi64(A, 32), B, 0xAA);
}
static inline void join32(V *A, V *B, V P, V Q)
{
    *A = _mm256_blend_epi32(P, _mm256_slli_epi64(Q, 32), 0xAA);
    *B = _mm256_blend_epi32(_mm256_srli_epi64(P, 32), Q, 0xAA);
}

static inline V zeta(unsigned i) { return _mm256_set1_epi16(ZETAS[i]); }
static inline V zeta_q(unsigned i) { return _mm256_set1_epi16(ZETAS_QINV[i]); }

/* Forward: layer len 128 between the halves, then each half (8 registers, kept in registers)
 * through layers 64, 32, 16 and the three in-register layers of its four register pairs. No
 * reductions until the end: |x| < 8q after the 7 layers, then one Barrett pass (as opt). */
static void avx2_ntt(mlk_poly *p)
{
    for (int j = 0; j < 8; j++) {
        V a = LOAD(p->c + 16 * j), b = LOAD(p->c + 16 * j + 128);
        CT(a, b, zeta(1), zeta_q(1));
        STORE(p->c + 16 * j, a);
        STORE(p->c + 16 * j + 128, b);
    }
    for (unsigned h = 0; h < 2; h++) {
        int16_t *c = p->c + 128 * h;
        V v[8];
        for (int i = 0; i < 8; i++) v[i] = LOAD(c + 16 * i);
        for (int j = 0; j < 4; j++) CT(v[j], v[j + 4], zeta(2 + h), zeta_q(2 + h)); /* len 64 */
        for (int j = 0; j < 2; j++) {                                               /* len 32 */
            CT(v[j], v[j + 2], zeta(4 + 2 * h), zeta_q(4 + 2 * h));
            CT(v[j + 4], v[j + 6], zeta(5 + 2 * h), zeta_q(5 + 2 * h));
        }
        for (unsigned t = 0; t < 4; t++) CT(v[2 * t], v[2 * t + 1], zeta(8 + 4 * h + t), zeta_q(8 + 4 * h + t));
        for (unsigned t = 0; t < 4; t++) { /* len 8, 4, 2 in register pair m */
            const unsigned m = 4 * h + t;
            V X, Y, A, B, P, Q;
            split128(&X, &Y, v[2 * t], v[2 * t + 1]);
            CT(X, Y, LOAD(NTT_L8[m]), LOAD(NTT_L8_QINV[m]));
            split64(&A, &B, X, Y);
            CT(A, B, LOAD(NTT_L4[m]), LOAD(NTT_L4_QINV[m]));
            split32(&P, &Q, A, B);
            CT(P, Q, LOAD(NTT_L2[m]), LOAD(NTT_L2_QINV[m]));
            join32(&A, &B, P, Q);
            split64(&X, &Y, A, B); /* unpacklo/hi of A, B restores X, Y */
            split128(&A, &B, X, Y);
            STORE(c + 32 * t, barrett(A));
            STORE(c + 32 * t + 16, barrett(B));
        }
    }
}

/* Inverse: each half through the in-register layers (2, 4, 8) of its register pairs and layers
 * 16, 32, 64 in registers, then layer 128 between the halves with the final scaling. Barrett
 * reductions after len 8 and len 64, as opt. */
static void avx2_invntt(mlk_poly *p)
{
    for (unsigned h = 0; h < 2; h++) {
        int16_t *c = p->c + 128 * h;
        V v[8];
        for (unsigned t = 0; t < 4; t++) {
            const unsigned m = 4 * h + t;
            V X, Y, A, B, P, Q;
            split128(&X, &Y, LOAD(c + 32 * t), LOAD(c + 32 * t + 16));
            split64(&A, &B, X, Y);
            split32(&P, &Q, A, B);
            GS(P, Q, LOAD(INV_L2[m]), LOAD(INV_L2_QINV[m]));
            join32(&A, &B, P, Q);
            GS(A, B, LOAD(INV_L4[m]), LOAD(INV_L4_QINV[m]));
            split64(&X, &Y, A, B);
            GS(X, Y, LOAD(INV_L8[m]), LOAD(INV_L8_QINV[m]));
            X = barrett(X);
            split128(&v[2 * t], &v[2 * t + 1], X, Y);
        }
        for (unsigned t = 0; t < 4; t++) GS(v[2 * t], v[2 * t + 1], zeta(15 - 4 * h - t), zeta_q(15 - 4 * h - t));
        for (int j = 0; j < 2; j++) { /* len 32 */
            GS(v[j], v[j + 2], zeta(7 - 2 * h), zeta_q(7 - 2 * h));
            GS(v[j + 4], v[j + 6], zeta(6 - 2 * h), zeta_q(6 - 2 * h));
        }
        for (int j = 0; j < 4; j++) { /* len 64 */
            GS(v[j], v[j + 4], zeta(3 - h), zeta_q(3 - h));
            v[j] = barrett(v[j]);
        }
        for (int i = 0; i < 8; i++) STORE(c + 16 * i, v[i]);
    }
    const V f = _mm256_set1_epi16(1441), fq = _mm256_set1_epi16(-10079); /* R^2 / 128 */
    for (int j = 0; j < 8; j++) {
        V a = LOAD(p->c + 16 * j), b = LOAD(p->c + 16 * j + 128);
        GS(a, b, zeta(1), zeta_q(1));
        STORE(p->c + 16 * j, mulq(a, f, fq));
        STORE(p->c + 16 * j + 128, mulq(b, f, fq));
    }
}

/* The cache keeps b[2p+1] * gamma_p for the 8 pairs of each 16-coefficient chunk; chunks 2c and
 * 2c+1 share one register (vpackssdw order), unpacked again by basemul_acc. */
static void avx2_mulcache(mlk_mulcache *c, const mlk_poly *b)
{
    for (int i = 0; i < 8; i++) {
        V x0 = mulq(LOAD(b->c + 32 * i), LOAD(GAMMA[2 * i]), LOAD(GAMMA_QINV[2 * i]));
        V x1 = mulq(LOAD(b->c + 32 * i + 16), LOAD(GAMMA[2 * i + 1]), LOAD(GAMMA_QINV[2 * i + 1]));
        STORE(c->c + 16 * i, _mm256_packs_epi32(_mm256_srai_epi32(x0, 16), _mm256_srai_epi32(x1, 16)));
    }
}

/* (c0, c1) 32-bit sums for pairs -> interleaved Montgomery reductions (a - lo(a)q^-1 q) / 2^16. */
static inline V mont_pairs(V c0, V c1)
{
    V lo = _mm256_blend_epi16(c0, _mm256_slli_epi32(c1, 16), 0xAA);
    V hi = _mm256_blend_epi16(_mm256_srli_epi32(c0, 16), c1, 0xAA);
    V t = _mm256_mullo_epi16(lo, _mm256_set1_epi16(-3327));
    return _mm256_sub_epi16(hi, _mm256_mulhi_epi16(t, qv()));
}

static void avx2_basemul_acc(mlk_poly *r, const mlk_poly *a, const mlk_poly *b, const mlk_mulcache *bc, unsigned k)
{
    const V swap = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10,
                                    11, 8, 9, 14, 15, 12, 13);
    for (int i = 0; i < 16; i++) {
        V c0 = _mm256_setzero_si256(), c1 = _mm256_setzero_si256();
        for (unsigned l = 0; l < k; l++) {
            V av = LOAD(a[l].c + 16 * i), bv = LOAD(b[l].c + 16 * i);
            V cv = LOAD(bc[l].c + 16 * (i >> 1));
            V g = (i & 1) ? _mm256_unpackhi_epi16(cv, cv) : _mm256_unpacklo_epi16(cv, cv);
            c0 = _mm256_add_epi32(c0, _mm256_madd_epi16(av, _mm256_blend_epi16(bv, g, 0xAA))); /* a0b0 + a1b1g */
            c1 = _mm256_add_epi32(c1, _mm256_madd_epi16(av, _mm256_shuffle_epi8(bv, swap)));   /* a0b1 + a1b0 */
        }
        STORE(r->c + 16 * i, mont_pairs(c0, c1));
    }
}

static void avx2_tomont(mlk_poly *r)
{
    const V f = _mm256_set1_epi16(1353), fq = _mm256_set1_epi16(20553); /* R^2 */
    for (int i = 0; i < 16; i++) STORE(r->c + 16 * i, mulq(LOAD(r->c + 16 * i), f, fq));
}

static void avx2_reduce(mlk_poly *r)
{
    for (int i = 0; i < 16; i++) {
        V x = barrett(LOAD(r->c + 16 * i));
        STORE(r->c + 16 * i, _mm256_add_epi16(x, _mm256_and_si256(_mm256_srai_epi16(x, 15), qv())));
    }
}

/* ---- packing ---- */

/* 24 bytes at p -> sixteen 12-bit values (lane i from bytes 3i/2, 3i/2 + 1). Reads 32 bytes from
 * p - back, where back = 0, or 8 for the last group of a buffer (so nothing past its end is read). */
static inline V unpack12(const uint8_t *p, int last)
{
    const V idx = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, 4, 5, 5, 6, 7, 8, 8, 9, 10, 11,
                                   11, 12, 13, 14, 14, 15);
    V x = last ? _mm256_permute4x64_epi64(_mm256_loadu_si256((const V *)(p - 8)), 0xE9)
               : _mm256_permute4x64_epi64(_mm256_loadu_si256((const V *)p), 0x94);
    x = _mm256_shuffle_epi8(x, idx);
    return _mm256_blend_epi16(_mm256_and_si256(x, _mm256_set1_epi16(0xFFF)), _mm256_srli_epi16(x, 4), 0xAA);
}

static void avx2_frombytes(mlk_poly *r, const uint8_t a[MLKEM_POLYBYTES])
{
    for (int i = 0; i < 16; i++) {
        V x = _mm256_sub_epi16(unpack12(a + 24 * i, i == 15), qv()); /* < 4096 < 2q: one conditional q */
        STORE(r->c + 16 * i, _mm256_add_epi16(x, _mm256_and_si256(_mm256_srai_epi16(x, 15), qv())));
    }
}

/* Two 128-bit lanes of 12 useful bytes each -> 24 bytes at r (the last group without overrun). */
static inline void store_2x12(uint8_t *r, V x, int last)
{
    _mm_storeu_si128((__m128i *)r, _mm256_castsi256_si128(x));
    if (!last) {
        _mm_storeu_si128((__m128i *)(r + 12), _mm256_extracti128_si256(x, 1));
    } else {
        uint8_t t[16];
        _mm_storeu_si128((__m128i *)t, _mm256_extracti128_si256(x, 1));
        memcpy(r + 12, t, 12);
    }
}

static void avx2_tobytes(uint8_t r[MLKEM_POLYBYTES], const mlk_poly *a)
{
    const V pack = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4, 5, 6, 8, 9, 10,
                                    12, 13, 14, -1, -1, -1, -1);
    const V mul = _mm256_set1_epi32(1 | (4096 << 16));
    for (int i = 0; i < 16; i++) {
        V w = _mm256_madd_epi16(LOAD(a->c + 16 * i), mul); /* c[2j] + c[2j+1] << 12 */
        store_2x12(r + 24 * i, _mm256_shuffle_epi8(w, pack), i == 15);
    }
}

/* Compress_d on [0, q): est ~ x 2^d / q from a 16-bit high product (off by at most one), then the
 * remainder r = 2^d x + 1664 - est q (exact in 16 bits: |r| < 2q) corrects it to
 * floor((2^d x + 1664) / q) = round(2^d x / q). Checked on every x for every d by the tests. */
static inline V compress_d(V x, unsigned d)
{
    static const uint16_t M[12] = {0, 2, 0, 0, 20, 39, 0, 0, 0, 0, 1260, 2520}; /* round(2^(12+d) / q) */
    V est = _mm256_mulhi_epu16(_mm256_slli_epi16(x, 4), _mm256_set1_epi16((int16_t)M[d]));
    V n = _mm256_add_epi16(_mm256_sll_epi16(x, _mm_cvtsi32_si128((int)d)), _mm256_set1_epi16(1664));
    V r = _mm256_sub_epi16(n, _mm256_mullo_epi16(est, qv()));
    est = _mm256_add_epi16(est, _mm256_cmpgt_epi16(_mm256_setzero_si256(), r));         /* r < 0: -1 */
    est = _mm256_sub_epi16(est, _mm256_cmpgt_epi16(r, _mm256_set1_epi16(MLKEM_Q - 1))); /* r >= q: +1 */
    return _mm256_and_si256(est, _mm256_set1_epi16((int16_t)((1 << d) - 1)));
}

static void compress1(uint8_t *r, const mlk_poly *a)
{
    for (int i = 0; i < 8; i++) {
        V c0 = _mm256_slli_epi16(compress_d(LOAD(a->c + 32 * i), 1), 15);
        V c1 = _mm256_slli_epi16(compress_d(LOAD(a->c + 32 * i + 16), 1), 15);
        V b = _mm256_permute4x64_epi64(_mm256_packs_epi16(c0, c1), 0xD8);
        uint32_t m = (uint32_t)_mm256_movemask_epi8(b);
        memcpy(r + 4 * i, &m, 4); /* x86 is little-endian */
    }
}

static void compress4(uint8_t *r, const mlk_poly *a)
{
    const V mul = _mm256_set1_epi16(1 | (16 << 8));
    const V perm = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (int i = 0; i < 4; i++) {
        V c0 = compress_d(LOAD(a->c + 64 * i), 4), c1 = compress_d(LOAD(a->c + 64 * i + 16), 4);
        V c2 = compress_d(LOAD(a->c + 64 * i + 32), 4), c3 = compress_d(LOAD(a->c + 64 * i + 48), 4);
        V p = _mm256_maddubs_epi16(_mm256_packus_epi16(c0, c1), mul); /* byte pairs c + 16 c' */
        V q = _mm256_maddubs_epi16(_mm256_packus_epi16(c2, c3), mul);
        STORE_U(r + 32 * i, _mm256_permutevar8x32_epi32(_mm256_packus_epi16(p, q), perm));
    }
}

/* d = 10: pairs -> 20-bit dwords (madd), dword pairs -> 40-bit qwords, 5 bytes per qword. */
static void compress10(uint8_t *r, const mlk_poly *a)
{
    const V mul = _mm256_set1_epi32(1 | (1024 << 16));
    const V pack = _mm256_setr_epi8(0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 4, 8, 9, 10,
                                    11, 12, -1, -1, -1, -1, -1, -1);
    for (int i = 0; i < 16; i++) {
        V w = _mm256_madd_epi16(compress_d(LOAD(a->c + 16 * i), 10), mul);
        V u = _mm256_or_si256(_mm256_and_si256(w, _mm256_set1_epi64x(0xFFFFFFFF)),
                              _mm256_slli_epi64(_mm256_srli_epi64(w, 32), 20));
        u = _mm256_shuffle_epi8(u, pack);
        uint8_t t[16];
        _mm_storeu_si128((__m128i *)(r + 20 * i), _mm256_castsi256_si128(u)); /* 10 bytes used */
        _mm_storeu_si128((__m128i *)t, _mm256_extracti128_si256(u, 1));
        memcpy(r + 20 * i + 10, t, 10);
    }
}

/* Two 128-bit lanes of n useful bytes each -> 2n bytes at r, through a buffer (no overrun). */
static inline void store_2xn(uint8_t *r, V x, size_t n)
{
    uint8_t t[32];
    STORE_U(t, x);
    memcpy(r, t, n);
    memcpy(r + n, t + 16, n);
}

/* d = 5 (ML-KEM-1024's dv): 10-bit dwords (madd), 20-bit qwords, 40 bits (5 bytes) per lane. */
static void compress5(uint8_t *r, const mlk_poly *a)
{
    const V mul = _mm256_set1_epi32(1 | (32 << 16));
    for (int i = 0; i < 16; i++) {
        V w = _mm256_madd_epi16(compress_d(LOAD(a->c + 16 * i), 5), mul);
        V u = _mm256_or_si256(_mm256_and_si256(w, _mm256_set1_epi64x(0xFFFFFFFF)),
                              _mm256_slli_epi64(_mm256_srli_epi64(w, 32), 10));
        u = _mm256_or_si256(u, _mm256_bsrli_epi128(_mm256_slli_epi64(u, 20), 8)); /* qword0 |= qword1 << 20 */
        store_2xn(r + 10 * i, u, 5);
    }
}

/* d = 11 (ML-KEM-1024's du): 22-bit dwords, 44-bit qwords, 88 bits (11 bytes) per lane. */
static void compress11(uint8_t *r, const mlk_poly *a)
{
    const V mul = _mm256_set1_epi32(1 | (2048 << 16));
    const V lo64 = _mm256_set_epi64x(0, -1, 0, -1);
    for (int i = 0; i < 16; i++) {
        V w = _mm256_madd_epi16(compress_d(LOAD(a->c + 16 * i), 11), mul);
        V u = _mm256_or_si256(_mm256_and_si256(w, _mm256_set1_epi64x(0xFFFFFFFF)),
                              _mm256_slli_epi64(_mm256_srli_epi64(w, 32), 22));
        /* 128-bit lane = q0 + q1 2^44: low qword q0 | q1 << 44, high qword q1 >> 20 */
        V x = _mm256_or_si256(_mm256_and_si256(u, lo64), _mm256_bsrli_epi128(_mm256_slli_epi64(u, 44), 8));
        x = _mm256_or_si256(x, _mm256_andnot_si256(lo64, _mm256_srli_epi64(u, 20)));
        store_2xn(r + 22 * i, x, 11);
    }
}

static void avx2_compress(uint8_t *r, const mlk_poly *a, unsigned d)
{
    switch (d) {
    case 1:
        compress1(r, a);
        break;
    case 4:
        compress4(r, a);
        break;
    case 5:
        compress5(r, a);
        break;
    case 10:
        compress10(r, a);
        break;
    default:
        compress11(r, a);
        break;
    }
}

/* Loads bytes p[0..15] into the low lane and p[off..off+15] into the high lane; through a zeroed
 * buffer when that would read past end (the end of the encoded polynomial). */
static inline V load_2x16(const uint8_t *p, size_t off, const uint8_t *end)
{
    uint8_t t[48];
    if (p + off + 16 > end) {
        memset(t, 0, sizeof t);
        memcpy(t, p, (size_t)(end - p));
        p = t;
    }
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p)),
                                   _mm_loadu_si128((const __m128i *)(p + off)), 1);
}

static void decompress1(mlk_poly *r, const uint8_t *a)
{
    const V bits = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, -32768);
    for (int i = 0; i < 16; i++) {
        V x = _mm256_set1_epi16((int16_t)(a[2 * i] | (a[2 * i + 1] << 8)));
        V m = _mm256_cmpeq_epi16(_mm256_and_si256(x, bits), bits);
        STORE(r->c + 16 * i, _mm256_and_si256(m, _mm256_set1_epi16(1665))); /* round(q / 2) */
    }
}

static void decompress4(mlk_poly *r, const uint8_t *a)
{
    for (int i = 0; i < 8; i++) {
        V b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(a + 16 * i)));
        V lo = _mm256_and_si256(b, _mm256_set1_epi16(15)), hi = _mm256_srli_epi16(b, 4);
        V x0 = _mm256_unpacklo_epi16(lo, hi), x1 = _mm256_unpackhi_epi16(lo, hi);
        V y0 = _mm256_permute2x128_si256(x0, x1, 0x20), y1 = _mm256_permute2x128_si256(x0, x1, 0x31);
        /* (q y + 8) >> 4 = mulhrs(y << 11, q) */
        STORE(r->c + 32 * i, _mm256_mulhrs_epi16(_mm256_slli_epi16(y0, 11), qv()));
        STORE(r->c + 32 * i + 16, _mm256_mulhrs_epi16(_mm256_slli_epi16(y1, 11), qv()));
    }
}

/* d = 10: lane i takes the two bytes holding bits 10i..10i+9, shifted into place by a multiply
 * (no 16-bit variable shifts in AVX2); each 128-bit lane decodes 10 bytes. */
static void decompress10(mlk_poly *r, const uint8_t *a)
{
    const V idx = _mm256_setr_epi8(0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9, 0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7,
                                   7, 8, 8, 9);
    const V sh = _mm256_setr_epi16(64, 16, 4, 1, 64, 16, 4, 1, 64, 16, 4, 1, 64, 16, 4, 1);
    for (int i = 0; i < 16; i++) {
        V x = load_2x16(a + 20 * i, 10, a + 320);
        x = _mm256_mullo_epi16(_mm256_shuffle_epi8(x, idx), sh);                           /* bits 10i.. at 6..15 */
        x = _mm256_srli_epi16(_mm256_and_si256(x, _mm256_set1_epi16((int16_t)0xFFC0)), 1); /* y << 5 */
        STORE(r->c + 16 * i, _mm256_mulhrs_epi16(x, qv()));                                /* (q y + 512) >> 10 */
    }
}

/* d = 5: lane i takes bytes (5i/8, +1), multiplied so bits 5i.. land at 11..15. */
static void decompress5(mlk_poly *r, const uint8_t *a)
{
    const V idx = _mm256_setr_epi8(0, 1, 0, 1, 1, 2, 1, 2, 2, 3, 3, 4, 3, 4, 4, 5, 0, 1, 0, 1, 1, 2, 1, 2, 2, 3, 3, 4,
                                   3, 4, 4, 5);
    const V sh = _mm256_setr_epi16(2048, 64, 512, 16, 128, 1024, 32, 256, 2048, 64, 512, 16, 128, 1024, 32, 256);
    for (int i = 0; i < 16; i++) {
        V x = _mm256_mullo_epi16(_mm256_shuffle_epi8(load_2x16(a + 10 * i, 5, a + 160), idx), sh);
        x = _mm256_srli_epi16(x, 1); /* y << 10 */
        x = _mm256_and_si256(x, _mm256_set1_epi16(0x7C00));
        STORE(r->c + 16 * i, _mm256_mulhrs_epi16(x, qv())); /* (q y + 16) >> 5 */
    }
}

/* d = 11: a value spans up to three bytes, so 32-bit lanes with vpsrlvd: four bytes from
 * 11i/8 shifted right by 11i mod 8. */
static void decompress11(mlk_poly *r, const uint8_t *a)
{
    const V ia = _mm256_setr_epi8(0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 4, 5, 6, 7, 0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 4,
                                  5, 6, 7);
    const V ib = _mm256_setr_epi8(5, 6, 7, 8, 6, 7, 8, 9, 8, 9, 10, 11, 9, 10, 11, 12, 5, 6, 7, 8, 6, 7, 8, 9, 8, 9, 10,
                                  11, 9, 10, 11, 12);
    const V sa = _mm256_setr_epi32(0, 3, 6, 1, 0, 3, 6, 1), sb = _mm256_setr_epi32(4, 7, 2, 5, 4, 7, 2, 5);
    const V m11 = _mm256_set1_epi32(0x7FF);
    for (int i = 0; i < 16; i++) {
        V x = load_2x16(a + 22 * i, 11, a + 352);
        V A = _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(x, ia), sa), m11); /* values 0-3 | 8-11 */
        V B = _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(x, ib), sb), m11); /* values 4-7 | 12-15 */
        V y = _mm256_packs_epi32(A, B);
        STORE(r->c + 16 * i, _mm256_mulhrs_epi16(_mm256_slli_epi16(y, 4), qv())); /* (q y + 1024) >> 11 */
    }
}

static void avx2_decompress(mlk_poly *r, const uint8_t *a, unsigned d)
{
    switch (d) {
    case 1:
        decompress1(r, a);
        break;
    case 4:
        decompress4(r, a);
        break;
    case 5:
        decompress5(r, a);
        break;
    case 10:
        decompress10(r, a);
        break;
    default:
        decompress11(r, a);
        break;
    }
}

/* ---- CBD ---- */

/* eta = 2: each nibble b0..b3 gives b0 + b1 - b2 - b3 (looked up in-register by vpshufb);
 * coefficient 2i from the low nibble of byte i, 2i+1 from the high nibble. */
static void cbd2(mlk_poly *r, const uint8_t *buf)
{
    const V tbl = _mm256_setr_epi8(0, 1, 1, 2, -1, 0, 0, 1, -1, 0, 0, 1, -2, -1, -1, 0, 0, 1, 1, 2, -1, 0, 0, 1, -1, 0,
                                   0, 1, -2, -1, -1, 0);
    const V m4 = _mm256_set1_epi8(15);
    for (int i = 0; i < 4; i++) {
        V x = _mm256_loadu_si256((const V *)(buf + 32 * i));
        V lo = _mm256_shuffle_epi8(tbl, _mm256_and_si256(x, m4));
        V hi = _mm256_shuffle_epi8(tbl, _mm256_and_si256(_mm256_srli_epi16(x, 4), m4));
        V i0 = _mm256_unpacklo_epi8(lo, hi), i1 = _mm256_unpackhi_epi8(lo, hi);
        int16_t *o = r->c + 64 * i;
        STORE(o, _mm256_cvtepi8_epi16(_mm256_castsi256_si128(i0)));
        STORE(o + 16, _mm256_cvtepi8_epi16(_mm256_castsi256_si128(i1)));
        STORE(o + 32, _mm256_cvtepi8_epi16(_mm256_extracti128_si256(i0, 1)));
        STORE(o + 48, _mm256_cvtepi8_epi16(_mm256_extracti128_si256(i1, 1)));
    }
}

/* eta = 3: 3 bytes -> 4 coefficients; 24 bytes (one 32-bit lane per 3 bytes) per step.
 * Reads 8 bytes past the 192 (the caller's buffer has them). */
static void cbd3(mlk_poly *r, const uint8_t *buf)
{
    const V idx = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, 4, 5, 6, -1, 7, 8, 9, -1, 10,
                                   11, 12, -1, 13, 14, 15, -1);
    const V m249 = _mm256_set1_epi32(0x249249), m7 = _mm256_set1_epi32(7), m7h = _mm256_set1_epi32(0x70000);
    for (int i = 0; i < 8; i++) {
        V x = _mm256_permute4x64_epi64(_mm256_loadu_si256((const V *)(buf + 24 * i)), 0x94);
        x = _mm256_shuffle_epi8(x, idx);
        V t = _mm256_and_si256(x, m249);
        t = _mm256_add_epi32(t, _mm256_and_si256(_mm256_srli_epi32(x, 1), m249));
        t = _mm256_add_epi32(t, _mm256_and_si256(_mm256_srli_epi32(x, 2), m249));
        V a01 = _mm256_or_si256(_mm256_and_si256(t, m7), _mm256_and_si256(_mm256_slli_epi32(t, 10), m7h));
        V b01 = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(t, 3), m7),
                                _mm256_and_si256(_mm256_slli_epi32(t, 7), m7h));
        V a23 = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(t, 12), m7),
                                _mm256_and_si256(_mm256_srli_epi32(t, 2), m7h));
        V b23 = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(t, 15), m7),
                                _mm256_and_si256(_mm256_srli_epi32(t, 5), m7h));
        V c01 = _mm256_sub_epi16(a01, b01), c23 = _mm256_sub_epi16(a23, b23);
        V lo = _mm256_unpacklo_epi32(c01, c23), hi = _mm256_unpackhi_epi32(c01, c23);
        STORE(r->c + 32 * i, _mm256_permute2x128_si256(lo, hi, 0x20));
        STORE(r->c + 32 * i + 16, _mm256_permute2x128_si256(lo, hi, 0x31));
    }
}

static void cbd(mlk_poly *r, const uint8_t *buf, unsigned eta)
{
    if (eta == 2) cbd2(r, buf);
    else cbd3(r, buf);
}

/* Groups of four through SHAKE256 x4; a remainder of 2 or 3 also takes one x4 call (cheaper than
 * 2-3 single permutations), a remainder of 1 the scalar SHAKE256. eta = 3 needs 192 bytes. */
static void avx2_sample_cbd(mlk_poly *r, unsigned n, const uint8_t seed[32], uint8_t nonce0, unsigned eta)
{
    _Alignas(32) uint8_t buf[4][2 * NURI_SHAKE256_RATE + 8];
    uint8_t in[4][33];
    _Alignas(32) nuri_keccakx4 st;
    const size_t blocks = eta == 3 ? 2 : 1;
    unsigned i = 0;
    for (unsigned j = 0; j < 4; j++) memcpy(in[j], seed, 32);
    while (n - i >= 2) {
        unsigned cnt = n - i < 4 ? n - i : 4;
        for (unsigned j = 0; j < 4; j++) in[j][32] = (uint8_t)(nonce0 + i + j);
        nuri_shake_x4_absorb_once_avx2(&st, NURI_SHAKE256_RATE, in[0], in[1], in[2], in[3], 33);
        nuri_shake_x4_squeezeblocks_avx2(buf[0], buf[1], buf[2], buf[3], blocks, &st, NURI_SHAKE256_RATE);
        for (unsigned j = 0; j < cnt; j++) cbd(&r[i + j], buf[j], eta);
        i += cnt;
    }
    if (i < n) {
        in[0][32] = (uint8_t)(nonce0 + i);
        nuri_shake256(buf[0], 64 * eta, in[0], 33);
        cbd(&r[i], buf[0], eta);
    }
    nuri_wipe(&st, sizeof st);
    nuri_wipe(in, sizeof in);
    nuri_wipe(buf, sizeof buf);
}

/* ---- matrix expansion ---- */

#define REJ_PAD 8 /* the vector loop loads 32 bytes to use 24 */

/* SampleNTT's acceptance loop, 16 candidates (24 bytes) per group. Two passes: first every
 * group's candidates and acceptance mask (stores to fixed addresses), then the compaction, whose
 * store addresses depend on the running count. In one pass the next group's loads waited for
 * that count (3x slower). The scalar loop finishes the last coefficients.
 * buf must have REJ_PAD readable bytes after buflen. */
#define REJ_GROUPS 21 /* 3 SHAKE128 blocks */
static unsigned rej_uniform(int16_t *r, unsigned ctr, const uint8_t *buf, size_t buflen)
{
    const V idx = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, 4, 5, 5, 6, 7, 8, 8, 9, 10, 11,
                                   11, 12, 13, 14, 14, 15);
    const V m12 = _mm256_set1_epi16(0xFFF), bound = _mm256_set1_epi16(MLKEM_Q);
    V vals[REJ_GROUPS];
    unsigned masks[REJ_GROUPS];
    size_t ng = 0, g = 0;
    for (; 24 * ng + 24 <= buflen && ng < REJ_GROUPS; ng++) {
        V x = _mm256_permute4x64_epi64(_mm256_loadu_si256((const V *)(buf + 24 * ng)), 0x94);
        x = _mm256_shuffle_epi8(x, idx);
        x = _mm256_blend_epi16(_mm256_and_si256(x, m12), _mm256_srli_epi16(x, 4), 0xAA);
        V ok = _mm256_cmpgt_epi16(bound, x);
        masks[ng] =
            (unsigned)_mm_movemask_epi8(_mm_packs_epi16(_mm256_castsi256_si128(ok), _mm256_extracti128_si256(ok, 1)));
        vals[ng] = x;
    }
    for (; g < ng && ctr + 16 <= MLKEM_N; g++) { /* both 8-lane stores fit */
        const unsigned mask = masks[g];
        __m128i lo =
            _mm_shuffle_epi8(_mm256_castsi256_si128(vals[g]), _mm_load_si128((const __m128i *)REJ_IDX[mask & 255]));
        __m128i hi =
            _mm_shuffle_epi8(_mm256_extracti128_si256(vals[g], 1), _mm_load_si128((const __m128i *)REJ_IDX[mask >> 8]));
        _mm_storeu_si128((__m128i *)(r + ctr), lo);
        ctr += REJ_CNT[mask & 255];
        _mm_storeu_si128((__m128i *)(r + ctr), hi);
        ctr += REJ_CNT[mask >> 8];
    }
    return nuri_mlkem_rej_uniform(r, ctr, buf + 24 * g, buflen - 24 * g);
}

/* One entry through the single-state SHAKE128 (BMI2 build when the CPU has it): three blocks, and in the rare case that they
 * hold fewer than 256 accepted values, the same XOF again with two more blocks (SHAKE output is
 * a prefix of any longer output, so the values already taken stay valid). */
static void gen_entry(mlk_poly *out, const uint8_t rho[32], uint8_t b0, uint8_t b1)
{
    uint8_t in[34], buf[5 * NURI_SHAKE128_RATE + REJ_PAD];
    size_t have = 3 * NURI_SHAKE128_RATE, used = 0;
    unsigned ctr = 0;
    memcpy(in, rho, 32);
    in[32] = b0;
    in[33] = b1;
    for (;;) {
        nuri_keccak_job job = {NULL, 0, in, 34, buf, have, 0x1F};
        nuri_keccak_job1(&job, NURI_SHAKE128_RATE);
        ctr = rej_uniform(out->c, ctr, buf + used, have - used);
        if (ctr >= MLKEM_N) break;
        used = have;
        have += 2 * NURI_SHAKE128_RATE;
        if (have > 5 * NURI_SHAKE128_RATE) { /* astronomically rare: continue one block at a time */
            uint64_t s[25];
            nuri_shake_absorb_once(s, NURI_SHAKE128_RATE, in, 34);
            nuri_shake_squeezeblocks(buf, 5, s, NURI_SHAKE128_RATE);
            while (ctr < MLKEM_N) {
                nuri_shake_squeezeblocks(buf, 1, s, NURI_SHAKE128_RATE);
                ctr = rej_uniform(out->c, ctr, buf, NURI_SHAKE128_RATE);
            }
            break;
        }
    }
}

/* Four entries at a time through SHAKE128 x4, a lone remainder (k = 3) through scalar SHAKE128.
 * rho is public, so the rejection loop may branch on the XOF output. */
static void avx2_gen_matrix(mlk_poly *a, const uint8_t rho[32], unsigned k, int transposed)
{
    _Alignas(32) uint8_t buf[4][3 * NURI_SHAKE128_RATE + REJ_PAD];
    uint8_t in[4][34];
    _Alignas(32) nuri_keccakx4 st;
    const unsigned total = k * k;
    unsigned e = 0;
    for (unsigned j = 0; j < 4; j++) memcpy(in[j], rho, 32);
    for (; e + 4 <= total; e += 4) {
        unsigned ctr[4];
        for (unsigned j = 0; j < 4; j++) {
            unsigned row = (e + j) / k, col = (e + j) % k;
            in[j][32] = (uint8_t)(transposed ? row : col);
            in[j][33] = (uint8_t)(transposed ? col : row);
        }
        nuri_shake_x4_absorb_once_avx2(&st, NURI_SHAKE128_RATE, in[0], in[1], in[2], in[3], 34);
        nuri_shake_x4_squeezeblocks_avx2(buf[0], buf[1], buf[2], buf[3], 3, &st, NURI_SHAKE128_RATE);
        for (unsigned j = 0; j < 4; j++) ctr[j] = rej_uniform(a[e + j].c, 0, buf[j], 3 * NURI_SHAKE128_RATE);
        while (ctr[0] < MLKEM_N || ctr[1] < MLKEM_N || ctr[2] < MLKEM_N || ctr[3] < MLKEM_N) {
            nuri_shake_x4_squeezeblocks_avx2(buf[0], buf[1], buf[2], buf[3], 1, &st, NURI_SHAKE128_RATE);
            for (unsigned j = 0; j < 4; j++) ctr[j] = rej_uniform(a[e + j].c, ctr[j], buf[j], NURI_SHAKE128_RATE);
        }
    }
    for (; e < total; e++) {
        unsigned row = e / k, col = e % k;
        gen_entry(&a[e], rho, (uint8_t)(transposed ? row : col), (uint8_t)(transposed ? col : row));
    }
}

/* ---- one step's Keccak work in the four lanes (sample_many) ---- */

/* Every sponge of a request (hashes, matrix entries, noise polynomials) is a stream; the four
 * lanes of the x4 state each run one stream at a time and take the next one from the list as soon
 * as theirs is done, so the nine-block H(ek) of ML-KEM-768 runs beside three matrix entries
 * instead of on its own. Longest first: hashes, then matrix entries (3 blocks, more if rejection
 * sampling needs them), then noise (1 or 2 blocks). Each step absorbs one block into the lanes
 * that still absorb, permutes all four, and copies one block out of every lane that squeezes.
 * Branches and indices depend on lengths, stream kinds and the matrix's XOF output only (public:
 * it comes from rho); noise seeds, hash inputs and outputs are only copied and permuted. */
enum { SM_JOB, SM_ABSORB, SM_MATRIX, SM_NOISE };
#define SM_MAX   64                                 /* streams per request: 16 + 4 x 9 + 5 at most */
#define SM_BLOCK (3 * NURI_SHAKE128_RATE + REJ_PAD) /* a lane's output buffer */

typedef struct {
    uint8_t kind, b0, b1;     /* matrix: the two index bytes; noise: b0 = nonce, b1 = eta */
    unsigned rate, nabs, nsq; /* block bytes; blocks to absorb; blocks squeezed before first use */
    const uint8_t *seed;      /* rho or the noise seed */
    mlk_poly *poly;
    const nuri_keccak_job *job;
} sm_stream;

/* The first (only) block of a matrix or noise stream, seed || b0 [|| b1] padded, set as lane j. */
static void sm_seed_block(uint64_t *st, unsigned j, const sm_stream *q)
{
    for (unsigned i = 0; i < 4; i++) st[4 * i + j] = nuri_load64_le(q->seed + 8 * i);
    st[16 + j] =
        q->kind == SM_MATRIX ? (uint64_t)q->b0 | (uint64_t)q->b1 << 8 | 0x1FULL << 16 : (uint64_t)q->b0 | 0x1FULL << 8;
    for (unsigned i = 5; i < 25; i++) st[4 * i + j] = 0;
    st[4 * (q->rate / 8 - 1) + j] = 0x80ULL << 56;
}

/* Block b of a hash stream into lane j (the first one replaces the lane's old contents); blk is
 * room for the padded last block (wiped by the caller). */
static void sm_job_block(uint64_t *st, unsigned j, const sm_stream *q, unsigned b, uint8_t *blk)
{
    const nuri_keccak_job *jb = q->job;
    const size_t off = (size_t)b * q->rate;
    const uint8_t *p = blk;
    if (off >= jb->prelen && off + q->rate <= jb->prelen + jb->len) p = jb->in + (off - jb->prelen); /* in place */
    else nuri_keccak_job_block(blk, jb, off, q->rate);
    if (b == 0) {
        for (unsigned i = 0; i < q->rate / 8; i++) st[4 * i + j] = nuri_load64_le(p + 8 * i);
        for (unsigned i = q->rate / 8; i < 25; i++) st[4 * i + j] = 0;
    } else {
        for (unsigned i = 0; i < q->rate / 8; i++) st[4 * i + j] ^= nuri_load64_le(p + 8 * i);
    }
}

/* Block b of the request's hash in progress into lane j; the first one starts from its state. */
static void sm_absorb_block(uint64_t *st, unsigned j, const mlk_sample_req *req, unsigned b)
{
    const uint8_t *in = req->absorb_in + (size_t)NURI_SHA3_256_RATE * b;
    if (b == 0)
        for (unsigned i = 0; i < 25; i++) st[4 * i + j] = req->absorb_st[i];
    for (unsigned i = 0; i < NURI_SHA3_256_RATE / 8; i++) st[4 * i + j] ^= nuri_load64_le(in + 8 * i);
}

/* The first 168 bytes of every lane to out[j] (4x4 transposes of 64-bit words, as the x4 squeeze). */
static void sm_extract(const uint64_t *s, uint8_t *const out[4])
{
    for (unsigned i = 0; i < 20; i += 4) {
        __m256i r0 = _mm256_loadu_si256((const __m256i *)&s[4 * i]);
        __m256i r1 = _mm256_loadu_si256((const __m256i *)&s[4 * i + 4]);
        __m256i r2 = _mm256_loadu_si256((const __m256i *)&s[4 * i + 8]);
        __m256i r3 = _mm256_loadu_si256((const __m256i *)&s[4 * i + 12]);
        __m256i t0 = _mm256_unpacklo_epi64(r0, r1), t1 = _mm256_unpackhi_epi64(r0, r1);
        __m256i t2 = _mm256_unpacklo_epi64(r2, r3), t3 = _mm256_unpackhi_epi64(r2, r3);
        _mm256_storeu_si256((__m256i *)(out[0] + 8 * i), _mm256_permute2x128_si256(t0, t2, 0x20));
        _mm256_storeu_si256((__m256i *)(out[1] + 8 * i), _mm256_permute2x128_si256(t1, t3, 0x20));
        _mm256_storeu_si256((__m256i *)(out[2] + 8 * i), _mm256_permute2x128_si256(t0, t2, 0x31));
        _mm256_storeu_si256((__m256i *)(out[3] + 8 * i), _mm256_permute2x128_si256(t1, t3, 0x31));
    }
    for (unsigned j = 0; j < 4; j++) memcpy(out[j] + 160, &s[80 + j], 8);
}

static void avx2_sample_many(const mlk_sample_req *req)
{
    sm_stream str[SM_MAX];
    unsigned ns = 0;
    if (req->n_absorb) /* a hash in progress: whole blocks, no output */
        str[ns++] = (sm_stream){SM_ABSORB, 0, 0, NURI_SHA3_256_RATE, req->n_absorb, 0, NULL, NULL, NULL};
    for (unsigned i = 0; i < req->n_jobs; i++) {
        const nuri_keccak_job *jb = &req->jobs[i];
        str[ns++] =
            (sm_stream){SM_JOB, 0, 0, req->rate, (unsigned)((jb->prelen + jb->len) / req->rate + 1), 1, NULL, NULL, jb};
    }
    if (req->a)
        for (unsigned e = req->row0 * req->k; e < (req->row0 + req->rows) * req->k; e++) {
            const unsigned row = e / req->k, col = e % req->k;
            str[ns++] = (sm_stream){SM_MATRIX,
                                    (uint8_t)(req->transposed ? row : col),
                                    (uint8_t)(req->transposed ? col : row),
                                    NURI_SHAKE128_RATE,
                                    1,
                                    3,
                                    req->rho,
                                    &req->a[e],
                                    NULL};
        }
    for (unsigned g = 0; g < req->n_noise; g++) {
        const mlk_noise *nz = &req->noise[g];
        for (unsigned i = 0; i < nz->n; i++)
            str[ns++] = (sm_stream){SM_NOISE, (uint8_t)(nz->nonce0 + i), (uint8_t)nz->eta, NURI_SHAKE256_RATE,
                                    1,        nz->eta == 3 ? 2 : 1,      nz->seed,         &nz->r[i],
                                    NULL};
    }

    _Alignas(32) nuri_keccakx4 st;
    _Alignas(32) uint8_t buf[4][SM_BLOCK], scratch[NURI_SHAKE128_RATE], blk[NURI_SHAKE128_RATE];
    struct {
        int s; /* stream, -1 = idle */
        unsigned absorbed, squeezed, ctr;
    } lane[4] = {{-1, 0, 0, 0}, {-1, 0, 0, 0}, {-1, 0, 0, 0}, {-1, 0, 0, 0}};
    unsigned next = 0;
    for (;;) {
        int busy = 0;
        for (unsigned j = 0; j < 4; j++) {
            if (lane[j].s < 0 && next < ns) {
                lane[j].s = (int)next++;
                lane[j].absorbed = lane[j].squeezed = lane[j].ctr = 0;
            }
            if (lane[j].s < 0) continue;
            busy = 1;
            const sm_stream *q = &str[lane[j].s];
            if (lane[j].absorbed < q->nabs) {
                if (q->kind == SM_JOB) sm_job_block(st.s, j, q, lane[j].absorbed, blk);
                else if (q->kind == SM_ABSORB) sm_absorb_block(st.s, j, req, lane[j].absorbed);
                else sm_seed_block(st.s, j, q);
                lane[j].absorbed++;
            }
        }
        if (!busy) break;
        nuri_keccakf1600_x4_avx2(st.s);
        uint8_t *out[4];
        for (unsigned j = 0; j < 4; j++) {
            out[j] = scratch;
            if (lane[j].s < 0 || lane[j].absorbed < str[lane[j].s].nabs) continue;
            const sm_stream *q = &str[lane[j].s];
            if (q->kind == SM_ABSORB) { /* all blocks in: the state goes back to the caller */
                for (unsigned i = 0; i < 25; i++) req->absorb_st[i] = st.s[4 * i + j];
                lane[j].s = -1;
                continue;
            }
            const unsigned sq = lane[j].squeezed;
            out[j] = buf[j] + (q->kind == SM_JOB ? 0 : q->kind == SM_NOISE ? q->rate * sq : sq < 3 ? q->rate * sq : 0);
        }
        sm_extract(st.s, out);
        for (unsigned j = 0; j < 4; j++) {
            if (out[j] == scratch) continue;
            const sm_stream *q = &str[lane[j].s];
            const unsigned sq = ++lane[j].squeezed;
            if (q->kind == SM_JOB) {
                memcpy(q->job->out, buf[j], q->job->outlen);
                lane[j].s = -1;
            } else if (q->kind == SM_NOISE) {
                if (sq < q->nsq) continue;
                cbd(q->poly, buf[j], q->b1);
                lane[j].s = -1;
            } else if (sq >= 3) {
                lane[j].ctr = sq == 3 ? rej_uniform(q->poly->c, 0, buf[j], 3 * NURI_SHAKE128_RATE)
                                      : rej_uniform(q->poly->c, lane[j].ctr, buf[j], NURI_SHAKE128_RATE);
                if (lane[j].ctr >= MLKEM_N) lane[j].s = -1;
            }
        }
    }
    nuri_wipe(&st, sizeof st);
    nuri_wipe(buf, sizeof buf);
    nuri_wipe(scratch, sizeof scratch);
    nuri_wipe(blk, sizeof blk);
}

/* Key generation's rows per step: for k = 3 one row at a time, so that each step's three matrix
 * entries leave a lane for the blocks of H(ek) that the rows before have completed (10 x4 steps and
 * 4 single permutations instead of 9 and 9). For k = 2 and 4 the split costs more x4 steps than
 * it saves single permutations. */
static unsigned avx2_keygen_rows(unsigned k) { return k == 3 ? 1 : k; }

const nuri_mlkem_backend nuri_mlkem_backend_avx2 = {
    {"avx2", NURI_CPU_AVX2, 1,
     "AVX2: 16-bit lane NTT/basemul/packing, vpshufb CBD and rejection sampling, 4-way AVX2 Keccak (BMI2 single Keccak "
     "if present)"},
    avx2_ntt,
    avx2_invntt,
    avx2_mulcache,
    avx2_basemul_acc,
    avx2_tomont,
    avx2_reduce,
    avx2_tobytes,
    avx2_frombytes,
    avx2_compress,
    avx2_decompress,
    avx2_sample_cbd,
    avx2_gen_matrix,
    nuri_keccak_jobs_avx2,
    avx2_sample_many,
    avx2_keygen_rows,
    NULL, /* ek_scan: kem.c's portable pass */
    NULL, /* keccakf1: nuri_keccakf1600 */
};
