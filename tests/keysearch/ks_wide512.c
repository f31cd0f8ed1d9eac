/* The avx512 engine's source compiled WITHOUT AVX-512 flags (the compiler lowers its 512-bit vectors
 * to SSE2, or to AVX2 in ks_wide512_avx2.c), registered nowhere: test_keysearch runs it through
 * nuri_ks_run_engine like the registered engines, so the AVX-512 kernel is checked on machines that
 * cannot run AVX-512 instructions. */
#ifndef KS_AVX512_ENTRY
#define KS_AVX512_ENTRY nuri_ks_test_wide512
#endif
#include "avx512/ks_avx512.c"
