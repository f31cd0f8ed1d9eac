/* AArch64 NEON FEA kernel (registered in ../impls.c when NURI_HAVE_FEA_NEON). */
#ifndef NURI_FEA_NEON_H
#define NURI_FEA_NEON_H
#include "../fea_impl.h"
void nuri_fea_neon_f(const uint64_t rk[2], uint64_t *x, size_t count);
uint64_t nuri_fea_neon_sd(uint64_t x);
#endif
