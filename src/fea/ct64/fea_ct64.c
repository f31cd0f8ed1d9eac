/* FEA constant-time portable kernel: 64 values bitsliced in 64 words (word p holds bit p of every
 * value). The S-box is computed, not looked up: S(x) = A * x^254 + 0x62 with the inversion in
 * GF(2^8)/(x^8+x^4+x^3+x^2+1) (spec section 4), as 4 bitsliced multiplications and 7 squarings.
 * M is linear: t^k * s for k = 0..7 (xtime in GF(2^8)/0x171), combined per M's coefficients.
 * Only AND/XOR on whole words: no secret-dependent branch or memory index. One SD (the key
 * schedule) and batches under 32 values go to the bitplane kernel (one value at a time). */
#include "../fea_impl.h"
#include "../fea_tables.h"

/* 64x64 bit-matrix transpose in place: afterwards a[c] bit r = old a[r] bit c. */
static void transpose64(uint64_t a[64])
{
    uint64_t m = 0x00000000FFFFFFFFULL;
    for (unsigned j = 32; j != 0; j >>= 1, m ^= m << j) {
        for (unsigned k = 0; k < 64; k = ((k | j) + 1) & ~j) {
            uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
            a[k] ^= t << j;
            a[k | j] ^= t;
        }
    }
}

/* reduction modulo x^8 + x^4 + x^3 + x^2 + 1 (the S-box's inversion field) */
static void reduce_11d(uint64_t p[15])
{
    for (int k = 14; k >= 8; k--) {
        p[k - 4] ^= p[k];
        p[k - 5] ^= p[k];
        p[k - 6] ^= p[k];
        p[k - 8] ^= p[k];
    }
}

static void gf_mul(uint64_t r[8], const uint64_t a[8], const uint64_t b[8])
{
    uint64_t p[15] = {0};
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) p[i + j] ^= a[i] & b[j];
    reduce_11d(p);
    for (int i = 0; i < 8; i++) r[i] = p[i];
}

static void gf_sq(uint64_t r[8], const uint64_t a[8])
{
    uint64_t p[15] = {0};
    for (int i = 0; i < 8; i++) p[2 * i] = a[i];
    reduce_11d(p);
    for (int i = 0; i < 8; i++) r[i] = p[i];
}

/* x <- S(x) on 8 bit planes (x[0] = least significant bit) */
static void sbox(uint64_t x[8])
{
    static const uint8_t acol[8] = {0x53, 0xab, 0xb4, 0x7b, 0xd4, 0x68, 0x92, 0x76}; /* A(e_j) */
    uint64_t x2[8], x3[8], x12[8], x14[8], x15[8], t[8];
    gf_sq(x2, x);
    gf_mul(x3, x2, x);
    gf_sq(t, x3);
    gf_sq(x12, t);
    gf_mul(x15, x12, x3);
    gf_mul(x14, x12, x2);
    gf_sq(t, x15);
    gf_sq(t, t);
    gf_sq(t, t);
    gf_sq(t, t);       /* x^240 */
    gf_mul(t, t, x14); /* x^254 */
    for (int i = 0; i < 8; i++) {
        uint64_t v = (0x62 >> i) & 1 ? ~UINT64_C(0) : 0;
        for (int j = 0; j < 8; j++)
            if ((acol[j] >> i) & 1) v ^= t[j]; /* public constant */
        x[i] = v;
    }
}

/* one SD layer on planes: LE byte q of every value is planes 8q..8q+7 */
static void sd_planes(uint64_t P[64])
{
    uint64_t u[8][8][8]; /* u[q][k] = t^k * S(byte q), in GF(2^8)/0x171 */
    for (int q = 0; q < 8; q++) {
        uint64_t *s = u[q][0];
        for (int b = 0; b < 8; b++) s[b] = P[8 * q + b];
        sbox(s);
        for (int k = 1; k < 8; k++) {
            const uint64_t *o = u[q][k - 1];
            uint64_t *w = u[q][k];
            uint64_t top = o[7];
            w[0] = top;
            w[1] = o[0];
            w[2] = o[1];
            w[3] = o[2];
            w[4] = o[3] ^ top;
            w[5] = o[4] ^ top;
            w[6] = o[5] ^ top;
            w[7] = o[6];
        }
    }
    /* LE output byte p (MSB-first i = 7 - p) = XOR_q c[(i + j) mod 8] * s_q, j = 7 - q */
    for (int p = 0; p < 8; p++) {
        uint64_t y[8] = {0};
        for (int q = 0; q < 8; q++) {
            unsigned c = fea_mc[(14 - p - q) % 8];
            for (int k = 0; k < 8; k++)
                if ((c >> k) & 1)
                    for (int b = 0; b < 8; b++) y[b] ^= u[q][k][b];
        }
        for (int b = 0; b < 8; b++) P[8 * p + b] = y[b];
    }
    nuri_wipe(u, sizeof u);
}

static void add_key(uint64_t P[64], uint64_t k)
{
    for (int p = 0; p < 64; p++) P[p] ^= 0 - ((k >> p) & 1);
}

/* One SD (the key schedule) and small batches: the bit-plane kernel does one value in one to two
 * times what a full 64-lane pass costs per value (x86-64, AArch64), so a pass padded from fewer
 * than 32 values is not worth it. */
uint64_t nuri_fea_ct64_sd(uint64_t x) { return nuri_fea_bitplane_sd(x); }

void nuri_fea_ct64_f(const uint64_t rk[2], uint64_t *x, size_t count)
{
    if (count < 32) {
        nuri_fea_bitplane_f(rk, x, count);
        return;
    }
    uint64_t P[64];
    for (size_t off = 0; off < count; off += 64) {
        size_t m = count - off < 64 ? count - off : 64;
        memcpy(P, x + off, m * sizeof(uint64_t));
        if (m < 64) memset(P + m, 0, (64 - m) * sizeof(uint64_t));
        transpose64(P);
        add_key(P, rk[0]);
        sd_planes(P);
        add_key(P, rk[1]);
        sd_planes(P);
        transpose64(P);
        memcpy(x + off, P, m * sizeof(uint64_t));
    }
    nuri_wipe(P, sizeof P);
}

const nuri_fea_impl nuri_fea_backend_ct64 = {
    .info = {"ct64", 0, 1, "portable C, bitsliced across 64 values; S-box computed as x^254 in GF(2^8) (no tables)"},
    .f = nuri_fea_ct64_f,
    .sd = nuri_fea_ct64_sd,
};
