/* PIPO-64 with AArch64 NEON: 16 blocks per pass, byte-sliced (one q register per state row:
 * lane i = row j of one of the 16 blocks). The 16 blocks are loaded as 8 registers of two
 * blocks each, and a three-stage trn1/trn2 network (8, 16, 32-bit) transposes the two 8x8 byte
 * matrices at once; the same network brings rows back to blocks. R-layer: shl + sri per row;
 * S-layer: the designers' 34-op bitsliced S-box on whole registers; round keys broadcast once
 * per call. Constant time: no tables, no data-dependent branches or addresses. */
#include <arm_neon.h>

#include "../pipo_impl.h"
#include "pipo_neon.h"

#define ROTL(x, k) vsriq_n_u8(vshlq_n_u8((x), (k)), (x), 8 - (k))

static inline void transpose(uint8x16_t r[8])
{
    uint8x16_t a[8];
    uint16x8_t b[8];
    uint32x4_t c[8];
    for (int i = 0; i < 8; i += 2) {
        a[i] = vtrn1q_u8(r[i], r[i + 1]);
        a[i + 1] = vtrn2q_u8(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4)
        for (int k = 0; k < 2; k++) {
            b[i + k] = vtrn1q_u16(vreinterpretq_u16_u8(a[i + k]), vreinterpretq_u16_u8(a[i + k + 2]));
            b[i + k + 2] = vtrn2q_u16(vreinterpretq_u16_u8(a[i + k]), vreinterpretq_u16_u8(a[i + k + 2]));
        }
    for (int k = 0; k < 4; k++) {
        c[k] = vtrn1q_u32(vreinterpretq_u32_u16(b[k]), vreinterpretq_u32_u16(b[k + 4]));
        c[k + 4] = vtrn2q_u32(vreinterpretq_u32_u16(b[k]), vreinterpretq_u32_u16(b[k + 4]));
    }
    for (int k = 0; k < 8; k++) r[k] = vreinterpretq_u8_u32(c[k]);
}

static inline void sbox(uint8x16_t X[8])
{
    uint8x16_t x0 = X[0], x1 = X[1], x2 = X[2], x3 = X[3], x4 = X[4], x5 = X[5], x6 = X[6], x7 = X[7];
    x5 = veorq_u8(x5, vandq_u8(x7, x6));
    x4 = veorq_u8(x4, vandq_u8(x3, x5));
    x7 = veorq_u8(x7, x4);
    x6 = veorq_u8(x6, x3);
    x3 = veorq_u8(x3, vorrq_u8(x4, x5));
    x5 = veorq_u8(x5, x7);
    x4 = veorq_u8(x4, vandq_u8(x5, x6));
    x2 = veorq_u8(x2, vandq_u8(x1, x0));
    x0 = veorq_u8(x0, vorrq_u8(x2, x1));
    x1 = veorq_u8(x1, vorrq_u8(x2, x0));
    x2 = vmvnq_u8(x2);
    x7 = veorq_u8(x7, x1);
    x3 = veorq_u8(x3, x2);
    x4 = veorq_u8(x4, x0);
    x6 = veorq_u8(x6, vandq_u8(x7, x5));
    uint8x16_t t0 = veorq_u8(x7, x6);
    x6 = veorq_u8(x6, vorrq_u8(x4, x3));
    uint8x16_t t1 = veorq_u8(x3, x5);
    x5 = veorq_u8(x5, vorrq_u8(x6, x4));
    uint8x16_t t2 = veorq_u8(x4, vandq_u8(t1, t0));
    x2 = veorq_u8(x2, t0);
    X[7] = veorq_u8(x1, t2);
    X[6] = x3;
    X[5] = x4;
    X[4] = x5;
    X[3] = x6;
    X[2] = x2;
    X[1] = veorq_u8(x0, t1);
    X[0] = x7;
}

static inline void inv_sbox(uint8x16_t X[8])
{
    uint8x16_t x7 = X[0], x3 = X[6], x4 = X[5], x5 = X[4], x6 = X[3];
    x5 = veorq_u8(x5, vorrq_u8(x6, x4));
    uint8x16_t t1 = veorq_u8(x3, x5);
    x6 = veorq_u8(x6, vorrq_u8(x4, x3));
    uint8x16_t t0 = veorq_u8(x7, x6);
    x6 = veorq_u8(x6, vandq_u8(x7, x5));
    uint8x16_t t2 = veorq_u8(x4, vandq_u8(t1, t0));
    uint8x16_t x1 = veorq_u8(X[7], t2), x0 = veorq_u8(X[1], t1), x2 = veorq_u8(X[2], t0);
    x7 = veorq_u8(x7, x1);
    x3 = veorq_u8(x3, x2);
    x4 = veorq_u8(x4, x0);
    x2 = vmvnq_u8(x2);
    x1 = veorq_u8(x1, vorrq_u8(x2, x0));
    x0 = veorq_u8(x0, vorrq_u8(x2, x1));
    x2 = veorq_u8(x2, vandq_u8(x1, x0));
    x4 = veorq_u8(x4, vandq_u8(x5, x6));
    x5 = veorq_u8(x5, x7);
    x3 = veorq_u8(x3, vorrq_u8(x4, x5));
    x6 = veorq_u8(x6, x3);
    x7 = veorq_u8(x7, x4);
    x4 = veorq_u8(x4, vandq_u8(x3, x5));
    x5 = veorq_u8(x5, vandq_u8(x7, x6));
    X[0] = x0;
    X[1] = x1;
    X[2] = x2;
    X[3] = x3;
    X[4] = x4;
    X[5] = x5;
    X[6] = x6;
    X[7] = x7;
}

static void expand(uint8x16_t *kb, const uint64_t *rk, unsigned rounds)
{
    for (unsigned i = 0; i <= rounds; i++)
        for (int j = 0; j < 8; j++) kb[8 * i + j] = vdupq_n_u8((uint8_t)(rk[i] >> (8 * j)));
}

static void enc16(const uint8x16_t *kb, unsigned rounds, uint8_t *out, const uint8_t *in)
{
    uint8x16_t X[8];
    for (int k = 0; k < 8; k++) X[k] = vld1q_u8(in + 16 * k);
    transpose(X);
    for (int j = 0; j < 8; j++) X[j] = veorq_u8(X[j], kb[j]);
    for (unsigned i = 1; i <= rounds; i++) {
        const uint8x16_t *k = kb + 8 * i;
        sbox(X);
        X[0] = veorq_u8(X[0], k[0]);
        X[1] = veorq_u8(ROTL(X[1], 7), k[1]);
        X[2] = veorq_u8(ROTL(X[2], 4), k[2]);
        X[3] = veorq_u8(ROTL(X[3], 3), k[3]);
        X[4] = veorq_u8(ROTL(X[4], 6), k[4]);
        X[5] = veorq_u8(ROTL(X[5], 5), k[5]);
        X[6] = veorq_u8(ROTL(X[6], 1), k[6]);
        X[7] = veorq_u8(ROTL(X[7], 2), k[7]);
    }
    transpose(X);
    for (int k = 0; k < 8; k++) vst1q_u8(out + 16 * k, X[k]);
}

static void dec16(const uint8x16_t *kb, unsigned rounds, uint8_t *out, const uint8_t *in)
{
    uint8x16_t X[8];
    for (int k = 0; k < 8; k++) X[k] = vld1q_u8(in + 16 * k);
    transpose(X);
    for (unsigned i = rounds; i >= 1; i--) {
        const uint8x16_t *k = kb + 8 * i;
        X[0] = veorq_u8(X[0], k[0]);
        X[1] = ROTL(veorq_u8(X[1], k[1]), 1);
        X[2] = ROTL(veorq_u8(X[2], k[2]), 4);
        X[3] = ROTL(veorq_u8(X[3], k[3]), 5);
        X[4] = ROTL(veorq_u8(X[4], k[4]), 2);
        X[5] = ROTL(veorq_u8(X[5], k[5]), 3);
        X[6] = ROTL(veorq_u8(X[6], k[6]), 7);
        X[7] = ROTL(veorq_u8(X[7], k[7]), 6);
        inv_sbox(X);
    }
    for (int j = 0; j < 8; j++) X[j] = veorq_u8(X[j], kb[j]);
    transpose(X);
    for (int k = 0; k < 8; k++) vst1q_u8(out + 16 * k, X[k]);
}

typedef void (*pass_fn)(const uint8x16_t *kb, unsigned rounds, uint8_t *out, const uint8_t *in);

static void run(pass_fn fn, const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n)
{
    uint8x16_t kb[8 * (NURI_PIPO_MAX_ROUNDS + 1)];
    uint8_t buf[128];
    expand(kb, rk, rounds);
    size_t full = n / 16;
    for (size_t p = 0; p < full; p++) fn(kb, rounds, out + 128 * p, in + 128 * p);
    size_t rest = n - 16 * full;
    if (rest) {
        memset(buf, 0, sizeof buf);
        memcpy(buf, in + 128 * full, 8 * rest);
        fn(kb, rounds, buf, buf);
        memcpy(out + 128 * full, buf, 8 * rest);
    }
    nuri_wipe(kb, sizeof(uint8x16_t) * 8 * (rounds + 1));
    nuri_wipe(buf, sizeof buf);
}

void nuri_pipo_neon_encrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n)
{
    run(enc16, rk, rounds, out, in, n);
}

void nuri_pipo_neon_decrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n)
{
    run(dec16, rk, rounds, out, in, n);
}

const nuri_pipo_impl nuri_pipo_backend_neon = {
    .info = {"neon", NURI_CPU_NEON, 1, "AArch64 NEON, 16 blocks per pass, byte-sliced, shl+sri rotations"},
    .encrypt = nuri_pipo_neon_encrypt,
    .decrypt = nuri_pipo_neon_decrypt,
};
