/* PIPO, AVX-512 (F/BW/VL) + GFNI: 64 blocks per pass, two passes interleaved (128 blocks)
 * when the input allows, byte-sliced: zmm register j holds state byte X[j] of 64 blocks.
 *
 * - S-layer: the spec's 34-op gate list rewritten as 21 ops, 17 vpternlogq + 4 vpxorq (each
 *   a ^= b op c, and 3-input XOR chains, is one ternlog; the NOT and complemented intermediates
 *   are folded into ternlog truth tables and into the round-key constants). With the R-layer
 *   and the 5 remaining key XORs a round is 33 instructions for 64 blocks.
 * - R-layer: one vgf2p8affineqb per row, with the 8x8 bit matrix of "rotate left by r".
 * - Round key: broadcast bytes XORed in. Three rows take it inside the last S-layer ternlog
 *   (pre-rotated right by r, since rotl(y) ^ k = rotl(y ^ rotr(k))).
 * - Transposition as in the AVX2 kernel: vpshufb inside 128-bit lanes, then an 8x8 transpose
 *   of 16-bit words with unpack 16/32/64 (an involution, so the same network undoes it).
 *
 * Constant time by construction: valgrind hides AVX-512, so tests/ct cannot run this file.
 * The code has no lookup tables and no data-dependent branches or addresses: every
 * instruction is a logic op, a GF(2) affine map with a constant matrix, a shuffle with a
 * constant control, or a load/store at an address that depends only on the public length.
 * The only branches are on the public block count. */
#include <immintrin.h>

#include "../pipo_impl.h"

#define LANES 64

typedef __m512i v512;

/* vpternlogq truth tables: A, B, C stand for the three operands, in order. */
#define TA             0xF0
#define TB             0xCC
#define TC             0xAA
#define TL(a, b, c, f) _mm512_ternarylogic_epi64(a, b, c, (f) & 0xFF)
#define XOR(a, b)      _mm512_xor_si512(a, b)
#define KEY(p)         _mm512_set1_epi64((long long)(p))

/* GF(2) matrix for gf2p8affineqb computing "rotate left by r": output bit i is input bit
 * (i - r) mod 8; row of output bit i sits in byte 7 - i of the qword. */
#define ROTM_ROW(i, r) ((uint64_t)(1u << (((i) - (r)) & 7)) << (8 * (7 - (i))))
#define ROTM(r)                                                                                            \
    (ROTM_ROW(0, r) | ROTM_ROW(1, r) | ROTM_ROW(2, r) | ROTM_ROW(3, r) | ROTM_ROW(4, r) | ROTM_ROW(5, r) | \
     ROTM_ROW(6, r) | ROTM_ROW(7, r))
#define ROTL(x, r) _mm512_gf2p8affine_epi64_epi8(x, _mm512_set1_epi64((long long)ROTM(r)), 0)

/* Key words per round, one zmm per round (qword j = round-key byte X[j] broadcast to 8 bytes).
 * Computed with a few vector instructions per round because the kernel runs this on every
 * call (the CTR mode calls it per 128-block chunk).
 * Round 0 and all decryption rounds: plain broadcast bytes. Encryption rounds i >= 1, in the
 * form the fused round below consumes them:
 *   rows 1, 2, 7: XORed before the rotation -> byte rotated right by r; rows 1 and 2 also
 *                 absorb the complement of the S-layer output (y1 and y2 come out inverted);
 *   row 6:        XORed after the rotation, complemented (y6 comes out inverted);
 *   rows 0, 3, 4, 5: plain. */
#define ID_M 0x0102040810204080ULL /* identity matrix (= ROTM(0)) */
static void make_keys(uint64_t *kb, const uint64_t *rk, unsigned rounds, int enc)
{
    /* qword j of the result = byte j of the round key, broadcast */
    const v512 spread =
        _mm512_set_epi64(0x0707070707070707LL, 0x0606060606060606LL, 0x0505050505050505LL, 0x0404040404040404LL,
                         0x0303030303030303LL, 0x0202020202020202LL, 0x0101010101010101LL, 0);
    /* per row: rotate right by r (= rotate left by 8 - r) for rows 1, 2, 7; complement 1, 2, 6 */
    const v512 mat = _mm512_set_epi64((long long)ROTM(6), (long long)ID_M, (long long)ID_M, (long long)ID_M,
                                      (long long)ID_M, (long long)ROTM(4), (long long)ROTM(1), (long long)ID_M);
    const v512 inv = _mm512_set_epi64(0, -1, 0, 0, 0, -1, -1, 0);
    for (unsigned i = 0; i <= rounds; i++) {
        v512 k = _mm512_shuffle_epi8(_mm512_set1_epi64((long long)rk[i]), spread);
        if (enc && i > 0) k = _mm512_gf2p8affine_epi64_epi8(XOR(k, inv), mat, 0);
        _mm512_storeu_si512((void *)(kb + 8 * i), k);
    }
}

/* One encryption round (S-layer, R-layer, key) on x[0..7] = X[0..7] of 64 blocks.
 * Names follow the spec's gate list: a/b = S5_1, c = S3, e = extend, f/g = S5_2, n = inverted. */
static inline __attribute__((always_inline)) void enc_round(v512 x[8], const uint64_t *K)
{
    v512 a5 = TL(x[5], x[7], x[6], TA ^ (TB & TC));
    v512 c2 = TL(x[2], x[1], x[0], TA ^ (TB & TC));
    v512 a6 = XOR(x[6], x[3]);
    v512 a4 = TL(x[4], x[3], a5, TA ^ (TB & TC));
    v512 c0 = TL(x[0], c2, x[1], TA ^ (TB | TC));
    v512 a3 = TL(x[3], a4, a5, TA ^ (TB | TC));
    v512 b5 = TL(a5, x[7], a4, TA ^ TB ^ TC); /* a5 ^ a7, a7 = x7 ^ a4 */
    v512 c1 = TL(x[1], c2, c0, TA ^ (TB | TC));
    v512 b4 = TL(a4, b5, a6, TA ^ (TB & TC));
    v512 e7 = TL(x[7], a4, c1, TA ^ TB ^ TC); /* a7 ^ c1 */
    v512 e3n = XOR(a3, c2);                   /* e3 = a3 ^ ~c2 = ~e3n */
    v512 e4 = XOR(b4, c0);
    v512 f6 = TL(a6, e7, b5, TA ^ (TB & TC));
    v512 g0 = TL(e7, a6, b5, TA ^ TB ^ (TA & TC)); /* e7 ^ f6 */
    v512 g6 = TL(f6, e4, e3n, TA ^ (TB | (~TC)));  /* f6 ^ (e4 | e3) */
    v512 g1n = XOR(e3n, b5);                       /* g1 = e3 ^ b5 = ~g1n */
    v512 g5 = TL(b5, g6, e4, TA ^ (TB | TC));
    v512 g2 = TL(e4, g1n, g0, TA ^ ((~TB) & TC)); /* e4 ^ (g1 & g0) */
    /* outputs: y7 = c1 ^ g2, y6 = ~e3n, y5 = e4, y4 = g5, y3 = g6, y2 = ~(c2 ^ g0),
     * y1 = ~(c0 ^ g1n), y0 = e7; complements and (rows 1, 2, 7) keys come from K */
    v512 y7 = TL(c1, g2, KEY(K[7]), TA ^ TB ^ TC);
    v512 y2 = TL(c2, g0, KEY(K[2]), TA ^ TB ^ TC);
    v512 y1 = TL(c0, g1n, KEY(K[1]), TA ^ TB ^ TC);
    x[0] = XOR(e7, KEY(K[0]));
    x[1] = ROTL(y1, 7);
    x[2] = ROTL(y2, 4);
    x[3] = XOR(ROTL(g6, 3), KEY(K[3]));
    x[4] = XOR(ROTL(g5, 6), KEY(K[4]));
    x[5] = XOR(ROTL(e4, 5), KEY(K[5]));
    x[6] = XOR(ROTL(e3n, 1), KEY(K[6]));
    x[7] = ROTL(y7, 2);
}

/* One decryption round: key, inverse R-layer, inverse S-layer (ref inv_sbox, fused). */
static inline __attribute__((always_inline)) void dec_round(v512 y[8], const uint64_t *K)
{
    v512 y0 = XOR(y[0], KEY(K[0]));
    v512 y1 = ROTL(XOR(y[1], KEY(K[1])), 1);
    v512 y2 = ROTL(XOR(y[2], KEY(K[2])), 4);
    v512 y3 = ROTL(XOR(y[3], KEY(K[3])), 5);
    v512 y4 = ROTL(XOR(y[4], KEY(K[4])), 2);
    v512 y5 = ROTL(XOR(y[5], KEY(K[5])), 3);
    v512 y6 = ROTL(XOR(y[6], KEY(K[6])), 7);
    v512 y7 = ROTL(XOR(y[7], KEY(K[7])), 6);
    v512 p5 = TL(y4, y3, y5, TA ^ (TB | TC)); /* x5 ^= x6 | x4 */
    v512 p6 = TL(y3, y5, y6, TA ^ (TB | TC)); /* x6 ^= x4 | x3 */
    v512 t1 = XOR(y6, p5);
    v512 t0 = XOR(y0, p6);
    v512 q6 = TL(p6, y0, p5, TA ^ (TB & TC)); /* x6 ^= x7 & x5 */
    v512 t2 = TL(y5, t1, t0, TA ^ (TB & TC));
    v512 x1 = XOR(y7, t2), x0 = XOR(y1, t1), x2 = XOR(y2, t0);
    v512 r7 = TL(y0, y7, t2, TA ^ TB ^ TC); /* undo extend: x7 ^= x1 */
    v512 r3 = TL(y6, y2, t0, TA ^ TB ^ TC); /* x3 ^= x2 */
    v512 r4 = TL(y5, y1, t1, TA ^ TB ^ TC); /* x4 ^= x0 */
    /* undo S3 with x2 inverted: s1 = x1 ^ (~x2 | x0), s0 = x0 ^ (~x2 | s1), s2 = ~x2 ^ (s1 & s0) */
    v512 s1 = TL(x1, x2, x0, TA ^ ((~TB) | TC));
    v512 s0 = TL(x0, x2, s1, TA ^ ((~TB) | TC));
    v512 s2 = TL(x2, s1, s0, (~TA) ^ (TB & TC));
    /* undo S5_1 */
    v512 u4 = TL(r4, p5, q6, TA ^ (TB & TC));
    v512 u5 = XOR(p5, r7);
    v512 u3 = TL(r3, u4, u5, TA ^ (TB | TC));
    v512 u6 = XOR(q6, u3);
    v512 u7 = XOR(r7, u4);
    y[0] = s0;
    y[1] = s1;
    y[2] = s2;
    y[3] = u3;
    y[4] = TL(u4, u3, u5, TA ^ (TB & TC));
    y[5] = TL(u5, u7, u6, TA ^ (TB & TC));
    y[6] = u6;
    y[7] = u7;
}

/* 8x8 transpose of 16-bit words inside each 128-bit lane: a[i].word[k] -> a[k].word[i]. */
static inline __attribute__((always_inline)) void transpose16(v512 a[8])
{
    v512 t0 = _mm512_unpacklo_epi16(a[0], a[1]), t1 = _mm512_unpackhi_epi16(a[0], a[1]);
    v512 t2 = _mm512_unpacklo_epi16(a[2], a[3]), t3 = _mm512_unpackhi_epi16(a[2], a[3]);
    v512 t4 = _mm512_unpacklo_epi16(a[4], a[5]), t5 = _mm512_unpackhi_epi16(a[4], a[5]);
    v512 t6 = _mm512_unpacklo_epi16(a[6], a[7]), t7 = _mm512_unpackhi_epi16(a[6], a[7]);
    v512 u0 = _mm512_unpacklo_epi32(t0, t2), u1 = _mm512_unpackhi_epi32(t0, t2);
    v512 u2 = _mm512_unpacklo_epi32(t1, t3), u3 = _mm512_unpackhi_epi32(t1, t3);
    v512 u4 = _mm512_unpacklo_epi32(t4, t6), u5 = _mm512_unpackhi_epi32(t4, t6);
    v512 u6 = _mm512_unpacklo_epi32(t5, t7), u7 = _mm512_unpackhi_epi32(t5, t7);
    a[0] = _mm512_unpacklo_epi64(u0, u4);
    a[1] = _mm512_unpackhi_epi64(u0, u4);
    a[2] = _mm512_unpacklo_epi64(u1, u5);
    a[3] = _mm512_unpackhi_epi64(u1, u5);
    a[4] = _mm512_unpacklo_epi64(u2, u6);
    a[5] = _mm512_unpackhi_epi64(u2, u6);
    a[6] = _mm512_unpacklo_epi64(u3, u7);
    a[7] = _mm512_unpackhi_epi64(u3, u7);
}

static inline __attribute__((always_inline)) void load_slice(v512 W[8], const uint8_t *src)
{
    /* per lane: (b0 X0..X7, b1 X0..X7) -> (b0 X0, b1 X0, b0 X1, b1 X1, ...) */
    const v512 sh = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15));
    for (int i = 0; i < 8; i++) W[i] = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)(src + 64 * i)), sh);
    transpose16(W);
}

static inline __attribute__((always_inline)) void store_slice(uint8_t *dst, v512 W[8])
{
    const v512 sh = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15));
    transpose16(W);
    for (int i = 0; i < 8; i++) _mm512_storeu_si512((void *)(dst + 64 * i), _mm512_shuffle_epi8(W[i], sh));
}

static inline __attribute__((always_inline)) void add_key(v512 W[8], const uint64_t *K)
{
    for (int j = 0; j < 8; j++) W[j] = XOR(W[j], KEY(K[j]));
}

/* 128 blocks: two independent 64-block states, rounds interleaved for ILP. */
static void enc128(const uint64_t *kb, unsigned rounds, uint8_t *out, const uint8_t *in)
{
    v512 A[8], B[8];
    load_slice(A, in);
    load_slice(B, in + 8 * LANES);
    add_key(A, kb);
    add_key(B, kb);
    for (unsigned i = 1; i <= rounds; i++) {
        enc_round(A, kb + 8 * i);
        enc_round(B, kb + 8 * i);
    }
    store_slice(out, A);
    store_slice(out + 8 * LANES, B);
}

static void enc64(const uint64_t *kb, unsigned rounds, uint8_t *out, const uint8_t *in)
{
    v512 A[8];
    load_slice(A, in);
    add_key(A, kb);
    for (unsigned i = 1; i <= rounds; i++) enc_round(A, kb + 8 * i);
    store_slice(out, A);
}

static void dec128(const uint64_t *kb, unsigned rounds, uint8_t *out, const uint8_t *in)
{
    v512 A[8], B[8];
    load_slice(A, in);
    load_slice(B, in + 8 * LANES);
    for (unsigned i = rounds; i >= 1; i--) {
        dec_round(A, kb + 8 * i);
        dec_round(B, kb + 8 * i);
    }
    add_key(A, kb);
    add_key(B, kb);
    store_slice(out, A);
    store_slice(out + 8 * LANES, B);
}

static void dec64(const uint64_t *kb, unsigned rounds, uint8_t *out, const uint8_t *in)
{
    v512 A[8];
    load_slice(A, in);
    for (unsigned i = rounds; i >= 1; i--) dec_round(A, kb + 8 * i);
    add_key(A, kb);
    store_slice(out, A);
}

typedef void (*pass_fn)(const uint64_t *, unsigned, uint8_t *, const uint8_t *);

static void run(pass_fn f128, pass_fn f64, const uint64_t *kb, unsigned rounds, uint8_t *out, const uint8_t *in,
                size_t n)
{
    uint8_t tail[8 * LANES];
    for (; n >= 2 * LANES; n -= 2 * LANES, in += 16 * LANES, out += 16 * LANES) f128(kb, rounds, out, in);
    if (n >= LANES) {
        f64(kb, rounds, out, in);
        n -= LANES;
        in += 8 * LANES;
        out += 8 * LANES;
    }
    if (n > 0) {
        memset(tail, 0, sizeof tail);
        memcpy(tail, in, 8 * n);
        f64(kb, rounds, tail, tail);
        memcpy(out, tail, 8 * n);
        nuri_wipe(tail, sizeof tail);
    }
}

void nuri_pipo_avx512_encrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n)
{
    uint64_t kb[8 * (NURI_PIPO_MAX_ROUNDS + 1)];
    make_keys(kb, rk, rounds, 1);
    run(enc128, enc64, kb, rounds, out, in, n);
    nuri_wipe(kb, sizeof kb);
}

void nuri_pipo_avx512_decrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n)
{
    uint64_t kb[8 * (NURI_PIPO_MAX_ROUNDS + 1)];
    make_keys(kb, rk, rounds, 0);
    run(dec128, dec64, kb, rounds, out, in, n);
    nuri_wipe(kb, sizeof kb);
}

const nuri_pipo_impl nuri_pipo_backend_avx512 = {
    .info = {"avx512-gfni", NURI_CPU_AVX512F | NURI_CPU_AVX512BW | NURI_CPU_AVX512VL | NURI_CPU_GFNI, 1,
             "64 blocks per pass, byte-sliced in zmm registers; R-layer with gf2p8affineqb, S-layer with vpternlogq"},
    .encrypt = nuri_pipo_avx512_encrypt,
    .decrypt = nuri_pipo_avx512_decrypt,
    .small_to_ref = 2,
};
