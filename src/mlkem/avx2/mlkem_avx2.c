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
#include "tables_avx2.h"

#define V __m256i
#define LOAD(p) _mm256_load_si256((const V *)(p))
#define STORE(p, v) _mm256_store_si256((V *)(p), (v))

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
#define CT(a, b, z, zq)                            \
    do {                                           \
        V t_ = mulq((b), (z), (zq));               \
        (b) = _mm256_sub_epi16((a), t_);           \
        (a) = _mm256_add_epi16((a), t_);           \
    } while (0)
#define GS(a, b, z, zq)                                          \
    do {                                                         \
        V t_ = (a);                                              \
        (a) = _mm256_add_epi16(t_, (b));                         \
        (b) = mulq(_mm256_sub_epi16((b), t_), (z), (zq));        \
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

static void avx2_ntt(mlk_poly *p)
{
    V v[16];
    for (int i = 0; i < 16; i++) v[i] = LOAD(p->c + 16 * i);
    unsigned z = 1;
    for (unsigned lv = 8; lv >= 1; lv >>= 1) { /* len = 16 * lv */
        for (unsigned s = 0; s < 16; s += 2 * lv, z++) {
            const V zz = _mm256_set1_epi16(ZETAS[z]), zq = _mm256_set1_epi16(ZETAS_QINV[z]);
            for (unsigned j = s; j < s + lv; j++) CT(v[j], v[j + lv], zz, zq);
        }
    }
    /* no reductions so far: |x| < 8q after the 7 layers, then one Barrett pass (as opt) */
    for (int m = 0; m < 8; m++) {
        V X, Y, A, B, P, Q;
        split128(&X, &Y, v[2 * m], v[2 * m + 1]);
        CT(X, Y, LOAD(NTT_L8[m]), LOAD(NTT_L8_QINV[m]));
        split64(&A, &B, X, Y);
        CT(A, B, LOAD(NTT_L4[m]), LOAD(NTT_L4_QINV[m]));
        split32(&P, &Q, A, B);
        CT(P, Q, LOAD(NTT_L2[m]), LOAD(NTT_L2_QINV[m]));
        join32(&A, &B, P, Q);
        split64(&X, &Y, A, B); /* unpacklo/hi of A, B restores X, Y */
        split128(&A, &B, X, Y);
        STORE(p->c + 32 * m, barrett(A));
        STORE(p->c + 32 * m + 16, barrett(B));
    }
}

static void avx2_invntt(mlk_poly *p)
{
    V v[16];
    for (int m = 0; m < 8; m++) {
        V X, Y, A, B, P, Q;
        split128(&X, &Y, LOAD(p->c + 32 * m), LOAD(p->c + 32 * m + 16));
        split64(&A, &B, X, Y);
        split32(&P, &Q, A, B);
        GS(P, Q, LOAD(INV_L2[m]), LOAD(INV_L2_QINV[m]));
        join32(&A, &B, P, Q);
        GS(A, B, LOAD(INV_L4[m]), LOAD(INV_L4_QINV[m]));
        split64(&X, &Y, A, B);
        GS(X, Y, LOAD(INV_L8[m]), LOAD(INV_L8_QINV[m]));
        X = barrett(X); /* as opt: reduce after len 8 and len 64 */
        split128(&v[2 * m], &v[2 * m + 1], X, Y);
    }
    unsigned z = 15;
    for (unsigned lv = 1; lv <= 8; lv <<= 1) {
        for (unsigned s = 0; s < 16; s += 2 * lv, z--) {
            const V zz = _mm256_set1_epi16(ZETAS[z]), zq = _mm256_set1_epi16(ZETAS_QINV[z]);
            for (unsigned j = s; j < s + lv; j++) {
                GS(v[j], v[j + lv], zz, zq);
                if (lv == 4) v[j] = barrett(v[j]);
            }
        }
    }
    const V f = _mm256_set1_epi16(1441), fq = _mm256_set1_epi16(-10079); /* R^2 / 128 */
    for (int i = 0; i < 16; i++) STORE(p->c + 16 * i, mulq(v[i], f, fq));
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

/* ---- CBD ---- */

/* eta = 2: each nibble b0..b3 gives b0 + b1 - b2 - b3 (looked up in-register by vpshufb);
 * coefficient 2i from the low nibble of byte i, 2i+1 from the high nibble. */
static void cbd2(mlk_poly *r, const uint8_t *buf)
{
    const V tbl = _mm256_setr_epi8(0, 1, 1, 2, -1, 0, 0, 1, -1, 0, 0, 1, -2, -1, -1, 0, 0, 1, 1, 2, -1, 0, 0, 1, -1,
                                   0, 0, 1, -2, -1, -1, 0);
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
        V b01 = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(t, 3), m7), _mm256_and_si256(_mm256_slli_epi32(t, 7), m7h));
        V a23 = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(t, 12), m7), _mm256_and_si256(_mm256_srli_epi32(t, 2), m7h));
        V b23 = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(t, 15), m7), _mm256_and_si256(_mm256_srli_epi32(t, 5), m7h));
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

/* SampleNTT's acceptance loop, 16 candidates (24 bytes) per step while both 8-lane stores fit;
 * the scalar loop finishes. buf must have REJ_PAD readable bytes after buflen. */
static unsigned rej_uniform(int16_t *r, unsigned ctr, const uint8_t *buf, size_t buflen)
{
    const V idx = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, 4, 5, 5, 6, 7, 8, 8, 9, 10, 11,
                                   11, 12, 13, 14, 14, 15);
    const V m12 = _mm256_set1_epi16(0xFFF), bound = _mm256_set1_epi16(MLKEM_Q);
    size_t pos = 0;
    while (ctr + 16 <= MLKEM_N && pos + 24 <= buflen) {
        V x = _mm256_permute4x64_epi64(_mm256_loadu_si256((const V *)(buf + pos)), 0x94);
        x = _mm256_shuffle_epi8(x, idx);
        x = _mm256_blend_epi16(_mm256_and_si256(x, m12), _mm256_srli_epi16(x, 4), 0xAA);
        V ok = _mm256_cmpgt_epi16(bound, x);
        unsigned mask = (unsigned)_mm_movemask_epi8(
            _mm_packs_epi16(_mm256_castsi256_si128(ok), _mm256_extracti128_si256(ok, 1)));
        __m128i lo = _mm_shuffle_epi8(_mm256_castsi256_si128(x), _mm_load_si128((const __m128i *)REJ_IDX[mask & 255]));
        _mm_storeu_si128((__m128i *)(r + ctr), lo);
        ctr += REJ_CNT[mask & 255];
        __m128i hi = _mm_shuffle_epi8(_mm256_extracti128_si256(x, 1), _mm_load_si128((const __m128i *)REJ_IDX[mask >> 8]));
        _mm_storeu_si128((__m128i *)(r + ctr), hi);
        ctr += REJ_CNT[mask >> 8];
        pos += 24;
    }
    return nuri_mlkem_rej_uniform(r, ctr, buf + pos, buflen - pos);
}

static void gen_entry(mlk_poly *out, const uint8_t rho[32], uint8_t b0, uint8_t b1)
{
    uint8_t in[34], buf[3 * NURI_SHAKE128_RATE + REJ_PAD];
    uint64_t s[25];
    memcpy(in, rho, 32);
    in[32] = b0;
    in[33] = b1;
    nuri_shake_absorb_once(s, NURI_SHAKE128_RATE, in, 34);
    nuri_shake_squeezeblocks(buf, 3, s, NURI_SHAKE128_RATE);
    unsigned ctr = rej_uniform(out->c, 0, buf, 3 * NURI_SHAKE128_RATE);
    while (ctr < MLKEM_N) {
        nuri_shake_squeezeblocks(buf, 1, s, NURI_SHAKE128_RATE);
        ctr = rej_uniform(out->c, ctr, buf, NURI_SHAKE128_RATE);
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

const nuri_mlkem_backend nuri_mlkem_backend_avx2 = {
    {"avx2", NURI_CPU_AVX2, 1,
     "AVX2: 16-bit lane NTT/basemul, vpshufb CBD and rejection sampling, 4-way AVX2 Keccak"},
    avx2_ntt,
    avx2_invntt,
    avx2_mulcache,
    avx2_basemul_acc,
    avx2_tomont,
    avx2_reduce,
    nuri_mlkem_ref_tobytes,
    nuri_mlkem_ref_frombytes,
    nuri_mlkem_ref_compress,
    nuri_mlkem_ref_decompress,
    avx2_sample_cbd,
    avx2_gen_matrix,
    nuri_keccak_jobs_avx2,
};
