/* PIPO-64/128 and PIPO-64/256 (Kim et al., ICISC 2020) with ECB, CBC and CTR.
 *
 * Byte order follows the designers' reference: block byte i is state row X[i]; key bytes are
 * K0 || K1 (|| K2 || K3). CTR: the 8-byte counter block is a 64-bit big-endian counter
 * incremented mod 2^64 per block. CBC: C_i = E(P_i ^ C_{i-1}), C_0 = IV.
 * PIPO modes are NOT authenticated: use Schwaemm (sparkle.h) to protect integrity. */
#ifndef NURI_PIPO_H
#define NURI_PIPO_H

#include "nuri/nuri.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NURI_PIPO_BLOCK_BYTES  8
#define NURI_PIPO128_KEY_BYTES 16
#define NURI_PIPO256_KEY_BYTES 32
#define NURI_PIPO128_ROUNDS    13
#define NURI_PIPO256_ROUNDS    17
#define NURI_PIPO_MAX_ROUNDS   17

NURI_API size_t nuri_pipo_block_bytes(void);
NURI_API size_t nuri_pipo_ctx_bytes(void);
/* sizeof(nuri_pipo_key), for FFI callers that allocate it. */
NURI_API size_t nuri_pipo_key_struct_bytes(void);

struct nuri_pipo_impl;

/* Expanded key: round keys precomputed once (RK_i as little-endian 64-bit words). */
typedef struct nuri_pipo_key {
    uint64_t rk[NURI_PIPO_MAX_ROUNDS + 1];
    unsigned rounds;
    const struct nuri_pipo_impl *impl;
} nuri_pipo_key;

/* key_len 16 (PIPO-64/128) or 32 (PIPO-64/256). impl: an implementation name, NULL = dispatch
 * (honours NURI_IMPL=pipo:<name>); every function taking the key runs that implementation. */
NURI_API NURI_MUST_CHECK int nuri_pipo_key_init(nuri_pipo_key *k, const uint8_t *key, size_t key_len, const char *impl);
NURI_API void nuri_pipo_key_wipe(nuri_pipo_key *k);
/* The name of the key's implementation. */
NURI_API const char *nuri_pipo_key_impl_name(const nuri_pipo_key *k);

/* Batch block interface: nblocks independent blocks (ECB). in and out may alias exactly. */
NURI_API void nuri_pipo_encrypt_blocks(const nuri_pipo_key *k, uint8_t *out, const uint8_t *in, size_t nblocks);
NURI_API void nuri_pipo_decrypt_blocks(const nuri_pipo_key *k, uint8_t *out, const uint8_t *in, size_t nblocks);

/* Registry. */
NURI_API size_t nuri_pipo_impl_count(void);
NURI_API const nuri_impl_info *nuri_pipo_impl_info(size_t i);
/* 1 if implementation i can run here (CPU features present). */
NURI_API int nuri_pipo_impl_supported(size_t i);
/* Name of the implementation dispatch would choose now (honours NURI_IMPL), or NULL. */
NURI_API const char *nuri_pipo_default_impl(void);

/* ---- Modes ---- */
typedef enum { NURI_PIPO_ECB = 0, NURI_PIPO_CBC = 1, NURI_PIPO_CTR = 2 } nuri_pipo_mode;
typedef enum { NURI_PAD_NONE = 0, NURI_PAD_PKCS7 = 1 } nuri_padding;

/* Streaming context. It holds a copy of the expanded key; wipe with nuri_pipo_ctx_wipe. */
typedef struct nuri_pipo_ctx {
    nuri_pipo_key key;
    uint8_t iv[NURI_PIPO_BLOCK_BYTES];  /* CBC chaining value / CTR counter block */
    uint8_t buf[NURI_PIPO_BLOCK_BYTES]; /* partial input block (ECB/CBC) or unused keystream (CTR) */
    size_t buf_len;
    int mode, padding, encrypt, finished;
} nuri_pipo_ctx;

/* iv: 8 bytes for CBC and CTR, NULL for ECB. Padding is allowed for ECB and CBC only. */
NURI_API NURI_MUST_CHECK int nuri_pipo_init(nuri_pipo_ctx *ctx, const nuri_pipo_key *k, nuri_pipo_mode mode,
                                            int encrypt, const uint8_t *iv, size_t iv_len, nuri_padding padding);
/* Writes at most in_len + 8 bytes (ECB/CBC keep a partial block, and when decrypting with
 * padding the last full block, until final). Errors: NURI_EBUFFER (out_cap too small; the context
 * is unchanged, so the call can be repeated with more room), NURI_ESTATE (after final). */
NURI_API NURI_MUST_CHECK int nuri_pipo_update(nuri_pipo_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len,
                                              const uint8_t *in, size_t in_len);
/* Writes at most 8 bytes (the padded block when encrypting, the unpadded tail when decrypting).
 * Errors: NURI_ELENGTH (not a whole number of blocks), NURI_EBUFFER, NURI_EPADDING, NURI_ESTATE.
 * Always wipes the context.
 * On an error of update or final, *out_len = 0 and the bytes of out the call may write (in_len + 8
 * for update, 8 for final; at most out_cap) are zeroed. */
NURI_API NURI_MUST_CHECK int nuri_pipo_final(nuri_pipo_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len);
NURI_API void nuri_pipo_ctx_wipe(nuri_pipo_ctx *ctx);

/* One-shot forms. out_cap >= in_len + 8 is always enough. On error *out_len = 0 and out is zeroed. */
NURI_API NURI_MUST_CHECK int nuri_pipo_encrypt(const nuri_pipo_key *k, nuri_pipo_mode mode, const uint8_t *iv,
                                               size_t iv_len, nuri_padding padding, uint8_t *out, size_t out_cap,
                                               size_t *out_len, const uint8_t *in, size_t in_len);
NURI_API NURI_MUST_CHECK int nuri_pipo_decrypt(const nuri_pipo_key *k, nuri_pipo_mode mode, const uint8_t *iv,
                                               size_t iv_len, nuri_padding padding, uint8_t *out, size_t out_cap,
                                               size_t *out_len, const uint8_t *in, size_t in_len);

#ifdef __cplusplus
}
#endif
#endif
