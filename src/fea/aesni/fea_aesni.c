/* FEA kernel on AES-NI + SSSE3, 128-bit: 2 values per xmm (compiled with -maes -mssse3 only;
 * chosen by dispatch at run time). The body is fea_aes_body.h. This is the kernel valgrind can
 * check (it hides VAES, not AES-NI): tests/ct/ct_fea.c runs it. */
#include <immintrin.h>

typedef __m128i V;
#define LANES             2
#define V_BCAST16(p)      _mm_loadu_si128((const __m128i *)(p))
#define V_SET1_8(b)       _mm_set1_epi8((char)(b))
#define V_SET1_64(w)      _mm_set1_epi64x((long long)(w))
#define V_XOR             _mm_xor_si128
#define V_AND             _mm_and_si128
#define V_SHUF            _mm_shuffle_epi8
#define V_SRL16           _mm_srli_epi16
#define V_AESLAST0(x)     _mm_aesenclast_si128((x), _mm_setzero_si128())
#define V_LOADU(p)        _mm_loadu_si128((const __m128i *)(p))
#define V_STOREU(p, v)    _mm_storeu_si128((__m128i *)(p), (v))
#define V_LOADN(p, m)     _mm_loadl_epi64((const __m128i *)(p)) /* m = 1 */
#define V_STOREN(p, v, m) _mm_storel_epi64((__m128i *)(p), (v))
#define V_SLL64           _mm_sll_epi64 /* by the count in the low 64 bits of an xmm */
#define V_SRL64           _mm_srl_epi64
#define FN_F              nuri_fea_aesni_f
#define FN_ROUND          nuri_fea_aesni_round
#define FN_SD             nuri_fea_aesni_sd

#include "../fea_aes_body.h"

const nuri_fea_impl nuri_fea_backend_aesni = {
    .info = {"aesni", NURI_CPU_SSSE3 | NURI_CPU_AESNI, 1,
             "AES-NI + SSSE3: the avx2-vaes kernel on xmm, 2 values per register (x86-64 without AVX2/VAES)"},
    .f = nuri_fea_aesni_f,
    .sd = nuri_fea_aesni_sd,
    .round = nuri_fea_aesni_round,
};
