/* PIPO brute-force key search: enumerate the candidates of a key template and report
 * those that encrypt a known plaintext to its ciphertext.
 *
 * A template is a PIPO key (byte order of nuri/pipo.h) plus a mask of the same length, 1 = an
 * unknown bit. Candidate i (0 <= i < 2^k, k = bits set in the mask) puts bit 0, 1, 2, ... of i
 * into the unknown positions taken from the LAST key byte's least significant bit towards the
 * FIRST byte's most significant bit (the key's hex string read as one big-endian number), so a
 * range [start, start + count) is an exact slice that can be handed out.
 *
 * Engines filter on one (plaintext, ciphertext) pair. Every hit must be re-checked by the caller
 * on all pairs (nuri_keysearch_verify): one 64-bit pair leaves (2^k - 1) * 2^-64 false keys
 * expected. Key search handles no secret: the candidates are public, and the engines branch on
 * whether a candidate matches (early abort). */
#ifndef NURI_KEYSEARCH_H
#define NURI_KEYSEARCH_H

#include "nuri/nuri.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NURI_KEYSEARCH_MAX_KEY_BYTES 32
#define NURI_KEYSEARCH_BLOCK_BYTES   8 /* a PIPO block: plaintext and ciphertext of a pair */

typedef struct nuri_keysearch_params {
    uint8_t key[NURI_KEYSEARCH_MAX_KEY_BYTES];  /* the known bits (bits under mask are ignored) */
    uint8_t mask[NURI_KEYSEARCH_MAX_KEY_BYTES]; /* 1 = unknown bit; 1 to 64 bits set */
    size_t key_len;                             /* 16 (PIPO-64/128) or 32 (PIPO-64/256) */
    unsigned rounds;                            /* 1..13 (1..17); 0 = the full cipher */
    uint8_t pt[NURI_KEYSEARCH_BLOCK_BYTES];     /* the pair the engines filter on */
    uint8_t ct[NURI_KEYSEARCH_BLOCK_BYTES];
} nuri_keysearch_params;

/* Number of unknown bits k (the keyspace is 2^k). NURI_ELENGTH for a bad key_len, NURI_EINVAL for
 * a mask with no bit or more than 64 bits, or rounds out of range. */
NURI_API NURI_MUST_CHECK int nuri_keysearch_bits(const nuri_keysearch_params *p, unsigned *bits);

/* The key of candidate `index` (p->key_len bytes; out_cap smaller: NURI_EBUFFER). NURI_EINVAL if
 * index >= 2^k. */
NURI_API NURI_MUST_CHECK int nuri_keysearch_key(const nuri_keysearch_params *p, uint64_t index, uint8_t *out,
                                                size_t out_cap);

struct nuri_keysearch_engine;

/* A search: the parameters (copied) and the engine that runs them. */
typedef struct nuri_keysearch_ctx {
    nuri_keysearch_params params;
    const struct nuri_keysearch_engine *impl;
} nuri_keysearch_ctx;

NURI_API size_t nuri_keysearch_ctx_bytes(void);
/* Checks p (the errors of nuri_keysearch_bits) and chooses the engine: impl NULL or "auto" =
 * dispatch (honours NURI_IMPL=keysearch:<name>); NURI_ENOTFOUND / NURI_EUNSUPPORTED for an unknown
 * engine or one this CPU cannot run. */
NURI_API NURI_MUST_CHECK int nuri_keysearch_init(nuri_keysearch_ctx *ctx, const nuri_keysearch_params *p,
                                                 const char *impl);
NURI_API const char *nuri_keysearch_ctx_impl_name(const nuri_keysearch_ctx *ctx);

/* Searches candidates [start, start + count). Hits (candidate indices whose key maps pt to ct)
 * go to hits[], in increasing order; the search stops early when hits_cap are found (*hits_len
 * says how many), and *done says how many candidates were searched (count unless it stopped
 * early; then continue from start + *done). NURI_EINVAL if the range leaves [0, 2^k) or hits_cap
 * is 0, NURI_ESTATE for a context that was not initialised. On any error *hits_len = *done = 0
 * and the hits_cap entries of hits are zeroed. */
NURI_API NURI_MUST_CHECK int nuri_keysearch_run(const nuri_keysearch_ctx *ctx, uint64_t start, uint64_t count,
                                                uint64_t *hits, size_t hits_cap, size_t *hits_len, uint64_t *done);

/* The known-answer self-test of the engine named impl (NULL or "auto": the one dispatch picks):
 * official PIPO vectors with unknown bits, every shared-round path, PIPO-64/256 and a
 * reduced-round search. 0 on success, NURI_EAUTH if it failed, NURI_ENOTFOUND /
 * NURI_EUNSUPPORTED for the name. */
NURI_API NURI_MUST_CHECK int nuri_keysearch_selftest(const char *impl);

/* Reduced-round PIPO with the byte-wise reference (for planting keys and re-checking hits):
 * ct = E_key(pt) with `rounds` rounds (0 = full). */
NURI_API NURI_MUST_CHECK int nuri_keysearch_encrypt(const uint8_t *key, size_t key_len, unsigned rounds,
                                                    const uint8_t pt[NURI_KEYSEARCH_BLOCK_BYTES],
                                                    uint8_t ct[NURI_KEYSEARCH_BLOCK_BYTES]);
/* 1 if key maps every pts[i] to cts[i] (8 bytes each, npairs pairs) under `rounds`, 0 if not,
 * negative NURI_E* for bad arguments. */
NURI_API int nuri_keysearch_verify(const uint8_t *key, size_t key_len, unsigned rounds, const uint8_t *pts,
                                   const uint8_t *cts, size_t npairs);

/* Parameters of the CUDA kernel (the generic kernel's __constant__ c_params) for a search: the
 * template, lane patterns and counter planes, the target after the shared last rounds. The kernel
 * is launched by the Python package (nuri.keysearch.gpu); libnuri itself has no CUDA dependency.
 * Writes NURI_KEYSEARCH_GPU_PARAMS_BYTES bytes (out_cap smaller: NURI_EBUFFER); on any error the
 * out_cap bytes of out are zeroed and *all_equivalent = 0. *all_equivalent = 1 (out zeroed) when no
 * round uses an unknown key word: every candidate gives the same ciphertext, search those with
 * nuri_keysearch_run. */
#define NURI_KEYSEARCH_GPU_PARAMS_BYTES 2824
NURI_API NURI_MUST_CHECK int nuri_keysearch_gpu_params(const nuri_keysearch_params *p, uint8_t *out, size_t out_cap,
                                                       int *all_equivalent);

/* Registry of the engines (fastest first). */
NURI_API size_t nuri_keysearch_impl_count(void);
NURI_API const nuri_impl_info *nuri_keysearch_impl_info(size_t i);
NURI_API int nuri_keysearch_impl_supported(size_t i);
/* Candidates per engine pass (informational: 1 for ref). */
NURI_API size_t nuri_keysearch_impl_lanes(size_t i);
/* Name of the engine dispatch would choose now (honours NURI_IMPL=keysearch:<name>), or NULL. */
NURI_API const char *nuri_keysearch_default_impl(void);

#ifdef __cplusplus
}
#endif
#endif
