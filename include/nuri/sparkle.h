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

/* ---- Registry (one for the permutation, Schwaemm and Esch) ---- */
NURI_API size_t nuri_sparkle_impl_count(void);
NURI_API const nuri_impl_info *nuri_sparkle_impl_info(size_t i);
NURI_API int nuri_sparkle_impl_supported(size_t i);
/* Name of the implementation dispatch would choose now (honours NURI_IMPL=sparkle:<name>). */
NURI_API const char *nuri_sparkle_default_impl(void);
/* 1 if implementation i has a multi-instance kernel (used by the batch functions). */
NURI_API int nuri_sparkle_impl_multi(size_t i);

struct nuri_sparkle_impl;

/* ---- Permutation ---- */
typedef struct nuri_sparkle_ctx {
    const struct nuri_sparkle_impl *impl;
} nuri_sparkle_ctx;

/* impl NULL = dispatch (honours NURI_IMPL=sparkle:<name>). Errors: NURI_ENOTFOUND /
 * NURI_EUNSUPPORTED (impl). */
NURI_API NURI_MUST_CHECK int nuri_sparkle_init(nuri_sparkle_ctx *ctx, const char *impl);
NURI_API const char *nuri_sparkle_ctx_impl_name(const nuri_sparkle_ctx *ctx);
/* nb in {4, 6, 8} branches (SPARKLE256/384/512), any steps >= 0 (0 = identity), in place.
 * Errors: NURI_EINVAL (nb), NURI_ESTATE (ctx not initialised). */
NURI_API NURI_MUST_CHECK int nuri_sparkle_permute(const nuri_sparkle_ctx *ctx, uint32_t *state, unsigned nb,
                                                  unsigned steps);
/* The same on a byte string of 32, 48 or 64 bytes (words little-endian); NURI_ELENGTH otherwise. */
NURI_API NURI_MUST_CHECK int nuri_sparkle_permute_bytes(const nuri_sparkle_ctx *ctx, uint8_t *state, size_t state_len,
                                                        unsigned steps);

/* ---- Schwaemm ---- */
typedef enum {
    NURI_SCHWAEMM128_128 = 0, /* SPARKLE256, key 16, nonce 16, tag 16 */
    NURI_SCHWAEMM256_128 = 1, /* SPARKLE384, key 16, nonce 32, tag 16 (primary) */
    NURI_SCHWAEMM192_192 = 2, /* SPARKLE384, key 24, nonce 24, tag 24 */
    NURI_SCHWAEMM256_256 = 3  /* SPARKLE512, key 32, nonce 32, tag 32 */
} nuri_schwaemm_variant;

#define NURI_SCHWAEMM128_128_KEY_BYTES   16
#define NURI_SCHWAEMM128_128_NONCE_BYTES 16
#define NURI_SCHWAEMM128_128_TAG_BYTES   16
#define NURI_SCHWAEMM256_128_KEY_BYTES   16
#define NURI_SCHWAEMM256_128_NONCE_BYTES 32
#define NURI_SCHWAEMM256_128_TAG_BYTES   16
#define NURI_SCHWAEMM192_192_KEY_BYTES   24
#define NURI_SCHWAEMM192_192_NONCE_BYTES 24
#define NURI_SCHWAEMM192_192_TAG_BYTES   24
#define NURI_SCHWAEMM256_256_KEY_BYTES   32
#define NURI_SCHWAEMM256_256_NONCE_BYTES 32
#define NURI_SCHWAEMM256_256_TAG_BYTES   32
#define NURI_SCHWAEMM_MAX_KEY_BYTES      32
#define NURI_SCHWAEMM_MAX_NONCE_BYTES    32
#define NURI_SCHWAEMM_MAX_TAG_BYTES      32
#define NURI_SCHWAEMM_MAX_RATE_BYTES     32

/* Sizes of a variant (0 for an unknown variant). The nonce is as long as the rate. */
NURI_API size_t nuri_schwaemm_key_bytes(nuri_schwaemm_variant variant);
NURI_API size_t nuri_schwaemm_nonce_bytes(nuri_schwaemm_variant variant);
NURI_API size_t nuri_schwaemm_tag_bytes(nuri_schwaemm_variant variant);
NURI_API size_t nuri_schwaemm_rate_bytes(nuri_schwaemm_variant variant);
NURI_API size_t nuri_schwaemm_ctx_bytes(void);
/* sizeof(nuri_schwaemm_key), for FFI callers that allocate it. */
NURI_API size_t nuri_schwaemm_key_struct_bytes(void);

/* A Schwaemm key: the variant, the key bytes and the implementation every function taking it
 * runs. Wipe with nuri_schwaemm_key_wipe. */
typedef struct nuri_schwaemm_key {
    uint8_t key[NURI_SCHWAEMM_MAX_KEY_BYTES];
    nuri_schwaemm_variant variant;
    const struct nuri_sparkle_impl *impl;
} nuri_schwaemm_key;

/* key_len = nuri_schwaemm_key_bytes(variant). impl NULL = dispatch (honours NURI_IMPL=sparkle:<name>).
 * Errors: NURI_EINVAL (variant), NURI_ELENGTH, NURI_ENOTFOUND / NURI_EUNSUPPORTED (impl). */
NURI_API NURI_MUST_CHECK int nuri_schwaemm_key_init(nuri_schwaemm_key *k, nuri_schwaemm_variant variant,
                                                    const uint8_t *key, size_t key_len, const char *impl);
NURI_API void nuri_schwaemm_key_wipe(nuri_schwaemm_key *k);
NURI_API const char *nuri_schwaemm_key_impl_name(const nuri_schwaemm_key *k);

/* One-shot. Encrypt writes msg_len + tag bytes (ciphertext || tag) to out.
 * Decrypt reads ct_len >= tag bytes (ciphertext || tag) and writes ct_len - tag bytes; the
 * result counts only if it returns 0: on any error the first out_cap bytes of out are zeroed
 * before it returns (NURI_EAUTH for a wrong tag). out may equal the input (in-place); an out
 * that overlaps the input otherwise is refused with NURI_EINVAL, nothing written.
 * NURI_ESTATE for a key that was not initialised. */
NURI_API NURI_MUST_CHECK int nuri_schwaemm_encrypt(const nuri_schwaemm_key *k, uint8_t *out, size_t out_cap,
                                                   size_t *out_len, const uint8_t *nonce, size_t nonce_len,
                                                   const uint8_t *ad, size_t ad_len, const uint8_t *msg,
                                                   size_t msg_len);
NURI_API NURI_MUST_CHECK int nuri_schwaemm_decrypt(const nuri_schwaemm_key *k, uint8_t *out, size_t out_cap,
                                                   size_t *out_len, const uint8_t *nonce, size_t nonce_len,
                                                   const uint8_t *ad, size_t ad_len, const uint8_t *ct, size_t ct_len);

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
 * tag_cap bytes of tag). */
#define NURI_SCHWAEMM_ENCRYPT 1
#define NURI_SCHWAEMM_DECRYPT 0
typedef struct nuri_schwaemm_ctx {
    uint32_t state[NURI_SPARKLE_MAX_WORDS];
    uint32_t saved[NURI_SPARKLE_MAX_WORDS]; /* state at the start of the message phase (decryption) */
    uint8_t key[NURI_SCHWAEMM_MAX_KEY_BYTES];
    uint8_t buf[NURI_SCHWAEMM_MAX_RATE_BYTES]; /* pending (possibly full) block of AD or message */
    size_t buf_len;
    const struct nuri_sparkle_impl *impl;
    nuri_schwaemm_variant variant;
    int encrypt, phase;
} nuri_schwaemm_ctx;

/* The context copies what it needs from k (k may be wiped afterwards). encrypt:
 * NURI_SCHWAEMM_ENCRYPT or NURI_SCHWAEMM_DECRYPT. */
NURI_API NURI_MUST_CHECK int nuri_schwaemm_init(nuri_schwaemm_ctx *ctx, const nuri_schwaemm_key *k, int encrypt,
                                                const uint8_t *nonce, size_t nonce_len);
NURI_API NURI_MUST_CHECK int nuri_schwaemm_update_ad(nuri_schwaemm_ctx *ctx, const uint8_t *ad, size_t ad_len);
NURI_API NURI_MUST_CHECK int nuri_schwaemm_encrypt_update(nuri_schwaemm_ctx *ctx, uint8_t *out, size_t out_cap,
                                                          size_t *out_len, const uint8_t *in, size_t in_len);
/* Writes the last ciphertext bytes (<= rate) to out and the tag (nuri_schwaemm_tag_bytes bytes;
 * tag_cap smaller: NURI_EBUFFER) to tag; wipes the context. */
NURI_API NURI_MUST_CHECK int nuri_schwaemm_encrypt_final(nuri_schwaemm_ctx *ctx, uint8_t *out, size_t out_cap,
                                                         size_t *out_len, uint8_t *tag, size_t tag_cap);
NURI_API NURI_MUST_CHECK int nuri_schwaemm_verify_update(nuri_schwaemm_ctx *ctx, const uint8_t *ct, size_t ct_len);
/* NURI_OK (context rewound for decrypt_update) or NURI_EAUTH (context wiped). */
NURI_API NURI_MUST_CHECK int nuri_schwaemm_verify_final(nuri_schwaemm_ctx *ctx, const uint8_t *tag, size_t tag_len);
NURI_API NURI_MUST_CHECK int nuri_schwaemm_decrypt_update(nuri_schwaemm_ctx *ctx, uint8_t *out, size_t out_cap,
                                                          size_t *out_len, const uint8_t *ct, size_t ct_len);
NURI_API NURI_MUST_CHECK int nuri_schwaemm_decrypt_final(nuri_schwaemm_ctx *ctx, uint8_t *out, size_t out_cap,
                                                         size_t *out_len, const uint8_t *tag, size_t tag_len);
NURI_API void nuri_schwaemm_ctx_wipe(nuri_schwaemm_ctx *ctx);

/* Batch sealing: count independent messages under one key, permuted together by the
 * multi-instance kernel of the key's implementation (avx2: 8, avx512: 16 states per pass).
 * out[i] receives msg_lens[i] + tag bytes; ads may be NULL (no AD for any message). out[i] may
 * equal msgs[i]; an out[i] overlapping msgs[i] otherwise is refused with NURI_EINVAL, nothing
 * written (both batch forms). Buffers of different messages must not overlap. */
NURI_API NURI_MUST_CHECK int nuri_schwaemm_encrypt_many(const nuri_schwaemm_key *k, uint8_t *const *out,
                                                        const uint8_t *const *nonces, const uint8_t *const *ads,
                                                        const size_t *ad_lens, const uint8_t *const *msgs,
                                                        const size_t *msg_lens, size_t count);
/* Batch opening, same semantics per message as nuri_schwaemm_decrypt: cts[i] is ciphertext || tag
 * (ct_lens[i] >= tag bytes), out[i] receives ct_lens[i] - tag bytes of plaintext, zeroed when its
 * tag fails; status[i] (may be NULL) = 0 or NURI_EAUTH. Returns 0 when every tag verified,
 * NURI_EAUTH when some failed (status says which; the others are valid), or another NURI_E* for
 * a bad argument (then every out[i] is zeroed and status[i] = that code). out[i] may equal cts[i]. */
NURI_API NURI_MUST_CHECK int nuri_schwaemm_decrypt_many(const nuri_schwaemm_key *k, uint8_t *const *out,
                                                        const uint8_t *const *nonces, const uint8_t *const *ads,
                                                        const size_t *ad_lens, const uint8_t *const *cts,
                                                        const size_t *ct_lens, int *status, size_t count);

/* ---- Esch ---- */
typedef enum {
    NURI_ESCH256 = 256, /* SPARKLE384, 32-byte digest */
    NURI_ESCH384 = 384  /* SPARKLE512, 48-byte digest */
} nuri_esch_variant;

#define NURI_ESCH256_DIGEST_BYTES  32
#define NURI_ESCH384_DIGEST_BYTES  48
#define NURI_ESCH_MAX_DIGEST_BYTES 48
#define NURI_ESCH_RATE_BYTES       16

/* Digest size of a variant (0 for an unknown variant). */
NURI_API size_t nuri_esch_digest_bytes(nuri_esch_variant variant);
NURI_API size_t nuri_esch_ctx_bytes(void);

typedef struct nuri_esch_ctx {
    uint32_t state[NURI_SPARKLE_MAX_WORDS];
    uint8_t buf[NURI_ESCH_RATE_BYTES]; /* pending (possibly full) block */
    size_t buf_len;
    const struct nuri_sparkle_impl *impl;
    unsigned digest_bytes, finished;
} nuri_esch_ctx;

/* impl NULL = dispatch (honours NURI_IMPL=sparkle:<name>). Errors: NURI_EINVAL (variant),
 * NURI_ENOTFOUND / NURI_EUNSUPPORTED (impl). */
NURI_API NURI_MUST_CHECK int nuri_esch_init(nuri_esch_ctx *ctx, nuri_esch_variant variant, const char *impl);
NURI_API const char *nuri_esch_ctx_impl_name(const nuri_esch_ctx *ctx);
NURI_API NURI_MUST_CHECK int nuri_esch_update(nuri_esch_ctx *ctx, const uint8_t *in, size_t in_len);
/* Writes the digest (out_cap >= its size, else NURI_EBUFFER) and its size to *out_len; the
 * context is wiped afterwards (a later update or final: NURI_ESTATE). */
NURI_API NURI_MUST_CHECK int nuri_esch_final(nuri_esch_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len);
/* One-shot (dispatch). */
NURI_API NURI_MUST_CHECK int nuri_esch256(uint8_t out[NURI_ESCH256_DIGEST_BYTES], const uint8_t *in, size_t in_len);
NURI_API NURI_MUST_CHECK int nuri_esch384(uint8_t out[NURI_ESCH384_DIGEST_BYTES], const uint8_t *in, size_t in_len);

/* Batch hashing: out gets count digests back to back (out_cap >= count * digest size, else
 * NURI_EBUFFER); messages may have different lengths. nuri_esch_many takes the variant and the
 * implementation from ctx, an initialised context (nuri_esch_init; it is not changed: only its
 * variant and implementation are used). The _esch256/_esch384 forms use dispatch. */
NURI_API NURI_MUST_CHECK int nuri_esch_many(const nuri_esch_ctx *ctx, uint8_t *out, size_t out_cap,
                                            const uint8_t *const *msgs, const size_t *msg_lens, size_t count);
NURI_API NURI_MUST_CHECK int nuri_esch256_many(uint8_t *out, size_t out_cap, const uint8_t *const *msgs,
                                               const size_t *msg_lens, size_t count);
NURI_API NURI_MUST_CHECK int nuri_esch384_many(uint8_t *out, size_t out_cap, const uint8_t *const *msgs,
                                               const size_t *msg_lens, size_t count);

#ifdef __cplusplus
}
#endif
#endif
