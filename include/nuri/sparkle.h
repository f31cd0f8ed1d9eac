/* SPARKLE permutations, Schwaemm authenticated encryption and Esch hashing (Beierle et al.,
 * NIST LWC finalist, v1.2.1). Outputs match the designers' reference and the NIST KAT files.
 *
 * State layout everywhere: 2*nb 32-bit words x0,y0,x1,y1,... (nb = 4, 6, 8 branches for
 * SPARKLE256/384/512); bytes map to words little-endian.
 *
 * Schwaemm decryption never releases unauthenticated plaintext: the one-shot and batch forms
 * decrypt into the caller's buffer in one pass, check the tag (constant time) and zero the output
 * before returning when it fails; the streaming form is two-pass (verify the whole ciphertext
 * first, then decrypt it), see below. */
#ifndef NURI_SPARKLE_H
#define NURI_SPARKLE_H

#include "nuri/nuri.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NURI_SPARKLE256_BRANCHES 4
#define NURI_SPARKLE384_BRANCHES 6
#define NURI_SPARKLE512_BRANCHES 8
#define NURI_SPARKLE_MAX_WORDS   16

/* ---- Registry ---- */
NURI_API size_t nuri_sparkle_impl_count(void);
NURI_API const nuri_impl_info *nuri_sparkle_impl_info(size_t i);
NURI_API int nuri_sparkle_impl_supported(size_t i);
/* Name of the implementation dispatch would choose now (honours NURI_IMPL=sparkle:<name>). */
NURI_API const char *nuri_sparkle_default_impl(void);
/* 1 if implementation i has a multi-instance kernel (used by the batch functions). */
NURI_API int nuri_sparkle_impl_multi(size_t i);

/* ---- Permutation ----
 * nb in {4, 6, 8}, any steps >= 0 (0 = identity). impl_name NULL = dispatch.
 * Errors: NURI_EINVAL (nb), NURI_ENOTFOUND / NURI_EUNSUPPORTED (impl). */
NURI_API NURI_MUST_CHECK int nuri_sparkle_permute(uint32_t *state, unsigned nb, unsigned steps, const char *impl_name);
/* The same on a byte string of 32, 48 or 64 bytes (words little-endian); NURI_ELENGTH otherwise. */
NURI_API NURI_MUST_CHECK int nuri_sparkle_permute_bytes(uint8_t *state, size_t state_len, unsigned steps,
                                                        const char *impl_name);

struct nuri_sparkle_impl;

/* ---- Schwaemm ---- */
typedef enum {
    NURI_SCHWAEMM128_128 = 0, /* SPARKLE256, key 16, nonce 16, tag 16 */
    NURI_SCHWAEMM256_128 = 1, /* SPARKLE384, key 16, nonce 32, tag 16 (primary) */
    NURI_SCHWAEMM192_192 = 2, /* SPARKLE384, key 24, nonce 24, tag 24 */
    NURI_SCHWAEMM256_256 = 3  /* SPARKLE512, key 32, nonce 32, tag 32 */
} nuri_schwaemm_variant;

#define NURI_SCHWAEMM_MAX_KEY_BYTES   32
#define NURI_SCHWAEMM_MAX_NONCE_BYTES 32
#define NURI_SCHWAEMM_MAX_TAG_BYTES   32
#define NURI_SCHWAEMM_MAX_RATE_BYTES  32

/* Sizes of a variant (0 for an unknown variant). */
NURI_API size_t nuri_schwaemm_key_bytes(int variant);
NURI_API size_t nuri_schwaemm_nonce_bytes(int variant);
NURI_API size_t nuri_schwaemm_tag_bytes(int variant);
NURI_API size_t nuri_schwaemm_rate_bytes(int variant);
NURI_API size_t nuri_schwaemm_ctx_bytes(void);

/* One-shot. Encrypt writes msg_len + tag bytes (ciphertext || tag) to out.
 * Decrypt reads ct_len >= tag bytes (ciphertext || tag) and writes ct_len - tag bytes; the
 * result counts only if it returns 0: on any error the first out_cap bytes of out are zeroed
 * before it returns (NURI_EAUTH for a wrong tag). out may equal the input (in-place); an out
 * that overlaps the input otherwise is refused with NURI_EINVAL, nothing written.
 * impl_name NULL = dispatch. */
NURI_API NURI_MUST_CHECK int nuri_schwaemm_encrypt(int variant, uint8_t *out, size_t out_cap, size_t *out_len,
                                                   const uint8_t *key, size_t key_len, const uint8_t *nonce,
                                                   size_t nonce_len, const uint8_t *ad, size_t ad_len,
                                                   const uint8_t *msg, size_t msg_len, const char *impl_name);
NURI_API NURI_MUST_CHECK int nuri_schwaemm_decrypt(int variant, uint8_t *out, size_t out_cap, size_t *out_len,
                                                   const uint8_t *key, size_t key_len, const uint8_t *nonce,
                                                   size_t nonce_len, const uint8_t *ad, size_t ad_len,
                                                   const uint8_t *ct, size_t ct_len, const char *impl_name);

/* Streaming. Encryption:  init(ENCRYPT) -> update_ad* -> encrypt_update* -> encrypt_final.
 * Decryption is two-pass, so no plaintext leaves before the tag is verified:
 *   init(DECRYPT) -> update_ad* -> verify_update(ct chunks)* -> verify_final(tag)
 *   and only if that returned NURI_OK: decrypt_update(the same ct chunks)* -> decrypt_final(tag).
 * verify_final rewinds the context to the start of the ciphertext. decrypt_final checks the tag
 * again and returns NURI_EAUTH if the second pass saw a different ciphertext than the first
 * (the caller must then discard what decrypt_update produced). Any chunking works.
 * The *_update functions that output data write at most in_len + rate bytes; the final ones at
 * most rate bytes. All functions return NURI_ESTATE when called out of sequence. On any error the
 * output functions set *out_len = 0 and zero the first out_cap bytes of out (encrypt_final also the
 * tag_len bytes of tag). */
#define NURI_SCHWAEMM_ENCRYPT 1
#define NURI_SCHWAEMM_DECRYPT 0
typedef struct nuri_schwaemm_ctx {
    uint32_t state[NURI_SPARKLE_MAX_WORDS];
    uint32_t saved[NURI_SPARKLE_MAX_WORDS]; /* state at the start of the message phase (decryption) */
    uint8_t key[NURI_SCHWAEMM_MAX_KEY_BYTES];
    uint8_t buf[NURI_SCHWAEMM_MAX_RATE_BYTES]; /* pending (possibly full) block of AD or message */
    size_t buf_len;
    const struct nuri_sparkle_impl *impl;
    int variant, encrypt, phase;
} nuri_schwaemm_ctx;

NURI_API NURI_MUST_CHECK int nuri_schwaemm_init(nuri_schwaemm_ctx *ctx, int variant, int encrypt, const uint8_t *key,
                                                size_t key_len, const uint8_t *nonce, size_t nonce_len,
                                                const char *impl_name);
NURI_API NURI_MUST_CHECK int nuri_schwaemm_update_ad(nuri_schwaemm_ctx *ctx, const uint8_t *ad, size_t ad_len);
NURI_API NURI_MUST_CHECK int nuri_schwaemm_encrypt_update(nuri_schwaemm_ctx *ctx, uint8_t *out, size_t out_cap,
                                                          size_t *out_len, const uint8_t *in, size_t in_len);
/* Writes the last ciphertext bytes (<= rate) to out and the tag to tag; wipes the context. */
NURI_API NURI_MUST_CHECK int nuri_schwaemm_encrypt_final(nuri_schwaemm_ctx *ctx, uint8_t *out, size_t out_cap,
                                                         size_t *out_len, uint8_t *tag, size_t tag_len);
NURI_API NURI_MUST_CHECK int nuri_schwaemm_verify_update(nuri_schwaemm_ctx *ctx, const uint8_t *ct, size_t ct_len);
/* NURI_OK (context rewound for decrypt_update) or NURI_EAUTH (context wiped). */
NURI_API NURI_MUST_CHECK int nuri_schwaemm_verify_final(nuri_schwaemm_ctx *ctx, const uint8_t *tag, size_t tag_len);
NURI_API NURI_MUST_CHECK int nuri_schwaemm_decrypt_update(nuri_schwaemm_ctx *ctx, uint8_t *out, size_t out_cap,
                                                          size_t *out_len, const uint8_t *ct, size_t ct_len);
NURI_API NURI_MUST_CHECK int nuri_schwaemm_decrypt_final(nuri_schwaemm_ctx *ctx, uint8_t *out, size_t out_cap,
                                                         size_t *out_len, const uint8_t *tag, size_t tag_len);
NURI_API void nuri_schwaemm_ctx_wipe(nuri_schwaemm_ctx *ctx);

/* Batch sealing: count independent messages under one key, permuted together by the
 * multi-instance kernel of the chosen implementation (avx2: 8, avx512: 16 states per pass).
 * out[i] receives msg_lens[i] + tag bytes; ads may be NULL (no AD for any message). out[i] may
 * equal msgs[i]; an out[i] overlapping msgs[i] otherwise is refused with NURI_EINVAL, nothing
 * written (both batch forms). Buffers of different messages must not overlap. */
NURI_API NURI_MUST_CHECK int nuri_schwaemm_encrypt_many(int variant, uint8_t *const *out, const uint8_t *key,
                                                        size_t key_len, const uint8_t *const *nonces,
                                                        const uint8_t *const *ads, const size_t *ad_lens,
                                                        const uint8_t *const *msgs, const size_t *msg_lens,
                                                        size_t count, const char *impl_name);
/* Batch opening, same semantics per message as nuri_schwaemm_decrypt: cts[i] is ciphertext || tag
 * (ct_lens[i] >= tag bytes), out[i] receives ct_lens[i] - tag bytes of plaintext, zeroed when its
 * tag fails; status[i] (may be NULL) = 0 or NURI_EAUTH. Returns 0 when every tag verified,
 * NURI_EAUTH when some failed (status says which; the others are valid), or another NURI_E* for
 * a bad argument (then every out[i] is zeroed and status[i] = that code). out[i] may equal cts[i]. */
NURI_API NURI_MUST_CHECK int nuri_schwaemm_decrypt_many(int variant, uint8_t *const *out, const uint8_t *key,
                                                        size_t key_len, const uint8_t *const *nonces,
                                                        const uint8_t *const *ads, const size_t *ad_lens,
                                                        const uint8_t *const *cts, const size_t *ct_lens, int *status,
                                                        size_t count, const char *impl_name);

/* ---- Esch ---- */
#define NURI_ESCH256_DIGEST_BYTES 32
#define NURI_ESCH384_DIGEST_BYTES 48
#define NURI_ESCH_RATE_BYTES      16

typedef struct nuri_esch_ctx {
    uint32_t state[NURI_SPARKLE_MAX_WORDS];
    uint8_t buf[NURI_ESCH_RATE_BYTES]; /* pending (possibly full) block */
    size_t buf_len;
    const struct nuri_sparkle_impl *impl;
    unsigned digest_bytes, finished;
} nuri_esch_ctx;

NURI_API size_t nuri_esch_ctx_bytes(void);
/* digest_bytes 32 (Esch256) or 48 (Esch384); NURI_ELENGTH otherwise. */
NURI_API NURI_MUST_CHECK int nuri_esch_init(nuri_esch_ctx *ctx, size_t digest_bytes, const char *impl_name);
NURI_API NURI_MUST_CHECK int nuri_esch_update(nuri_esch_ctx *ctx, const uint8_t *in, size_t in_len);
/* out_len must be the digest size; the context is wiped afterwards. */
NURI_API NURI_MUST_CHECK int nuri_esch_final(nuri_esch_ctx *ctx, uint8_t *out, size_t out_len);
NURI_API NURI_MUST_CHECK int nuri_esch(size_t digest_bytes, uint8_t *out, const uint8_t *in, size_t in_len,
                                       const char *impl_name);
NURI_API NURI_MUST_CHECK int nuri_esch256(uint8_t out[32], const uint8_t *in, size_t in_len);
NURI_API NURI_MUST_CHECK int nuri_esch384(uint8_t out[48], const uint8_t *in, size_t in_len);

/* Batch hashing: out gets count digests back to back; messages may have different lengths. */
NURI_API NURI_MUST_CHECK int nuri_esch_many(size_t digest_bytes, uint8_t *out, const uint8_t *const *msgs,
                                            const size_t *lens, size_t count, const char *impl_name);
NURI_API NURI_MUST_CHECK int nuri_esch256_many(uint8_t *out, const uint8_t *const *msgs, const size_t *lens,
                                               size_t count);
NURI_API NURI_MUST_CHECK int nuri_esch384_many(uint8_t *out, const uint8_t *const *msgs, const size_t *lens,
                                               size_t count);

#ifdef __cplusplus
}
#endif
#endif
