/* rv32imac PIPO kernels (registered in ../impls.c when NURI_HAVE_PIPO_RV32). */
#ifndef NURI_PIPO_RV32_H
#define NURI_PIPO_RV32_H
#include "../pipo_impl.h"

/* assembly, one block at a time (rk read as stored in nuri_pipo_key) */
void nuri_pipo_rv32_1blk_enc(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);
void nuri_pipo_rv32_1blk_dec(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);
/* 4 blocks per pass (C glue in pipo_rv32.c around assembly) */
void nuri_pipo_rv32_4blk_encrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);
void nuri_pipo_rv32_4blk_decrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);
/* 32 blocks bitsliced */
void nuri_pipo_rv32_bs32_encrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);
void nuri_pipo_rv32_bs32_decrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);
void nuri_pipo_rv32_bs32_ctr(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n,
                             uint64_t counter);
#endif
