/* ML-KEM kernels in NEON ("neon"): eight 16-bit coefficients per 128-bit register.
 *  - Multiplication by a constant w is Barrett multiplication: a*w - round(a*w'/2^15)*q with
 *    w' = round(w*2^15/q) (MUL, SQRDMULH, MLS), in (-q, q) for every int16 a, with no Montgomery
 *    factor, so the twiddles are plain powers of zeta (scripts/gen_mlkem_neon_tables.py);
 *  - NTT in two steps: layers len 128..16 on 16 registers at a time (every other register of the
 *    polynomial), then len 8, 4, 2 on each register pair, with 64- and 32-bit transposes that
 *    leave FIPS 203's order in place when they are undone; no reduction until the end (|x| < 8q);
 *    the inverse runs the same steps backwards, reduces after len 8 and len 64, and folds the
 *    final scaling by R/128 into the last layer;
 *  - base multiplication on de-interleaved (even, odd) coefficients (LD2/ST2) with 32-bit sums of
 *    k products and one Montgomery reduction, as the interface asks (R^-1 times the sum);
 *  - Compress_d by a 16-bit quotient estimate and one correction step; packing and unpacking
 *    with table lookups (TBL), pairwise additions and shift-inserts; Decompress_d as one SQRDMULH;
 *  - every hash through the two-way Keccak of src/common/keccakx2_neon.c (the SHA-3 extension's
 *    permutation on CPUs that have it): matrix entries and noise polynomials in pairs, the
 *    hashes of one step of kem.c side by side; rejection sampling sixteen candidates at a time,
 *    the accepted ones moved together with a table of byte shuffles indexed by their mask (the
 *    matrix comes from rho, which is public).
 * No secret-dependent branches or memory indices. */
#if defined(NURI_NEON_EMULATED)
#include "neon_emul.h" /* test builds: the same code through portable intrinsics */
#else
#include <arm_neon.h>
#endif

#include "../mlkem_impl.h"
#include "keccak_job.h"
#include "tables_neon.h"

#define Q MLKEM_Q

typedef int16x8_t V;

/* a * w mod q in (-q, q), wb = w's Barrett multiplier. */
static inline V bmul(V a, V w, V wb, V q) { return vmlsq_s16(vmulq_s16(a, w), vqrdmulhq_s16(a, wb), q); }

/* The same with w, wb lane i of two registers (i a constant). */
#define BMUL_LANE(a, w, wb, i, q) vmlsq_s16(vmulq_laneq_s16((a), (w), (i)), vqrdmulhq_laneq_s16((a), (wb), (i)), (q))

/* a - round(a * 20159 / 2^26) * q, in [-(q-1)/2, (q-1)/2] for every int16 a. */
static inline V barrett(V a, V q) { return vmlsq_s16(a, vrshrq_n_s16(vqdmulhq_n_s16(a, 20159), 11), q); }

/* ---- NTT ---- */

/* Cooley-Tukey butterfly (x, y) <- (x + zeta y, x - zeta y), zeta = lane i of the top table. */
#define CT(x, y, i)                                                                  \
    do {                                                                             \
        const V t_ = BMUL_LANE(y, (i) < 8 ? w0 : w1, (i) < 8 ? b0 : b1, (i) & 7, q); \
        y = vsubq_s16(x, t_);                                                        \
        x = vaddq_s16(x, t_);                                                        \
    } while (0)
/* Gentleman-Sande butterfly (x, y) <- (x + y, zeta (y - x)). */
#define GS(x, y, i)                                                          \
    do {                                                                     \
        const V d_ = vsubq_s16(y, x);                                        \
        x = vaddq_s16(x, y);                                                 \
        y = BMUL_LANE(d_, (i) < 8 ? w0 : w1, (i) < 8 ? b0 : b1, (i) & 7, q); \
    } while (0)

#define LOAD16                                                                                              \
    V x0 = vld1q_s16(p + 0), x1 = vld1q_s16(p + 16), x2 = vld1q_s16(p + 32), x3 = vld1q_s16(p + 48),        \
      x4 = vld1q_s16(p + 64), x5 = vld1q_s16(p + 80), x6 = vld1q_s16(p + 96), x7 = vld1q_s16(p + 112),      \
      x8 = vld1q_s16(p + 128), x9 = vld1q_s16(p + 144), x10 = vld1q_s16(p + 160), x11 = vld1q_s16(p + 176), \
      x12 = vld1q_s16(p + 192), x13 = vld1q_s16(p + 208), x14 = vld1q_s16(p + 224), x15 = vld1q_s16(p + 240)
#define STORE16              \
    vst1q_s16(p + 0, x0);    \
    vst1q_s16(p + 16, x1);   \
    vst1q_s16(p + 32, x2);   \
    vst1q_s16(p + 48, x3);   \
    vst1q_s16(p + 64, x4);   \
    vst1q_s16(p + 80, x5);   \
    vst1q_s16(p + 96, x6);   \
    vst1q_s16(p + 112, x7);  \
    vst1q_s16(p + 128, x8);  \
    vst1q_s16(p + 144, x9);  \
    vst1q_s16(p + 160, x10); \
    vst1q_s16(p + 176, x11); \
    vst1q_s16(p + 192, x12); \
    vst1q_s16(p + 208, x13); \
    vst1q_s16(p + 224, x14); \
    vst1q_s16(p + 240, x15)

static void neon_ntt(mlk_poly *poly)
{
    const V q = vdupq_n_s16(Q);
    /* len 128, 64, 32, 16: registers c, c+2, ..., c+30 (x_m = coefficients 8(c+2m) .. +7) are
     * closed under these layers */
    {
        const V w0 = vld1q_s16(neon_fwd_top[0]), w1 = vld1q_s16(neon_fwd_top[0] + 8);
        const V b0 = vld1q_s16(neon_fwd_top[1]), b1 = vld1q_s16(neon_fwd_top[1] + 8);
        for (unsigned c = 0; c < 2; c++) {
            int16_t *p = poly->c + 8 * c;
            LOAD16;
            CT(x0, x8, 1);
            CT(x1, x9, 1);
            CT(x2, x10, 1);
            CT(x3, x11, 1);
            CT(x4, x12, 1);
            CT(x5, x13, 1);
            CT(x6, x14, 1);
            CT(x7, x15, 1);
            CT(x0, x4, 2);
            CT(x1, x5, 2);
            CT(x2, x6, 2);
            CT(x3, x7, 2);
            CT(x8, x12, 3);
            CT(x9, x13, 3);
            CT(x10, x14, 3);
            CT(x11, x15, 3);
            CT(x0, x2, 4);
            CT(x1, x3, 4);
            CT(x4, x6, 5);
            CT(x5, x7, 5);
            CT(x8, x10, 6);
            CT(x9, x11, 6);
            CT(x12, x14, 7);
            CT(x13, x15, 7);
            CT(x0, x1, 8);
            CT(x2, x3, 9);
            CT(x4, x5, 10);
            CT(x6, x7, 11);
            CT(x8, x9, 12);
            CT(x10, x11, 13);
            CT(x12, x13, 14);
            CT(x14, x15, 15);
            STORE16;
        }
    }
    /* len 8, 4, 2 on each register pair (a, b) = coefficients 16m .. 16m+15 */
    for (unsigned m = 0; m < 16; m++) {
        const int16_t(*t)[8] = neon_fwd_pairs[m];
        int16_t *p = poly->c + 16 * m;
        V a = vld1q_s16(p), b = vld1q_s16(p + 8);
        V u = bmul(b, vld1q_s16(t[0]), vld1q_s16(t[1]), q);
        b = vsubq_s16(a, u);
        a = vaddq_s16(a, u);
        /* len 4: x = the first halves of a and b, y = the second halves */
        V x = vreinterpretq_s16_s64(vzip1q_s64(vreinterpretq_s64_s16(a), vreinterpretq_s64_s16(b)));
        V y = vreinterpretq_s16_s64(vzip2q_s64(vreinterpretq_s64_s16(a), vreinterpretq_s64_s16(b)));
        u = bmul(y, vld1q_s16(t[2]), vld1q_s16(t[3]), q);
        y = vsubq_s16(x, u);
        x = vaddq_s16(x, u);
        /* len 2: e = coefficients 0, 1 of each 4-coefficient block, f = coefficients 2, 3 */
        V e = vreinterpretq_s16_s32(vtrn1q_s32(vreinterpretq_s32_s16(x), vreinterpretq_s32_s16(y)));
        V f = vreinterpretq_s16_s32(vtrn2q_s32(vreinterpretq_s32_s16(x), vreinterpretq_s32_s16(y)));
        u = bmul(f, vld1q_s16(t[4]), vld1q_s16(t[5]), q);
        f = vsubq_s16(e, u);
        e = vaddq_s16(e, u);
        a = vreinterpretq_s16_s32(vzip1q_s32(vreinterpretq_s32_s16(e), vreinterpretq_s32_s16(f)));
        b = vreinterpretq_s16_s32(vzip2q_s32(vreinterpretq_s32_s16(e), vreinterpretq_s32_s16(f)));
        vst1q_s16(p, barrett(a, q));
        vst1q_s16(p + 8, barrett(b, q));
    }
}

static void neon_invntt(mlk_poly *poly)
{
    const V q = vdupq_n_s16(Q);
    /* len 2, 4, 8 on each register pair: the transposes of neon_ntt undone in reverse */
    for (unsigned m = 0; m < 16; m++) {
        const int16_t(*t)[8] = neon_inv_pairs[m];
        int16_t *p = poly->c + 16 * m;
        V a = vld1q_s16(p), b = vld1q_s16(p + 8);
        V e = vreinterpretq_s16_s32(vuzp1q_s32(vreinterpretq_s32_s16(a), vreinterpretq_s32_s16(b)));
        V f = vreinterpretq_s16_s32(vuzp2q_s32(vreinterpretq_s32_s16(a), vreinterpretq_s32_s16(b)));
        V d = vsubq_s16(f, e);
        e = vaddq_s16(e, f);
        f = bmul(d, vld1q_s16(t[0]), vld1q_s16(t[1]), q);
        V x = vreinterpretq_s16_s32(vtrn1q_s32(vreinterpretq_s32_s16(e), vreinterpretq_s32_s16(f)));
        V y = vreinterpretq_s16_s32(vtrn2q_s32(vreinterpretq_s32_s16(e), vreinterpretq_s32_s16(f)));
        d = vsubq_s16(y, x);
        x = vaddq_s16(x, y);
        y = bmul(d, vld1q_s16(t[2]), vld1q_s16(t[3]), q);
        a = vreinterpretq_s16_s64(vzip1q_s64(vreinterpretq_s64_s16(x), vreinterpretq_s64_s16(y)));
        b = vreinterpretq_s16_s64(vzip2q_s64(vreinterpretq_s64_s16(x), vreinterpretq_s64_s16(y)));
        d = vsubq_s16(b, a);
        a = vaddq_s16(a, b); /* |a| < 8q: reduced */
        b = bmul(d, vld1q_s16(t[4]), vld1q_s16(t[5]), q);
        vst1q_s16(p, barrett(a, q));
        vst1q_s16(p + 8, b);
    }
    /* len 16, 32, 64 (sums reduced after it), and 128 with the scaling by R/128 */
    const V w0 = vld1q_s16(neon_inv_top[0]), w1 = vld1q_s16(neon_inv_top[0] + 8);
    const V b0 = vld1q_s16(neon_inv_top[1]), b1 = vld1q_s16(neon_inv_top[1] + 8);
    for (unsigned c = 0; c < 2; c++) {
        int16_t *p = poly->c + 8 * c;
        LOAD16;
        GS(x0, x1, 15);
        GS(x2, x3, 14);
        GS(x4, x5, 13);
        GS(x6, x7, 12);
        GS(x8, x9, 11);
        GS(x10, x11, 10);
        GS(x12, x13, 9);
        GS(x14, x15, 8);
        GS(x0, x2, 7);
        GS(x1, x3, 7);
        GS(x4, x6, 6);
        GS(x5, x7, 6);
        GS(x8, x10, 5);
        GS(x9, x11, 5);
        GS(x12, x14, 4);
        GS(x13, x15, 4);
        GS(x0, x4, 3);
        GS(x1, x5, 3);
        GS(x2, x6, 3);
        GS(x3, x7, 3);
        GS(x8, x12, 2);
        GS(x9, x13, 2);
        GS(x10, x14, 2);
        GS(x11, x15, 2);
        x0 = barrett(x0, q);
        x1 = barrett(x1, q);
        x2 = barrett(x2, q);
        x3 = barrett(x3, q);
        x8 = barrett(x8, q);
        x9 = barrett(x9, q);
        x10 = barrett(x10, q);
        x11 = barrett(x11, q);
#define GS_LAST(x, y)                                 \
    do {                                              \
        const V d_ = vsubq_s16(y, x);                 \
        x = BMUL_LANE(vaddq_s16(x, y), w0, b0, 0, q); \
        y = BMUL_LANE(d_, w0, b0, 1, q);              \
    } while (0)
        GS_LAST(x0, x8);
        GS_LAST(x1, x9);
        GS_LAST(x2, x10);
        GS_LAST(x3, x11);
        GS_LAST(x4, x12);
        GS_LAST(x5, x13);
        GS_LAST(x6, x14);
        GS_LAST(x7, x15);
#undef GS_LAST
        STORE16;
    }
}

/* ---- base multiplication ---- */

static void neon_mulcache(mlk_mulcache *c, const mlk_poly *b)
{
    const V q = vdupq_n_s16(Q);
    for (unsigned i = 0; i < 16; i++) { /* pairs 8i .. 8i+7: their odd coefficients times gamma */
        const int16x8x2_t y = vld2q_s16(b->c + 16 * i);
        vst1q_s16(c->c + 8 * i, bmul(y.val[1], vld1q_s16(neon_gamma[0] + 8 * i), vld1q_s16(neon_gamma[1] + 8 * i), q));
    }
}

/* R^-1 * (lo, hi) mod q for 32-bit lanes |x| < q * 2^15, in (-q, q). */
static inline V mont_reduce(int32x4_t lo, int32x4_t hi, V q)
{
    const V t = vmulq_s16(vuzp1q_s16(vreinterpretq_s16_s32(lo), vreinterpretq_s16_s32(hi)), vdupq_n_s16(-3327));
    lo = vmlsl_s16(lo, vget_low_s16(t), vget_low_s16(q));
    hi = vmlsl_high_s16(hi, t, q);
    return vuzp2q_s16(vreinterpretq_s16_s32(lo), vreinterpretq_s16_s32(hi));
}

static void neon_basemul_acc(mlk_poly *r, const mlk_poly *a, const mlk_poly *b, const mlk_mulcache *bc, unsigned k)
{
    const V q = vdupq_n_s16(Q);
    for (unsigned i = 0; i < 16; i++) { /* pairs 8i .. 8i+7 */
        int32x4_t c0l = vdupq_n_s32(0), c0h = c0l, c1l = c0l, c1h = c0l;
        for (unsigned l = 0; l < k; l++) {
            const int16x8x2_t x = vld2q_s16(a[l].c + 16 * i), y = vld2q_s16(b[l].c + 16 * i);
            const V g = vld1q_s16(bc[l].c + 8 * i);
            c0l = vmlal_s16(c0l, vget_low_s16(x.val[0]), vget_low_s16(y.val[0]));
            c0h = vmlal_high_s16(c0h, x.val[0], y.val[0]);
            c0l = vmlal_s16(c0l, vget_low_s16(x.val[1]), vget_low_s16(g));
            c0h = vmlal_high_s16(c0h, x.val[1], g);
            c1l = vmlal_s16(c1l, vget_low_s16(x.val[0]), vget_low_s16(y.val[1]));
            c1h = vmlal_high_s16(c1h, x.val[0], y.val[1]);
            c1l = vmlal_s16(c1l, vget_low_s16(x.val[1]), vget_low_s16(y.val[0]));
            c1h = vmlal_high_s16(c1h, x.val[1], y.val[0]);
        }
        int16x8x2_t o;
        o.val[0] = mont_reduce(c0l, c0h, q);
        o.val[1] = mont_reduce(c1l, c1h, q);
        vst2q_s16(r->c + 16 * i, o);
    }
}

static void neon_tomont(mlk_poly *r)
{
    const V q = vdupq_n_s16(Q), w = vdupq_n_s16(NEON_TOMONT), wb = vdupq_n_s16(NEON_TOMONT_B);
    for (unsigned i = 0; i < 32; i++) vst1q_s16(r->c + 8 * i, bmul(vld1q_s16(r->c + 8 * i), w, wb, q));
}

static void neon_reduce(mlk_poly *r)
{
    const V q = vdupq_n_s16(Q);
    for (unsigned i = 0; i < 32; i++) {
        const V x = barrett(vld1q_s16(r->c + 8 * i), q);
        vst1q_s16(r->c + 8 * i, vaddq_s16(x, vandq_s16(vshrq_n_s16(x, 15), q)));
    }
}

/* ---- 12-bit packing ---- */

static void neon_tobytes(uint8_t r[MLKEM_POLYBYTES], const mlk_poly *a)
{
    for (unsigned i = 0; i < 16; i++) { /* 16 coefficients -> 24 bytes */
        const uint16x8x2_t v = vld2q_u16((const uint16_t *)a->c + 16 * i);
        uint8x8x3_t o;
        o.val[0] = vmovn_u16(v.val[0]);
        o.val[1] = vmovn_u16(vsliq_n_u16(vshrq_n_u16(v.val[0], 8), v.val[1], 4));
        o.val[2] = vshrn_n_u16(v.val[1], 4);
        vst3_u8(r + 24 * i, o);
    }
}

static void neon_frombytes(mlk_poly *r, const uint8_t a[MLKEM_POLYBYTES])
{
    const uint16x8_t q = vdupq_n_u16(Q), m12 = vdupq_n_u16(0xFFF);
    for (unsigned i = 0; i < 16; i++) { /* 24 bytes -> 16 coefficients, reduced mod q */
        const uint8x8x3_t t = vld3_u8(a + 24 * i);
        const uint16x8_t w1 = vmovl_u8(t.val[1]);
        uint16x8x2_t o;
        o.val[0] = vandq_u16(vsliq_n_u16(vmovl_u8(t.val[0]), w1, 8), m12);
        o.val[1] = vsliq_n_u16(vshrq_n_u16(w1, 4), vmovl_u8(t.val[2]), 4);
        o.val[0] = vminq_u16(o.val[0], vsubq_u16(o.val[0], q)); /* x < 4096: x - q if x >= q */
        o.val[1] = vminq_u16(o.val[1], vsubq_u16(o.val[1], q));
        vst2q_u16((uint16_t *)r->c + 16 * i, o);
    }
}

/* ---- compression ---- */

/* Compress_d(x) = round(2^d x / q) mod 2^d for x in [0, q): the estimate t = floor(x C / 2^12),
 * C = ceil(2^(12+d) / q), is the rounded quotient or one below it; r = 2^d x - t q (exact in
 * 16 bits) tells which (r > (q-1)/2: one below). Checked for every x and d by tests/mlkem. */
#define COMPRESS(x, d, C)                                                                    \
    __extension__({                                                                          \
        const V t_ = vqdmulhq_n_s16(vshlq_n_s16((x), 3), (C));                               \
        const V r_ = vmlsq_s16(vshlq_n_s16((x), (d)), t_, q);                                \
        const V u_ = vsubq_s16(t_, vreinterpretq_s16_u16(vcgtq_s16(r_, vdupq_n_s16(1664)))); \
        vreinterpretq_u16_s16(vandq_s16(u_, vdupq_n_s16((1 << (d)) - 1)));                   \
    })

static void compress1(uint8_t r[32], const mlk_poly *a)
{
    const V q = vdupq_n_s16(Q);
    static const int16_t shift[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const int16x8_t sh = vld1q_s16(shift);
    for (unsigned i = 0; i < 4; i++) { /* 64 coefficients -> 8 bytes: bit j of byte m = coefficient 8m + j */
        uint16x8_t v[8];
        for (unsigned j = 0; j < 8; j++) v[j] = vshlq_u16(COMPRESS(vld1q_s16(a->c + 64 * i + 8 * j), 1, 3), sh);
        const uint16x8_t p0 = vpaddq_u16(vpaddq_u16(v[0], v[1]), vpaddq_u16(v[2], v[3]));
        const uint16x8_t p1 = vpaddq_u16(vpaddq_u16(v[4], v[5]), vpaddq_u16(v[6], v[7]));
        vst1_u8(r + 8 * i, vmovn_u16(vpaddq_u16(p0, p1)));
    }
}

static void compress4(uint8_t r[128], const mlk_poly *a)
{
    const V q = vdupq_n_s16(Q);
    static const int16_t shift[8] = {0, 4, 0, 4, 0, 4, 0, 4};
    const int16x8_t sh = vld1q_s16(shift);
    for (unsigned i = 0; i < 8; i++) { /* 32 coefficients -> 16 bytes */
        uint16x8_t v[4];
        for (unsigned j = 0; j < 4; j++) v[j] = vshlq_u16(COMPRESS(vld1q_s16(a->c + 32 * i + 8 * j), 4, 20), sh);
        const uint16x8_t p0 = vpaddq_u16(v[0], v[1]), p1 = vpaddq_u16(v[2], v[3]);
        vst1q_u8(r + 16 * i, vuzp1q_u8(vreinterpretq_u8_u16(p0), vreinterpretq_u8_u16(p1)));
    }
}

static void compress10(uint8_t r[320], const mlk_poly *a)
{
    /* four 10-bit values -> 40 bits in a 64-bit lane; TBL collects bytes 0..4 of each lane */
    static const uint8_t idx[40] = {0,  1,  2,  3,  4,  8,  9,  10, 11, 12, 16, 17, 18, 19, 20, 24, 25, 26, 27, 28,
                                    32, 33, 34, 35, 36, 40, 41, 42, 43, 44, 48, 49, 50, 51, 52, 56, 57, 58, 59, 60};
    const V q = vdupq_n_s16(Q);
    const uint8x16_t i0 = vld1q_u8(idx), i1 = vld1q_u8(idx + 16);
    const uint8x8_t i2 = vld1_u8(idx + 32);
    for (unsigned i = 0; i < 8; i++) { /* 32 coefficients -> 40 bytes */
        uint8x16x4_t t;
        for (unsigned j = 0; j < 4; j++) {
            uint32x4_t w = vreinterpretq_u32_u16(COMPRESS(vld1q_s16(a->c + 32 * i + 8 * j), 10, 1260));
            w = vsliq_n_u32(w, vshrq_n_u32(w, 16), 10);
            uint64x2_t x = vreinterpretq_u64_u32(w);
            x = vsliq_n_u64(x, vshrq_n_u64(x, 32), 20);
            t.val[j] = vreinterpretq_u8_u64(x);
        }
        vst1q_u8(r + 40 * i, vqtbl4q_u8(t, i0));
        vst1q_u8(r + 40 * i + 16, vqtbl4q_u8(t, i1));
        vst1_u8(r + 40 * i + 32, vqtbl4_u8(t, i2));
    }
}

static void compress5(uint8_t r[160], const mlk_poly *a)
{
    /* four 5-bit values -> 20 bits in a 64-bit lane; lanes paired -> 40 bits; TBL collects bytes
     * 0..4 of each 64-bit lane */
    static const uint8_t idx[24] = {0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 16, 17, 18, 19, 20, 24, 25, 26, 27, 28};
    const V q = vdupq_n_s16(Q);
    const uint8x16_t i0 = vld1q_u8(idx);
    const uint8x8_t i1 = vld1_u8(idx + 16);
    for (unsigned i = 0; i < 8; i++) { /* 32 coefficients -> 20 bytes */
        uint64x2_t t[4];
        for (unsigned j = 0; j < 4; j++) {
            uint32x4_t w = vreinterpretq_u32_u16(COMPRESS(vld1q_s16(a->c + 32 * i + 8 * j), 5, 40));
            w = vsliq_n_u32(w, vshrq_n_u32(w, 16), 5);
            const uint64x2_t x = vreinterpretq_u64_u32(w);
            t[j] = vsliq_n_u64(x, vshrq_n_u64(x, 32), 10);
        }
        uint8x16x2_t u;
        u.val[0] = vreinterpretq_u8_u64(vsliq_n_u64(vuzp1q_u64(t[0], t[1]), vuzp2q_u64(t[0], t[1]), 20));
        u.val[1] = vreinterpretq_u8_u64(vsliq_n_u64(vuzp1q_u64(t[2], t[3]), vuzp2q_u64(t[2], t[3]), 20));
        vst1q_u8(r + 20 * i, vqtbl2q_u8(u, i0));
        vst1_lane_u32((uint32_t *)(void *)(r + 20 * i + 16), vreinterpret_u32_u8(vqtbl2_u8(u, i1)), 0);
    }
}

static void compress11(uint8_t r[352], const mlk_poly *a)
{
    /* eight 11-bit values -> 44 bits in each 64-bit lane; the upper lane shifted by 4 and its
     * bytes moved to 5..10 (byte 5 shared): 11 bytes; stores of 16 overlap the next group's */
    static const uint8_t lo[16] = {0, 1, 2, 3, 4, 5, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255};
    static const uint8_t hi[16] = {255, 255, 255, 255, 255, 8, 9, 10, 11, 12, 13, 255, 255, 255, 255, 255};
    static const int64_t sh4[2] = {0, 4};
    const V q = vdupq_n_s16(Q);
    const uint8x16_t ilo = vld1q_u8(lo), ihi = vld1q_u8(hi);
    const int64x2_t s4 = vld1q_s64(sh4);
    uint8_t tail[16];
    for (unsigned g = 0; g < 32; g++) {
        uint32x4_t w = vreinterpretq_u32_u16(COMPRESS(vld1q_s16(a->c + 8 * g), 11, 2520));
        w = vsliq_n_u32(w, vshrq_n_u32(w, 16), 11);
        uint64x2_t x = vreinterpretq_u64_u32(w);
        x = vshlq_u64(vsliq_n_u64(x, vshrq_n_u64(x, 32), 22), s4);
        const uint8x16_t b = vreinterpretq_u8_u64(x);
        const uint8x16_t o = vorrq_u8(vqtbl1q_u8(b, ilo), vqtbl1q_u8(b, ihi));
        if (g < 31) {
            vst1q_u8(r + 11 * g, o);
        } else {
            vst1q_u8(tail, o);
            memcpy(r + 11 * g, tail, 11);
        }
    }
}

static void neon_compress(uint8_t *r, const mlk_poly *a, unsigned d)
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

/* Decompress_d(y) = round(q y / 2^d) = SQRDMULH(y << (15 - d), q), exact for every d-bit y. */
static void decompress1(mlk_poly *r, const uint8_t a[32])
{
    static const uint16_t bits[8] = {1, 2, 4, 8, 16, 32, 64, 128};
    const uint16x8_t bit = vld1q_u16(bits), half = vdupq_n_u16((Q + 1) / 2);
    for (unsigned i = 0; i < 32; i++) {
        const uint16x8_t b = vreinterpretq_u16_u8(vld1q_dup_u8(a + i));
        vst1q_u16((uint16_t *)r->c + 8 * i, vandq_u16(vtstq_u16(b, bit), half));
    }
}

static void decompress4(mlk_poly *r, const uint8_t a[128])
{
    const uint8x16_t m4 = vdupq_n_u8(0xF);
    const V q8 = vdupq_n_s16(8 * Q); /* (y << 8) with q << 3: the same product as (y << 11) with q */
    for (unsigned i = 0; i < 8; i++) {
        const uint8x16_t b = vld1q_u8(a + 16 * i);
        const uint8x16_t lo = vandq_u8(b, m4), hi = vshrq_n_u8(b, 4);
        const uint8x16_t z0 = vzip1q_u8(lo, hi), z1 = vzip2q_u8(lo, hi);
        int16_t *p = r->c + 32 * i;
        vst1q_s16(p, vqrdmulhq_s16(vreinterpretq_s16_u16(vshll_n_u8(vget_low_u8(z0), 8)), q8));
        vst1q_s16(p + 8, vqrdmulhq_s16(vreinterpretq_s16_u16(vshll_n_u8(vget_high_u8(z0), 8)), q8));
        vst1q_s16(p + 16, vqrdmulhq_s16(vreinterpretq_s16_u16(vshll_n_u8(vget_low_u8(z1), 8)), q8));
        vst1q_s16(p + 24, vqrdmulhq_s16(vreinterpretq_s16_u16(vshll_n_u8(vget_high_u8(z1), 8)), q8));
    }
}

static void decompress10(mlk_poly *r, const uint8_t a[320])
{
    /* value j of a group of 8 (10 bytes) starts at bit 10j: bytes 10j/8 and the next one hold it,
     * shifted by 10j mod 8; USHL moves it to bits 5..14 (y << 5) */
    static const uint8_t idx[16] = {0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9};
    static const int16_t shift[8] = {5, 3, 1, -1, 5, 3, 1, -1};
    const int16x8_t sh = vld1q_s16(shift);
    const uint8x16_t ix = vld1q_u8(idx);
    const uint16x8_t m = vdupq_n_u16(0x3FF << 5);
    const V q = vdupq_n_s16(Q);
    uint8_t tail[16];
    for (unsigned g = 0; g < 32; g++) {
        uint8x16_t b;
        if (g < 31) {
            b = vld1q_u8(a + 10 * g); /* reads 16 of the 320 bytes */
        } else {
            memset(tail, 0, sizeof tail);
            memcpy(tail, a + 310, 10);
            b = vld1q_u8(tail);
        }
        const uint16x8_t v = vreinterpretq_u16_u8(vqtbl1q_u8(b, ix));
        const V y = vreinterpretq_s16_u16(vandq_u16(vshlq_u16(v, sh), m));
        vst1q_s16(r->c + 8 * g, vqrdmulhq_s16(y, q));
    }
    nuri_wipe(tail, sizeof tail);
}

static void decompress5(mlk_poly *r, const uint8_t a[160])
{
    /* value j of a group of 8 (5 bytes) starts at bit 5j: bytes 5j/8 and the next one hold it;
     * USHL moves it to bits 10..14 (y << 10). Two groups per 16-byte load. */
    static const uint8_t idx[32] = {0, 1, 0, 1, 1, 2, 1, 2, 2, 3, 3, 4, 3, 4, 4, 5,
                                    5, 6, 5, 6, 6, 7, 6, 7, 7, 8, 8, 9, 8, 9, 9, 10};
    static const int16_t shift[8] = {10, 5, 8, 3, 6, 9, 4, 7};
    const int16x8_t sh = vld1q_s16(shift);
    const uint8x16_t i0 = vld1q_u8(idx), i1 = vld1q_u8(idx + 16);
    const uint16x8_t m = vdupq_n_u16(0x1F << 10);
    const V q = vdupq_n_s16(Q);
    uint8_t tail[16];
    for (unsigned h = 0; h < 16; h++) {
        uint8x16_t b;
        if (h < 15) {
            b = vld1q_u8(a + 10 * h); /* reads 16 of the 160 bytes */
        } else {
            memset(tail, 0, sizeof tail);
            memcpy(tail, a + 150, 10);
            b = vld1q_u8(tail);
        }
        const V y0 = vreinterpretq_s16_u16(vandq_u16(vshlq_u16(vreinterpretq_u16_u8(vqtbl1q_u8(b, i0)), sh), m));
        const V y1 = vreinterpretq_s16_u16(vandq_u16(vshlq_u16(vreinterpretq_u16_u8(vqtbl1q_u8(b, i1)), sh), m));
        vst1q_s16(r->c + 16 * h, vqrdmulhq_s16(y0, q));
        vst1q_s16(r->c + 16 * h + 8, vqrdmulhq_s16(y1, q));
    }
    nuri_wipe(tail, sizeof tail);
}

static void decompress11(mlk_poly *r, const uint8_t a[352])
{
    /* value j of a group of 8 (11 bytes) starts at bit 11j and spans up to three bytes: 32-bit
     * windows from byte 11j/8, USHL to bits 4..14 (y << 4), then narrowed to 16 bits */
    static const uint8_t idx[32] = {0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4,  5,  4, 5,  6,  7,
                                    5, 6, 7, 8, 6, 7, 8, 9, 8, 9, 10, 11, 9, 10, 11, 12};
    static const int32_t shift[8] = {4, 1, -2, 3, 0, -3, 2, -1};
    const int32x4_t s0 = vld1q_s32(shift), s1 = vld1q_s32(shift + 4);
    const uint8x16_t i0 = vld1q_u8(idx), i1 = vld1q_u8(idx + 16);
    const uint16x8_t m = vdupq_n_u16(0x7FF << 4);
    const V q = vdupq_n_s16(Q);
    uint8_t tail[16];
    for (unsigned g = 0; g < 32; g++) {
        uint8x16_t b;
        if (g < 31) {
            b = vld1q_u8(a + 11 * g); /* reads 16 of the 352 bytes */
        } else {
            memset(tail, 0, sizeof tail);
            memcpy(tail, a + 341, 11);
            b = vld1q_u8(tail);
        }
        const uint32x4_t w0 = vshlq_u32(vreinterpretq_u32_u8(vqtbl1q_u8(b, i0)), s0);
        const uint32x4_t w1 = vshlq_u32(vreinterpretq_u32_u8(vqtbl1q_u8(b, i1)), s1);
        const uint16x8_t y = vandq_u16(vuzp1q_u16(vreinterpretq_u16_u32(w0), vreinterpretq_u16_u32(w1)), m);
        vst1q_s16(r->c + 8 * g, vqrdmulhq_s16(vreinterpretq_s16_u16(y), q));
    }
    nuri_wipe(tail, sizeof tail);
}

static void neon_decompress(mlk_poly *r, const uint8_t *a, unsigned d)
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

/* ---- sampling ---- */

/* SamplePolyCBD_2 of 128 bytes: coefficient i from the 4 bits of nibble i (bits 0+1 minus 2+3). */
static void cbd2(mlk_poly *r, const uint8_t buf[128])
{
    const uint8x16_t m55 = vdupq_n_u8(0x55), m3 = vdupq_n_u8(3);
    for (unsigned i = 0; i < 8; i++) { /* 16 bytes -> 32 coefficients */
        const uint8x16_t b = vld1q_u8(buf + 16 * i);
        const uint8x16_t t = vaddq_u8(vandq_u8(b, m55), vandq_u8(vshrq_n_u8(b, 1), m55));
        const int8x16_t c0 =
            vsubq_s8(vreinterpretq_s8_u8(vandq_u8(t, m3)), vreinterpretq_s8_u8(vandq_u8(vshrq_n_u8(t, 2), m3)));
        const int8x16_t c1 =
            vsubq_s8(vreinterpretq_s8_u8(vandq_u8(vshrq_n_u8(t, 4), m3)), vreinterpretq_s8_u8(vshrq_n_u8(t, 6)));
        const int8x16_t z0 = vzip1q_s8(c0, c1), z1 = vzip2q_s8(c0, c1);
        int16_t *p = r->c + 32 * i;
        vst1q_s16(p, vmovl_s8(vget_low_s8(z0)));
        vst1q_s16(p + 8, vmovl_high_s8(z0));
        vst1q_s16(p + 16, vmovl_s8(vget_low_s8(z1)));
        vst1q_s16(p + 24, vmovl_high_s8(z1));
    }
}

/* SamplePolyCBD_3 of 192 bytes: coefficient i from bits 6i..6i+5 (bits 0..2 minus 3..5). TBL
 * spreads each 3 bytes over two 16-bit lanes (12 bits each: two coefficients), as the 12-bit
 * unpacking does. */
static void cbd3(mlk_poly *r, const uint8_t buf[192])
{
    static const uint8_t idx[16] = {0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11};
    static const int16_t shift[8] = {0, -4, 0, -4, 0, -4, 0, -4};
    const uint8x16_t ix = vld1q_u8(idx);
    const int16x8_t sh = vld1q_s16(shift);
    const uint16x8_t m249 = vdupq_n_u16(0x249), m7 = vdupq_n_u16(7);
    uint8_t tail[16];
    for (unsigned i = 0; i < 16; i++) { /* 12 bytes -> 16 coefficients */
        uint8x16_t b;
        if (i < 15) {
            b = vld1q_u8(buf + 12 * i); /* reads 16 of the 192 bytes */
        } else {
            memcpy(tail, buf + 180, 12);
            memset(tail + 12, 0, 4);
            b = vld1q_u8(tail);
        }
        const uint16x8_t w = vshlq_u16(vreinterpretq_u16_u8(vqtbl1q_u8(b, ix)), sh);
        const uint16x8_t t = vaddq_u16(vaddq_u16(vandq_u16(w, m249), vandq_u16(vshrq_n_u16(w, 1), m249)),
                                       vandq_u16(vshrq_n_u16(w, 2), m249));
        const int16x8_t c0 =
            vsubq_s16(vreinterpretq_s16_u16(vandq_u16(t, m7)), vreinterpretq_s16_u16(vandq_u16(vshrq_n_u16(t, 3), m7)));
        const int16x8_t c1 = vsubq_s16(vreinterpretq_s16_u16(vandq_u16(vshrq_n_u16(t, 6), m7)),
                                       vreinterpretq_s16_u16(vandq_u16(vshrq_n_u16(t, 9), m7)));
        vst1q_s16(r->c + 16 * i, vzip1q_s16(c0, c1));
        vst1q_s16(r->c + 16 * i + 8, vzip2q_s16(c0, c1));
    }
    nuri_wipe(tail, sizeof tail);
}

static void cbd(mlk_poly *r, const uint8_t *buf, unsigned eta)
{
    if (eta == 2) cbd2(r, buf);
    else cbd3(r, buf);
}

/* Rejection sampling into r[ctr..256) from buf (buflen a multiple of 24, readable 8 bytes past
 * its end); returns the new count. Sixteen 12-bit candidates per step: TBL spreads 24 bytes over
 * 16-bit lanes, USHL/AND extract the values, and each half's accepted lanes are moved to the
 * front by the shuffle its mask indexes (rho, hence the candidates, is public). The last few
 * values come from the scalar loop, which never writes past r[255]. */
static unsigned rej_uniform(int16_t *r, unsigned ctr, const uint8_t *buf, size_t buflen)
{
    static const uint8_t idx[16] = {0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11};
    const uint8x16_t ilo = vld1q_u8(idx), ihi = vaddq_u8(ilo, vdupq_n_u8(12));
    static const int16_t shift[8] = {0, -4, 0, -4, 0, -4, 0, -4};
    static const uint16_t bits[8] = {1, 2, 4, 8, 16, 32, 64, 128};
    const int16x8_t sh = vld1q_s16(shift);
    const uint16x8_t m12 = vdupq_n_u16(0xFFF), q = vdupq_n_u16(Q), bit = vld1q_u16(bits);
    size_t pos = 0;
    for (; ctr <= MLKEM_N - 16 && pos + 24 <= buflen; pos += 24) {
        const uint8x16x2_t t = vld1q_u8_x2(buf + pos);
        const uint16x8_t v0 = vandq_u16(vshlq_u16(vreinterpretq_u16_u8(vqtbl2q_u8(t, ilo)), sh), m12);
        const uint16x8_t v1 = vandq_u16(vshlq_u16(vreinterpretq_u16_u8(vqtbl2q_u8(t, ihi)), sh), m12);
        const unsigned k0 = vaddvq_u16(vandq_u16(vcltq_u16(v0, q), bit));
        const unsigned k1 = vaddvq_u16(vandq_u16(vcltq_u16(v1, q), bit));
        vst1q_u8((uint8_t *)(r + ctr), vqtbl1q_u8(vreinterpretq_u8_u16(v0), vld1q_u8(neon_rej_idx[k0])));
        ctr += neon_rej_cnt[k0];
        vst1q_u8((uint8_t *)(r + ctr), vqtbl1q_u8(vreinterpretq_u8_u16(v1), vld1q_u8(neon_rej_idx[k1])));
        ctr += neon_rej_cnt[k1];
    }
    return nuri_mlkem_rej_uniform(r, ctr, buf + pos, buflen - pos);
}

/* kem.c's ek check over t-hat (backend hook ek_scan): sixteen 12-bit values per step, spread
 * over 16-bit lanes as in rej_uniform; the lanes' maximum (>= q: the modulus check fails) and
 * per-lane counts of zeros (at most 2 per step, 128 for k = 4) are reduced at the end. The last
 * step's 32-byte load reads 8 bytes of rho. ek is public; no branch depends on it anyway. */
static void neon_ek_scan(const uint8_t *ek, unsigned k, unsigned *bad, unsigned *zeros)
{
    static const uint8_t idx[16] = {0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11};
    static const int16_t shift[8] = {0, -4, 0, -4, 0, -4, 0, -4};
    const uint8x16_t ilo = vld1q_u8(idx), ihi = vaddq_u8(ilo, vdupq_n_u8(12));
    const int16x8_t sh = vld1q_s16(shift);
    const uint16x8_t m12 = vdupq_n_u16(0xFFF);
    uint16x8_t max = vdupq_n_u16(0), cnt = vdupq_n_u16(0);
    for (size_t pos = 0; pos < 384 * (size_t)k; pos += 24) {
        const uint8x16x2_t t = vld1q_u8_x2(ek + pos);
        const uint16x8_t v0 = vandq_u16(vshlq_u16(vreinterpretq_u16_u8(vqtbl2q_u8(t, ilo)), sh), m12);
        const uint16x8_t v1 = vandq_u16(vshlq_u16(vreinterpretq_u16_u8(vqtbl2q_u8(t, ihi)), sh), m12);
        max = vmaxq_u16(max, vmaxq_u16(v0, v1));
        cnt = vsubq_u16(cnt, vaddq_u16(vceqzq_u16(v0), vceqzq_u16(v1))); /* each mask is 0 or -1 */
    }
    *bad = vmaxvq_u16(max) >= Q;
    *zeros = vaddlvq_u16(cnt);
}

/* ---- the Keccak work of one step on two lanes ----
 * Every sponge of a request (kem.c's sample_many: matrix entries, noise polynomials, one-shot
 * hashes, a SHA3-256 in progress) is a task; two lanes of the x2 state take tasks in turn, the
 * longest first, and a lane that finishes takes the next task at once, so both lanes stay busy
 * until the work runs out. A task is a sequence of steps: XOR a block in (or not), permute,
 * use the output (or not). When one task is left and the CPU has no SHA-3 extension, it finishes
 * on the scalar permutation, which costs less than the plain-NEON x2 one for a single state.
 * Scheduling depends on the matrix entries' lengths only, which come from rho (public). */

enum { T_MATRIX, T_NOISE, T_JOB, T_ABSORB };

typedef struct ktask {
    unsigned kind, nsteps; /* nsteps: known in advance except for matrix entries (until 256 values) */
    mlk_poly *poly;
    const uint8_t *seed; /* rho (matrix), the noise seed */
    uint8_t b0, b1;      /* the two bytes after rho; the nonce */
    unsigned eta;        /* noise */
    const nuri_keccak_job *job;
} ktask;

typedef struct klane {
    const ktask *t; /* NULL: idle */
    unsigned step, ctr;
} klane;

/* One lane of a state: 64-bit word i at s[stride * i]. */
static void lane_xor(uint64_t *s, size_t stride, const uint8_t *in, unsigned words)
{
    for (unsigned i = 0; i < words; i++) s[stride * i] ^= nuri_load64_le(in + 8 * i);
}
static void lane_out(uint8_t *out, const uint64_t *s, size_t stride, unsigned words)
{
    for (unsigned i = 0; i < words; i++) nuri_store64_le(out + 8 * i, s[stride * i]);
}

/* The XOR before the permutation of step l->step, if the task has one. */
static void task_in(const ktask *t, const klane *l, uint64_t *s, size_t stride, const mlk_sample_req *req, uint8_t *blk)
{
    if (t->kind == T_JOB) {
        lane_xor(s, stride, nuri_keccak_job_block_at(blk, t->job, l->step, req->rate), req->rate / 8);
    } else if (t->kind == T_ABSORB) {
        lane_xor(s, stride, req->absorb_in + NURI_SHA3_256_RATE * (size_t)l->step, NURI_SHA3_256_RATE / 8);
    } else if (l->step == 0) { /* SHAKE of seed || b0 (|| b1): one padded block */
        const unsigned rate = t->kind == T_MATRIX ? NURI_SHAKE128_RATE : NURI_SHAKE256_RATE;
        lane_xor(s, stride, t->seed, 4);
        if (t->kind == T_MATRIX) s[stride * 4] ^= t->b0 | (uint64_t)t->b1 << 8 | (uint64_t)0x1F << 16;
        else s[stride * 4] ^= t->b0 | (uint64_t)0x1F << 8;
        s[stride * (rate / 8 - 1)] ^= (uint64_t)0x80 << 56;
    }
}

/* The use of the output after the permutation of step l->step; returns 1 when the task is done. */
static int task_out(const ktask *t, klane *l, uint64_t *s, size_t stride, uint64_t *absorb_st, uint8_t *buf)
{
    const unsigned step = l->step++;
    switch (t->kind) {
    case T_MATRIX:
        lane_out(buf, s, stride, NURI_SHAKE128_RATE / 8);
        l->ctr = rej_uniform(t->poly->c, l->ctr, buf, NURI_SHAKE128_RATE);
        return l->ctr == MLKEM_N;
    case T_NOISE: /* 128 bytes for eta = 2, 192 (two blocks) for eta = 3 */
        lane_out(buf + NURI_SHAKE256_RATE * step, s, stride, NURI_SHAKE256_RATE / 8);
        if (step + 1 < t->nsteps) return 0;
        cbd(t->poly, buf, t->eta);
        return 1;
    case T_JOB:
        if (step + 1 < t->nsteps) return 0;
        for (size_t i = 0; i < t->job->outlen; i += 8) {
            uint8_t w[8];
            nuri_store64_le(w, s[stride * (i / 8)]);
            memcpy(t->job->out + i, w, t->job->outlen - i < 8 ? t->job->outlen - i : 8);
            nuri_wipe(w, sizeof w);
        }
        return 1;
    default: /* T_ABSORB: the state goes back to the caller */
        if (step + 1 < t->nsteps) return 0;
        for (unsigned i = 0; i < 25; i++) absorb_st[i] = s[stride * i];
        return 1;
    }
}

#define MAX_TASKS (MLKEM_KMAX * MLKEM_KMAX + 4 * (2 * MLKEM_KMAX + 1) + 8)

static void neon_sample_many(const mlk_sample_req *req)
{
    const int sha3 = nuri_keccakx2_has_sha3();
    ktask t[MAX_TASKS];
    unsigned nt = 0, nz = 0;
    for (unsigned g = 0; g < req->n_noise; g++) nz += req->noise[g].n;
    if (req->n_absorb + req->n_jobs + (req->a ? req->rows * req->k : 0) + nz > MAX_TASKS) {
        /* more than kem.c ever asks at once: the noise groups one by one after the rest */
        mlk_sample_req rest = *req;
        rest.n_noise = 0;
        neon_sample_many(&rest);
        for (unsigned g = 0; g < req->n_noise; g++)
            neon_sample_many(&(mlk_sample_req){.noise = &req->noise[g], .n_noise = 1});
        return;
    }
    /* longest first: the hash in progress and the one-shot hashes (known lengths), matrix
     * entries (three steps or more), noise (one or two) */
    if (req->n_absorb) t[nt++] = (ktask){T_ABSORB, req->n_absorb, NULL, NULL, 0, 0, 0, NULL};
    for (unsigned i = 0; i < req->n_jobs; i++)
        t[nt++] = (ktask){T_JOB,        (unsigned)nuri_keccak_job_blocks(&req->jobs[i], req->rate), NULL, NULL, 0, 0, 0,
                          &req->jobs[i]};
    for (unsigned e = req->a ? req->row0 * req->k : 0; req->a && e < (req->row0 + req->rows) * req->k; e++) {
        const unsigned row = e / req->k, col = e % req->k;
        t[nt++] = (ktask){T_MATRIX,
                          0,
                          &req->a[e],
                          req->rho,
                          (uint8_t)(req->transposed ? row : col),
                          (uint8_t)(req->transposed ? col : row),
                          0,
                          NULL};
    }
    for (unsigned g = 0; g < req->n_noise; g++)
        for (unsigned i = 0; i < req->noise[g].n; i++) {
            const mlk_noise *z = &req->noise[g];
            t[nt++] =
                (ktask){T_NOISE, z->eta == 3 ? 2 : 1, &z->r[i], z->seed, (uint8_t)(z->nonce0 + i), 0, z->eta, NULL};
        }

    nuri_keccakx2 st;
    uint64_t s1[25];
    _Alignas(16) uint8_t buf[2][2 * NURI_SHAKE256_RATE + 8], blk[NURI_SHAKE128_RATE];
    klane lane[2] = {{NULL, 0, 0}, {NULL, 0, 0}};
    unsigned next = 0;
    memset(st.s, 0, sizeof st.s);
    for (;;) {
        for (unsigned j = 0; j < 2; j++) {
            if (lane[j].t || next == nt) continue;
            lane[j] = (klane){&t[next++], 0, 0};
            for (unsigned i = 0; i < 25; i++) /* a fresh sponge, or the hash in progress */
                st.s[2 * i + j] = lane[j].t->kind == T_ABSORB ? req->absorb_st[i] : 0;
        }
        const int busy0 = lane[0].t != NULL, busy1 = lane[1].t != NULL;
        if (!busy0 && !busy1) break;
        if (!sha3 && busy0 != busy1) { /* the last task: on one state */
            const unsigned j = busy1;
            for (unsigned i = 0; i < 25; i++) s1[i] = st.s[2 * i + j];
            for (int done = 0; !done;) {
                task_in(lane[j].t, &lane[j], s1, 1, req, blk);
                nuri_keccakf1600(s1);
                done = task_out(lane[j].t, &lane[j], s1, 1, req->absorb_st, buf[j]);
            }
            break;
        }
        for (unsigned j = 0; j < 2; j++)
            if (lane[j].t) task_in(lane[j].t, &lane[j], st.s + j, 2, req, blk);
        if (sha3) nuri_keccakf1600_x2_sha3(st.s);
        else nuri_keccakf1600_x2_neon(st.s);
        for (unsigned j = 0; j < 2; j++)
            if (lane[j].t && task_out(lane[j].t, &lane[j], st.s + j, 2, req->absorb_st, buf[j])) lane[j].t = NULL;
    }
    nuri_wipe(&st, sizeof st);
    nuri_wipe(s1, sizeof s1);
    nuri_wipe(buf, sizeof buf);
    nuri_wipe(blk, sizeof blk);
}

static void neon_sample_cbd(mlk_poly *r, unsigned n, const uint8_t seed[32], uint8_t nonce0, unsigned eta)
{
    const mlk_noise z = {r, seed, n, eta, nonce0};
    neon_sample_many(&(mlk_sample_req){.noise = &z, .n_noise = 1});
}

static void neon_gen_matrix(mlk_poly *a, const uint8_t rho[MLKEM_SYMBYTES], unsigned k, int transposed)
{
    neon_sample_many(&(mlk_sample_req){.a = a, .rho = rho, .k = k, .transposed = transposed, .row0 = 0, .rows = k});
}

/* Key generation's matrix in steps of k - 1 rows on plain NEON, so that H(ek) absorbs the rows
 * of t already made beside the last row (ML-KEM-768: 131.8k instead of 138.5k instructions);
 * with the SHA-3 extension the whole matrix at once, H(ek) then on the x2 permutation (kem.c
 * would finish a split H on the scalar one: 85.2k instead of 82.3k). */
static unsigned neon_keygen_rows(unsigned k) { return nuri_keccakx2_has_sha3() || k < 3 ? k : k - 1; }

static void neon_keccak_jobs(const nuri_keccak_job *jobs, unsigned n, unsigned rate)
{
    nuri_keccak_jobs_x2(jobs, n, rate, nuri_keccakx2_has_sha3());
}

#if defined(NURI_NEON_EMULATED) /* runs wherever the portable intrinsics run */
#define NEON_CPU  0
#define NEON_NOTE " (emulated build: portable intrinsics)"
#else
#define NEON_CPU  NURI_CPU_NEON
#define NEON_NOTE ""
#endif

const nuri_mlkem_backend nuri_mlkem_backend_neon = {
    .info = {"neon", NEON_CPU, 1,
             "NEON: 8-lane NTT/basemul/compression/sampling, 2-way Keccak (on the SHA-3 extension where "
             "present)" NEON_NOTE},
    .ntt = neon_ntt,
    .invntt = neon_invntt,
    .mulcache = neon_mulcache,
    .basemul_acc = neon_basemul_acc,
    .tomont = neon_tomont,
    .reduce = neon_reduce,
    .tobytes = neon_tobytes,
    .frombytes = neon_frombytes,
    .compress = neon_compress,
    .decompress = neon_decompress,
    .sample_cbd = neon_sample_cbd,
    .gen_matrix = neon_gen_matrix,
    .keccak_jobs = neon_keccak_jobs,
    .sample_many = neon_sample_many,
    .keygen_rows = neon_keygen_rows,
    .ek_scan = neon_ek_scan,
};
