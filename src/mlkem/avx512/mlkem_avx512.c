/* ML-KEM kernels in AVX-512 ("avx512"): thirty-two 16-bit coefficients per zmm register.
 *  - Montgomery products by constants in the mulhi form (hi(a*b) - hi(lo(a*b*q^-1) * q)), the same
 *    arithmetic as opt and avx2 (tests compare every kernel with ref);
 *  - NTT / inverse NTT with the whole polynomial in eight registers: layers len >= 32 between
 *    registers, the last four inside a register pair after 256-, 128-, 64- and 32-bit regroupings,
 *    each its own inverse, so applying them again restores FIPS 203's coefficient order (the NTT
 *    domain keeps it: no conversion at the packing boundary);
 *  - base multiplication with vpmaddwd over the (2i, 2i+1) pairs, 32-bit sums of k products, one
 *    Montgomery reduction at the end;
 *  - Compress_d / Decompress_d arithmetic on 32 lanes; the d-bit packing builds each 128-bit lane's
 *    d bytes with multiply-adds and shifts (stored with byte masks), the unpacking gathers each
 *    value's two 16-bit words with vpermw and shifts them into place with vpsrlvd;
 *  - every Keccak call through the eight-way AVX-512 Keccak of src/common/keccakx8_avx512.c: each
 *    of kem.c's sample_many steps (matrix rows, noise, hashes, a hash in progress) is one task
 *    list, so independent sponges share permutations, and key generation samples its last matrix
 *    row beside H absorbing the part of ek already made (keygen_rows); rejection sampling 32
 *    candidates at a time, accepted ones packed with vpcompressd (the XOF output comes from rho,
 *    which is public).
 * Twiddle layouts come from scripts/gen_mlkem_avx512_tables.py (tables_avx512.h).
 * AVX-512F/BW/VL only: it runs on every AVX-512 server core since Skylake-SP. VBMI would only
 * shorten the byte packing (a small part of the time) and IFMA's 52-bit products have no use in
 * 16-bit arithmetic, so neither is required. 512-bit registers throughout: on the AMD EPYC
 * (family 26) it was measured on, the NTT takes 0.8x and the inverse NTT 0.7x the time of the
 * 256-bit avx2 kernels.
 * No secret-dependent branches or memory indices. */
#if defined(NURI_AVX512_EMULATED)
#include "avx512_emul.h" /* test builds: the same code through portable intrinsics */
#else
#include <immintrin.h>
#endif

#include "../mlkem_impl.h"
#include "../zetas.h"
#include "tables_avx512.h"

#define V           __m512i
#define LOAD(p)     _mm512_load_si512((const void *)(p))
#define STORE(p, v) _mm512_store_si512((void *)(p), (v))

static inline V qv(void) { return _mm512_set1_epi16(MLKEM_Q); }
static inline V set16(int x) { return _mm512_set1_epi16((int16_t)x); }

/* a * b * R^-1 mod q with bq = b * q^-1 mod 2^16; |result| < q for |b| <= q/2. */
static inline V mulq(V a, V b, V bq)
{
    V hi = _mm512_mulhi_epi16(a, b);
    V lo = _mm512_mullo_epi16(a, bq);
    return _mm512_sub_epi16(hi, _mm512_mulhi_epi16(lo, qv()));
}

/* a - round(a * 20159 / 2^26) * q, |result| <= q/2 + 1 for any int16 a. */
static inline V barrett(V a)
{
    V t = _mm512_mulhi_epi16(a, set16(20159));
    t = _mm512_srai_epi16(_mm512_add_epi16(t, set16(512)), 10);
    return _mm512_sub_epi16(a, _mm512_mullo_epi16(t, qv()));
}

/* (-q, q) -> [0, q) */
static inline V caddq(V x) { return _mm512_mask_add_epi16(x, _mm512_movepi16_mask(x), x, qv()); }

/* Cooley-Tukey (forward) and Gentleman-Sande (inverse) butterflies. */
#define CT(a, b, z, zq)                  \
    do {                                 \
        V t_ = mulq((b), (z), (zq));     \
        (b) = _mm512_sub_epi16((a), t_); \
        (a) = _mm512_add_epi16((a), t_); \
    } while (0)
#define GS(a, b, z, zq)                                   \
    do {                                                  \
        V t_ = (a);                                       \
        (a) = _mm512_add_epi16(t_, (b));                  \
        (b) = mulq(_mm512_sub_epi16((b), t_), (z), (zq)); \
    } while (0)

/* The regroupings of a register pair (x, y) for the in-register layers: after split16 the
 * butterflies of len 16 pair X with Y lane by lane, after split8 those of len 8, and so on.
 * Each one applied twice is the identity. scripts/gen_mlkem_avx512_tables.py mirrors them. */
static inline void split16(V *X, V *Y, V x, V y) /* 256-bit halves */
{
    *X = _mm512_shuffle_i64x2(x, y, 0x44);
    *Y = _mm512_shuffle_i64x2(x, y, 0xEE);
}
static inline void split8(V *X, V *Y, V x, V y) /* 128-bit blocks: (x0 y0 x2 y2), (x1 y1 x3 y3) */
{
    *X = _mm512_permutex2var_epi64(x, _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13), y);
    *Y = _mm512_permutex2var_epi64(x, _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15), y);
}
static inline void split4(V *X, V *Y, V x, V y) /* 64-bit halves of each 128-bit block */
{
    *X = _mm512_unpacklo_epi64(x, y);
    *Y = _mm512_unpackhi_epi64(x, y);
}
static inline void split2(V *X, V *Y, V x, V y) /* 32-bit pairs */
{
    *X = _mm512_mask_blend_epi32(0xAAAA, x, _mm512_slli_epi64(y, 32));
    *Y = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(x, 32), y);
}

static inline V zeta(unsigned i) { return set16(ZETAS[i]); }
static inline V zeta_q(unsigned i) { return set16(ZETAS_QINV[i]); }

/* Forward: layers 128, 64, 32 between the eight registers, then each register pair through
 * layers 16, 8, 4, 2. No reductions until the end: |x| < 8q after the 7 layers, then one
 * Barrett pass (as opt). */
static void avx512_ntt(mlk_poly *p)
{
    V r[8];
    for (int i = 0; i < 8; i++) r[i] = LOAD(p->c + 32 * i);
    for (int i = 0; i < 4; i++) CT(r[i], r[i + 4], zeta(1), zeta_q(1));
    for (int i = 0; i < 2; i++) {
        CT(r[i], r[i + 2], zeta(2), zeta_q(2));
        CT(r[i + 4], r[i + 6], zeta(3), zeta_q(3));
    }
    for (unsigned t = 0; t < 4; t++) {
        V x = r[2 * t], y = r[2 * t + 1], X, Y;
        CT(x, y, zeta(4 + t), zeta_q(4 + t));
        split16(&X, &Y, x, y);
        CT(X, Y, LOAD(NTT_L16[t]), LOAD(NTT_L16_QINV[t]));
        split8(&x, &y, X, Y);
        CT(x, y, LOAD(NTT_L8[t]), LOAD(NTT_L8_QINV[t]));
        split4(&X, &Y, x, y);
        CT(X, Y, LOAD(NTT_L4[t]), LOAD(NTT_L4_QINV[t]));
        split2(&x, &y, X, Y);
        CT(x, y, LOAD(NTT_L2[t]), LOAD(NTT_L2_QINV[t]));
        split2(&X, &Y, x, y);
        split4(&x, &y, X, Y);
        split8(&X, &Y, x, y);
        split16(&x, &y, X, Y);
        STORE(p->c + 64 * t, barrett(x));
        STORE(p->c + 64 * t + 32, barrett(y));
    }
}

/* Inverse: each register pair regrouped down to len 2 and through layers 2, 4, 8, 16 (undoing
 * one regrouping after each) and 32; then layers 64 and 128 between registers with the final
 * scaling. Barrett reductions after len 8 and len 64, as opt. */
static void avx512_invntt(mlk_poly *p)
{
    V r[8];
    for (unsigned t = 0; t < 4; t++) {
        V x = LOAD(p->c + 64 * t), y = LOAD(p->c + 64 * t + 32), X, Y;
        split16(&X, &Y, x, y);
        split8(&x, &y, X, Y);
        split4(&X, &Y, x, y);
        split2(&x, &y, X, Y);
        GS(x, y, LOAD(INV_L2[t]), LOAD(INV_L2_QINV[t]));
        split2(&X, &Y, x, y);
        GS(X, Y, LOAD(INV_L4[t]), LOAD(INV_L4_QINV[t]));
        split4(&x, &y, X, Y);
        GS(x, y, LOAD(INV_L8[t]), LOAD(INV_L8_QINV[t]));
        x = barrett(x);
        split8(&X, &Y, x, y);
        GS(X, Y, LOAD(INV_L16[t]), LOAD(INV_L16_QINV[t]));
        split16(&x, &y, X, Y);
        GS(x, y, zeta(7 - t), zeta_q(7 - t));
        r[2 * t] = x;
        r[2 * t + 1] = y;
    }
    for (int i = 0; i < 2; i++) {
        GS(r[i], r[i + 2], zeta(3), zeta_q(3));
        GS(r[i + 4], r[i + 6], zeta(2), zeta_q(2));
        r[i] = barrett(r[i]);
        r[i + 4] = barrett(r[i + 4]);
    }
    const V f = set16(1441), fq = set16(-10079); /* R^2 / 128 */
    for (int i = 0; i < 4; i++) {
        GS(r[i], r[i + 4], zeta(1), zeta_q(1));
        STORE(p->c + 32 * i, mulq(r[i], f, fq));
        STORE(p->c + 32 * i + 128, mulq(r[i + 4], f, fq));
    }
}

/* The cache keeps b[2p+1] * gamma_p for the 16 pairs of each 32-coefficient chunk; chunks 2c and
 * 2c+1 share one register (vpackssdw order, per 128-bit lane), unpacked again by basemul_acc. */
static void avx512_mulcache(mlk_mulcache *c, const mlk_poly *b)
{
    for (int i = 0; i < 4; i++) {
        V x0 = mulq(LOAD(b->c + 64 * i), LOAD(GAMMA[2 * i]), LOAD(GAMMA_QINV[2 * i]));
        V x1 = mulq(LOAD(b->c + 64 * i + 32), LOAD(GAMMA[2 * i + 1]), LOAD(GAMMA_QINV[2 * i + 1]));
        STORE(c->c + 32 * i, _mm512_packs_epi32(_mm512_srai_epi32(x0, 16), _mm512_srai_epi32(x1, 16)));
    }
}

/* (c0, c1) 32-bit sums for pairs -> interleaved Montgomery reductions (a - lo(a)q^-1 q) / 2^16. */
static inline V mont_pairs(V c0, V c1)
{
    V lo = _mm512_mask_blend_epi16(0xAAAAAAAA, c0, _mm512_slli_epi32(c1, 16));
    V hi = _mm512_mask_blend_epi16(0xAAAAAAAA, _mm512_srli_epi32(c0, 16), c1);
    V t = _mm512_mullo_epi16(lo, set16(-3327));
    return _mm512_sub_epi16(hi, _mm512_mulhi_epi16(t, qv()));
}

static void avx512_basemul_acc(mlk_poly *r, const mlk_poly *a, const mlk_poly *b, const mlk_mulcache *bc, unsigned k)
{
    const V swap = _mm512_broadcast_i32x4(_mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13));
    for (int i = 0; i < 8; i++) {
        V c0 = _mm512_setzero_si512(), c1 = _mm512_setzero_si512();
        for (unsigned l = 0; l < k; l++) {
            V av = LOAD(a[l].c + 32 * i), bv = LOAD(b[l].c + 32 * i);
            V cv = LOAD(bc[l].c + 32 * (i >> 1));
            V g = (i & 1) ? _mm512_unpackhi_epi16(cv, cv) : _mm512_unpacklo_epi16(cv, cv);
            c0 = _mm512_add_epi32(c0, _mm512_madd_epi16(av, _mm512_mask_blend_epi16(0xAAAAAAAA, bv, g)));
            c1 = _mm512_add_epi32(c1, _mm512_madd_epi16(av, _mm512_shuffle_epi8(bv, swap)));
        }
        STORE(r->c + 32 * i, mont_pairs(c0, c1));
    }
}

static void avx512_tomont(mlk_poly *r)
{
    const V f = set16(1353), fq = set16(20553); /* R^2 */
    for (int i = 0; i < 8; i++) STORE(r->c + 32 * i, mulq(LOAD(r->c + 32 * i), f, fq));
}

static void avx512_reduce(mlk_poly *r)
{
    for (int i = 0; i < 8; i++) STORE(r->c + 32 * i, caddq(barrett(LOAD(r->c + 32 * i))));
}

/* ---- packing ---- */

/* 48 bytes -> 32 twelve-bit values (lane 2i from bytes 3i, 3i+1, lane 2i+1 from 3i+1, 3i+2):
 * 128-bit lane L takes bytes 12L .. 12L+11 (dword permute), then a byte shuffle inside it. */
static inline V unpack12(V x)
{
    const V idx = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11));
    x = _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 9, 10, 11, 12), x);
    x = _mm512_shuffle_epi8(x, idx);
    return _mm512_mask_blend_epi16(0xAAAAAAAA, _mm512_and_si512(x, set16(0xFFF)), _mm512_srli_epi16(x, 4));
}

static void avx512_frombytes(mlk_poly *r, const uint8_t a[MLKEM_POLYBYTES])
{
    for (int i = 0; i < 8; i++) {
        V x = _mm512_sub_epi16(unpack12(_mm512_maskz_loadu_epi32(0x0FFF, a + 48 * i)), qv());
        STORE(r->c + 32 * i, caddq(x)); /* < 4096 < 2q: one conditional q */
    }
}

static void avx512_tobytes(uint8_t r[MLKEM_POLYBYTES], const mlk_poly *a)
{
    const V pack = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1));
    const V perm = _mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0);
    const V mul = _mm512_set1_epi32(1 | (4096 << 16));
    for (int i = 0; i < 8; i++) {
        V w = _mm512_madd_epi16(LOAD(a->c + 32 * i), mul); /* c[2j] + c[2j+1] << 12 */
        w = _mm512_permutexvar_epi32(perm, _mm512_shuffle_epi8(w, pack));
        _mm512_mask_storeu_epi32(r + 48 * i, 0x0FFF, w);
    }
}

/* Compress_d on [0, q): est ~ x 2^d / q from a 16-bit high product (off by at most one), then the
 * remainder r = 2^d x + 1664 - est q (exact in 16 bits: |r| < 2q) corrects it to
 * floor((2^d x + 1664) / q) = round(2^d x / q). Checked on every x for every d by the tests. */
static inline V compress_d(V x, unsigned d)
{
    static const uint16_t M[12] = {0, 2, 0, 0, 20, 39, 0, 0, 0, 0, 1260, 2520}; /* round(2^(12+d) / q) */
    V est = _mm512_mulhi_epu16(_mm512_slli_epi16(x, 4), set16(M[d]));
    V n = _mm512_add_epi16(_mm512_sll_epi16(x, _mm_cvtsi32_si128((int)d)), set16(1664));
    V r = _mm512_sub_epi16(n, _mm512_mullo_epi16(est, qv()));
    est = _mm512_mask_sub_epi16(est, _mm512_movepi16_mask(r), est, set16(1));                        /* r < 0: -1 */
    est = _mm512_mask_add_epi16(est, _mm512_cmpgt_epi16_mask(r, set16(MLKEM_Q - 1)), est, set16(1)); /* r >= q */
    return _mm512_and_si512(est, set16((1 << d) - 1));
}

/* d-bit values (d = 4, 5, 10, 11) of 32 lanes -> 4d bytes at r: pairs into 2d-bit dwords
 * (vpmaddwd), dword pairs into 4d-bit qwords, qword pairs into the 8d bits of each 128-bit lane
 * (crossing into its upper qword when 8d > 64); each lane's d bytes stored under a byte mask. */
static inline void pack_d(uint8_t *r, V c, unsigned d)
{
    V w = _mm512_madd_epi16(c, _mm512_set1_epi32(1 | (1 << (d + 16))));
    V u = _mm512_or_si512(_mm512_and_si512(w, _mm512_set1_epi64(0xFFFFFFFF)),
                          _mm512_sll_epi64(_mm512_srli_epi64(w, 32), _mm_cvtsi32_si128(2 * (int)d)));
    V hi = _mm512_bsrli_epi128(u, 8); /* each lane's upper qword moved down */
    V lo = _mm512_or_si512(u, _mm512_sll_epi64(hi, _mm_cvtsi32_si128(4 * (int)d)));
    if (d > 8) lo = _mm512_mask_blend_epi64(0xAA, lo, _mm512_srl_epi64(u, _mm_cvtsi32_si128(64 - 4 * (int)d)));
    const __mmask16 m = (__mmask16)((1u << d) - 1);
    _mm_mask_storeu_epi8(r, m, _mm512_castsi512_si128(lo));
    _mm_mask_storeu_epi8(r + d, m, _mm512_extracti32x4_epi32(lo, 1));
    _mm_mask_storeu_epi8(r + 2 * d, m, _mm512_extracti32x4_epi32(lo, 2));
    _mm_mask_storeu_epi8(r + 3 * d, m, _mm512_extracti32x4_epi32(lo, 3));
}

static void avx512_compress(uint8_t *r, const mlk_poly *a, unsigned d)
{
    for (int i = 0; i < 8; i++) {
        V c = compress_d(LOAD(a->c + 32 * i), d);
        if (d == 1) {
            uint32_t m = _mm512_test_epi16_mask(c, c);
            memcpy(r + 4 * i, &m, 4); /* x86 is little-endian */
        } else {
            pack_d(r + 4 * d * i, c, d);
        }
    }
}

/* 4d bytes at a -> 32 d-bit values: lane j's value starts at bit dj, inside the two 16-bit words
 * from word dj/16 (vpermw gathers them into one dword per value, sixteen values per register),
 * shifted right by dj mod 16 (vpsrlvd); tables_avx512.h has the index and shift vectors. */
static inline V unpack_d(V x, V idx0, V idx1, V sh0, V sh1, unsigned d)
{
    const V m = _mm512_set1_epi32((1 << d) - 1);
    V v0 = _mm512_and_si512(_mm512_srlv_epi32(_mm512_permutexvar_epi16(idx0, x), sh0), m);
    V v1 = _mm512_and_si512(_mm512_srlv_epi32(_mm512_permutexvar_epi16(idx1, x), sh1), m);
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(v0)), _mm512_cvtepi32_epi16(v1), 1);
}

static void avx512_decompress(mlk_poly *r, const uint8_t *a, unsigned d)
{
    if (d == 1) {
        for (int i = 0; i < 8; i++) {
            uint32_t m;
            memcpy(&m, a + 4 * i, 4);
            STORE(r->c + 32 * i, _mm512_maskz_mov_epi16(m, set16(1665))); /* round(q / 2) */
        }
        return;
    }
    const unsigned t = d == 4 ? 0 : d == 5 ? 1 : d == 10 ? 2 : 3; /* DEC_IDX / DEC_SHIFT row */
    const V i0 = LOAD(DEC_IDX[t][0]), i1 = LOAD(DEC_IDX[t][1]), s0 = LOAD(DEC_SHIFT[t][0]), s1 = LOAD(DEC_SHIFT[t][1]);
    const __mmask64 lm = ((__mmask64)1 << (4 * d)) - 1;
    const __m128i up = _mm_cvtsi32_si128(15 - (int)d);
    for (int i = 0; i < 8; i++) {
        V y = unpack_d(_mm512_maskz_loadu_epi8(lm, a + 4 * d * i), i0, i1, s0, s1, d);
        STORE(r->c + 32 * i, _mm512_mulhrs_epi16(_mm512_sll_epi16(y, up), qv())); /* (q y + 2^(d-1)) >> d */
    }
}

/* ---- CBD ---- */

/* eta = 2: each nibble b0..b3 gives b0 + b1 - b2 - b3 (looked up in-register by vpshufb);
 * coefficient 2i from the low nibble of byte i, 2i+1 from the high nibble. */
static void cbd2(mlk_poly *r, const uint8_t *buf)
{
    const V tbl = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 1, 2, -1, 0, 0, 1, -1, 0, 0, 1, -2, -1, -1, 0));
    const V m4 = _mm512_set1_epi8(15);
    for (int i = 0; i < 2; i++) {
        V x = _mm512_loadu_si512((const void *)(buf + 64 * i));
        V lo = _mm512_shuffle_epi8(tbl, _mm512_and_si512(x, m4));
        V hi = _mm512_shuffle_epi8(tbl, _mm512_and_si512(_mm512_srli_epi16(x, 4), m4));
        V i0 = _mm512_unpacklo_epi8(lo, hi), i1 = _mm512_unpackhi_epi8(lo, hi); /* per 128-bit lane */
        V A = _mm512_permutex2var_epi64(i0, _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), i1);
        V B = _mm512_permutex2var_epi64(i0, _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15), i1);
        int16_t *o = r->c + 128 * i;
        STORE(o, _mm512_cvtepi8_epi16(_mm512_castsi512_si256(A)));
        STORE(o + 32, _mm512_cvtepi8_epi16(_mm512_extracti64x4_epi64(A, 1)));
        STORE(o + 64, _mm512_cvtepi8_epi16(_mm512_castsi512_si256(B)));
        STORE(o + 96, _mm512_cvtepi8_epi16(_mm512_extracti64x4_epi64(B, 1)));
    }
}

/* eta = 3: 3 bytes -> 4 coefficients, one dword lane per 3 bytes, 48 bytes per step: per lane
 * the 3-bit sums of each bit position's triple, then the differences of consecutive sums. */
static void cbd3(mlk_poly *r, const uint8_t *buf)
{
    const V idx = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1));
    const V spread = _mm512_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 9, 10, 11, 12);
    const V m249 = _mm512_set1_epi32(0x249249), m7 = _mm512_set1_epi32(7), m7h = _mm512_set1_epi32(0x70000);
    for (int i = 0; i < 4; i++) {
        V x = _mm512_maskz_loadu_epi32(0x0FFF, buf + 48 * i);
        x = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(spread, x), idx);
        V t = _mm512_and_si512(x, m249);
        t = _mm512_add_epi32(t, _mm512_and_si512(_mm512_srli_epi32(x, 1), m249));
        t = _mm512_add_epi32(t, _mm512_and_si512(_mm512_srli_epi32(x, 2), m249));
        V a01 = _mm512_or_si512(_mm512_and_si512(t, m7), _mm512_and_si512(_mm512_slli_epi32(t, 10), m7h));
        V b01 = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi32(t, 3), m7),
                                _mm512_and_si512(_mm512_slli_epi32(t, 7), m7h));
        V a23 = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi32(t, 12), m7),
                                _mm512_and_si512(_mm512_srli_epi32(t, 2), m7h));
        V b23 = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi32(t, 15), m7),
                                _mm512_and_si512(_mm512_srli_epi32(t, 5), m7h));
        V c01 = _mm512_sub_epi16(a01, b01), c23 = _mm512_sub_epi16(a23, b23);
        V lo = _mm512_unpacklo_epi32(c01, c23), hi = _mm512_unpackhi_epi32(c01, c23);
        STORE(r->c + 64 * i, _mm512_permutex2var_epi64(lo, _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), hi));
        STORE(r->c + 64 * i + 32, _mm512_permutex2var_epi64(lo, _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15), hi));
    }
}

static void cbd(mlk_poly *r, const uint8_t *buf, unsigned eta)
{
    if (eta == 2) cbd2(r, buf);
    else cbd3(r, buf);
}

/* ---- rejection sampling ---- */

/* SampleNTT's acceptance loop, 32 candidates (48 bytes) per step, the accepted ones of each half
 * packed by vpcompressd. While 32 more values fit, both halves are stored whole at addresses known
 * at the start of the step (what lands past the accepted values is overwritten by later steps);
 * near the end, under a mask that stops at 256. The scalar loop takes the last bytes. Branches on
 * the XOF output, which comes from rho (public). */
static unsigned rej_uniform(int16_t *r, unsigned ctr, const uint8_t *buf, size_t buflen)
{
    size_t pos = 0;
    for (; ctr + 32 <= MLKEM_N && pos + 48 <= buflen; pos += 48) {
        V x = unpack12(_mm512_maskz_loadu_epi32(0x0FFF, buf + pos));
        const __mmask32 ok = _mm512_cmplt_epu16_mask(x, qv());
        V w0 = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(x));
        V w1 = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(x, 1));
        const unsigned n0 = (unsigned)__builtin_popcount(ok & 0xFFFF);
        _mm256_storeu_si256((__m256i *)(r + ctr),
                            _mm512_cvtepi32_epi16(_mm512_maskz_compress_epi32((__mmask16)ok, w0)));
        _mm256_storeu_si256((__m256i *)(r + ctr + n0),
                            _mm512_cvtepi32_epi16(_mm512_maskz_compress_epi32((__mmask16)(ok >> 16), w1)));
        ctr += (unsigned)__builtin_popcount(ok);
    }
    for (; ctr < MLKEM_N && pos + 48 <= buflen; pos += 48) {
        V x = unpack12(_mm512_maskz_loadu_epi32(0x0FFF, buf + pos));
        __mmask32 ok = _mm512_cmplt_epu16_mask(x, qv());
        for (int h = 0; h < 2; h++) {
            const __mmask16 m = (__mmask16)(ok >> (16 * h));
            V w = _mm512_cvtepu16_epi32(h ? _mm512_extracti64x4_epi64(x, 1) : _mm512_castsi512_si256(x));
            unsigned n = (unsigned)__builtin_popcount(m), room = MLKEM_N - ctr;
            n = n < room ? n : room;
            _mm256_mask_storeu_epi16(r + ctr, (__mmask16)((1u << n) - 1),
                                     _mm512_cvtepi32_epi16(_mm512_maskz_compress_epi32(m, w)));
            ctr += n;
        }
    }
    return ctr < MLKEM_N ? nuri_mlkem_rej_uniform(r, ctr, buf + pos, buflen - pos) : ctr;
}

/* ---- ek check ---- */

/* kem.c's ek check over t-hat (backend hook ek_scan), 32 values per step through unpack12: *bad
 * nonzero when a value is >= q, *zeros the count of zero values. Branch-free (ek is public). */
static void avx512_ek_scan(const uint8_t *ek, unsigned k, unsigned *bad, unsigned *zeros)
{
    __mmask32 ok = 0xFFFFFFFF;
    unsigned z = 0;
    for (unsigned i = 0; i < 8 * k; i++) {
        V x = unpack12(_mm512_maskz_loadu_epi32(0x0FFF, ek + 48 * i));
        ok &= _mm512_cmplt_epu16_mask(x, qv());
        z += 32 - (unsigned)__builtin_popcount(_mm512_test_epi16_mask(x, x));
    }
    *bad = ~ok;
    *zeros = z;
}

/* The single-state permutation of kem.c's own sponge steps: the BMI2 build where the CPU has it. */
static void avx512_keccakf1(uint64_t s[25])
{
    if (nuri_cpu_has(NURI_CPU_BMI2)) nuri_keccakf1600_bmi2(s);
    else nuri_keccakf1600(s);
}

/* ---- Keccak work: matrix, noise and hashes as one task list on the eight-way Keccak ---- */

enum { NMAT = MLKEM_KMAX * MLKEM_KMAX, NNOISE = 40, NJOB = 8 };

/* The noise polynomials whose PRF outputs are ready: SamplePolyCBD of each. */
typedef struct {
    mlk_poly *r[NNOISE];
    unsigned eta[NNOISE], n;
    _Alignas(64) uint8_t buf[NNOISE][3 * 64];
    uint8_t in[NNOISE][33];
} noise_batch;

static void noise_finish(noise_batch *b)
{
    for (unsigned i = 0; i < b->n; i++) cbd(b->r[i], b->buf[i], b->eta[i]);
    nuri_wipe(b->buf, b->n * sizeof b->buf[0]);
    nuri_wipe(b->in, b->n * sizeof b->in[0]);
    b->n = 0;
}

/* Everything of one kem.c step in one task list: matrix entries (SHAKE128, squeezing 3 blocks --
 * 504 bytes, enough for all but ~0.7% of the entries -- or 4 beside hash jobs or a hash in
 * progress, whose longer chains leave room in the other lanes for the fourth block, after which a
 * short entry has probability ~1e-37), the noise PRFs (SHAKE256), the hash jobs and the blocks of
 * a hash in progress; lists longer than the buffers run in turn. An entry still short continues its
 * XOF on one state (rho is public: branching on it is fine). */
static void avx512_sample_many(const mlk_sample_req *q)
{
    nuri_keccak_task t[NMAT + NNOISE + NJOB + 1];
    _Alignas(64) uint8_t mat[NMAT][4 * NURI_SHAKE128_RATE];
    uint8_t in[NMAT][34];
    noise_batch nb;
    const unsigned k = q->a ? q->k : 0, e0 = q->a ? q->row0 * k : 0, e1 = q->a ? (q->row0 + q->rows) * k : 0;
    const unsigned mat_blocks = q->n_jobs || q->n_absorb ? 4 : 3;
    unsigned nt = 0, jobs_done = 0;
    nb.n = 0;
    for (unsigned e = e0; e < e1; e++) {
        unsigned row = e / k, col = e % k;
        memcpy(in[e], q->rho, 32);
        in[e][32] = (uint8_t)(q->transposed ? row : col);
        in[e][33] = (uint8_t)(q->transposed ? col : row);
        t[nt++] = (nuri_keccak_task){.job = {NULL, 0, in[e], 34, mat[e], mat_blocks * NURI_SHAKE128_RATE, 0x1F},
                                     .rate = NURI_SHAKE128_RATE};
    }
    if (q->n_absorb) /* a hash in progress: whole blocks into its saved state */
        t[nt++] =
            (nuri_keccak_task){.job = {NULL, 0, q->absorb_in, (size_t)NURI_SHA3_256_RATE * q->n_absorb, NULL, 0, 0},
                               .rate = NURI_SHA3_256_RATE,
                               .state = q->absorb_st};
    for (; jobs_done < q->n_jobs && jobs_done < NJOB; jobs_done++)
        t[nt++] = (nuri_keccak_task){.job = q->jobs[jobs_done], .rate = q->rate};
    for (unsigned g = 0; g < q->n_noise; g++) {
        const mlk_noise *z = &q->noise[g];
        for (unsigned i = 0; i < z->n; i++) {
            if (nb.n == NNOISE) { /* buffers full: run what is listed */
                nuri_keccak_tasks_x8_avx512(t, nt);
                noise_finish(&nb);
                nt = 0;
            }
            memcpy(nb.in[nb.n], z->seed, 32);
            nb.in[nb.n][32] = (uint8_t)(z->nonce0 + i);
            nb.r[nb.n] = &z->r[i];
            nb.eta[nb.n] = z->eta;
            t[nt++] = (nuri_keccak_task){.job = {NULL, 0, nb.in[nb.n], 33, nb.buf[nb.n], 64 * z->eta, 0x1F},
                                         .rate = NURI_SHAKE256_RATE};
            nb.n++;
        }
    }
    nuri_keccak_tasks_x8_avx512(t, nt);
    noise_finish(&nb); /* wipes the PRF outputs and inputs it used */
    if (jobs_done < q->n_jobs) nuri_keccak_jobs_x8_avx512(q->jobs + jobs_done, q->n_jobs - jobs_done, q->rate);

    for (unsigned e = e0; e < e1; e++) {
        unsigned c = rej_uniform(q->a[e].c, 0, mat[e], mat_blocks * NURI_SHAKE128_RATE);
        if (c < MLKEM_N) {
            uint64_t st[25];
            uint8_t blk[NURI_SHAKE128_RATE];
            nuri_shake_absorb_once(st, NURI_SHAKE128_RATE, in[e], 34);
            for (unsigned b = 0; b < mat_blocks; b++) nuri_shake_squeezeblocks(blk, 1, st, NURI_SHAKE128_RATE);
            while (c < MLKEM_N) {
                nuri_shake_squeezeblocks(blk, 1, st, NURI_SHAKE128_RATE);
                c = rej_uniform(q->a[e].c, c, blk, sizeof blk);
            }
        }
    }
}

static void avx512_gen_matrix(mlk_poly *a, const uint8_t rho[32], unsigned k, int transposed)
{
    avx512_sample_many(&(mlk_sample_req){.a = a, .rho = rho, .k = k, .transposed = transposed, .rows = k});
}

/* Key generation's matrix in two steps: rows 0..k-2 with s and e, then the last row beside H
 * absorbing the part of ek those rows give (for k = 3: 13 Keccak steps instead of 16). For
 * k = 2 the split costs more than it saves. */
static unsigned avx512_keygen_rows(unsigned k) { return k >= 3 ? k - 1 : k; }

static void avx512_sample_cbd(mlk_poly *r, unsigned n, const uint8_t seed[32], uint8_t nonce0, unsigned eta)
{
    const mlk_noise z = {r, seed, n, eta, nonce0};
    avx512_sample_many(&(mlk_sample_req){.noise = &z, .n_noise = 1});
}

#if defined(NURI_AVX512_EMULATED) /* runs wherever the AVX2 code the portable intrinsics became runs */
#define AVX512_CPU  NURI_CPU_AVX2
#define AVX512_NOTE " (emulated build: portable intrinsics)"
#else
#define AVX512_CPU  (NURI_CPU_AVX2 | NURI_CPU_AVX512F | NURI_CPU_AVX512BW | NURI_CPU_AVX512VL)
#define AVX512_NOTE ""
#endif

const nuri_mlkem_backend nuri_mlkem_backend_avx512 = {
    .info = {"avx512", AVX512_CPU, 1,
             "AVX-512: 32-lane NTT/basemul/compression/rejection sampling, 8-way AVX-512 Keccak running matrix, "
             "noise and hashes side by side" AVX512_NOTE},
    .ntt = avx512_ntt,
    .invntt = avx512_invntt,
    .mulcache = avx512_mulcache,
    .basemul_acc = avx512_basemul_acc,
    .tomont = avx512_tomont,
    .reduce = avx512_reduce,
    .tobytes = avx512_tobytes,
    .frombytes = avx512_frombytes,
    .compress = avx512_compress,
    .decompress = avx512_decompress,
    .sample_cbd = avx512_sample_cbd,
    .gen_matrix = avx512_gen_matrix,
    .keccak_jobs = nuri_keccak_jobs_x8_avx512,
    .sample_many = avx512_sample_many,
    .keygen_rows = avx512_keygen_rows,
    .keccakf1 = avx512_keccakf1,
    .ek_scan = avx512_ek_scan,
};
