/* Key search baseline: for every candidate the byte-wise key schedule and one full-round
 * encryption of the plaintext with the reference kernel, no shared rounds, no early abort.
 * The only saving it takes is the obvious one: the next key is the current one with the
 * candidate bits that changed flipped (index i -> i + 1 flips two bits on average). */
#include "../ks_impl.h"

#include "../../pipo/pipo_impl.h"

static size_t ref_search(const ks_plan *p, uint64_t start, uint64_t count, uint64_t *hits, size_t max_hits,
                         uint64_t *done)
{
    uint8_t key[NURI_KEYSEARCH_MAX_KEY_BYTES], out[8];
    uint64_t rk[NURI_PIPO_MAX_ROUNDS + 1];
    size_t nh = 0;
    uint64_t n = 0;
    nuri_ks_plan_key(p, start, key);
    while (n < count && nh < max_hits) {
        uint64_t idx = start + n;
        for (unsigned i = 0; i <= p->rounds; i++) rk[i] = ks_round_key(key, p->nwords, i);
        nuri_pipo_ref_encrypt(rk, p->rounds, out, p->pt, 1);
        if (memcmp(out, p->ct, 8) == 0) hits[nh++] = idx;
        n++;
        if (n < count) ks_flip_bits(p, key, idx ^ (idx + 1));
    }
    *done = n;
    nuri_wipe(key, sizeof key);
    nuri_wipe(rk, sizeof rk);
    return nh;
}

const ks_engine nuri_keysearch_backend_ref = {
    .info = {"ref", 0, 1, "baseline: byte-wise key schedule and one reference encryption per candidate"},
    .search = ref_search,
    .lanes = 1,
};
