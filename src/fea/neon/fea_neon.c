/* FEA with AArch64 NEON: 16 values per pass, byte-sliced, table-free in memory, constant time.
 *
 * Layout. 16 words are loaded with two ld4 (de-interleave by 4) and one uzp1/uzp2 per pair, so
 * register b[q] holds little-endian byte q of the 16 values (spec byte 7 - q); st4 + zip undo
 * it. Round keys are broadcast per byte (dup).
 *
 * S-layer. The 256-byte S-box lives in 16 q registers; S(x) = tbl4(S[0..63], x), then tbx4 with
 * S[64..127] on x ^ 0x40, S[128..191] on x ^ 0x80 and S[192..255] on x ^ 0xc0 (each lane's index
 * is in range for exactly one of the four): 7 instructions per 16 bytes. TBL/TBX are register
 * permutes whose timing does not depend on the index values (Arm lists them among the
 * data-independent-timing instructions), so this is not a secret-indexed memory access.
 *
 * M-layer. y_i = XOR_j c[(i+j) mod 8] s_j is the cyclic convolution Y(z) = C(z) S'(z) mod z^8 + 1
 * with s'_m = s_{-m mod 8} (a free renaming of registers here). Over GF(2), z^8 + 1 = (z + 1)^8,
 * so in the basis w = z + 1 it becomes the truncated product Y_w = C_w S'_w mod w^8, which needs
 * 36 of the 64 coefficient products; the change of basis z <-> w is the subset-sum transform
 * (12 XORs each way). C_w = 20 f2 01 38 11 90 02 40 (w^0 .. w^7): the 6 products by 01 are free,
 * and the other 30 are split-nibble lookups (c * s = Lc[s & 15] ^ Hc[s >> 4], two tbl1 from
 * tables held in registers); 0x11 * lo and 0x02 * lo are a sli and a shl, and the 0x02 * hi
 * table equals the 0x20 * lo one, so 11 tables of 16 bytes. M costs 158 instructions per 16
 * values instead of the 264 of the direct 64-product form (and the direct word-packed form would
 * need 8 products + 8 byte shuffles per two values).
 *
 * Constant time: only register operations (tbl/tbx, logic, shifts, permutes) on secret data; the
 * only memory addresses are the constant tables (fixed addresses) and the caller's buffers by
 * position; no data-dependent branch. (valgrind does not run AArch64 code here; argued from the
 * code like the GFNI kernel.) */
#include <arm_neon.h>

#include "../fea_tables.h"
#include "fea_neon.h"

/* Nibble product tables for the coefficients of C in the w basis (see above), GF(2^8) mod 0x171.
 * Derived from fea_mc (facts of the standard): C_w[m] = XOR over k with k & m == m of c[k]. */
static const uint8_t mul_tab[11][16] = {
    /* 0: 0x20 * lo (also 0x02 * hi) */
    {0x00, 0x20, 0x40, 0x60, 0x80, 0xa0, 0xc0, 0xe0, 0x71, 0x51, 0x31, 0x11, 0xf1, 0xd1, 0xb1, 0x91},
    /* 1: 0x20 * hi */
    {0x00, 0xe2, 0xb5, 0x57, 0x1b, 0xf9, 0xae, 0x4c, 0x36, 0xd4, 0x83, 0x61, 0x2d, 0xcf, 0x98, 0x7a},
    /* 2: 0xf2 * lo */
    {0x00, 0xf2, 0x95, 0x67, 0x5b, 0xa9, 0xce, 0x3c, 0xb6, 0x44, 0x23, 0xd1, 0xed, 0x1f, 0x78, 0x8a},
    /* 3: 0xf2 * hi */
    {0x00, 0x1d, 0x3a, 0x27, 0x74, 0x69, 0x4e, 0x53, 0xe8, 0xf5, 0xd2, 0xcf, 0x9c, 0x81, 0xa6, 0xbb},
    /* 4: 0x38 * lo */
    {0x00, 0x38, 0x70, 0x48, 0xe0, 0xd8, 0x90, 0xa8, 0xb1, 0x89, 0xc1, 0xf9, 0x51, 0x69, 0x21, 0x19},
    /* 5: 0x38 * hi */
    {0x00, 0x13, 0x26, 0x35, 0x4c, 0x5f, 0x6a, 0x79, 0x98, 0x8b, 0xbe, 0xad, 0xd4, 0xc7, 0xf2, 0xe1},
    /* 6: 0x11 * hi (0x11 * lo = lo | lo << 4) */
    {0x00, 0x61, 0xc2, 0xa3, 0xf5, 0x94, 0x37, 0x56, 0x9b, 0xfa, 0x59, 0x38, 0x6e, 0x0f, 0xac, 0xcd},
    /* 7: 0x90 * lo */
    {0x00, 0x90, 0x51, 0xc1, 0xa2, 0x32, 0xf3, 0x63, 0x35, 0xa5, 0x64, 0xf4, 0x97, 0x07, 0xc6, 0x56},
    /* 8: 0x90 * hi */
    {0x00, 0x6a, 0xd4, 0xbe, 0xd9, 0xb3, 0x0d, 0x67, 0xc3, 0xa9, 0x17, 0x7d, 0x1a, 0x70, 0xce, 0xa4},
    /* 9: 0x40 * lo */
    {0x00, 0x40, 0x80, 0xc0, 0x71, 0x31, 0xf1, 0xb1, 0xe2, 0xa2, 0x62, 0x22, 0x93, 0xd3, 0x13, 0x53},
    /* 10: 0x40 * hi */
    {0x00, 0xb5, 0x1b, 0xae, 0x36, 0x83, 0x2d, 0x98, 0x6c, 0xd9, 0x77, 0xc2, 0x5a, 0xef, 0x41, 0xf4},
};

#define INLINE static inline __attribute__((always_inline))

INLINE void s_layer(uint8x16_t b[8])
{
    const uint8x16x4_t s0 = vld1q_u8_x4(fea_sbox), s1 = vld1q_u8_x4(fea_sbox + 64);
    const uint8x16x4_t s2 = vld1q_u8_x4(fea_sbox + 128), s3 = vld1q_u8_x4(fea_sbox + 192);
    const uint8x16_t c40 = vdupq_n_u8(0x40), c80 = vdupq_n_u8(0x80), cc0 = vdupq_n_u8(0xc0);
    for (int q = 0; q < 8; q++) {
        uint8x16_t x = b[q];
        uint8x16_t r = vqtbl4q_u8(s0, x);
        r = vqtbx4q_u8(r, s1, veorq_u8(x, c40));
        r = vqtbx4q_u8(r, s2, veorq_u8(x, c80));
        b[q] = vqtbx4q_u8(r, s3, veorq_u8(x, cc0));
    }
}

/* subset-sum transform (z <-> w = z + 1 basis change; an involution): p[k] ^= p[k | bit] */
INLINE void zeta(uint8x16_t p[8])
{
    for (int bit = 1; bit < 8; bit <<= 1)
        for (int k = 0; k < 8; k++)
            if (!(k & bit)) p[k] = veorq_u8(p[k], p[k | bit]);
}

/* C_w[i] * v with lo = v & 15, hi = v >> 4; i != 2 (C_w[2] = 1) */
INLINE uint8x16_t cmul(int i, uint8x16_t lo, uint8x16_t hi, const uint8x16_t t[11])
{
    switch (i) {
    case 0: return veorq_u8(vqtbl1q_u8(t[0], lo), vqtbl1q_u8(t[1], hi));
    case 1: return veorq_u8(vqtbl1q_u8(t[2], lo), vqtbl1q_u8(t[3], hi));
    case 3: return veorq_u8(vqtbl1q_u8(t[4], lo), vqtbl1q_u8(t[5], hi));
    case 4: return veorq_u8(vsliq_n_u8(lo, lo, 4), vqtbl1q_u8(t[6], hi));
    case 5: return veorq_u8(vqtbl1q_u8(t[7], lo), vqtbl1q_u8(t[8], hi));
    case 6: return veorq_u8(vshlq_n_u8(lo, 1), vqtbl1q_u8(t[0], hi));
    default: return veorq_u8(vqtbl1q_u8(t[9], lo), vqtbl1q_u8(t[10], hi));
    }
}

INLINE void m_layer(uint8x16_t b[8])
{
    uint8x16_t t[11];
    const uint8x16x4_t ta = vld1q_u8_x4(mul_tab[0]), tb = vld1q_u8_x4(mul_tab[4]);
    const uint8x16x3_t tc = vld1q_u8_x3(mul_tab[8]);
    for (int i = 0; i < 4; i++) {
        t[i] = ta.val[i];
        t[4 + i] = tb.val[i];
    }
    for (int i = 0; i < 3; i++) t[8 + i] = tc.val[i];
    const uint8x16_t m0f = vdupq_n_u8(0x0f);
    /* S'(z): s'_0 = s_0 = b[7], s'_m = s_{8-m} = b[m-1] (spec byte j is b[7-j]) */
    uint8x16_t p[8], y[8];
    p[0] = b[7];
    for (int m = 1; m < 8; m++) p[m] = b[m - 1];
    zeta(p);
    /* Y_w[k] = XOR_{i <= k} C_w[i] S'_w[k - i], input-major so each split is made once */
    for (int j = 0; j < 8; j++) {
        uint8x16_t lo = vandq_u8(p[j], m0f), hi = vshrq_n_u8(p[j], 4);
        for (int i = 0; i + j < 8; i++) {
            uint8x16_t term = i == 2 ? p[j] : cmul(i, lo, hi, t);
            y[i + j] = j == 0 ? term : veorq_u8(y[i + j], term);
        }
    }
    zeta(y);
    for (int i = 0; i < 8; i++) b[7 - i] = y[i];
}

INLINE void load16(uint8x16_t b[8], const uint64_t *x)
{
    uint8x16x4_t a = vld4q_u8((const uint8_t *)x), c = vld4q_u8((const uint8_t *)(x + 8));
    for (int r = 0; r < 4; r++) {
        b[r] = vuzp1q_u8(a.val[r], c.val[r]);
        b[r + 4] = vuzp2q_u8(a.val[r], c.val[r]);
    }
}

INLINE void store16(uint64_t *x, const uint8x16_t b[8])
{
    uint8x16x4_t a, c;
    for (int r = 0; r < 4; r++) {
        a.val[r] = vzip1q_u8(b[r], b[r + 4]);
        c.val[r] = vzip2q_u8(b[r], b[r + 4]);
    }
    vst4q_u8((uint8_t *)x, a);
    vst4q_u8((uint8_t *)(x + 8), c);
}

INLINE void add_key(uint8x16_t b[8], const uint8x16_t k[8])
{
    for (int q = 0; q < 8; q++) b[q] = veorq_u8(b[q], k[q]);
}

INLINE void bcast_key(uint8x16_t k[8], uint64_t w)
{
    for (int q = 0; q < 8; q++) k[q] = vdupq_n_u8((uint8_t)(w >> (8 * q)));
}

static void f16(uint64_t *x, const uint8x16_t ka[8], const uint8x16_t kb[8])
{
    uint8x16_t b[8];
    load16(b, x);
    add_key(b, ka);
    s_layer(b);
    m_layer(b);
    add_key(b, kb);
    s_layer(b);
    m_layer(b);
    store16(x, b);
}

uint64_t nuri_fea_neon_sd(uint64_t x)
{
    uint64_t buf[16] = {x};
    uint8x16_t b[8];
    load16(b, buf);
    s_layer(b);
    m_layer(b);
    store16(buf, b);
    uint64_t y = buf[0];
    nuri_wipe(buf, sizeof buf);
    return y;
}

void nuri_fea_neon_f(const uint64_t rk[2], uint64_t *x, size_t count)
{
    uint8x16_t ka[8], kb[8];
    bcast_key(ka, rk[0]);
    bcast_key(kb, rk[1]);
    size_t i = 0;
    for (; i + 16 <= count; i += 16) f16(x + i, ka, kb);
    if (i < count) { /* tail: pad to 16 values */
        uint64_t buf[16] = {0};
        memcpy(buf, x + i, (count - i) * sizeof *x);
        f16(buf, ka, kb);
        memcpy(x + i, buf, (count - i) * sizeof *x);
        nuri_wipe(buf, sizeof buf);
    }
    nuri_wipe(ka, sizeof ka);
    nuri_wipe(kb, sizeof kb);
}
