/* AVX-512 key-search engine: the byte-sliced body (ks_sliced.h), the same source as avx2/ and
 * portable/, on 512-bit vectors, 2 x 64 candidates per pass. family.cmake compiles this file with
 * -mavx512f -mavx512bw (GCC fuses the S-layer's gates into vpternlogq; vpcmpeqb on zmm needs BW).
 *
 * Nothing in this file depends on the ISA flags: the any-lane test is the generic one of
 * ks_sliced.h. tests/keysearch/ks_wide512.c compiles this very file WITHOUT AVX-512 flags (the
 * compiler lowers the 512-bit vectors to SSE2 or AVX2) under another entry name, and
 * test_keysearch runs it like every registered engine, so the kernel that the avx512 entry runs on
 * AVX-512 hardware is tested on machines without AVX-512 too. */
#include <stdint.h>

#define KS_NW     8
#define KS_NS     2
#define KS_SEARCH avx512_search
#include "../ks_sliced.h"

#ifndef KS_AVX512_ENTRY
#define KS_AVX512_ENTRY nuri_keysearch_backend_avx512 /* the tests' emulated copy renames it */
#endif

const ks_engine KS_AVX512_ENTRY = {
    .info = {"avx512", NURI_CPU_AVX512F | NURI_CPU_AVX512BW, 1,
             "2 x 64 candidates per pass, byte-sliced in zmm registers (same body as avx2); counter in sliced "
             "form, shared rounds, early abort"},
    .search = avx512_search,
    .lanes = 128,
};
