/* AVX2 key-search engine: the byte-sliced body (ks_sliced.h) on 256-bit vectors, 2 x 32 candidates
 * per pass; the any-lane tests are vptest. Compiled with -mavx2 only, reached through dispatch. */
#include <immintrin.h>

#define KS_NW     4
#define KS_NS     2 /* two passes interleaved: 64 candidates per pass, about 5-10% faster on Zen 3 */
#define KS_SEARCH avx2_search
#define KS_ANY(v) (!_mm256_testz_si256((__m256i)(v), (__m256i)(v)))
#include "../ks_sliced.h"

const ks_engine nuri_keysearch_backend_avx2 = {
    .info = {"avx2", NURI_CPU_AVX2, 1,
             "2 x 32 candidates per pass, byte-sliced in ymm registers; counter in sliced form, shared rounds, early "
             "abort"},
    .search = avx2_search,
    .lanes = 64,
};
