/* ks_wide512.c with -mavx2 (tests.cmake): the 512-bit body lowered to pairs of ymm operations. */
#define KS_AVX512_ENTRY nuri_ks_test_wide512_avx2
#include "ks_wide512.c"
