/* The C model of the GPU kernels' bit-plane search (ks_bitplane.h). It must find planted keys
 * (24 unknown bits, windows whose first or last candidate is the key, both key sizes, reduced
 * rounds, every shared-round shape) and agree with the CPU engines on random templates. */
#include "ks_impl.h"
#include "nuri/pipo.h"
#include "test_util.h"

#include "ks_bitplane.h"

static bp_params bp; /* 3 KB: static, as in __constant__ memory on the GPU */

/* first0 = 1: the kernel's path (no shared first round: first = 0, init = plaintext) */
static size_t twin_search(const ks_plan *p, uint64_t start, uint64_t count, uint64_t *hits, size_t max_hits, int first0)
{
    if (first0) bp_prepare(&bp, p->nwords, 0, p->last, p->pt, p->target, p->base, p->pos, p->k);
    else bp_prepare(&bp, p->nwords, p->first, p->last, p->init, p->target, p->base, p->pos, p->k);
    size_t n = 0;
    uint64_t last_idx = start + (count - 1);
    for (uint64_t batch = start >> BP_LB; batch <= last_idx >> BP_LB; batch++) {
        bp_w kp[256], m;
        if (p->nwords == 2) {
            bp_key_planes(&bp, batch, kp, 2, 1);
            m = first0 ? bp_search_batch(&bp, kp, 2, 13, 1, 1) : bp_search_batch(&bp, kp, 2, 13, 1, 0);
        } else {
            bp_key_planes(&bp, batch, kp, 4, 1);
            m = first0 ? bp_search_batch(&bp, kp, 4, 17, 1, 1) : bp_search_batch(&bp, kp, 4, 17, 1, 0);
        }
        for (unsigned l = 0; l < BP_LANES && m; l++, m >>= 1) {
            uint64_t idx = (batch << BP_LB) + l;
            if ((m & 1) && idx >= start && idx <= last_idx && n < max_hits) hits[n++] = idx;
        }
    }
    return n;
}

static void random_params(nuri_keysearch_params *prm, size_t key_len, unsigned k, unsigned words, unsigned rounds)
{
    memset(prm, 0, sizeof *prm);
    prm->key_len = key_len;
    prm->rounds = rounds;
    tu_randbytes(prm->key, key_len);
    tu_randbytes(prm->pt, 8);
    for (unsigned placed = 0; placed < k;) {
        unsigned bit = (unsigned)(tu_rand64() % (key_len * 8));
        if (!(words >> (bit / 64) & 1) || (prm->mask[bit / 8] >> (bit % 8) & 1)) continue;
        prm->mask[bit / 8] |= (uint8_t)(1u << (bit % 8));
        placed++;
    }
}

static void plant(nuri_keysearch_params *prm, uint64_t idx)
{
    uint8_t key[32];
    CHECK(nuri_keysearch_key(prm, idx, key, sizeof key) == 0, "key");
    CHECK(nuri_keysearch_encrypt(key, prm->key_len, prm->rounds, prm->pt, prm->ct) == 0, "encrypt");
}

/* CTR keystream of the bit-plane rounds against nuri's PIPO-CTR (random keys, both key sizes,
 * counters that wrap inside a batch and at 2^64) */
static void test_ctr(void)
{
    for (int trial = 0; trial < 24; trial++) {
        size_t key_len = trial & 1 ? 32 : 16;
        uint8_t key[32], iv[8], zero[256] = {0}, want[256 + 8], got[256];
        tu_randbytes(key, key_len);
        uint64_t ctr0 = trial < 4 ? UINT64_MAX - (uint64_t)trial * 7 : tu_rand64();
        if (trial % 3 == 0) ctr0 &= ~(uint64_t)31; /* aligned batches */
        for (int i = 0; i < 8; i++) iv[i] = (uint8_t)(ctr0 >> (56 - 8 * i));
        nuri_pipo_key k;
        size_t ol;
        CHECK(nuri_pipo_key_init(&k, key, key_len, NULL) == 0, "key");
        CHECK(nuri_pipo_encrypt(&k, NURI_PIPO_CTR, iv, 8, NURI_PAD_NONE, want, sizeof want, &ol, zero, 256) == 0 &&
                  ol == 256,
              "pipo ctr");
        bp_w rkp[64 * (NURI_PIPO_MAX_ROUNDS + 1)];
        bp_round_key_planes(k.rk, k.rounds, rkp);
        if (key_len == 16) bp_ctr_keystream(rkp, k.rounds, ctr0, NULL, got, 13);
        else bp_ctr_keystream(rkp, k.rounds, ctr0, NULL, got, 17);
        CHECK(memcmp(got, want, 256) == 0, "bit-plane CTR keystream, trial %d (counter %016llx)", trial,
              (unsigned long long)ctr0);
        nuri_pipo_key_wipe(&k);
    }
}

int main(void)
{
    tu_seed_from_env();
    test_ctr();
    /* the official vector, 24 unknown bits over K0 and K1, the whole keyspace */
    {
        nuri_keysearch_params prm;
        memset(&prm, 0, sizeof prm);
        prm.key_len = 16;
        tu_unhex(prm.key, 16, "9722152EAD201D7ED2289477DD16C46D");
        tu_unhex(prm.pt, 8, "2600271EF6528509");
        tu_unhex(prm.ct, 8, "27035DAD81296B6B");
        prm.mask[1] = 0xFF;
        prm.mask[6] = 0xF0;
        prm.mask[9] = 0x0F;
        prm.mask[14] = 0xFF;
        ks_plan p;
        CHECK(nuri_ks_plan_make(&p, &prm) == 0 && p.k == 24, "plan");
        uint64_t hits[4];
        size_t n = twin_search(&p, 0, (uint64_t)1 << 24, hits, 4, 1);
        uint8_t key[16], want[16];
        tu_unhex(want, 16, "9722152EAD201D7ED2289477DD16C46D");
        CHECK(n == 1 && nuri_keysearch_key(&prm, hits[0], key, sizeof key) == 0 && memcmp(key, want, 16) == 0,
              "official key among 2^24 candidates (%zu hits)", n);
    }
    /* planted keys (windows alternate between the kernel's first = 0 path and the shared-first path):
     * every plan shape, both key sizes, full and reduced rounds; windows with the key
     * as first / last candidate; the same hits as ref and the dispatched CPU engine */
    for (int trial = 0; trial < 48; trial++) {
        size_t key_len = trial % 3 == 2 ? 32 : 16;
        unsigned full = key_len == 16 ? 13 : 17, rounds = trial % 4 == 1 ? 2 + (unsigned)(tu_rand64() % (full - 1)) : 0;
        unsigned words = 1 + (unsigned)(tu_rand64() % (key_len == 16 ? 3 : 15)), k = 3 + (unsigned)(tu_rand64() % 14);
        nuri_keysearch_params prm;
        random_params(&prm, key_len, k, words, rounds);
        uint64_t space = (uint64_t)1 << k, want = tu_rand64() % space;
        plant(&prm, want);
        ks_plan p;
        CHECK(nuri_ks_plan_make(&p, &prm) == 0, "plan");
        if (p.no_round_varies) continue;
        uint64_t lo = want > 70 ? want - 70 : 0, hi = want + 70 < space ? want + 70 : space - 1;
        uint64_t wins[3][2] = {{lo, hi - lo + 1}, {want, hi - want + 1}, {lo, want - lo + 1}};
        for (int w = 0; w < 3; w++) {
            uint64_t th[16], rh[16], eh[16], done;
            size_t tn = twin_search(&p, wins[w][0], wins[w][1], th, 16, w & 1), rn, en;
            nuri_keysearch_ctx ref, dispatch;
            CHECK(nuri_keysearch_init(&ref, &prm, "ref") == 0 && nuri_keysearch_init(&dispatch, &prm, NULL) == 0,
                  "init");
            CHECK(nuri_keysearch_run(&ref, wins[w][0], wins[w][1], rh, 16, &rn, &done) == 0, "ref");
            CHECK(nuri_keysearch_run(&dispatch, wins[w][0], wins[w][1], eh, 16, &en, &done) == 0, "auto");
            int found = 0;
            for (size_t h = 0; h < tn; h++) found |= th[h] == want;
            CHECK(found, "twin: trial %d k=%u rounds=%u words=%x window %d: planted key not found", trial, k, rounds,
                  words, w);
            CHECK(tn == rn && memcmp(th, rh, tn * sizeof th[0]) == 0, "twin disagrees with ref, trial %d", trial);
            CHECK(tn == en && memcmp(th, eh, tn * sizeof th[0]) == 0, "twin disagrees with %s, trial %d",
                  nuri_keysearch_default_impl(), trial);
        }
    }
    return tu_finish("test_bitplane");
}
