/* FEA kernel on VAES + AVX2, 256-bit: 4 values per ymm, 8 per step (compiled with -mavx2 -mvaes
 * -maes only; chosen by dispatch at run time). The body is fea_aes_body.h; the AES instruction
 * works on each 128-bit lane as AES-NI does on an xmm, and pshufb stays within lanes, so the
 * 16-byte tables are broadcast to both lanes. valgrind hides VAES: the 128-bit aesni kernel, the
 * same body, is the one the constant-time test runs. */
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

typedef __m256i V;
#define LANES          4
#define V_BCAST16(p)   _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(p)))
#define V_SET1_8(b)    _mm256_set1_epi8((char)(b))
#define V_SET1_64(w)   _mm256_set1_epi64x((long long)(w))
#define V_XOR          _mm256_xor_si256
#define V_AND          _mm256_and_si256
#define V_SHUF         _mm256_shuffle_epi8
#define V_SRL16        _mm256_srli_epi16
#define V_AESLAST0(x)  _mm256_aesenclast_epi128((x), _mm256_setzero_si256())
#define V_LOADU(p)     _mm256_loadu_si256((const __m256i *)(p))
#define V_STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
/* m = 1..3 values: masked load/store (lanes below m); one value (the per-value call) by a
 * broadcast and a 64-bit store, which have a shorter latency */
#define LANE_MASK(m) _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)(m)), _mm256_setr_epi64x(0, 1, 2, 3))
static inline __m256i loadn(const uint64_t *p, size_t m)
{
    return m == 1 ? _mm256_set1_epi64x((long long)p[0]) : _mm256_maskload_epi64((const long long *)p, LANE_MASK(m));
}
static inline void storen(uint64_t *p, __m256i v, size_t m)
{
    if (m == 1) _mm_storel_epi64((__m128i *)p, _mm256_castsi256_si128(v));
    else _mm256_maskstore_epi64((long long *)p, LANE_MASK(m), v);
}
#define V_LOADN  loadn
#define V_STOREN storen
#define V_SLL64  _mm256_sll_epi64 /* by the count in the low 64 bits of an xmm */
#define V_SRL64  _mm256_srl_epi64
#define FN_F     nuri_fea_vaes_f
#define FN_ROUND nuri_fea_vaes_round
#define FN_SD    nuri_fea_vaes_sd

#include "../fea_aes_body.h"

const nuri_fea_impl nuri_fea_backend_vaes = {
    .info = {"avx2-vaes", NURI_CPU_AVX2 | NURI_CPU_AESNI | NURI_CPU_VAES, 1,
             "AVX2 + VAES: 8 values per pass, 4 per ymm; S-box as AESENCLAST with a zero key between GF(2)-linear "
             "maps (pshufb nibble tables), M as pshufb constant multiplies and byte shuffles"},
    .f = nuri_fea_vaes_f,
    .sd = nuri_fea_vaes_sd,
    .round = nuri_fea_vaes_round,
};
