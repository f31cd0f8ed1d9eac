/* PIPO, portable byte-sliced: 8 blocks per pass. Word W[j] holds state byte X[j] of the 8
 * blocks (byte k of W[j] = X[j] of block k), so one 64-bit logic op does the S-layer step
 * for 8 blocks x 8 columns, and the R-layer is a per-byte rotation with shifts and masks.
 * Constant time: no tables, no secret-dependent branches. */
#include "../pipo_impl.h"

#define LANES 8
#define BCAST(b) (0x0101010101010101ULL * (uint8_t)(b))

/* 8x8 byte transpose (its own inverse): blocks-as-words <-> rows-as-words. */
static void transpose8x8(uint64_t w[8])
{
    for (int i = 0; i < 4; i++) {
        uint64_t t = ((w[i] >> 32) ^ w[i + 4]) & 0x00000000FFFFFFFFULL;
        w[i] ^= t << 32; w[i + 4] ^= t;
    }
    for (int i = 0; i < 8; i += 4)
        for (int k = i; k < i + 2; k++) {
            uint64_t t = ((w[k] >> 16) ^ w[k + 2]) & 0x0000FFFF0000FFFFULL;
            w[k] ^= t << 16; w[k + 2] ^= t;
        }
    for (int i = 0; i < 8; i += 2) {
        uint64_t t = ((w[i] >> 8) ^ w[i + 1]) & 0x00FF00FF00FF00FFULL;
        w[i] ^= t << 8; w[i + 1] ^= t;
    }
}

static inline uint64_t rotl_bytes(uint64_t x, unsigned r)
{
    /* every byte rotated left by r (1..7) */
    uint64_t hi = BCAST((0xFFu << r) & 0xFF), lo = BCAST((1u << r) - 1);
    return ((x << r) & hi) | ((x >> (8 - r)) & lo);
}

#define SBOX_LAYER(W)                                                                               \
    do {                                                                                            \
        uint64_t x0 = W[0], x1 = W[1], x2 = W[2], x3 = W[3], x4 = W[4], x5 = W[5], x6 = W[6], x7 = W[7]; \
        uint64_t t0, t1, t2;                                                                        \
        x5 ^= x7 & x6; x4 ^= x3 & x5; x7 ^= x4; x6 ^= x3; x3 ^= x4 | x5; x5 ^= x7; x4 ^= x5 & x6;    \
        x2 ^= x1 & x0; x0 ^= x2 | x1; x1 ^= x2 | x0; x2 = ~x2;                                      \
        x7 ^= x1; x3 ^= x2; x4 ^= x0;                                                               \
        t0 = x7; t1 = x3; t2 = x4;                                                                  \
        x6 ^= t0 & x5; t0 ^= x6; x6 ^= t2 | t1; t1 ^= x5; x5 ^= x6 | t2; t2 ^= t1 & t0;             \
        x2 ^= t0;                                                                                   \
        W[7] = x1 ^ t2; W[6] = x3; W[5] = x4; W[4] = x5; W[3] = x6; W[2] = x2; W[1] = x0 ^ t1; W[0] = x7; \
    } while (0)

#define INV_SBOX_LAYER(W)                                                                           \
    do {                                                                                            \
        uint64_t x7 = W[0], x3 = W[6], x4 = W[5], x5 = W[4], x6 = W[3];                             \
        x5 ^= x6 | x4;                                                                              \
        uint64_t t1 = x3 ^ x5;                                                                      \
        x6 ^= x4 | x3;                                                                              \
        uint64_t t0 = x7 ^ x6;                                                                      \
        x6 ^= x7 & x5;                                                                              \
        uint64_t t2 = x4 ^ (t1 & t0);                                                               \
        uint64_t x1 = W[7] ^ t2, x0 = W[1] ^ t1, x2 = W[2] ^ t0;                                    \
        x7 ^= x1; x3 ^= x2; x4 ^= x0;                                                               \
        x2 = ~x2; x1 ^= x2 | x0; x0 ^= x2 | x1; x2 ^= x1 & x0;                                      \
        x4 ^= x5 & x6; x5 ^= x7; x3 ^= x4 | x5; x6 ^= x3; x7 ^= x4; x4 ^= x3 & x5; x5 ^= x7 & x6;    \
        W[0] = x0; W[1] = x1; W[2] = x2; W[3] = x3; W[4] = x4; W[5] = x5; W[6] = x6; W[7] = x7;     \
    } while (0)

/* kb holds each round key byte broadcast to all 8 lanes, computed once per call. */
static inline void add_key(uint64_t W[8], const uint64_t kb[8])
{
    for (int j = 0; j < 8; j++) W[j] ^= kb[j];
}

static void enc8(const uint64_t *kb, unsigned rounds, uint64_t W[8])
{
    add_key(W, kb);
    for (unsigned i = 1; i <= rounds; i++) {
        SBOX_LAYER(W);
        W[1] = rotl_bytes(W[1], 7); W[2] = rotl_bytes(W[2], 4); W[3] = rotl_bytes(W[3], 3);
        W[4] = rotl_bytes(W[4], 6); W[5] = rotl_bytes(W[5], 5); W[6] = rotl_bytes(W[6], 1);
        W[7] = rotl_bytes(W[7], 2);
        add_key(W, kb + 8 * i);
    }
}

static void dec8(const uint64_t *kb, unsigned rounds, uint64_t W[8])
{
    for (unsigned i = rounds; i >= 1; i--) {
        add_key(W, kb + 8 * i);
        W[1] = rotl_bytes(W[1], 1); W[2] = rotl_bytes(W[2], 4); W[3] = rotl_bytes(W[3], 5);
        W[4] = rotl_bytes(W[4], 2); W[5] = rotl_bytes(W[5], 3); W[6] = rotl_bytes(W[6], 7);
        W[7] = rotl_bytes(W[7], 6);
        INV_SBOX_LAYER(W);
    }
    add_key(W, kb);
}

static void run(void (*f)(const uint64_t *, unsigned, uint64_t *), const uint64_t *rk, unsigned rounds,
                uint8_t *out, const uint8_t *in, size_t n)
{
    uint64_t W[8], kb[8 * (NURI_PIPO_MAX_ROUNDS + 1)];
    uint8_t tail[8 * LANES];
    for (unsigned i = 0; i <= rounds; i++)
        for (int j = 0; j < 8; j++) kb[8 * i + j] = BCAST(rk[i] >> (8 * j));
    while (n > 0) {
        size_t m = n < LANES ? n : LANES;
        const uint8_t *src = in;
        if (m < LANES) {
            memset(tail, 0, sizeof tail);
            memcpy(tail, in, 8 * m);
            src = tail;
        }
        for (int k = 0; k < 8; k++) W[k] = nuri_load64_le(src + 8 * k);
        transpose8x8(W);
        f(kb, rounds, W);
        transpose8x8(W);
        if (m == LANES) {
            for (int k = 0; k < 8; k++) nuri_store64_le(out + 8 * k, W[k]);
        } else {
            for (int k = 0; k < 8; k++) nuri_store64_le(tail + 8 * k, W[k]);
            memcpy(out, tail, 8 * m);
        }
        in += 8 * m; out += 8 * m; n -= m;
    }
    nuri_wipe(W, sizeof W);
    nuri_wipe(kb, sizeof kb);
    nuri_wipe(tail, sizeof tail);
}

void nuri_pipo_bs64_encrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n)
{
    run(enc8, rk, rounds, out, in, n);
}

void nuri_pipo_bs64_decrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n)
{
    run(dec8, rk, rounds, out, in, n);
}
