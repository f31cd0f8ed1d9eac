/* PIPO, portable byte-sliced: 8 blocks per 64-bit word. Word W[j] holds state byte X[j] of 8
 * blocks (byte k of W[j] = X[j] of block k), so one 64-bit logic op does the S-layer step
 * for 8 blocks x 8 columns, and the R-layer is a per-byte rotation with shifts and masks.
 *
 * Speed: with GCC/Clang on targets with 128-bit SIMD (SSE2, NEON, AltiVec/VSX, WASM SIMD) the
 * words are generic vectors of NW = 2 64-bit lanes (vector_size extension, no intrinsics), which
 * the compiler lowers to SSE2/NEON/...: 2 independent 8-block groups per instruction. Elsewhere
 * NW = 1 (plain uint64_t). Each pass also runs NS = 2 independent states, rounds interleaved,
 * for ILP (NS = 1 on 32-bit targets without SIMD, where 16 live 64-bit words would spill).
 * Lane l of the vectors is group l; group l of a state is blocks {NW*k + l}, so a pass loads its
 * input as contiguous vectors and the 8x8 byte transpose runs lane-wise.
 *
 * Constant time: no tables, no secret-dependent branches or addresses. */
#include <stdint.h>

#include "../pipo_impl.h"

#if (defined(__GNUC__) || defined(__clang__)) && !defined(NURI_PIPO_BS64_SCALAR) &&          \
    (defined(__SSE2__) || defined(__ARM_NEON) || defined(__ALTIVEC__) || defined(__VSX__) || \
     defined(__wasm_simd128__))
#define NW 2 /* 64-bit lanes per vector */
#define NS 2 /* independent states per pass */
typedef uint64_t vw __attribute__((vector_size(8 * NW)));
#define VEC(c) ((vw){0} + (uint64_t)(c)) /* c in every lane */
#else
#define NW 1
#if UINTPTR_MAX > 0xFFFFFFFFu
#define NS 2
#else
#define NS 1
#endif
typedef uint64_t vw;
#define VEC(c) ((uint64_t)(c))
#endif

#define LANES    (8 * NW * NS) /* blocks per pass */
#define BCAST(b) (0x0101010101010101ULL * (uint8_t)(b))

/* 8x8 byte transpose (its own inverse) in every lane: blocks-as-words <-> rows-as-words. */
#define SWAP(a, b, s, m)                \
    do {                                \
        vw t_ = ((a >> (s)) ^ b) & (m); \
        a ^= t_ << (s);                 \
        b ^= t_;                        \
    } while (0)
static inline void transpose8x8(vw w[8])
{
    SWAP(w[0], w[4], 32, 0x00000000FFFFFFFFULL);
    SWAP(w[1], w[5], 32, 0x00000000FFFFFFFFULL);
    SWAP(w[2], w[6], 32, 0x00000000FFFFFFFFULL);
    SWAP(w[3], w[7], 32, 0x00000000FFFFFFFFULL);
    SWAP(w[0], w[2], 16, 0x0000FFFF0000FFFFULL);
    SWAP(w[1], w[3], 16, 0x0000FFFF0000FFFFULL);
    SWAP(w[4], w[6], 16, 0x0000FFFF0000FFFFULL);
    SWAP(w[5], w[7], 16, 0x0000FFFF0000FFFFULL);
    SWAP(w[0], w[1], 8, 0x00FF00FF00FF00FFULL);
    SWAP(w[2], w[3], 8, 0x00FF00FF00FF00FFULL);
    SWAP(w[4], w[5], 8, 0x00FF00FF00FF00FFULL);
    SWAP(w[6], w[7], 8, 0x00FF00FF00FF00FFULL);
}

/* every byte rotated left by r (1..7) */
#define ROTL(x, r) (((x << (r)) & BCAST((0xFFu << (r)) & 0xFF)) | ((x >> (8 - (r))) & BCAST((1u << (r)) - 1)))

/* One encryption round on x0..x7: S-layer (spec §1 gates), R-layer, round key.
 * rotl(y) ^ k = rotl(y ^ rotr(k)): the round key comes pre-rotated (K[j] = rotr(k_j, r_j)) and
 * is XORed into an early operand of each output's last XOR, off the critical path. */
#define ENC_ROUND(x0, x1, x2, x3, x4, x5, x6, x7, K)                                                \
    do {                                                                                            \
        vw t0, t1, t2;                                                                              \
        x5 ^= x7 & x6;                                                                              \
        x4 ^= x3 & x5;                                                                              \
        x7 ^= x4;                                                                                   \
        x6 ^= x3;                                                                                   \
        x3 ^= x4 | x5;                                                                              \
        x5 ^= x7;                                                                                   \
        x4 ^= x5 & x6;                                                                              \
        x2 ^= x1 & x0;                                                                              \
        x0 ^= x2 | x1;                                                                              \
        x1 ^= x2 | x0;                                                                              \
        x2 = ~x2;                                                                                   \
        x7 ^= x1;                                                                                   \
        x3 ^= x2;                                                                                   \
        x4 ^= x0;                                                                                   \
        /* S5_2 with t0 = x7, t1 = x3, t2 = x4; keys folded into y1, y2, y4, y7 */                  \
        x0 ^= (K)[1];                                                                               \
        x1 ^= (K)[7];                                                                               \
        x2 ^= (K)[2];                                                                               \
        x6 ^= x7 & x5;                                                                              \
        t0 = x7 ^ x6;                                                                               \
        x6 ^= x4 | x3;                                                                              \
        t1 = x3 ^ x5;                                                                               \
        x5 ^= (K)[4];                                                                               \
        x5 ^= x6 | x4;                                                                              \
        t2 = x4 ^ (t1 & t0);                                                                        \
        /* outputs y7 = x1 ^ t2, y6 = x3, y5 = x4, y4 = x5, y3 = x6, y2 = x2 ^ t0, y1 = x0 ^ t1,  \
         * y0 = x7 */ \
        x2 ^= t0;                                                                                   \
        t1 ^= x0;                                                                                   \
        t2 ^= x1;                                                                                   \
        x0 = x7 ^ (K)[0];                                                                           \
        x1 = ROTL(t1, 7);                                                                           \
        x7 = ROTL(t2, 2);                                                                           \
        x2 = ROTL(x2, 4);                                                                           \
        t0 = x6 ^ (K)[3];                                                                           \
        x6 = ROTL((x3 ^ (K)[6]), 1);                                                                \
        x3 = ROTL(t0, 3);                                                                           \
        t0 = x4 ^ (K)[5];                                                                           \
        x4 = ROTL(x5, 6);                                                                           \
        x5 = ROTL(t0, 5);                                                                           \
    } while (0)

/* One decryption round: round key, inverse R-layer, inverse S-layer (ref inv_sbox). */
#define DEC_ROUND(y0, y1, y2, y3, y4, y5, y6, y7, K)   \
    do {                                               \
        vw x0, x1, x2, x3, x4, x5, x6, x7, t0, t1, t2; \
        x7 = y0 ^ (K)[0];                              \
        y1 = ROTL((y1 ^ (K)[1]), 1);                   \
        y2 = ROTL((y2 ^ (K)[2]), 4);                   \
        x6 = ROTL((y3 ^ (K)[3]), 5);                   \
        x5 = ROTL((y4 ^ (K)[4]), 2);                   \
        x4 = ROTL((y5 ^ (K)[5]), 3);                   \
        x3 = ROTL((y6 ^ (K)[6]), 7);                   \
        y7 = ROTL((y7 ^ (K)[7]), 6);                   \
        x5 ^= x6 | x4;                                 \
        t1 = x3 ^ x5;                                  \
        x6 ^= x4 | x3;                                 \
        t0 = x7 ^ x6;                                  \
        x6 ^= x7 & x5;                                 \
        t2 = x4 ^ (t1 & t0);                           \
        x1 = y7 ^ t2;                                  \
        x0 = y1 ^ t1;                                  \
        x2 = y2 ^ t0;                                  \
        x7 ^= x1;                                      \
        x3 ^= x2;                                      \
        x4 ^= x0;                                      \
        x2 = ~x2;                                      \
        x1 ^= x2 | x0;                                 \
        x0 ^= x2 | x1;                                 \
        x2 ^= x1 & x0;                                 \
        x4 ^= x5 & x6;                                 \
        x5 ^= x7;                                      \
        x3 ^= x4 | x5;                                 \
        x6 ^= x3;                                      \
        x7 ^= x4;                                      \
        x4 ^= x3 & x5;                                 \
        x5 ^= x7 & x6;                                 \
        y0 = x0;                                       \
        y1 = x1;                                       \
        y2 = x2;                                       \
        y3 = x3;                                       \
        y4 = x4;                                       \
        y5 = x5;                                       \
        y6 = x6;                                       \
        y7 = x7;                                       \
    } while (0)

#define LOAD8(x, W, o)                                                                                \
    vw x##0 = (W)[o + 0], x##1 = (W)[o + 1], x##2 = (W)[o + 2], x##3 = (W)[o + 3], x##4 = (W)[o + 4], \
       x##5 = (W)[o + 5], x##6 = (W)[o + 6], x##7 = (W)[o + 7]
#define STORE8(W, o, x)    \
    do {                   \
        (W)[o + 0] = x##0; \
        (W)[o + 1] = x##1; \
        (W)[o + 2] = x##2; \
        (W)[o + 3] = x##3; \
        (W)[o + 4] = x##4; \
        (W)[o + 5] = x##5; \
        (W)[o + 6] = x##6; \
        (W)[o + 7] = x##7; \
    } while (0)
#define KEY8(x, K)      \
    do {                \
        x##0 ^= (K)[0]; \
        x##1 ^= (K)[1]; \
        x##2 ^= (K)[2]; \
        x##3 ^= (K)[3]; \
        x##4 ^= (K)[4]; \
        x##5 ^= (K)[5]; \
        x##6 ^= (K)[6]; \
        x##7 ^= (K)[7]; \
    } while (0)

/* NS independent states per pass, rounds interleaved (more independent work per round). */
static void enc_pass(const vw *kb, unsigned rounds, vw W[8 * NS])
{
    LOAD8(a, W, 0);
    KEY8(a, kb);
#if NS == 2
    LOAD8(b, W, 8);
    KEY8(b, kb);
#endif
    for (unsigned i = 1; i <= rounds; i++) {
        ENC_ROUND(a0, a1, a2, a3, a4, a5, a6, a7, kb + 8 * i);
#if NS == 2
        ENC_ROUND(b0, b1, b2, b3, b4, b5, b6, b7, kb + 8 * i);
#endif
    }
    STORE8(W, 0, a);
#if NS == 2
    STORE8(W, 8, b);
#endif
}

static void dec_pass(const vw *kb, unsigned rounds, vw W[8 * NS])
{
    LOAD8(a, W, 0);
#if NS == 2
    LOAD8(b, W, 8);
#endif
    for (unsigned i = rounds; i >= 1; i--) {
        DEC_ROUND(a0, a1, a2, a3, a4, a5, a6, a7, kb + 8 * i);
#if NS == 2
        DEC_ROUND(b0, b1, b2, b3, b4, b5, b6, b7, kb + 8 * i);
#endif
    }
    KEY8(a, kb);
    STORE8(W, 0, a);
#if NS == 2
    KEY8(b, kb);
    STORE8(W, 8, b);
#endif
}

/* W[k] lane l = block NW*k + l (little-endian word) */
static inline void load_pass(vw W[8 * NS], const uint8_t *src)
{
#if NW > 1 && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(W, src, sizeof(vw) * 8 * NS);
#elif NW > 1
    for (int k = 0; k < 8 * NS; k++)
        for (int l = 0; l < NW; l++) W[k][l] = nuri_load64_le(src + 8 * (NW * k + l));
#else
    for (int k = 0; k < 8 * NS; k++) W[k] = nuri_load64_le(src + 8 * k);
#endif
}

static inline void store_pass(uint8_t *dst, const vw W[8 * NS])
{
#if NW > 1 && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(dst, W, sizeof(vw) * 8 * NS);
#elif NW > 1
    for (int k = 0; k < 8 * NS; k++)
        for (int l = 0; l < NW; l++) nuri_store64_le(dst + 8 * (NW * k + l), W[k][l]);
#else
    for (int k = 0; k < 8 * NS; k++) nuri_store64_le(dst + 8 * k, W[k]);
#endif
}

static inline uint8_t rotr8(uint8_t x, unsigned r) { return (uint8_t)((x >> r) | (x << ((8 - r) & 7))); }

/* kb[8i + j] = byte j of round key i in every byte; for encryption rounds i >= 1 rotated right
 * by the row's R-layer amount (see ENC_ROUND). */
static void make_keys(vw *kb, const uint64_t *rk, unsigned rounds, int enc)
{
    static const uint8_t R[8] = NURI_PIPO_ROT;
    for (unsigned i = 0; i <= rounds; i++)
        for (int j = 0; j < 8; j++) {
            uint8_t b = (uint8_t)(rk[i] >> (8 * j));
            kb[8 * i + j] = VEC(BCAST(enc && i ? rotr8(b, R[j]) : b));
        }
}

static void run(void (*f)(const vw *, unsigned, vw *), int enc, const uint64_t *rk, unsigned rounds, uint8_t *out,
                const uint8_t *in, size_t n)
{
    vw W[8 * NS], kb[8 * (NURI_PIPO_MAX_ROUNDS + 1)];
    uint8_t tail[8 * LANES];
    make_keys(kb, rk, rounds, enc);
    while (n > 0) {
        size_t m = n < LANES ? n : LANES;
        const uint8_t *src = in;
        if (m < LANES) {
            memset(tail, 0, sizeof tail);
            memcpy(tail, in, 8 * m);
            src = tail;
        }
        load_pass(W, src);
        for (int k = 0; k < NS; k++) transpose8x8(W + 8 * k);
        f(kb, rounds, W);
        for (int k = 0; k < NS; k++) transpose8x8(W + 8 * k);
        if (m == LANES) {
            store_pass(out, W);
        } else {
            store_pass(tail, W);
            memcpy(out, tail, 8 * m);
        }
        in += 8 * m;
        out += 8 * m;
        n -= m;
    }
    nuri_wipe(W, sizeof W);
    nuri_wipe(kb, (size_t)8 * (rounds + 1) * sizeof(vw));
    nuri_wipe(tail, sizeof tail);
}

void nuri_pipo_bs64_encrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n)
{
    run(enc_pass, 1, rk, rounds, out, in, n);
}

void nuri_pipo_bs64_decrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n)
{
    run(dec_pass, 0, rk, rounds, out, in, n);
}

const nuri_pipo_impl nuri_pipo_backend_bitslice64 = {
    .info = {"bitslice64", 0, 1,
             "portable C, one state byte of 8 blocks per 64-bit word; 32 blocks per pass where 128-bit vectors exist"},
    .encrypt = nuri_pipo_bs64_encrypt,
    .decrypt = nuri_pipo_bs64_decrypt,
    .small_to_ref = 4,
};
