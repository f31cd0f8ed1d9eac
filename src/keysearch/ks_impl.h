/* The key-search engine interface. plan.c turns the public parameters into a plan once per call:
 * the unknown bit positions in candidate order, the template with those bits cleared, and the
 * rounds every candidate shares (computed once here instead of in every lane). Engines only run
 * the rounds in between. */
#ifndef NURI_KS_IMPL_H
#define NURI_KS_IMPL_H

#include "nuri/keysearch.h"
#include "nuri/pipo.h"
#include "nuri_internal.h"

typedef struct ks_plan {
    unsigned key_len, nwords, rounds, k;
    uint16_t pos[64];                           /* candidate bit b goes to key bit pos[b] = 8 * byte + bit */
    uint8_t base[NURI_KEYSEARCH_MAX_KEY_BYTES]; /* template with the unknown bits cleared */
    uint8_t pt[8], ct[8];
    /* Shared rounds. `first` is the first round whose key RK_first (word first mod nwords) holds
     * an unknown bit, `last` the last one (first <= last <= rounds). Every candidate reaches
     * state = init ^ RK_first, where init is the plaintext (first = 0) or S-layer + R-layer of
     * the common state after round first - 1; it runs rounds first+1 .. last and must then equal
     * target: the ciphertext (last = rounds) or the ciphertext decrypted through the common
     * rounds rounds .. last+1. States are 8 bytes X[0..7] (block byte order). */
    unsigned first, last;
    uint8_t init[8], target[8];
    int no_round_varies; /* reduced rounds use no unknown word: all candidates are equivalent */
} ks_plan;

/* An engine searches [start, start + count) (inside [0, 2^k)), writes hit indices in increasing
 * order, stops after max_hits, returns the number of hits and sets *done. */
typedef size_t (*ks_search_fn)(const ks_plan *p, uint64_t start, uint64_t count, uint64_t *hits, size_t max_hits,
                               uint64_t *done);

typedef struct nuri_keysearch_engine { /* the tag nuri_keysearch_ctx points to */
    nuri_impl_info info;
    ks_search_fn search;
    size_t lanes; /* candidates per pass */
} ks_engine;

/* plan.c */
int nuri_ks_plan_make(ks_plan *p, const nuri_keysearch_params *prm);
/* key bytes of candidate index (index < 2^k) */
void nuri_ks_plan_key(const ks_plan *p, uint64_t index, uint8_t *key);
/* Flips into key[] the bits of candidate bits that differ between index a and index b. */
static inline void ks_flip_bits(const ks_plan *p, uint8_t *key, uint64_t diff)
{
    while (diff) {
        unsigned b = (unsigned)__builtin_ctzll(diff);
        diff &= diff - 1;
        key[p->pos[b] >> 3] ^= (uint8_t)(1u << (p->pos[b] & 7));
    }
}
/* Round key i of a key (byte array) as a little-endian word: RK_i = K_(i mod w) ^ i. */
static inline uint64_t ks_round_key(const uint8_t *key, unsigned nwords, unsigned i)
{
    return nuri_load64_le(key + 8 * (i % nwords)) ^ (uint64_t)i;
}

/* The engines: each folder defines its entry nuri_keysearch_backend_<folder> (impls.c lists them).
 * nuri_keysearch_run / _selftest with the engine given by its entry instead of a context or a
 * registered name (internal: the tests run an unregistered build of an engine's source through them). */
int nuri_ks_run_engine(const ks_engine *eng, const nuri_keysearch_params *prm, uint64_t start, uint64_t count,
                       uint64_t *hits, size_t max_hits, size_t *n_hits, uint64_t *done);
int nuri_ks_selftest_engine(const ks_engine *eng);

#endif
