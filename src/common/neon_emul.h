/* The NEON intrinsics (and the SHA-3 extension's four) in portable form, for the emulated build
 * of the NEON sources (NURI_NEON_EMULATED, a test configuration: src/mlkem/family.cmake,
 * mk/mlkem-neon.mk). It runs the same source on x86-64 natively and under valgrind, which checks
 * the constant-time property on it (valgrind does not run AArch64 code). SIMDe (SIMD Everywhere,
 * Debian's libsimde-dev) supplies most intrinsics; those its 0.7 release lacks are written here
 * lane by lane, without branches on lane values. */
#ifndef NURI_NEON_EMUL_H
#define NURI_NEON_EMUL_H

#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/arm/neon.h>
#include <stdint.h>
#include <string.h>

/* Shift left and insert: (b << n) | (a & ((1 << n) - 1)) per lane. */
#define NURI_EMUL_SLI(T, N, S, a, b, n)                                                                  \
    __extension__({                                                                                      \
        S##_t x_[N], y_[N];                                                                              \
        T a_ = (a), b_ = (b);                                                                            \
        memcpy(x_, &a_, sizeof x_);                                                                      \
        memcpy(y_, &b_, sizeof y_);                                                                      \
        for (int i_ = 0; i_ < N; i_++)                                                                   \
            x_[i_] = (S##_t)((S##_t)(y_[i_] << (n)) | (S##_t)(x_[i_] & (S##_t)(((S##_t)1 << (n)) - 1))); \
        memcpy(&a_, x_, sizeof x_);                                                                      \
        a_;                                                                                              \
    })
#define vsliq_n_u8(a, b, n)  NURI_EMUL_SLI(uint8x16_t, 16, uint8, a, b, n)
#define vsliq_n_u16(a, b, n) NURI_EMUL_SLI(uint16x8_t, 8, uint16, a, b, n)
#define vsliq_n_u32(a, b, n) NURI_EMUL_SLI(uint32x4_t, 4, uint32, a, b, n)
#define vsliq_n_u64(a, b, n) NURI_EMUL_SLI(uint64x2_t, 2, uint64, a, b, n)

/* SQDMULH by a scalar: SIMDe 0.7 shifts a negative product left (undefined in C). */
static inline int16x8_t nuri_emul_vqdmulhq_n_s16(int16x8_t a, int16_t b)
{
    int16_t x_[8];
    memcpy(x_, &a, sizeof x_);
    for (int i = 0; i < 8; i++) {
        const int32_t p = (int32_t)x_[i] * b; /* 2p >> 16 saturates only for -2^15 * -2^15 */
        x_[i] = (int16_t)(p == 1 << 30 ? 32767 : (p * 2) >> 16);
    }
    memcpy(&a, x_, sizeof x_);
    return a;
}
#undef vqdmulhq_n_s16
#define vqdmulhq_n_s16 nuri_emul_vqdmulhq_n_s16

/* SHA-3 extension: EOR3 a ^ b ^ c, RAX1 a ^ rol(b, 1); XAR and BCAX come from SIMDe. */
static inline uint64x2_t nuri_emul_veor3q_u64(uint64x2_t a, uint64x2_t b, uint64x2_t c)
{
    return veorq_u64(veorq_u64(a, b), c);
}
static inline uint64x2_t nuri_emul_vrax1q_u64(uint64x2_t a, uint64x2_t b)
{
    return veorq_u64(a, vsriq_n_u64(vshlq_n_u64(b, 1), b, 63));
}
#define veor3q_u64 nuri_emul_veor3q_u64
#define vrax1q_u64 nuri_emul_vrax1q_u64

#endif
