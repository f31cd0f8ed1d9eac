/* SPARKLE multi-instance kernel for AVX-512: 16 independent states per pass, transposed so that a
 * zmm register holds one state word of all 16 instances (lane i = instance i). Every rotation is
 * one vprord, so an Alzette round is 5 instructions for 16 instances. The linear layer's branch
 * rotation is register renaming. Constant-time: no data-dependent branches or addresses. */
#include <immintrin.h>

#include "../sparkle_impl.h"

static const uint32_t RCON[8] = NURI_SPARKLE_RCON;

#define LANES 16
#define ADD   _mm512_add_epi32
#define XOR   _mm512_xor_si512
#define ROR   _mm512_ror_epi32

static inline __m512i ell(__m512i v) { return ROR(XOR(v, _mm512_slli_epi32(v, 16)), 16); }

static inline __attribute__((always_inline)) void perm(__m512i *x, __m512i *y, const unsigned nb, unsigned steps)
{
    const unsigned h = nb / 2;
    for (unsigned s = 0; s < steps; s++) {
        y[0] = XOR(y[0], _mm512_set1_epi32((int)RCON[s & 7]));
        y[1] = XOR(y[1], _mm512_set1_epi32((int)s));
#pragma GCC unroll 8
        for (unsigned i = 0; i < nb; i++) {
            const __m512i c = _mm512_set1_epi32((int)RCON[i]);
            __m512i a = x[i], b = y[i];
            a = ADD(a, ROR(b, 31));
            b = XOR(b, ROR(a, 24));
            a = XOR(a, c);
            a = ADD(a, ROR(b, 17));
            b = XOR(b, ROR(a, 17));
            a = XOR(a, c);
            a = ADD(a, b);
            b = XOR(b, ROR(a, 31));
            a = XOR(a, c);
            a = ADD(a, ROR(b, 24));
            b = XOR(b, ROR(a, 16));
            a = XOR(a, c);
            x[i] = a;
            y[i] = b;
        }
        __m512i tx = x[0], ty = y[0];
#pragma GCC unroll 4
        for (unsigned j = 1; j < h; j++) {
            tx = XOR(tx, x[j]);
            ty = XOR(ty, y[j]);
        }
        tx = ell(tx);
        ty = ell(ty);
        __m512i u[4], v[4];
#pragma GCC unroll 4
        for (unsigned j = 0; j < h; j++) {
            u[j] = _mm512_ternarylogic_epi32(x[h + j], x[j], ty, 0x96); /* three-way XOR */
            v[j] = _mm512_ternarylogic_epi32(y[h + j], y[j], tx, 0x96);
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

void nuri_sparkle_avx512_permute_soa(uint32_t *soa, unsigned nb, unsigned steps)
{
    __m512i x[8], y[8];
    for (unsigned i = 0; i < nb; i++) {
        x[i] = _mm512_load_si512((soa + 2 * i * LANES));
        y[i] = _mm512_load_si512((soa + (2 * i + 1) * LANES));
    }
    switch (nb) {
    case 4:
        perm(x, y, 4, steps);
        break;
    case 6:
        perm(x, y, 6, steps);
        break;
    default:
        perm(x, y, 8, steps);
        break;
    }
    for (unsigned i = 0; i < nb; i++) {
        _mm512_store_si512((soa + 2 * i * LANES), x[i]);
        _mm512_store_si512((soa + (2 * i + 1) * LANES), y[i]);
    }
}

static void pass(uint32_t *states, size_t cnt, const unsigned nb, unsigned steps)
{
    uint32_t t[NURI_SPARKLE_MAX_WORDS * LANES] __attribute__((aligned(64)));
    const unsigned w = 2 * nb;
    memset(t, 0, sizeof t);
    for (size_t l = 0; l < cnt; l++)
        for (unsigned k = 0; k < w; k++) t[k * LANES + l] = states[l * w + k];
    nuri_sparkle_avx512_permute_soa(t, nb, steps);
    for (size_t l = 0; l < cnt; l++)
        for (unsigned k = 0; k < w; k++) states[l * w + k] = t[k * LANES + l];
    nuri_wipe(t, sizeof t);
}

void nuri_sparkle_avx512_permute_many(uint32_t *states, size_t count, unsigned nb, unsigned steps)
{
    for (size_t done = 0; done < count; done += LANES) {
        size_t cnt = count - done < LANES ? count - done : LANES;
        pass(states + done * 2 * nb, cnt, nb, steps);
    }
}

const nuri_sparkle_impl nuri_sparkle_backend_avx512 = {
    .info = {"avx512", NURI_CPU_AVX512F, 1,
             "16 states per pass, one 32-bit word of 16 states per zmm register (vprold rotations); single states: "
             "opt"},
    .permute = nuri_sparkle_opt_permute,
    .permute_many = nuri_sparkle_avx512_permute_many,
    .permute_soa = nuri_sparkle_avx512_permute_soa,
    .lanes = 16,
};
