/* Key-search registry, the batch entry point, the engines' self-test and the reference
 * encryption used to plant and re-check keys. */
#include "ks_impl.h"

#include "../pipo/pipo_impl.h"

/* The engines, fastest first (dispatch takes the first one the CPU supports). Each folder defines
 * its entry nuri_keysearch_backend_<folder>; family.cmake's nuri_backend() line defines
 * NURI_HAVE_KEYSEARCH_<FOLDER> when it builds the folder. avx512 is the avx2 body on 512-bit
 * vectors; its source also runs in the tests without AVX-512 (tests/keysearch/ks_wide512.c). */
#define KS_BACKENDS(X)                        \
    X(NURI_HAVE_KEYSEARCH_AVX512, avx512)     \
    X(NURI_HAVE_KEYSEARCH_AVX2, avx2)         \
    X(NURI_HAVE_KEYSEARCH_PORTABLE, portable) \
    X(1, ref)

#define DECLARE(cfg, name) extern const ks_engine nuri_keysearch_backend_##name;
#define ENTRY(cfg, name)   NURI_IF(cfg, &nuri_keysearch_backend_##name)
KS_BACKENDS(DECLARE)
static const ks_engine *const engines[] = {KS_BACKENDS(ENTRY)};
#define N_ENGINES (sizeof engines / sizeof engines[0])

size_t nuri_keysearch_impl_count(void) { return N_ENGINES; }
const nuri_impl_info *nuri_keysearch_impl_info(size_t i) { return i < N_ENGINES ? &engines[i]->info : NULL; }
int nuri_keysearch_impl_supported(size_t i) { return i < N_ENGINES && nuri_cpu_has(engines[i]->info.cpu_features); }
size_t nuri_keysearch_impl_lanes(size_t i) { return i < N_ENGINES ? engines[i]->lanes : 0; }

static int pick(const char *forced)
{
    const nuri_impl_info *infos[N_ENGINES];
    for (size_t i = 0; i < N_ENGINES; i++) infos[i] = &engines[i]->info;
    if (forced && strcmp(forced, "auto") == 0) forced = NULL;
    return nuri_dispatch("keysearch", infos, N_ENGINES, forced);
}

const char *nuri_keysearch_default_impl(void)
{
    int i = pick(NULL);
    return i < 0 ? NULL : engines[i]->info.name;
}

int nuri_keysearch_bits(const nuri_keysearch_params *prm, unsigned *bits)
{
    ks_plan p;
    int rc = nuri_ks_plan_make(&p, prm);
    *bits = rc == NURI_OK ? p.k : 0;
    return rc;
}

static int in_keyspace(const ks_plan *p, uint64_t index) { return p->k == 64 || index >> p->k == 0; }

int nuri_keysearch_key(const nuri_keysearch_params *prm, uint64_t index, uint8_t *out, size_t out_cap)
{
    ks_plan p;
    int rc = nuri_ks_plan_make(&p, prm);
    if (rc == NURI_OK && !in_keyspace(&p, index)) rc = NURI_EINVAL;
    if (rc == NURI_OK && out_cap < prm->key_len) rc = NURI_EBUFFER;
    if (rc != NURI_OK) {
        if (out) memset(out, 0, out_cap);
        return rc;
    }
    nuri_ks_plan_key(&p, index, out);
    return NURI_OK;
}

int nuri_keysearch_encrypt(const uint8_t *key, size_t key_len, unsigned rounds,
                           const uint8_t pt[NURI_KEYSEARCH_BLOCK_BYTES], uint8_t ct[NURI_KEYSEARCH_BLOCK_BYTES])
{
    unsigned full = key_len == 16 ? NURI_PIPO128_ROUNDS : NURI_PIPO256_ROUNDS;
    memset(ct, 0, 8);
    if (key_len != 16 && key_len != 32) return NURI_ELENGTH;
    if (rounds > full) return NURI_EINVAL;
    if (!rounds) rounds = full;
    uint64_t rk[NURI_PIPO_MAX_ROUNDS + 1];
    for (unsigned i = 0; i <= rounds; i++) rk[i] = ks_round_key(key, (unsigned)key_len / 8, i);
    nuri_pipo_ref_encrypt(rk, rounds, ct, pt, 1);
    nuri_wipe(rk, sizeof rk);
    return NURI_OK;
}

int nuri_keysearch_verify(const uint8_t *key, size_t key_len, unsigned rounds, const uint8_t *pts, const uint8_t *cts,
                          size_t npairs)
{
    int ok = 1;
    uint8_t out[8];
    for (size_t i = 0; i < npairs; i++) {
        int rc = nuri_keysearch_encrypt(key, key_len, rounds, pts + 8 * i, out);
        if (rc != NURI_OK) return rc;
        ok &= memcmp(out, cts + 8 * i, 8) == 0;
    }
    return ok;
}

/* Candidates with a single possible pair-1 outcome: all of them or none match (reduced rounds
 * that never use the unknown key words). */
static size_t search_constant(const ks_plan *p, uint64_t start, uint64_t count, uint64_t *hits, size_t max_hits,
                              uint64_t *done)
{
    uint8_t key[NURI_KEYSEARCH_MAX_KEY_BYTES], out[8];
    nuri_ks_plan_key(p, start, key);
    if (nuri_keysearch_encrypt(key, p->key_len, p->rounds, p->pt, out) != NURI_OK || memcmp(out, p->ct, 8) != 0) {
        *done = count;
        return 0;
    }
    size_t n = count < max_hits ? (size_t)count : max_hits;
    for (size_t i = 0; i < n; i++) hits[i] = start + i;
    *done = n;
    return n;
}

int nuri_ks_run_engine(const ks_engine *eng, const nuri_keysearch_params *prm, uint64_t start, uint64_t count,
                       uint64_t *hits, size_t max_hits, size_t *n_hits, uint64_t *done)
{
    *n_hits = 0;
    *done = 0;
    ks_plan p;
    int rc = nuri_ks_plan_make(&p, prm);
    if (rc != NURI_OK) return rc;
    if (count == 0) return NURI_OK;
    if (max_hits == 0 || !in_keyspace(&p, start) || !in_keyspace(&p, start + (count - 1)) ||
        start + (count - 1) < start)
        return NURI_EINVAL;
    *n_hits = p.no_round_varies ? search_constant(&p, start, count, hits, max_hits, done)
                                : eng->search(&p, start, count, hits, max_hits, done);
    nuri_wipe(&p, sizeof p);
    return NURI_OK;
}

size_t nuri_keysearch_ctx_bytes(void) { return sizeof(nuri_keysearch_ctx); }

int nuri_keysearch_init(nuri_keysearch_ctx *ctx, const nuri_keysearch_params *prm, const char *impl)
{
    memset(ctx, 0, sizeof *ctx);
    ks_plan p;
    int rc = nuri_ks_plan_make(&p, prm); /* parameter errors before engine errors */
    nuri_wipe(&p, sizeof p);
    if (rc == NURI_OK) rc = pick(impl);
    if (rc < 0) return rc;
    ctx->params = *prm;
    ctx->impl = engines[rc];
    return NURI_OK;
}

const char *nuri_keysearch_ctx_impl_name(const nuri_keysearch_ctx *ctx)
{
    return ctx->impl ? ctx->impl->info.name : NULL;
}

int nuri_keysearch_run(const nuri_keysearch_ctx *ctx, uint64_t start, uint64_t count, uint64_t *hits, size_t hits_cap,
                       size_t *hits_len, uint64_t *done)
{
    *hits_len = 0;
    *done = 0;
    int rc = ctx->impl ? nuri_ks_run_engine(ctx->impl, &ctx->params, start, count, hits, hits_cap, hits_len, done)
                       : NURI_ESTATE;
    if (rc != NURI_OK && hits) memset(hits, 0, hits_cap * sizeof *hits); /* outputs zeroed on error */
    return rc;
}

/* ---- self-test: the official vectors (tests/vectors/pipo) with unknown bits in each shape the
 * plan distinguishes, the true key planted off a pass boundary. ---- */
static const uint8_t ST_KEY[32] = {0x97, 0x22, 0x15, 0x2E, 0xAD, 0x20, 0x1D, 0x7E, 0xD2, 0x28, 0x94,
                                   0x77, 0xDD, 0x16, 0xC4, 0x6D, 0x33, 0x56, 0xD1, 0x26, 0x06, 0x12,
                                   0xA7, 0x54, 0xB5, 0x6D, 0xA9, 0x76, 0xA4, 0x3A, 0x9A, 0x00};
static const uint8_t ST_PT[8] = {0x26, 0x00, 0x27, 0x1E, 0xF6, 0x52, 0x85, 0x09};
static const uint8_t ST_CT128[8] = {0x27, 0x03, 0x5D, 0xAD, 0x81, 0x29, 0x6B, 0x6B};
static const uint8_t ST_CT256[8] = {0x89, 0x38, 0x52, 0xB6, 0x6F, 0xAE, 0x6D, 0x81};

/* index of key under p (the inverse of nuri_ks_plan_key) */
static uint64_t index_of(const ks_plan *p, const uint8_t *key)
{
    uint64_t idx = 0;
    for (unsigned b = 0; b < p->k; b++) idx |= (uint64_t)(key[p->pos[b] >> 3] >> (p->pos[b] & 7) & 1) << b;
    return idx;
}

static int selftest_case(const ks_engine *eng, size_t key_len, unsigned rounds, const uint8_t mask[32])
{
    nuri_keysearch_params prm;
    memset(&prm, 0, sizeof prm);
    memcpy(prm.key, ST_KEY, key_len);
    memcpy(prm.mask, mask, key_len);
    prm.key_len = key_len;
    prm.rounds = rounds;
    memcpy(prm.pt, ST_PT, 8);
    if (rounds) {
        if (nuri_keysearch_encrypt(ST_KEY, key_len, rounds, ST_PT, prm.ct) != NURI_OK) return 0;
    } else {
        memcpy(prm.ct, key_len == 16 ? ST_CT128 : ST_CT256, 8);
    }
    ks_plan p;
    if (nuri_ks_plan_make(&p, &prm) != NURI_OK || p.k > 12 || p.no_round_varies) return 0;
    uint64_t want = index_of(&p, ST_KEY), hits[4], done;
    uint64_t start = want > 37 ? want - 37 : 0, count = ((uint64_t)1 << p.k) - start;
    size_t n = eng->search(&p, start, count, hits, 4, &done);
    /* the planted key as a slice's first and last candidate */
    uint64_t h1 = 0, h2 = 0, d1 = 0, d2 = 0;
    size_t n1 = eng->search(&p, want, 1 + (want & 7), &h1, 1, &d1);
    size_t n2 = eng->search(&p, want - (want & 3), 1 + (want & 3), &h2, 1, &d2);
    return n == 1 && hits[0] == want && done == count && n1 == 1 && h1 == want && d1 == 1 && n2 == 1 && h2 == want &&
           d2 == 1 + (want & 3);
}

int nuri_keysearch_selftest(const char *impl)
{
    int e = pick(impl);
    return e < 0 ? e : nuri_ks_selftest_engine(engines[e]);
}

int nuri_ks_selftest_engine(const ks_engine *e)
{
    uint8_t m[32];
    int ok = 1;
    /* unknown bits in K0 and K1 (no shared round), 12 bits */
    memset(m, 0, sizeof m);
    m[0] = 0x0F;
    m[9] = 0xF0;
    m[15] = 0x0F;
    ok &= selftest_case(e, 16, 0, m);
    /* K0 only: the last round (RK13 = K1 ^ 13) is shared, decrypted from the ciphertext */
    memset(m, 0, sizeof m);
    m[2] = 0xFF;
    m[5] = 0x0C;
    ok &= selftest_case(e, 16, 0, m);
    /* K1 only: whitening and round 1's S-layer + R-layer are shared */
    memset(m, 0, sizeof m);
    m[12] = 0x3F;
    m[14] = 0xF0;
    ok &= selftest_case(e, 16, 0, m);
    /* PIPO-64/256, bits in K2 and K3 (rounds 2..15 vary) */
    memset(m, 0, sizeof m);
    m[17] = 0xF0;
    m[30] = 0x3F;
    ok &= selftest_case(e, 32, 0, m);
    /* reduced rounds (4), bits in K0 and K1 */
    memset(m, 0, sizeof m);
    m[4] = 0x81;
    m[11] = 0x3C;
    m[13] = 0x60;
    ok &= selftest_case(e, 16, 4, m);
    return ok ? NURI_OK : NURI_EAUTH;
}
