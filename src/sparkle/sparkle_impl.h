/* The SPARKLE backend interface. Every implementation permutes a state of 2*nb 32-bit words in
 * the order x0,y0,x1,y1,... (nb = 4, 6 or 8 branches) by any number of steps >= 1. The Schwaemm
 * duplex and the Esch sponge (duplex.c: one lane engine for single messages and batches) are written once on
 * top of it. */
#ifndef NURI_SPARKLE_IMPL_H
#define NURI_SPARKLE_IMPL_H

#include "nuri/sparkle.h"
#include "nuri_internal.h"

typedef void (*nuri_sparkle_perm_fn)(uint32_t *state, unsigned nb, unsigned steps);
/* A multi-instance kernel on an already transposed batch: soa[w * lanes + l] is word w of
 * instance l (64-byte aligned). The batch API keeps uniform batches in this form across rounds
 * and so skips the transpositions. */
typedef void (*nuri_sparkle_soa_fn)(uint32_t *soa, unsigned nb, unsigned steps);
/* The Schwaemm duplex with a 32-byte rate (Schwaemm256-128: nb 6, Schwaemm256-256: nb 8) over
 * `lanes` transposed states (soa as above): nblocks full message blocks, none of them the last,
 * each block: out = in ^ S_L, absorb (in when encrypting, out when decrypting), `slim` steps.
 * Instance k reads in[k] + b * stride[k] and writes out[k] + b * stride[k] for block b (stride 32,
 * or 0 for an idle instance on a 32-byte scratch block); out[k] may equal in[k]. It is the block
 * loop of nuri_schwaemm_msg_block fused with the permutation, so the states stay transposed in
 * registers across a whole message (duplex.c does the rest of the mode). */
typedef void (*nuri_schwaemm_duplex32_fn)(uint32_t *soa, unsigned nb, unsigned slim, int decrypt,
                                          const uint8_t *const *in, uint8_t *const *out, const size_t *stride,
                                          size_t nblocks);

/* A backend's registry entry, defined in its own folder (nuri_sparkle_backend_<folder>). */
typedef struct nuri_sparkle_impl {
    nuri_impl_info info;
    nuri_sparkle_perm_fn permute; /* one state */
    /* Optional hooks of multi-instance kernels (NULL otherwise):
     * permute_many: count independent states, contiguous (2*nb words each), all by the same step
     * count (NULL = loop over permute); permute_soa: lanes states in transposed form (above). */
    void (*permute_many)(uint32_t *states, size_t count, unsigned nb, unsigned steps);
    nuri_sparkle_soa_fn permute_soa;
    nuri_schwaemm_duplex32_fn duplex32; /* optional, needs permute_soa with the same lanes */
    unsigned lanes;                     /* states per pass of permute_many / permute_soa; 1 for single-state kernels */
} nuri_sparkle_impl;

/* Round constants c0..c7 (also the Alzette constants of branches 0..7). */
#define NURI_SPARKLE_RCON \
    {0xB7E15162u, 0xBF715880u, 0x38B4DA56u, 0x324E7738u, 0xBB1185EBu, 0x4F7C7B57u, 0xCFBFA1C8u, 0xC2B3293Du}

/* Kernels (each in its own folder). */
void nuri_sparkle_ref_permute(uint32_t *state, unsigned nb, unsigned steps);
void nuri_sparkle_opt_permute(uint32_t *state, unsigned nb, unsigned steps);
void nuri_sparkle_avx2_permute_many(uint32_t *states, size_t count, unsigned nb, unsigned steps);
void nuri_sparkle_avx512_permute_many(uint32_t *states, size_t count, unsigned nb, unsigned steps);
void nuri_sparkle_avx2_permute_soa(uint32_t *soa, unsigned nb, unsigned steps);
void nuri_sparkle_avx512_permute_soa(uint32_t *soa, unsigned nb, unsigned steps);
void nuri_sparkle_avx2_duplex32(uint32_t *soa, unsigned nb, unsigned slim, int decrypt, const uint8_t *const *in,
                                uint8_t *const *out, const size_t *stride, size_t nblocks);
/* AArch64 (src/sparkle/a64/, src/sparkle/neon/), built when NURI_HAVE_SPARKLE_A64 / _NEON. */
void nuri_sparkle_a64_permute(uint32_t *state, unsigned nb, unsigned steps);
void nuri_sparkle_neon_permute(uint32_t *state, unsigned nb, unsigned steps);

/* Looks up an implementation: NULL name = dispatch (honours NURI_IMPL=sparkle:<name>).
 * Returns 0 and sets *out, or a negative NURI_E*. */
int nuri_sparkle_select(const char *name, const nuri_sparkle_impl **out);

/* Permutes count contiguous states with impl (permute_many when present). */
void nuri_sparkle_impl_permute_many(const nuri_sparkle_impl *impl, uint32_t *states, size_t count, unsigned nb,
                                    unsigned steps);

#endif
