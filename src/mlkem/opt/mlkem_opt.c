/* ML-KEM tuned portable kernels ("opt"): plain C shaped for compilers' auto-vectorisation on any
 * target (SSE2 on baseline x86-64, NEON on AArch64), and fewer reductions than ref:
 *  - Montgomery multiplication by a constant in the 16-bit "mulhi" form (a*b*R^-1 =
 *    hi(a*b) - hi(lo(a*b*q^-1)*q), with b*q^-1 precomputed): pure int16 lanes;
 *  - NTT without intermediate reductions (|x| < 8q at the end, one Barrett pass);
 *    inverse NTT with Barrett reductions only after layers 3 and 6;
 *  - loops over contiguous coefficients with the twiddle constant hoisted per block;
 *  - matrix expansion through the four-way SHAKE128 interface (the SIMD Keccak plugs in there).
 * Everything else (packing, CBD, rejection sampling) is shared with ref. Same conventions and
 * outputs as ref, bit for bit (tests/mlkem compares every kernel). No secret-dependent branches. */
#include "../mlkem_impl.h"
#include "../zetas.h"

#define Q MLKEM_Q

/* ZETAS[i] * q^-1 mod 2^16 (signed). */
static const int16_t ZETAS_QINV[128] = {
    -20,    31498,  14745,  787,    13525,  -12402, 28191,  -16694, -20907, 27758,  -3799,  -15690, 10690,
    1358,   -11202, 31164,  -5827,  17363,  -26360, -29057, 5571,   -1102,  21438,  -26242, -28073, 24313,
    -10532, 8800,   18426,  8859,   26675,  -16163, -5689,  -6516,  1496,   30967,  -23565, 20179,  20710,
    25080,  -12796, 26616,  16064,  -12442, 9134,   -650,   -25986, 27837,  19883,  -28250, -15887, -8898,
    -28309, 9075,   -30199, 18249,  13426,  14017,  -29156, -12757, 16832,  4311,   -24155, -17915, -335,
    11182,  -11477, 13387,  -32227, -14233, 20494,  -21655, -27738, 13131,  945,    -4587,  -14883, 23092,
    6182,   5493,   32010,  -32502, 10631,  30317,  29175,  -18741, -28762, 12639,  -18486, 20100,  17560,
    18525,  -14430, 19529,  -5276,  -12619, -31183, 20297,  25435,  2146,   -7382,  15355,  24391,  -32384,
    -20927, -6280,  10946,  -14903, 24214,  -11044, 16989,  14469,  10335,  -21498, -7934,  -20198, -22502,
    23210,  10906,  -17442, 31636,  -23860, 28644,  -20257, 23998,  7756,   -17422, 23132};

/* a * b * R^-1 mod q for a constant b (|b| <= q/2) with bq = b * q^-1 mod 2^16; |result| < q for any
 * int16 a. Only 16x16-bit multiplications (low and high halves). */
static inline int16_t mulq(int16_t a, int16_t b, int16_t bq)
{
    int16_t lo = (int16_t)(a * bq);
    int16_t hi = (int16_t)(((int32_t)a * b) >> 16);
    int16_t th = (int16_t)(((int32_t)lo * Q) >> 16);
    return (int16_t)(hi - th);
}

/* Barrett with a 16-bit high product: a - round(a * 20159 / 2^26) * q, |result| <= q/2 + 1. */
static inline int16_t barrett(int16_t a)
{
    int16_t hi = (int16_t)(((int32_t)a * 20159) >> 16);
    int16_t t = (int16_t)((hi + 512) >> 10);
    return (int16_t)(a - t * Q);
}

static void opt_ntt(mlk_poly *p)
{
    int16_t *r = p->c;
    unsigned z = 1;
    for (unsigned len = 128; len >= 8; len >>= 1) {
        for (unsigned start = 0; start < 256; start += 2 * len, z++) {
            const int16_t zeta = ZETAS[z], zq = ZETAS_QINV[z];
            int16_t *a = r + start, *b = r + start + len;
            for (unsigned j = 0; j < len; j++) {
                int16_t t = mulq(b[j], zeta, zq);
                b[j] = (int16_t)(a[j] - t);
                a[j] = (int16_t)(a[j] + t);
            }
        }
    }
    /* layers len = 4 and 2, one 8-coefficient block at a time (z = 32..63 and 64..127) */
    for (unsigned blk = 0; blk < 32; blk++) {
        int16_t *a = r + 8 * blk;
        const int16_t z4 = ZETAS[32 + blk], q4 = ZETAS_QINV[32 + blk];
        for (unsigned j = 0; j < 4; j++) {
            int16_t t = mulq(a[j + 4], z4, q4);
            a[j + 4] = (int16_t)(a[j] - t);
            a[j] = (int16_t)(a[j] + t);
        }
        for (unsigned h = 0; h < 2; h++) {
            const int16_t z2 = ZETAS[64 + 2 * blk + h], q2 = ZETAS_QINV[64 + 2 * blk + h];
            int16_t *c = a + 4 * h;
            for (unsigned j = 0; j < 2; j++) {
                int16_t t = mulq(c[j + 2], z2, q2);
                c[j + 2] = (int16_t)(c[j] - t);
                c[j] = (int16_t)(c[j] + t);
            }
        }
    }
    for (unsigned j = 0; j < 256; j++) r[j] = barrett(r[j]);
}

static void opt_invntt(mlk_poly *p)
{
    int16_t *r = p->c;
    /* layers len = 2 and 4 per 8-coefficient block (z = 127..64 and 63..32) */
    for (unsigned blk = 0; blk < 32; blk++) {
        int16_t *a = r + 8 * blk;
        for (unsigned h = 0; h < 2; h++) {
            const unsigned zi = 127 - (2 * blk + h);
            const int16_t z2 = ZETAS[zi], q2 = ZETAS_QINV[zi];
            int16_t *c = a + 4 * h;
            for (unsigned j = 0; j < 2; j++) {
                int16_t t = c[j];
                c[j] = (int16_t)(t + c[j + 2]);
                c[j + 2] = mulq((int16_t)(c[j + 2] - t), z2, q2);
            }
        }
        const int16_t z4 = ZETAS[63 - blk], q4 = ZETAS_QINV[63 - blk];
        for (unsigned j = 0; j < 4; j++) {
            int16_t t = a[j];
            a[j] = (int16_t)(t + a[j + 4]);
            a[j + 4] = mulq((int16_t)(a[j + 4] - t), z4, q4);
        }
    }
    unsigned z = 31;
    for (unsigned len = 8; len <= 128; len <<= 1) {
        /* sums double per layer: |x| < q after len 2,4 -> < 4q here; reduce after len 8 and 64 */
        const int red = len == 8 || len == 64;
        for (unsigned start = 0; start < 256; start += 2 * len, z--) {
            const int16_t zeta = ZETAS[z], zq = ZETAS_QINV[z];
            int16_t *a = r + start, *b = r + start + len;
            if (red) {
                for (unsigned j = 0; j < len; j++) {
                    int16_t t = a[j];
                    a[j] = barrett((int16_t)(t + b[j]));
                    b[j] = mulq((int16_t)(b[j] - t), zeta, zq);
                }
            } else {
                for (unsigned j = 0; j < len; j++) {
                    int16_t t = a[j];
                    a[j] = (int16_t)(t + b[j]);
                    b[j] = mulq((int16_t)(b[j] - t), zeta, zq);
                }
            }
        }
    }
    for (unsigned j = 0; j < 256; j++) r[j] = mulq(r[j], 1441, -10079); /* * R^2/128 */
}

static void opt_mulcache(mlk_mulcache *c, const mlk_poly *b)
{
    for (unsigned i = 0; i < 64; i++) {
        c->c[2 * i] = mulq(b->c[4 * i + 1], ZETAS[64 + i], ZETAS_QINV[64 + i]);
        c->c[2 * i + 1] = mulq(b->c[4 * i + 3], (int16_t)-ZETAS[64 + i], (int16_t)-ZETAS_QINV[64 + i]);
    }
}

static inline int16_t mont_reduce(int32_t a)
{
    int16_t t = (int16_t)((uint32_t)a * 62209u); /* q^-1 mod 2^16 */
    return (int16_t)((a - (int32_t)t * Q) >> 16);
}

static void opt_basemul_acc(mlk_poly *r, const mlk_poly *a, const mlk_poly *b, const mlk_mulcache *bc, unsigned k)
{
    int32_t c0[128], c1[128];
    for (unsigned i = 0; i < 128; i++) {
        int32_t a0 = a[0].c[2 * i], a1 = a[0].c[2 * i + 1];
        c0[i] = a0 * b[0].c[2 * i] + a1 * bc[0].c[i];
        c1[i] = a0 * b[0].c[2 * i + 1] + a1 * b[0].c[2 * i];
    }
    for (unsigned l = 1; l < k; l++) {
        for (unsigned i = 0; i < 128; i++) {
            int32_t a0 = a[l].c[2 * i], a1 = a[l].c[2 * i + 1];
            c0[i] += a0 * b[l].c[2 * i] + a1 * bc[l].c[i];
            c1[i] += a0 * b[l].c[2 * i + 1] + a1 * b[l].c[2 * i];
        }
    }
    for (unsigned i = 0; i < 128; i++) {
        r->c[2 * i] = mont_reduce(c0[i]);
        r->c[2 * i + 1] = mont_reduce(c1[i]);
    }
}

static void opt_tomont(mlk_poly *r)
{
    for (unsigned j = 0; j < 256; j++) r->c[j] = mulq(r->c[j], 1353, 20553); /* * R^2 */
}

static void opt_reduce(mlk_poly *r)
{
    for (unsigned j = 0; j < 256; j++) {
        int16_t x = barrett(r->c[j]);
        r->c[j] = (int16_t)(x + ((x >> 15) & Q));
    }
}

/* Groups of four through SHAKE256 x4; the remainder one at a time (a scalar x4 would waste
 * lanes on it). eta = 3 needs 192 bytes: two 136-byte blocks. */
static void opt_sample_cbd(mlk_poly *r, unsigned n, const uint8_t seed[32], uint8_t nonce0, unsigned eta)
{
    uint8_t in[4][33], buf[4][2 * NURI_SHAKE256_RATE];
    nuri_keccakx4 st;
    const size_t blocks = eta == 3 ? 2 : 1;
    unsigned i = 0;
    for (unsigned j = 0; j < 4; j++) memcpy(in[j], seed, 32);
    for (; i + 4 <= n; i += 4) {
        for (unsigned j = 0; j < 4; j++) in[j][32] = (uint8_t)(nonce0 + i + j);
        nuri_shake_x4_absorb_once(&st, NURI_SHAKE256_RATE, in[0], in[1], in[2], in[3], 33);
        nuri_shake_x4_squeezeblocks(buf[0], buf[1], buf[2], buf[3], blocks, &st, NURI_SHAKE256_RATE);
        for (unsigned j = 0; j < 4; j++) nuri_mlkem_cbd(&r[i + j], buf[j], eta);
    }
    for (; i < n; i++) {
        in[0][32] = (uint8_t)(nonce0 + i);
        nuri_shake256(buf[0], 64 * eta, in[0], 33);
        nuri_mlkem_cbd(&r[i], buf[0], eta);
    }
    nuri_wipe(&st, sizeof st);
    nuri_wipe(in, sizeof in);
    nuri_wipe(buf, sizeof buf);
}

static void gen_entry(mlk_poly *out, const uint8_t rho[32], uint8_t b0, uint8_t b1)
{
    uint8_t in[34], buf[3 * NURI_SHAKE128_RATE];
    uint64_t s[25];
    memcpy(in, rho, 32);
    in[32] = b0;
    in[33] = b1;
    nuri_shake_absorb_once(s, NURI_SHAKE128_RATE, in, 34);
    nuri_shake_squeezeblocks(buf, 3, s, NURI_SHAKE128_RATE);
    unsigned ctr = nuri_mlkem_rej_uniform(out->c, 0, buf, sizeof buf);
    while (ctr < MLKEM_N) {
        nuri_shake_squeezeblocks(buf, 1, s, NURI_SHAKE128_RATE);
        ctr = nuri_mlkem_rej_uniform(out->c, ctr, buf, NURI_SHAKE128_RATE);
    }
}

/* Four matrix entries at a time through SHAKE128 x4, the remainder (k = 3: one entry) alone.
 * rho is public, so the rejection loop may branch on the XOF output. */
static void opt_gen_matrix(mlk_poly *a, const uint8_t rho[32], unsigned k, int transposed)
{
    uint8_t in[4][34], buf[4][3 * NURI_SHAKE128_RATE];
    nuri_keccakx4 st;
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
        nuri_shake_x4_absorb_once(&st, NURI_SHAKE128_RATE, in[0], in[1], in[2], in[3], 34);
        nuri_shake_x4_squeezeblocks(buf[0], buf[1], buf[2], buf[3], 3, &st, NURI_SHAKE128_RATE);
        for (unsigned j = 0; j < 4; j++) ctr[j] = nuri_mlkem_rej_uniform(a[e + j].c, 0, buf[j], sizeof buf[j]);
        while (ctr[0] < MLKEM_N || ctr[1] < MLKEM_N || ctr[2] < MLKEM_N || ctr[3] < MLKEM_N) {
            nuri_shake_x4_squeezeblocks(buf[0], buf[1], buf[2], buf[3], 1, &st, NURI_SHAKE128_RATE);
            for (unsigned j = 0; j < 4; j++)
                ctr[j] = nuri_mlkem_rej_uniform(a[e + j].c, ctr[j], buf[j], NURI_SHAKE128_RATE);
        }
    }
    for (; e < total; e++) {
        unsigned row = e / k, col = e % k;
        gen_entry(&a[e], rho, (uint8_t)(transposed ? row : col), (uint8_t)(transposed ? col : row));
    }
}

const nuri_mlkem_backend nuri_mlkem_backend_opt = {
    {"opt", 0, 1, "portable C shaped for auto-vectorisation: 16-bit mulhi Montgomery, lazy reductions, x4 SHAKE"},
    opt_ntt,
    opt_invntt,
    opt_mulcache,
    opt_basemul_acc,
    opt_tomont,
    opt_reduce,
    nuri_mlkem_ref_tobytes,
    nuri_mlkem_ref_frombytes,
    nuri_mlkem_ref_compress,
    nuri_mlkem_ref_decompress,
    opt_sample_cbd,
    opt_gen_matrix,
    nuri_keccak_jobs,
    NULL, /* sample_many: the generic path */
    NULL, /* keygen_rows: the whole matrix at once */
    NULL, /* ek_scan: kem.c's portable pass */
    NULL, /* keccakf1: nuri_keccakf1600 */
};
