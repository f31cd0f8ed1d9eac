/* AArch64 NEON PIPO kernel (registered in ../impls.c when NURI_HAVE_PIPO_NEON). */
#ifndef NURI_PIPO_NEON_H
#define NURI_PIPO_NEON_H
#include "../pipo_impl.h"
void nuri_pipo_neon_encrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);
void nuri_pipo_neon_decrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);
#endif
