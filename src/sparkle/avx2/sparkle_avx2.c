/* SPARKLE multi-instance kernel for AVX2: 8 independent states per pass, transposed so that a
 * ymm register holds one state word of all 8 instances (lane i = instance i). Every instruction
 * then serves 8 Alzettes; rotations by 16 and 24 are one vpshufb, the others shift+shift+or. The
 * linear layer's branch rotation is register renaming. Constant-time: no data-dependent branches
 * or addresses (the lane count depends only on the public batch size). */
#include <immintrin.h>

#include "../sparkle_impl.h"

static const uint32_t RCON[8] = NURI_SPARKLE_RCON;

#define LANES 8

static inline __m256i rotr(__m256i v, int n) { return _mm256_or_si256(_mm256_srli_epi32(v, n), _mm256_slli_epi32(v, 32 - n)); }

static inline __m256i rotr16(__m256i v)
{
    const __m256i m = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
                                       2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
    return _mm256_shuffle_epi8(v, m);
}

static inline __m256i rotr24(__m256i v)
{
    const __m256i m = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
                                       3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
    return _mm256_shuffle_epi8(v, m);
}

#define ADD _mm256_add_epi32
#define XOR _mm256_xor_si256

static inline __m256i ell(__m256i v) { return rotr16(XOR(v, _mm256_slli_epi32(v, 16))); }

static inline __attribute__((always_inline)) void perm(__m256i *x, __m256i *y, const unsigned nb, unsigned steps)
{
    const unsigned h = nb / 2;
    for (unsigned s = 0; s < steps; s++) {
        y[0] = XOR(y[0], _mm256_set1_epi32((int)RCON[s & 7]));
        y[1] = XOR(y[1], _mm256_set1_epi32((int)s));
#pragma GCC unroll 8
        for (unsigned i = 0; i < nb; i++) {
            const __m256i c = _mm256_set1_epi32((int)RCON[i]);
            __m256i a = x[i], b = y[i];
            a = ADD(a, rotr(b, 31)); b = XOR(b, rotr24(a)); a = XOR(a, c);
            a = ADD(a, rotr(b, 17)); b = XOR(b, rotr(a, 17)); a = XOR(a, c);
            a = ADD(a, b);           b = XOR(b, rotr(a, 31)); a = XOR(a, c);
            a = ADD(a, rotr24(b));   b = XOR(b, rotr16(a));   a = XOR(a, c);
            x[i] = a;
            y[i] = b;
        }
        __m256i tx = x[0], ty = y[0];
#pragma GCC unroll 4
        for (unsigned j = 1; j < h; j++) {
            tx = XOR(tx, x[j]);
            ty = XOR(ty, y[j]);
        }
        tx = ell(tx);
        ty = ell(ty);
        __m256i u[4], v[4];
#pragma GCC unroll 4
        for (unsigned j = 0; j < h; j++) {
            u[j] = XOR(XOR(x[h + j], x[j]), ty);
            v[j] = XOR(XOR(y[h + j], y[j]), tx);
            x[h + j] = x[j];
            y[h + j] = y[j];
        }
#pragma GCC unroll 4
        for (unsigned j = 0; j < h; j++) {
            x[j] = u[j + 1 == h ? 0 : j + 1];
            y[j] = v[j + 1 == h ? 0 : j + 1];
        }
    }
}

void nuri_sparkle_avx2_permute_soa(uint32_t *soa, unsigned nb, unsigned steps)
{
    __m256i x[8], y[8];
    for (unsigned i = 0; i < nb; i++) {
        x[i] = _mm256_load_si256((const __m256i *)(soa + 2 * i * LANES));
        y[i] = _mm256_load_si256((const __m256i *)(soa + (2 * i + 1) * LANES));
    }
    switch (nb) {
    case 4: perm(x, y, 4, steps); break;
    case 6: perm(x, y, 6, steps); break;
    default: perm(x, y, 8, steps); break;
    }
    for (unsigned i = 0; i < nb; i++) {
        _mm256_store_si256((__m256i *)(soa + 2 * i * LANES), x[i]);
        _mm256_store_si256((__m256i *)(soa + (2 * i + 1) * LANES), y[i]);
    }
}

static void pass(uint32_t *states, size_t cnt, const unsigned nb, unsigned steps)
{
    uint32_t t[NURI_SPARKLE_MAX_WORDS * LANES] __attribute__((aligned(64)));
    const unsigned w = 2 * nb;
    memset(t, 0, sizeof t);
    for (size_t l = 0; l < cnt; l++)
        for (unsigned k = 0; k < w; k++) t[k * LANES + l] = states[l * w + k];
    nuri_sparkle_avx2_permute_soa(t, nb, steps);
    for (size_t l = 0; l < cnt; l++)
        for (unsigned k = 0; k < w; k++) states[l * w + k] = t[k * LANES + l];
    nuri_wipe(t, sizeof t);
}

void nuri_sparkle_avx2_permute_many(uint32_t *states, size_t count, unsigned nb, unsigned steps)
{
    for (size_t done = 0; done < count; done += LANES) {
        size_t cnt = count - done < LANES ? count - done : LANES;
        pass(states + done * 2 * nb, cnt, nb, steps);
    }
}

const nuri_sparkle_impl nuri_sparkle_backend_avx2 = {
    .info = {"avx2", NURI_CPU_AVX2, 1,
             "8 states per pass, one 32-bit word of 8 states per ymm register (vpshufb for rotations by 16/24); "
             "single states: opt"},
    .permute = nuri_sparkle_opt_permute,
    .permute_many = nuri_sparkle_avx2_permute_many,
    .permute_soa = nuri_sparkle_avx2_permute_soa,
    .lanes = 8,
};
