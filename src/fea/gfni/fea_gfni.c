/* FEA kernel for AVX-512 + GFNI (compiled with those flags only; chosen by dispatch at run time).
 * 8 values per zmm, 4 zmm per pass. The S-box is affine-equivalent to inversion (spec section 4):
 * S(x) = A' inv_AES(B x) + 0x62, i.e. gf2p8affineqb then gf2p8affineinvqb. M's coefficients are
 * folded into the second instruction: M = XOR_d P_d(c_d * .), where P_d is a fixed byte shuffle
 * within each 64-bit word (output byte i takes byte (d - i) mod 8), so
 *   SD(x) = K + XOR_d vpshufb(gf2p8affineinvqb(B x, c_d A'), P_d)   (8 GF ops, 8 shuffles).
 * Between the two SD layers of F the state stays in the B basis (matrices B c_d A' and the round
 * key B(RKb)), so F costs 1 + 16 GF ops. No table lookups, no branches on data: constant time
 * (valgrind cannot run AVX-512, so this is argued from the code: every instruction here has
 * data-independent timing, and memory is only addressed by the loop counter). */
#include <immintrin.h>

#include "../fea_impl.h"
#include "fea_gfni_consts.h"

#define XOR3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)

typedef struct {
    __m512i bmat, m1[8], m2[8], sh[8];
} gfni_consts;

static inline void load_consts(gfni_consts *c)
{
    c->bmat = _mm512_set1_epi64((long long)FEA_GFNI_B);
    for (int d = 0; d < 8; d++) {
        c->m1[d] = _mm512_set1_epi64((long long)fea_gfni_m1[d]);
        c->m2[d] = _mm512_set1_epi64((long long)fea_gfni_m2[d]);
        c->sh[d] = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)fea_gfni_shuf[d]));
    }
}

#define TERM(x, m, sh, d) _mm512_shuffle_epi8(_mm512_gf2p8affineinv_epi64_epi8((x), (m)[d], 0), (sh)[d])

/* SD of a B-basis input, without the constant K (added by the caller with the round key). */
static inline __m512i sd_core(__m512i xb, const __m512i *m, const __m512i *sh)
{
    __m512i a = XOR3(TERM(xb, m, sh, 0), TERM(xb, m, sh, 1), TERM(xb, m, sh, 2));
    __m512i b = XOR3(TERM(xb, m, sh, 3), TERM(xb, m, sh, 4), TERM(xb, m, sh, 5));
    return XOR3(a, b, _mm512_xor_si512(TERM(xb, m, sh, 6), TERM(xb, m, sh, 7)));
}

uint64_t nuri_fea_gfni_sd(uint64_t x)
{
    gfni_consts c;
    load_consts(&c);
    __m512i v = _mm512_gf2p8affine_epi64_epi8(_mm512_set1_epi64((long long)x), c.bmat, 0);
    v = _mm512_xor_si512(sd_core(v, c.m2, c.sh), _mm512_set1_epi8((char)FEA_GFNI_K2));
    return (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(v));
}

void nuri_fea_gfni_f(const uint64_t rk[2], uint64_t *x, size_t count)
{
    gfni_consts c;
    load_consts(&c);
    const __m512i ka = _mm512_set1_epi64((long long)rk[0]);
    /* B(RKb) plus the first layer's constant, both in the B basis */
    const __m512i kb = _mm512_xor_si512(_mm512_gf2p8affine_epi64_epi8(_mm512_set1_epi64((long long)rk[1]), c.bmat, 0),
                                        _mm512_set1_epi8((char)FEA_GFNI_K1));
    const __m512i k2 = _mm512_set1_epi8((char)FEA_GFNI_K2);
    size_t i = 0;
    for (; i + 32 <= count; i += 32) {
        __m512i v0 = _mm512_loadu_si512(x + i), v1 = _mm512_loadu_si512(x + i + 8);
        __m512i v2 = _mm512_loadu_si512(x + i + 16), v3 = _mm512_loadu_si512(x + i + 24);
        v0 = _mm512_gf2p8affine_epi64_epi8(_mm512_xor_si512(v0, ka), c.bmat, 0);
        v1 = _mm512_gf2p8affine_epi64_epi8(_mm512_xor_si512(v1, ka), c.bmat, 0);
        v2 = _mm512_gf2p8affine_epi64_epi8(_mm512_xor_si512(v2, ka), c.bmat, 0);
        v3 = _mm512_gf2p8affine_epi64_epi8(_mm512_xor_si512(v3, ka), c.bmat, 0);
        v0 = _mm512_xor_si512(sd_core(v0, c.m1, c.sh), kb);
        v1 = _mm512_xor_si512(sd_core(v1, c.m1, c.sh), kb);
        v2 = _mm512_xor_si512(sd_core(v2, c.m1, c.sh), kb);
        v3 = _mm512_xor_si512(sd_core(v3, c.m1, c.sh), kb);
        _mm512_storeu_si512(x + i, _mm512_xor_si512(sd_core(v0, c.m2, c.sh), k2));
        _mm512_storeu_si512(x + i + 8, _mm512_xor_si512(sd_core(v1, c.m2, c.sh), k2));
        _mm512_storeu_si512(x + i + 16, _mm512_xor_si512(sd_core(v2, c.m2, c.sh), k2));
        _mm512_storeu_si512(x + i + 24, _mm512_xor_si512(sd_core(v3, c.m2, c.sh), k2));
    }
    for (; i < count; i += 8) {
        __mmask8 msk = count - i >= 8 ? 0xFF : (__mmask8)((1u << (count - i)) - 1);
        __m512i v = _mm512_maskz_loadu_epi64(msk, x + i);
        v = _mm512_gf2p8affine_epi64_epi8(_mm512_xor_si512(v, ka), c.bmat, 0);
        v = _mm512_xor_si512(sd_core(v, c.m1, c.sh), kb);
        _mm512_mask_storeu_epi64(x + i, msk, _mm512_xor_si512(sd_core(v, c.m2, c.sh), k2));
    }
}

/* Compiled with -mavx512vl (256-bit forms of the AVX-512 instructions): the entry requires VL. */
const nuri_fea_impl nuri_fea_backend_gfni = {
    .info = {"avx512-gfni", NURI_CPU_AVX512F | NURI_CPU_AVX512BW | NURI_CPU_AVX512VL | NURI_CPU_GFNI, 1,
             "AVX-512 + GFNI: 32 values per pass, 8 per zmm; S-box as gf2p8affineqb + gf2p8affineinvqb with M's "
             "coefficients folded in, M as 8 byte shuffles"},
    .f = nuri_fea_gfni_f,
    .sd = nuri_fea_gfni_sd,
};
