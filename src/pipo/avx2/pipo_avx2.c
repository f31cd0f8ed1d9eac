/* PIPO, AVX2: 32 blocks per pass, byte-sliced. ymm register j holds state byte X[j] of the
 * 32 blocks, so each S-layer step is one 256-bit logic op for 32 blocks x 8 columns and the
 * R-layer is a per-byte rotation (16-bit shifts + masks).
 *
 * Transposition: a 32-byte load holds 4 blocks. vpshufb turns each 128-bit lane (2 blocks)
 * into 8 16-bit words, word w = (X[w] of block 0, X[w] of block 1); an 8x8 transpose of 16-bit
 * words within the lanes (unpack 16/32/64) then gives register j = X[j] of all 32 blocks.
 * The same network undoes it (the 16-bit transpose is an involution).
 *
 * Constant time: logic, shifts, shuffles with constant controls; no tables, no secret
 * branches. Covered by tests/ct/ct_pipo.c under valgrind. */
#include <immintrin.h>

#include "../pipo_impl.h"

#define LANES    32
#define BCAST(b) (0x0101010101010101ULL * (uint8_t)(b))

typedef __m256i v256;

#define XOR(a, b) _mm256_xor_si256(a, b)
#define AND(a, b) _mm256_and_si256(a, b)
#define OR(a, b)  _mm256_or_si256(a, b)
#define NOT(a)    _mm256_xor_si256(a, _mm256_set1_epi32(-1))

/* Every byte rotated left by r (1..7): 16-bit shifts, bits crossing into the neighbour byte
 * masked off. */
#define ROTL(x, r)                                                                   \
    OR(AND(_mm256_slli_epi16(x, r), _mm256_set1_epi8((char)((0xFF << (r)) & 0xFF))), \
       AND(_mm256_srli_epi16(x, 8 - (r)), _mm256_set1_epi8((char)((1 << (r)) - 1))))

/* 8x8 transpose of 16-bit words inside each 128-bit lane: a[i].word[k] -> a[k].word[i]. */
static inline __attribute__((always_inline)) void transpose16(v256 a[8])
{
    v256 t0 = _mm256_unpacklo_epi16(a[0], a[1]), t1 = _mm256_unpackhi_epi16(a[0], a[1]);
    v256 t2 = _mm256_unpacklo_epi16(a[2], a[3]), t3 = _mm256_unpackhi_epi16(a[2], a[3]);
    v256 t4 = _mm256_unpacklo_epi16(a[4], a[5]), t5 = _mm256_unpackhi_epi16(a[4], a[5]);
    v256 t6 = _mm256_unpacklo_epi16(a[6], a[7]), t7 = _mm256_unpackhi_epi16(a[6], a[7]);
    v256 u0 = _mm256_unpacklo_epi32(t0, t2), u1 = _mm256_unpackhi_epi32(t0, t2);
    v256 u2 = _mm256_unpacklo_epi32(t1, t3), u3 = _mm256_unpackhi_epi32(t1, t3);
    v256 u4 = _mm256_unpacklo_epi32(t4, t6), u5 = _mm256_unpackhi_epi32(t4, t6);
    v256 u6 = _mm256_unpacklo_epi32(t5, t7), u7 = _mm256_unpackhi_epi32(t5, t7);
    a[0] = _mm256_unpacklo_epi64(u0, u4);
    a[1] = _mm256_unpackhi_epi64(u0, u4);
    a[2] = _mm256_unpacklo_epi64(u1, u5);
    a[3] = _mm256_unpackhi_epi64(u1, u5);
    a[4] = _mm256_unpacklo_epi64(u2, u6);
    a[5] = _mm256_unpackhi_epi64(u2, u6);
    a[6] = _mm256_unpacklo_epi64(u3, u7);
    a[7] = _mm256_unpackhi_epi64(u3, u7);
}

static inline __attribute__((always_inline)) void load_slice(v256 W[8], const uint8_t *src)
{
    /* per lane: (b0 X0..X7, b1 X0..X7) -> (b0 X0, b1 X0, b0 X1, b1 X1, ...) */
    const v256 sh = _mm256_setr_epi8(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15, 0, 8, 1, 9, 2, 10, 3, 11, 4,
                                     12, 5, 13, 6, 14, 7, 15);
    for (int i = 0; i < 8; i++)
        W[i] = _mm256_shuffle_epi8(_mm256_loadu_si256((const v256 *)(const void *)(src + 32 * i)), sh);
    transpose16(W);
}

static inline __attribute__((always_inline)) void store_slice(uint8_t *dst, v256 W[8])
{
    const v256 sh = _mm256_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12, 14, 1,
                                     3, 5, 7, 9, 11, 13, 15);
    transpose16(W);
    for (int i = 0; i < 8; i++) _mm256_storeu_si256((v256 *)(void *)(dst + 32 * i), _mm256_shuffle_epi8(W[i], sh));
}

#define KEY(kb, j) _mm256_set1_epi64x((long long)(kb)[j])

static inline __attribute__((always_inline)) void enc32(const uint64_t *kb, unsigned rounds, v256 W[8])
{
    v256 x0 = XOR(W[0], KEY(kb, 0)), x1 = XOR(W[1], KEY(kb, 1)), x2 = XOR(W[2], KEY(kb, 2)), x3 = XOR(W[3], KEY(kb, 3)),
         x4 = XOR(W[4], KEY(kb, 4)), x5 = XOR(W[5], KEY(kb, 5)), x6 = XOR(W[6], KEY(kb, 6)), x7 = XOR(W[7], KEY(kb, 7));
    for (unsigned i = 1; i <= rounds; i++) {
        const uint64_t *k = kb + 8 * i;
        v256 t0, t1, t2;
        /* S-layer (spec §1 gates) */
        x5 = XOR(x5, AND(x7, x6));
        x4 = XOR(x4, AND(x3, x5));
        x7 = XOR(x7, x4);
        x6 = XOR(x6, x3);
        x3 = XOR(x3, OR(x4, x5));
        x5 = XOR(x5, x7);
        x4 = XOR(x4, AND(x5, x6));
        x2 = XOR(x2, AND(x1, x0));
        x0 = XOR(x0, OR(x2, x1));
        x1 = XOR(x1, OR(x2, x0));
        x2 = NOT(x2);
        x7 = XOR(x7, x1);
        x3 = XOR(x3, x2);
        x4 = XOR(x4, x0);
        t0 = x7;
        t1 = x3;
        t2 = x4;
        x6 = XOR(x6, AND(t0, x5));
        t0 = XOR(t0, x6);
        x6 = XOR(x6, OR(t2, t1));
        t1 = XOR(t1, x5);
        x5 = XOR(x5, OR(x6, t2));
        t2 = XOR(t2, AND(t1, t0));
        x2 = XOR(x2, t0);
        /* outputs y7..y0, then R-layer and round key */
        v256 y7 = XOR(x1, t2), y6 = x3, y5 = x4, y4 = x5, y3 = x6, y2 = x2, y1 = XOR(x0, t1), y0 = x7;
        x0 = XOR(y0, KEY(k, 0));
        x1 = XOR(ROTL(y1, 7), KEY(k, 1));
        x2 = XOR(ROTL(y2, 4), KEY(k, 2));
        x3 = XOR(ROTL(y3, 3), KEY(k, 3));
        x4 = XOR(ROTL(y4, 6), KEY(k, 4));
        x5 = XOR(ROTL(y5, 5), KEY(k, 5));
        x6 = XOR(ROTL(y6, 1), KEY(k, 6));
        x7 = XOR(ROTL(y7, 2), KEY(k, 7));
    }
    W[0] = x0;
    W[1] = x1;
    W[2] = x2;
    W[3] = x3;
    W[4] = x4;
    W[5] = x5;
    W[6] = x6;
    W[7] = x7;
}

static inline __attribute__((always_inline)) void dec32(const uint64_t *kb, unsigned rounds, v256 W[8])
{
    v256 y0 = W[0], y1 = W[1], y2 = W[2], y3 = W[3], y4 = W[4], y5 = W[5], y6 = W[6], y7 = W[7];
    for (unsigned i = rounds; i >= 1; i--) {
        const uint64_t *k = kb + 8 * i;
        y0 = XOR(y0, KEY(k, 0));
        y1 = ROTL(XOR(y1, KEY(k, 1)), 1);
        y2 = ROTL(XOR(y2, KEY(k, 2)), 4);
        y3 = ROTL(XOR(y3, KEY(k, 3)), 5);
        y4 = ROTL(XOR(y4, KEY(k, 4)), 2);
        y5 = ROTL(XOR(y5, KEY(k, 5)), 3);
        y6 = ROTL(XOR(y6, KEY(k, 6)), 7);
        y7 = ROTL(XOR(y7, KEY(k, 7)), 6);
        /* inverse S-layer (same steps as ref inv_sbox) */
        v256 x7 = y0, x3 = y6, x4 = y5, x5 = y4, x6 = y3;
        x5 = XOR(x5, OR(x6, x4));
        v256 t1 = XOR(x3, x5);
        x6 = XOR(x6, OR(x4, x3));
        v256 t0 = XOR(x7, x6);
        x6 = XOR(x6, AND(x7, x5));
        v256 t2 = XOR(x4, AND(t1, t0));
        v256 x1 = XOR(y7, t2), x0 = XOR(y1, t1), x2 = XOR(y2, t0);
        x7 = XOR(x7, x1);
        x3 = XOR(x3, x2);
        x4 = XOR(x4, x0);
        x2 = NOT(x2);
        x1 = XOR(x1, OR(x2, x0));
        x0 = XOR(x0, OR(x2, x1));
        x2 = XOR(x2, AND(x1, x0));
        x4 = XOR(x4, AND(x5, x6));
        x5 = XOR(x5, x7);
        x3 = XOR(x3, OR(x4, x5));
        x6 = XOR(x6, x3);
        x7 = XOR(x7, x4);
        x4 = XOR(x4, AND(x3, x5));
        x5 = XOR(x5, AND(x7, x6));
        y0 = x0;
        y1 = x1;
        y2 = x2;
        y3 = x3;
        y4 = x4;
        y5 = x5;
        y6 = x6;
        y7 = x7;
    }
    W[0] = XOR(y0, KEY(kb, 0));
    W[1] = XOR(y1, KEY(kb, 1));
    W[2] = XOR(y2, KEY(kb, 2));
    W[3] = XOR(y3, KEY(kb, 3));
    W[4] = XOR(y4, KEY(kb, 4));
    W[5] = XOR(y5, KEY(kb, 5));
    W[6] = XOR(y6, KEY(kb, 6));
    W[7] = XOR(y7, KEY(kb, 7));
}

static inline __attribute__((always_inline)) void run(int enc, const uint64_t *rk, unsigned rounds, uint8_t *out,
                                                      const uint8_t *in, size_t n)
{
    uint64_t kb[8 * (NURI_PIPO_MAX_ROUNDS + 1)];
    uint8_t tail[8 * LANES];
    v256 W[8];
    for (unsigned i = 0; i <= rounds; i++)
        for (int j = 0; j < 8; j++) kb[8 * i + j] = BCAST(rk[i] >> (8 * j));
    while (n > 0) {
        size_t m = n < LANES ? n : LANES;
        const uint8_t *src = in;
        uint8_t *dst = out;
        if (m < LANES) {
            memset(tail, 0, sizeof tail);
            memcpy(tail, in, 8 * m);
            src = dst = tail;
        }
        load_slice(W, src);
        if (enc) enc32(kb, rounds, W);
        else dec32(kb, rounds, W);
        store_slice(dst, W);
        if (m < LANES) memcpy(out, tail, 8 * m);
        in += 8 * m;
        out += 8 * m;
        n -= m;
    }
    nuri_wipe(W, sizeof W);
    nuri_wipe(kb, sizeof kb);
    nuri_wipe(tail, sizeof tail);
}

void nuri_pipo_avx2_encrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n)
{
    run(1, rk, rounds, out, in, n);
}

void nuri_pipo_avx2_decrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n)
{
    run(0, rk, rounds, out, in, n);
}

const nuri_pipo_impl nuri_pipo_backend_avx2 = {
    .info = {"avx2", NURI_CPU_AVX2, 1, "32 blocks per pass, byte-sliced in ymm registers"},
    .encrypt = nuri_pipo_avx2_encrypt,
    .decrypt = nuri_pipo_avx2_decrypt,
    .small_to_ref = 3,
};
