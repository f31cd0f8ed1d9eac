/* Key-search tests: every engine's self-test, planted keys on random templates (both key sizes,
 * full and reduced rounds, unknown bits in one or several key words, fewer unknown bits than an
 * engine has lanes) found by every engine at the first, a middle and the last candidate of a
 * slice; engines agree with each other and with ref on random windows; the top of a 64-bit
 * keyspace; max_hits stops and resumes; error paths. */
#include "nuri/keysearch.h"
#include "ks_impl.h"
#include "test_util.h"

/* The engines under test: every registered one this CPU supports (run by name through the public
 * entry points) and the avx512 engine's source built without AVX-512 flags (ks_wide512*.c, run by
 * its entry), so the 512-bit kernel is tested where AVX-512 instructions cannot run. */
extern const ks_engine nuri_ks_test_wide512;
#ifdef KS_TEST_WIDE512_AVX2
extern const ks_engine nuri_ks_test_wide512_avx2;
#endif

static size_t n_eng;
static const char *eng[10];
static const ks_engine *direct[10]; /* non-NULL: an unregistered build, run by entry */

static void add_direct(const char *name, const ks_engine *e)
{
    eng[n_eng] = name;
    direct[n_eng++] = e;
}

static void load_engines(void)
{
    for (size_t i = 0; i < nuri_keysearch_impl_count(); i++)
        if (nuri_keysearch_impl_supported(i)) eng[n_eng++] = nuri_keysearch_impl_info(i)->name;
    add_direct("avx512-source-without-avx512", &nuri_ks_test_wide512);
#ifdef KS_TEST_WIDE512_AVX2
    if (nuri_cpu_has(NURI_CPU_AVX2)) add_direct("avx512-source-on-avx2", &nuri_ks_test_wide512_avx2);
#endif
    printf("engines:");
    for (size_t i = 0; i < n_eng; i++) printf(" %s", eng[i]);
    printf("\n");
}

/* A search context for p with the engine named impl (NULL = dispatch), then nuri_keysearch_run; a
 * setup error is returned as the run's. */
static int ks_run(const nuri_keysearch_params *p, uint64_t start, uint64_t count, uint64_t *hits, size_t hits_cap,
                  size_t *n, uint64_t *done, const char *impl)
{
    nuri_keysearch_ctx ctx;
    int rc = nuri_keysearch_init(&ctx, p, impl);
    return rc ? rc : nuri_keysearch_run(&ctx, start, count, hits, hits_cap, n, done);
}

/* nuri_keysearch_run with engine number e */
static int run(const nuri_keysearch_params *p, uint64_t start, uint64_t count, uint64_t *hits, size_t max_hits,
               size_t *n, uint64_t *done, size_t e)
{
    if (direct[e]) return nuri_ks_run_engine(direct[e], p, start, count, hits, max_hits, n, done);
    return ks_run(p, start, count, hits, max_hits, n, done, eng[e]);
}

static unsigned rnd(unsigned n) { return (unsigned)(tu_rand64() % n); }

/* random template with k unknown bits placed in the words allowed by `words` (bit w = word w) */
static void random_template(nuri_keysearch_params *p, size_t key_len, unsigned k, unsigned words, unsigned rounds)
{
    memset(p, 0, sizeof *p);
    p->key_len = key_len;
    p->rounds = rounds;
    tu_randbytes(p->key, key_len);
    tu_randbytes(p->pt, 8);
    unsigned placed = 0;
    while (placed < k) {
        unsigned bit = rnd((unsigned)key_len * 8);
        if (!(words >> (bit / 64) & 1) || (p->mask[bit / 8] >> (bit % 8) & 1)) continue;
        p->mask[bit / 8] |= (uint8_t)(1u << (bit % 8));
        placed++;
    }
}

/* plants candidate `index`: sets ct to the encryption of pt under that key */
static void plant(nuri_keysearch_params *p, uint64_t index)
{
    uint8_t key[32];
    CHECK(nuri_keysearch_key(p, index, key, sizeof key) == 0, "key of index");
    CHECK(nuri_keysearch_encrypt(key, p->key_len, p->rounds, p->pt, p->ct) == 0, "encrypt");
}

static void test_selftests(void)
{
    for (size_t i = 0; i < n_eng; i++)
        CHECK((direct[i] ? nuri_ks_selftest_engine(direct[i]) : nuri_keysearch_selftest(eng[i])) == 0, "%s: self-test",
              eng[i]);
    CHECK(nuri_keysearch_selftest("auto") == 0, "auto self-test");
}

/* the planted key is found by every engine as the first, a middle and the last candidate */
static void test_planted(void)
{
    for (int trial = 0; trial < 60; trial++) {
        size_t key_len = trial % 3 == 2 ? 32 : 16;
        unsigned full = key_len == 16 ? 13 : 17;
        unsigned rounds = trial % 4 == 1 ? 1 + rnd(full) : 0;
        unsigned words = 1 + rnd(key_len == 16 ? 3 : 15);
        unsigned k = trial < 10 ? 1 + (unsigned)trial % 6 : 8 + rnd(9);
        nuri_keysearch_params p;
        random_template(&p, key_len, k, words, rounds);
        uint64_t space = (uint64_t)1 << k, want = tu_rand64() % space;
        plant(&p, want);
        uint64_t win_lo = want > 100 ? want - 1 - rnd(100) : 0;
        uint64_t win_hi = want + 1 + rnd(100);
        if (win_hi > space) win_hi = space;
        struct {
            uint64_t s, c;
        } win[3] = {{want, win_hi - want}, {win_lo, win_hi - win_lo}, {win_lo, want + 1 - win_lo}};
        for (size_t e = 0; e < n_eng; e++)
            for (int w = 0; w < 3; w++) {
                uint64_t hits[8], done;
                size_t n;
                int rc = run(&p, win[w].s, win[w].c, hits, 8, &n, &done, e);
                int found = 0;
                for (size_t h = 0; h < n; h++) found |= hits[h] == want;
                CHECK(rc == 0 && found && done == win[w].c,
                      "%s: trial %d k=%u rounds=%u words=%x window %d: rc %d n %zu", eng[e], trial, k, rounds, words, w,
                      rc, n);
                /* the window without the planted key finds nothing (a 64-bit false match would be 2^-50) */
                if (w == 0 && want > 0 && rounds != 1) {
                    uint64_t s = want > 64 ? want - 64 : 0;
                    rc = run(&p, s, want - s, hits, 8, &n, &done, e);
                    CHECK(rc == 0 && done == want - s, "%s: window before the key", eng[e]);
                    int unrelated = 1;
                    for (size_t h = 0; h < n; h++) {
                        uint8_t key[32], ct[8];
                        CHECK(nuri_keysearch_key(&p, hits[h], key, sizeof key) == 0, "key");
                        CHECK(nuri_keysearch_encrypt(key, key_len, rounds, p.pt, ct) == 0, "enc");
                        unrelated &= memcmp(ct, p.ct, 8) == 0; /* any hit must be a true pair-1 match */
                    }
                    CHECK(unrelated, "%s: false hit", eng[e]);
                }
            }
    }
}

/* random windows on random templates: every engine reports the same hits as ref */
static void test_differential(void)
{
    for (int trial = 0; trial < 40; trial++) {
        size_t key_len = trial & 1 ? 32 : 16;
        unsigned full = key_len == 16 ? 13 : 17;
        nuri_keysearch_params p;
        unsigned k = 6 + rnd(12);
        random_template(&p, key_len, k, 1 + rnd(key_len == 16 ? 3 : 15), rnd(2) ? 0 : 1 + rnd(full));
        uint64_t space = (uint64_t)1 << k;
        plant(&p, tu_rand64() % space);
        if (trial % 3 == 0) tu_randbytes(p.ct, 8); /* usually no key at all */
        uint64_t s = tu_rand64() % space, c = 1 + tu_rand64() % (space - s);
        uint64_t ref_hits[16], hits[16], rdone, done;
        size_t rn, n;
        CHECK(ks_run(&p, s, c, ref_hits, 16, &rn, &rdone, "ref") == 0, "ref run");
        for (size_t e = 0; e < n_eng; e++) {
            CHECK(run(&p, s, c, hits, 16, &n, &done, e) == 0, "%s run", eng[e]);
            CHECK(n == rn && done == rdone && memcmp(hits, ref_hits, n * sizeof hits[0]) == 0,
                  "%s disagrees with ref: trial %d (%zu vs %zu hits)", eng[e], trial, n, rn);
        }
    }
}

/* 64 unknown bits: the last candidates of the keyspace (no overflow at 2^64) */
static void test_top_of_keyspace(void)
{
    nuri_keysearch_params p;
    random_template(&p, 16, 64, 3, 0);
    uint64_t want = UINT64_MAX - 3;
    plant(&p, want);
    for (size_t e = 0; e < n_eng; e++) {
        uint64_t hits[4], done;
        size_t n;
        int rc = run(&p, UINT64_MAX - 99, 100, hits, 4, &n, &done, e);
        CHECK(rc == 0 && n == 1 && hits[0] == want && done == 100, "%s: top of a 2^64 keyspace", eng[e]);
        rc = run(&p, UINT64_MAX, 1, hits, 4, &n, &done, e);
        CHECK(rc == 0 && n == 0 && done == 1, "%s: last candidate", eng[e]);
        CHECK(run(&p, UINT64_MAX, 2, hits, 4, &n, &done, e) == NURI_EINVAL, "%s: range past 2^64", eng[e]);
    }
}

/* rounds that never use the unknown word: every candidate matches; max_hits stops, done says where */
static void test_max_hits(void)
{
    nuri_keysearch_params p;
    random_template(&p, 32, 10, 1u << 3, 2); /* K3 is first used in round 3 */
    plant(&p, 5);
    for (size_t e = 0; e < n_eng; e++) {
        uint64_t hits[7], done;
        size_t n;
        CHECK(run(&p, 100, 50, hits, 7, &n, &done, e) == 0 && n == 7 && done == 7 && hits[0] == 100 && hits[6] == 106,
              "%s: max_hits", eng[e]);
    }
    /* a real search with two planted keys: one found, stop, resume from start + done */
    random_template(&p, 16, 12, 3, 3);
    plant(&p, 1000);
    for (size_t e = 0; e < n_eng; e++) {
        uint64_t hits[1], done, s = 900;
        size_t n, total = 0;
        while (s < 1100) {
            CHECK(run(&p, s, 1100 - s, hits, 1, &n, &done, e) == 0, "run");
            if (n) CHECK(hits[0] == 1000 && s + done == 1001, "%s: stop after the hit", eng[e]);
            total += n;
            if (!done) break; /* a search that makes no progress would loop forever */
            s += done;
        }
        CHECK(total == 1, "%s: resumed search", eng[e]);
    }
}

static void test_errors(void)
{
    nuri_keysearch_params p;
    uint64_t hits[2], done = 9;
    size_t n = 9;
    unsigned bits = 9;
    uint8_t key[32];
    random_template(&p, 16, 20, 3, 0);
    CHECK(nuri_keysearch_bits(&p, &bits) == 0 && bits == 20, "bits");
    CHECK(ks_run(&p, 0, 1u << 20, hits, 2, &n, &done, "nosuch") == NURI_ENOTFOUND, "unknown engine");
    nuri_keysearch_ctx ctx;
    CHECK(nuri_keysearch_init(&ctx, &p, "ref") == 0 && strcmp(nuri_keysearch_ctx_impl_name(&ctx), "ref") == 0 &&
              nuri_keysearch_init(&ctx, &p, "auto") == 0 &&
              strcmp(nuri_keysearch_ctx_impl_name(&ctx), nuri_keysearch_default_impl()) == 0 &&
              nuri_keysearch_ctx_bytes() == sizeof ctx,
          "init: named engine, auto = dispatch");
    CHECK(ks_run(&p, 1u << 20, 1, hits, 2, &n, &done, NULL) == NURI_EINVAL && n == 0 && done == 0,
          "start past the keyspace");
    CHECK(ks_run(&p, 5, 1u << 20, hits, 2, &n, &done, NULL) == NURI_EINVAL, "range past the keyspace");
    CHECK(ks_run(&p, 5, 0, hits, 2, &n, &done, NULL) == 0 && n == 0 && done == 0, "empty range");
    CHECK(nuri_keysearch_key(&p, 1u << 20, key, sizeof key) == NURI_EINVAL, "key index past the keyspace");
    CHECK(nuri_keysearch_key(&p, 1, key, 15) == NURI_EBUFFER && nuri_keysearch_key(&p, 1, key, 16) == 0,
          "key: out_cap below key_len");
    p.rounds = 14;
    CHECK(nuri_keysearch_bits(&p, &bits) == NURI_EINVAL && bits == 0, "14 rounds of PIPO-64/128");
    p.rounds = 0;
    p.key_len = 24;
    CHECK(nuri_keysearch_bits(&p, &bits) == NURI_ELENGTH, "key length 24");
    p.key_len = 16;
    memset(p.mask, 0, sizeof p.mask);
    CHECK(nuri_keysearch_bits(&p, &bits) == NURI_EINVAL, "no unknown bit");
    memset(p.mask, 0xFF, 8);
    p.mask[8] = 1;
    CHECK(nuri_keysearch_bits(&p, &bits) == NURI_EINVAL, "65 unknown bits");
    CHECK(nuri_keysearch_encrypt(key, 16, 14, p.pt, p.ct) == NURI_EINVAL, "encrypt 14 rounds");
    CHECK(nuri_keysearch_verify(key, 20, 0, p.pt, p.ct, 1) == NURI_ELENGTH, "verify key length");
}

/* Outputs zeroed on error (the C API convention): every output filled with a pattern first. */
static int zero_u64(const uint64_t *h, size_t n)
{
    int z = 1;
    for (size_t i = 0; i < n; i++) z &= h[i] == 0;
    return z;
}

static int zero_bytes(const uint8_t *b, size_t n)
{
    int z = 1;
    for (size_t i = 0; i < n; i++) z &= b[i] == 0;
    return z;
}

static void test_errors_zero_outputs(void)
{
    nuri_keysearch_params p;
    uint64_t hits[4];
    size_t n;
    uint64_t done;
    unsigned bits;
    uint8_t key[32], ct[8];
    static uint8_t gp[NURI_KEYSEARCH_GPU_PARAMS_BYTES + 8];
    int eq;
    random_template(&p, 16, 20, 3, 0);
    struct {
        uint64_t start, count;
        const char *engine;
        int want;
        const char *what;
    } runs[] = {
        {0, 1u << 20, "nosuch", NURI_ENOTFOUND, "unknown engine"},
        {1u << 20, 1, NULL, NURI_EINVAL, "start past the keyspace"},
        {5, 1u << 20, NULL, NURI_EINVAL, "range past the keyspace"},
    };
    nuri_keysearch_ctx ctx;
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        memset(hits, 0xA5, sizeof hits);
        n = 9, done = 9;
        /* an engine error leaves the context not set up: running it is NURI_ESTATE, outputs zeroed */
        int rc = nuri_keysearch_init(&ctx, &p, runs[r].engine);
        if (rc == NURI_OK) rc = nuri_keysearch_run(&ctx, runs[r].start, runs[r].count, hits, 4, &n, &done);
        else rc = nuri_keysearch_run(&ctx, runs[r].start, runs[r].count, hits, 4, &n, &done) == NURI_ESTATE ? rc : -99;
        CHECK(rc == runs[r].want && n == 0 && done == 0 && zero_u64(hits, 4),
              "run error zeroes hits, hits_len, done: %s", runs[r].what);
    }
    memset(hits, 0xA5, sizeof hits);
    n = 9, done = 9;
    CHECK(ks_run(&p, 0, 1, hits, 0, &n, &done, NULL) == NURI_EINVAL && n == 0 && done == 0 &&
              hits[0] == 0xA5A5A5A5A5A5A5A5ull,
          "run with hits_cap 0: EINVAL, nothing written past the stated capacity");
    memset(key, 0xA5, sizeof key);
    CHECK(nuri_keysearch_key(&p, 1u << 20, key, 16) == NURI_EINVAL && zero_bytes(key, 16) && key[16] == 0xA5,
          "key: index past the keyspace zeroes out_cap bytes");
    p.rounds = 14;
    memset(hits, 0xA5, sizeof hits);
    memset(key, 0xA5, sizeof key);
    memset(gp, 0xA5, sizeof gp);
    bits = 9, n = 9, done = 9, eq = 9;
    CHECK(nuri_keysearch_bits(&p, &bits) == NURI_EINVAL && bits == 0, "bits: bad rounds zeroes bits");
    CHECK(nuri_keysearch_init(&ctx, &p, NULL) == NURI_EINVAL &&
              nuri_keysearch_run(&ctx, 0, 1, hits, 4, &n, &done) == NURI_ESTATE && n == 0 && done == 0 &&
              zero_u64(hits, 4),
          "init: bad rounds; running that context zeroes hits");
    CHECK(nuri_keysearch_key(&p, 0, key, sizeof key) == NURI_EINVAL && zero_bytes(key, sizeof key),
          "key: bad rounds zeroes the key");
    CHECK(nuri_keysearch_gpu_params(&p, gp, NURI_KEYSEARCH_GPU_PARAMS_BYTES, &eq) == NURI_EINVAL && eq == 0 &&
              zero_bytes(gp, NURI_KEYSEARCH_GPU_PARAMS_BYTES) && gp[NURI_KEYSEARCH_GPU_PARAMS_BYTES] == 0xA5,
          "gpu_params: bad rounds zeroes out");
    p.rounds = 0;
    memset(gp, 0xA5, sizeof gp);
    eq = 9;
    CHECK(nuri_keysearch_gpu_params(&p, gp, 100, &eq) == NURI_EBUFFER && eq == 0 && zero_bytes(gp, 100) &&
              gp[100] == 0xA5,
          "gpu_params: a short out_cap zeroes the out_cap bytes given");
    CHECK(nuri_keysearch_gpu_params(&p, gp, sizeof gp, &eq) == 0, "gpu_params: a larger out_cap is fine");
    memset(ct, 0xA5, sizeof ct);
    CHECK(nuri_keysearch_encrypt(key, 24, 0, p.pt, ct) == NURI_ELENGTH && zero_bytes(ct, 8),
          "encrypt: bad key length zeroes ct");
    memset(ct, 0xA5, sizeof ct);
    CHECK(nuri_keysearch_encrypt(key, 16, 14, p.pt, ct) == NURI_EINVAL && zero_bytes(ct, 8),
          "encrypt: bad rounds zeroes ct");
}

/* official vector through the public verify */
static void test_verify(void)
{
    uint8_t key[16], pt[16], ct[16];
    tu_unhex(key, 16, "9722152EAD201D7ED2289477DD16C46D");
    tu_unhex(pt, 8, "2600271EF6528509");
    tu_unhex(ct, 8, "27035DAD81296B6B");
    memcpy(pt + 8, pt, 8);
    memcpy(ct + 8, ct, 8);
    CHECK(nuri_keysearch_verify(key, 16, 0, pt, ct, 2) == 1, "official vector, 2 pairs");
    ct[15] ^= 1;
    CHECK(nuri_keysearch_verify(key, 16, 0, pt, ct, 2) == 0, "second pair wrong");
}

int main(void)
{
    tu_seed_from_env();
    load_engines();
    test_selftests();
    test_verify();
    test_planted();
    test_differential();
    test_top_of_keyspace();
    test_max_hits();
    test_errors();
    test_errors_zero_outputs();
    return tu_finish("test_keysearch");
}
