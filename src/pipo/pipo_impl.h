/* The PIPO backend interface: a kernel encrypts/decrypts n independent blocks under
 * precomputed round keys. Mode logic (modes.c) is written once on top of it. */
#ifndef NURI_PIPO_IMPL_H
#define NURI_PIPO_IMPL_H

#include "nuri/pipo.h"
#include "nuri_internal.h"

/* rk[] always comes from nuri_pipo_key_init (RK_i = K_(i mod w) ^ i, w = 2 or 4 key words), or
 * from a round-reduced copy of such a key (tests use rounds < R, and rounds = 1 with rk[0..1]
 * zeroed). Kernels may rely on this structure: rv32-bs32 reads only the first 4 round keys for
 * 5+ rounds and applies the round constants as NOTs. */
typedef void (*nuri_pipo_blocks_fn)(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in,
                                    size_t nblocks);

/* Optional CTR keystream hook: out[i] = in[i] ^ E(counter + i) for nblocks whole blocks, the
 * counter block being the 64-bit big-endian value counter + i (mod 2^64). in and out may alias
 * exactly. NULL: modes.c generates the counter blocks and uses encrypt (the generic path). */
typedef void (*nuri_pipo_ctr_fn)(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t nblocks,
                                 uint64_t counter);

typedef struct nuri_pipo_impl {
    nuri_impl_info info;
    nuri_pipo_blocks_fn encrypt;
    nuri_pipo_blocks_fn decrypt;
    nuri_pipo_ctr_fn ctr; /* NULL = generic CTR path */
    /* Calls of at most this many blocks go to the one-block ref kernel (constant time too): a
     * full SIMD pass costs about as much, and CBC encryption calls one block at a time. */
    size_t small_to_ref;
} nuri_pipo_impl;

/* Rotation amounts of the R-layer (row j rotated left by R[j]), from the spec. */
#define NURI_PIPO_ROT {0, 7, 4, 3, 6, 5, 1, 2}

/* Kernels (each in its own folder). */
void nuri_pipo_ref_encrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);
void nuri_pipo_ref_decrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);
void nuri_pipo_bs64_encrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);
void nuri_pipo_bs64_decrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);
void nuri_pipo_avx2_encrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);
void nuri_pipo_avx2_decrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);
void nuri_pipo_avx512_encrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);
void nuri_pipo_avx512_decrypt(const uint64_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n);

#endif
