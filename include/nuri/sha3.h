/* SHA3-256, SHA3-512, SHAKE128 and SHAKE256 (FIPS 202), portable C.
 *
 * One-shot functions and an incremental SHAKE context (absorb any number of times, then
 * squeeze any number of times). These never fail. The Keccak-f[1600] permutation and a
 * four-way batched interface used by ML-KEM live in src/common/fips202.h (internal). */
#ifndef NURI_SHA3_H
#define NURI_SHA3_H

#include "nuri/nuri.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NURI_SHAKE128_RATE  168
#define NURI_SHAKE256_RATE  136
#define NURI_SHA3_256_RATE  136
#define NURI_SHA3_512_RATE  72
#define NURI_SHA3_256_BYTES 32 /* digest sizes */
#define NURI_SHA3_512_BYTES 64

NURI_API void nuri_sha3_256(uint8_t out[NURI_SHA3_256_BYTES], const uint8_t *in, size_t in_len);
NURI_API void nuri_sha3_512(uint8_t out[NURI_SHA3_512_BYTES], const uint8_t *in, size_t in_len);
/* SHAKE output is as long as the caller asks: these fill out_cap bytes. */
NURI_API void nuri_shake128(uint8_t *out, size_t out_cap, const uint8_t *in, size_t in_len);
NURI_API void nuri_shake256(uint8_t *out, size_t out_cap, const uint8_t *in, size_t in_len);

/* Incremental SHAKE. init -> absorb* -> squeeze*; absorbing after the first squeeze is not allowed
 * (it is ignored). Wipe with nuri_shake_wipe when the input was secret. */
typedef struct nuri_shake_ctx {
    uint64_t s[25];
    unsigned pos;  /* bytes absorbed into / squeezed from the current block */
    unsigned rate; /* 168 or 136 */
    int squeezing;
} nuri_shake_ctx;

NURI_API void nuri_shake128_init(nuri_shake_ctx *c);
NURI_API void nuri_shake256_init(nuri_shake_ctx *c);
NURI_API void nuri_shake_absorb(nuri_shake_ctx *c, const uint8_t *in, size_t in_len);
/* Fills out_cap bytes with the next output bytes. */
NURI_API void nuri_shake_squeeze(nuri_shake_ctx *c, uint8_t *out, size_t out_cap);
NURI_API void nuri_shake_wipe(nuri_shake_ctx *c);

#ifdef __cplusplus
}
#endif
#endif
