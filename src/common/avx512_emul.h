/* The AVX-512 intrinsics in portable form, for the emulated build of the AVX-512 sources
 * (NURI_AVX512_EMULATED, a test configuration: src/mlkem/family.cmake, mk/mlkem-avx512.mk). It
 * runs the same source on CPUs without AVX-512 and under valgrind, which decodes no AVX-512
 * instruction. SIMDe (SIMD Everywhere, Debian's libsimde-dev) supplies most of them; the ones
 * its 0.7 release lacks are written here lane by lane. Lane selections under a mask are
 * written without branches (the masks of compress_d depend on secret data), and masked loads
 * and stores touch only the selected bytes, as the instructions do. */
#ifndef NURI_AVX512_EMUL_H
#define NURI_AVX512_EMUL_H

#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>
#include <stdint.h>
#include <string.h>

/* SIMDe 0.7's alias of _mm512_madd_epi16 takes the four arguments of the masked form. */
#undef _mm512_madd_epi16
#define _mm512_madd_epi16(a, b) simde_mm512_madd_epi16(a, b)
#undef _mm512_shuffle_i64x2
#define _mm512_shuffle_i64x2(a, b, imm) simde_mm512_shuffle_i64x2(a, b, imm)
#define NURI_EMUL_LANES(type, n, v)     type v##_[n]
#define NURI_EMUL_IN(v, x)              memcpy(v##_, &(x), sizeof v##_)
#define NURI_EMUL_OUT(x, v)             memcpy(&(x), v##_, sizeof v##_)

static inline __m512i nuri_emul_mulhi_epu16(__m512i a, __m512i b)
{
    NURI_EMUL_LANES(uint16_t, 32, x);
    NURI_EMUL_LANES(uint16_t, 32, y);
    NURI_EMUL_IN(x, a);
    NURI_EMUL_IN(y, b);
    for (int i = 0; i < 32; i++) x_[i] = (uint16_t)(((uint32_t)x_[i] * y_[i]) >> 16);
    NURI_EMUL_OUT(a, x);
    return a;
}
#undef _mm512_mulhi_epu16
#define _mm512_mulhi_epu16 nuri_emul_mulhi_epu16

static inline __m512i nuri_emul_srai_epi32(__m512i a, unsigned n)
{
    NURI_EMUL_LANES(int32_t, 16, x);
    NURI_EMUL_IN(x, a);
    for (int i = 0; i < 16; i++) x_[i] = n > 31 ? (x_[i] < 0 ? -1 : 0) : x_[i] >> n;
    NURI_EMUL_OUT(a, x);
    return a;
}
#undef _mm512_srai_epi32
#define _mm512_srai_epi32(a, n) nuri_emul_srai_epi32(a, (unsigned)(n))

static inline __m512i nuri_emul_bsrli_epi128(__m512i a, unsigned n)
{
    NURI_EMUL_LANES(uint8_t, 64, x);
    NURI_EMUL_LANES(uint8_t, 64, r);
    NURI_EMUL_IN(x, a);
    for (int i = 0; i < 64; i++) r_[i] = (i % 16) + n < 16 ? x_[i + n] : 0;
    NURI_EMUL_OUT(a, r);
    return a;
}
#undef _mm512_bsrli_epi128
#define _mm512_bsrli_epi128(a, n) nuri_emul_bsrli_epi128(a, (unsigned)(n))

static inline __mmask32 nuri_emul_cmpgt_epi16_mask(__m512i a, __m512i b)
{
    NURI_EMUL_LANES(int16_t, 32, x);
    NURI_EMUL_LANES(int16_t, 32, y);
    NURI_EMUL_IN(x, a);
    NURI_EMUL_IN(y, b);
    uint32_t m = 0;
    for (int i = 0; i < 32; i++) m |= (uint32_t)(((int32_t)y_[i] - x_[i]) >> 31 & 1) << i; /* y - x < 0 */
    return m;
}
#undef _mm512_cmpgt_epi16_mask
#define _mm512_cmpgt_epi16_mask nuri_emul_cmpgt_epi16_mask

static inline __mmask32 nuri_emul_cmplt_epu16_mask(__m512i a, __m512i b)
{
    NURI_EMUL_LANES(uint16_t, 32, x);
    NURI_EMUL_LANES(uint16_t, 32, y);
    NURI_EMUL_IN(x, a);
    NURI_EMUL_IN(y, b);
    uint32_t m = 0;
    for (int i = 0; i < 32; i++) m |= (uint32_t)(((int32_t)x_[i] - y_[i]) >> 31 & 1) << i; /* x - y < 0 */
    return m;
}
#undef _mm512_cmplt_epu16_mask
#define _mm512_cmplt_epu16_mask nuri_emul_cmplt_epu16_mask

static inline __m512i nuri_emul_mask_sub_epi16(__m512i src, __mmask32 k, __m512i a, __m512i b)
{
    NURI_EMUL_LANES(uint16_t, 32, s);
    NURI_EMUL_LANES(uint16_t, 32, x);
    NURI_EMUL_LANES(uint16_t, 32, y);
    NURI_EMUL_IN(s, src);
    NURI_EMUL_IN(x, a);
    NURI_EMUL_IN(y, b);
    for (int i = 0; i < 32; i++) {
        const uint16_t on = (uint16_t)(0u - (k >> i & 1)); /* all ones where bit i is set */
        s_[i] = (uint16_t)(((x_[i] - y_[i]) & on) | (s_[i] & ~on));
    }
    NURI_EMUL_OUT(src, s);
    return src;
}
#undef _mm512_mask_sub_epi16
#define _mm512_mask_sub_epi16 nuri_emul_mask_sub_epi16

static inline __m256i nuri_emul_cvtepi32_epi16(__m512i a)
{
    NURI_EMUL_LANES(uint32_t, 16, x);
    NURI_EMUL_LANES(uint16_t, 16, r);
    NURI_EMUL_IN(x, a);
    for (int i = 0; i < 16; i++) r_[i] = (uint16_t)x_[i];
    __m256i out;
    NURI_EMUL_OUT(out, r);
    return out;
}
#undef _mm512_cvtepi32_epi16
#define _mm512_cvtepi32_epi16 nuri_emul_cvtepi32_epi16

static inline __m512i nuri_emul_cvtepu16_epi32(__m256i a)
{
    NURI_EMUL_LANES(uint16_t, 16, x);
    NURI_EMUL_LANES(uint32_t, 16, r);
    NURI_EMUL_IN(x, a);
    for (int i = 0; i < 16; i++) r_[i] = x_[i];
    __m512i out;
    NURI_EMUL_OUT(out, r);
    return out;
}
#undef _mm512_cvtepu16_epi32
#define _mm512_cvtepu16_epi32 nuri_emul_cvtepu16_epi32

/* Masked loads and stores: element i of `size` bytes is read or written when bit i of k is set
 * (k is public here: it comes from lengths). */
static inline void nuri_emul_load(void *dst, const void *p, uint64_t k, unsigned size, unsigned n)
{
    memset(dst, 0, (size_t)size * n);
    for (unsigned i = 0; i < n; i++)
        if (k >> i & 1) memcpy((uint8_t *)dst + i * size, (const uint8_t *)p + i * size, size);
}
static inline void nuri_emul_store(void *p, const void *src, uint64_t k, unsigned size, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (k >> i & 1) memcpy((uint8_t *)p + i * size, (const uint8_t *)src + i * size, size);
}
static inline __m512i nuri_emul_maskz_loadu_epi8(__mmask64 k, const void *p)
{
    __m512i r;
    nuri_emul_load(&r, p, k, 1, 64);
    return r;
}
static inline __m512i nuri_emul_maskz_loadu_epi32(__mmask16 k, const void *p)
{
    __m512i r;
    nuri_emul_load(&r, p, k, 4, 16);
    return r;
}
static inline void nuri_emul_mask_storeu_epi8(void *p, __mmask64 k, __m512i a) { nuri_emul_store(p, &a, k, 1, 64); }
static inline void nuri_emul_mask_storeu_epi32(void *p, __mmask16 k, __m512i a) { nuri_emul_store(p, &a, k, 4, 16); }
static inline void nuri_emul_mask_storeu_epi16_256(void *p, __mmask16 k, __m256i a)
{
    nuri_emul_store(p, &a, k, 2, 16);
}
static inline void nuri_emul_mask_storeu_epi8_128(void *p, __mmask16 k, __m128i a) { nuri_emul_store(p, &a, k, 1, 16); }
#undef _mm512_maskz_loadu_epi8
#define _mm512_maskz_loadu_epi8 nuri_emul_maskz_loadu_epi8
#undef _mm512_maskz_loadu_epi32
#define _mm512_maskz_loadu_epi32 nuri_emul_maskz_loadu_epi32
#undef _mm512_mask_storeu_epi8
#define _mm512_mask_storeu_epi8 nuri_emul_mask_storeu_epi8
#undef _mm512_mask_storeu_epi32
#define _mm512_mask_storeu_epi32 nuri_emul_mask_storeu_epi32
#undef _mm256_mask_storeu_epi16
#define _mm256_mask_storeu_epi16 nuri_emul_mask_storeu_epi16_256
#undef _mm_mask_storeu_epi8
#define _mm_mask_storeu_epi8 nuri_emul_mask_storeu_epi8_128

#endif
