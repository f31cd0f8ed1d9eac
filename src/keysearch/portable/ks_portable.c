/* Portable key-search engine: the byte-sliced body (ks_sliced.h) on 128-bit generic vectors,
 * 16 candidates per pass (SSE2 on x86-64, NEON on AArch64; plain 64-bit words elsewhere). */
#include <stdint.h>

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__SSE2__) || defined(__ARM_NEON))
#define KS_NW 2
#else
#define KS_NW 1
#endif
#define KS_SEARCH portable_search
#include "../ks_sliced.h"

const ks_engine nuri_keysearch_backend_portable = {
    .info = {"portable", 0, 1, "portable C vectors, 16 candidates per pass (byte-sliced); same plan as avx2"},
    .search = portable_search,
    .lanes = 8 * KS_NW,
};
