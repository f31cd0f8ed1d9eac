/* SPARKLE permutations, Schwaemm authenticated encryption and Esch hashing (Beierle et al.,
 * NIST LWC finalist, v1.2.1). Outputs match the designers' reference and the NIST KAT files.
 *
 * State layout everywhere: 2*nb 32-bit words x0,y0,x1,y1,... (nb = 4, 6, 8 branches for
 * SPARKLE256/384/512); bytes map to words little-endian.
 *
 * Schwaemm decryption never releases unauthenticated plaintext: the one-shot form writes the
 * plaintext only after the tag has been checked (constant-time) and zeroes the output on failure;
 * the streaming form is two-pass (verify the whole ciphertext first, then decrypt it), see below. */
#ifndef NURI_SPARKLE_H
#define NURI_SPARKLE_H

#include "nuri/nuri.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NURI_SPARKLE256_BRANCHES 4
#define NURI_SPARKLE384_BRANCHES 6
#define NURI_SPARKLE512_BRANCHES 8
#define NURI_SPARKLE_MAX_WORDS 16

/* ---- Registry ---- */
size_t nuri_sparkle_impl_count(void);
const nuri_impl_info *nuri_sparkle_impl_info(size_t i);
int nuri_sparkle_impl_supported(size_t i);
/* Name of the implementation dispatch would choose now (honours NURI_IMPL=sparkle:<name>). */
const char *nuri_sparkle_default_impl(void);
/* 1 if implementation i has a multi-instance kernel (used by the batch functions). */
int nuri_sparkle_impl_multi(size_t i);

/* ---- Permutation ----
 * nb in {4, 6, 8}, any steps >= 0 (0 = identity). impl_name NULL = dispatch.
 * Errors: NURI_EINVAL (nb), NURI_ENOTFOUND / NURI_EUNSUPPORTED (impl). */
NURI_MUST_CHECK int nuri_sparkle_permute(uint32_t *state, unsigned nb, unsigned steps, const char *impl_name);
/* The same on a byte string of 32, 48 or 64 bytes (words little-endian); NURI_ELENGTH otherwise. */
NURI_MUST_CHECK int nuri_sparkle_permute_bytes(uint8_t *state, size_t state_len, unsigned steps,
                                               const char *impl_name);

/* Schwaemm and Esch: coming in the next commit. */

#ifdef __cplusplus
}
#endif
#endif
