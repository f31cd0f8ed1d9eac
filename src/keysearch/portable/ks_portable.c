/* Portable key-search engine: the byte-sliced body (ks_sliced.h) on 128-bit generic vectors,
 * 16 candidates per pass (SSE2 on x86-64, NEON on AArch64; plain 64-bit words elsewhere). */
#include <stdint.h>

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__SSE2__) || defined(__ARM_NEON))
#define KS_NW 2
#else
#define KS_NW 1
#endif
#define KS_SEARCH nuri_ks_portable_search
#include "../ks_sliced.h"
