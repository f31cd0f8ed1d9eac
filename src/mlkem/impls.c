/* ML-KEM registry and public entry points: length checks, randomness, key checks, then the
 * FIPS 203 internals of kem.c over the chosen backend. Outputs are zeroed on every error. */
#include "mlkem_impl.h"

/* The backends, fastest first (dispatch takes the first constant-time entry the CPU supports).
 * Each folder defines its entry nuri_mlkem_backend_<folder>; family.cmake's nuri_backend() line
 * defines NURI_HAVE_MLKEM_<FOLDER> when it builds the folder. Adding a backend = one line here. */
#define MLKEM_BACKENDS(X)             \
    X(NURI_HAVE_MLKEM_AVX512, avx512) \
    X(NURI_HAVE_MLKEM_AVX2, avx2)     \
    X(NURI_HAVE_MLKEM_NEON, neon)     \
    X(NURI_HAVE_MLKEM_OPT, opt)       \
    X(1, ref)

#define DECLARE(cfg, name) extern const nuri_mlkem_backend nuri_mlkem_backend_##name;
#define ENTRY(cfg, name)   NURI_IF(cfg, &nuri_mlkem_backend_##name)
MLKEM_BACKENDS(DECLARE)
static const nuri_mlkem_backend *const impls[] = {MLKEM_BACKENDS(ENTRY)};
#define N_IMPLS (sizeof impls / sizeof impls[0])

size_t nuri_mlkem_impl_count(void) { return N_IMPLS; }
const nuri_impl_info *nuri_mlkem_impl_info(size_t i) { return i < N_IMPLS ? &impls[i]->info : NULL; }
int nuri_mlkem_impl_supported(size_t i) { return i < N_IMPLS && nuri_cpu_has(impls[i]->info.cpu_features); }

static int pick(const char *forced, const nuri_mlkem_backend **be)
{
    const nuri_impl_info *infos[N_IMPLS];
    for (size_t i = 0; i < N_IMPLS; i++) infos[i] = &impls[i]->info;
    int i = nuri_dispatch("mlkem", infos, N_IMPLS, forced);
    if (i < 0) return i;
    *be = impls[i];
    return NURI_OK;
}

const char *nuri_mlkem_default_impl(void)
{
    const nuri_mlkem_backend *be;
    return pick(NULL, &be) == NURI_OK ? be->info.name : NULL;
}

size_t nuri_mlkem_ek_bytes(nuri_mlkem_level level)
{
    const mlk_params *p = nuri_mlkem_params(level);
    return p ? p->ek_bytes : 0;
}
size_t nuri_mlkem_dk_bytes(nuri_mlkem_level level)
{
    const mlk_params *p = nuri_mlkem_params(level);
    return p ? p->dk_bytes : 0;
}
size_t nuri_mlkem_ct_bytes(nuri_mlkem_level level)
{
    const mlk_params *p = nuri_mlkem_params(level);
    return p ? p->ct_bytes : 0;
}
size_t nuri_mlkem_ss_bytes(void) { return NURI_MLKEM_SS_BYTES; }
size_t nuri_mlkem_ctx_bytes(void) { return sizeof(nuri_mlkem_ctx); }

int nuri_mlkem_init(nuri_mlkem_ctx *ctx, nuri_mlkem_level level, const char *impl)
{
    memset(ctx, 0, sizeof *ctx);
    if (!nuri_mlkem_params(level)) return NURI_EINVAL;
    const nuri_mlkem_backend *be;
    int rc = pick(impl, &be);
    if (rc != NURI_OK) return rc;
    ctx->level = level;
    ctx->impl = be;
    return NURI_OK;
}

const char *nuri_mlkem_ctx_impl_name(const nuri_mlkem_ctx *ctx) { return ctx->impl ? ctx->impl->info.name : NULL; }

static void zero(uint8_t *p, size_t n)
{
    if (p && n) nuri_wipe(p, n);
}

int nuri_mlkem_check_ek(nuri_mlkem_level level, const uint8_t *ek, size_t ek_len)
{
    const mlk_params *p = nuri_mlkem_params(level);
    if (!p) return NURI_EINVAL;
    if (!ek || ek_len != p->ek_bytes) return NURI_ELENGTH;
    return nuri_mlkem_check_ek_internal(NULL, p, ek);
}

int nuri_mlkem_check_dk(nuri_mlkem_level level, const uint8_t *dk, size_t dk_len)
{
    const mlk_params *p = nuri_mlkem_params(level);
    if (!p) return NURI_EINVAL;
    if (!dk || dk_len != p->dk_bytes) return NURI_ELENGTH;
    return nuri_mlkem_check_dk_internal(p, dk);
}

/* The parameters of an initialised context, or NULL (NURI_ESTATE). */
static const mlk_params *ctx_params(const nuri_mlkem_ctx *ctx)
{
    return ctx->impl ? nuri_mlkem_params(ctx->level) : NULL;
}

int nuri_mlkem_keygen(const nuri_mlkem_ctx *ctx, uint8_t *ek, size_t ek_cap, uint8_t *dk, size_t dk_cap,
                      const uint8_t *seed, size_t seed_len)
{
    const mlk_params *p = ctx_params(ctx);
    uint8_t rnd[NURI_MLKEM_KEYGEN_SEED_BYTES];
    int rc = NURI_OK;
    if (!p) rc = NURI_ESTATE;
    else if (!ek || !dk || ek_cap < p->ek_bytes || dk_cap < p->dk_bytes) rc = NURI_EBUFFER;
    else if (seed ? seed_len != sizeof rnd : seed_len != 0) rc = NURI_ELENGTH;
    if (rc == NURI_OK) {
        if (seed) memcpy(rnd, seed, sizeof rnd);
        else rc = nuri_randombytes(rnd, sizeof rnd);
    }
    if (rc == NURI_OK) nuri_mlkem_keygen_internal(ctx->impl, p, ek, dk, rnd, rnd + 32);
    else {
        zero(ek, ek_cap);
        zero(dk, dk_cap);
    }
    nuri_wipe(rnd, sizeof rnd);
    return rc;
}

int nuri_mlkem_encaps(const nuri_mlkem_ctx *ctx, uint8_t *ct, size_t ct_cap, uint8_t *ss, size_t ss_cap,
                      const uint8_t *ek, size_t ek_len, const uint8_t *m, size_t m_len)
{
    const mlk_params *p = ctx_params(ctx);
    uint8_t rnd[NURI_MLKEM_ENCAPS_SEED_BYTES];
    int rc = NURI_OK;
    if (!p) rc = NURI_ESTATE;
    else if (!ct || !ss || ct_cap < p->ct_bytes || ss_cap < NURI_MLKEM_SS_BYTES) rc = NURI_EBUFFER;
    else if (!ek || ek_len != p->ek_bytes) rc = NURI_ELENGTH;
    else if (m ? m_len != sizeof rnd : m_len != 0) rc = NURI_ELENGTH;
    else rc = nuri_mlkem_check_ek_internal(ctx->impl, p, ek);
    if (rc == NURI_OK) {
        if (m) memcpy(rnd, m, sizeof rnd);
        else rc = nuri_randombytes(rnd, sizeof rnd);
    }
    if (rc == NURI_OK) nuri_mlkem_encaps_internal(ctx->impl, p, ct, ss, ek, rnd);
    else {
        zero(ct, ct_cap);
        zero(ss, ss_cap);
    }
    nuri_wipe(rnd, sizeof rnd);
    return rc;
}

int nuri_mlkem_decaps(const nuri_mlkem_ctx *ctx, uint8_t *ss, size_t ss_cap, const uint8_t *ct, size_t ct_len,
                      const uint8_t *dk, size_t dk_len)
{
    const mlk_params *p = ctx_params(ctx);
    int rc = NURI_OK;
    if (!p) rc = NURI_ESTATE;
    else if (!ss || ss_cap < NURI_MLKEM_SS_BYTES) rc = NURI_EBUFFER;
    else if (!ct || !dk || ct_len != p->ct_bytes || dk_len != p->dk_bytes) rc = NURI_ELENGTH;
    if (rc == NURI_OK) rc = nuri_mlkem_decaps_internal(ctx->impl, p, ss, ct, dk); /* runs the §7.3 hash check */
    if (rc != NURI_OK) zero(ss, ss_cap);
    return rc;
}

/* n * item bytes, or 0 (never a valid length here: callers check n > 0 first) on overflow. */
static size_t times(size_t n, size_t item) { return n > SIZE_MAX / item ? 0 : n * item; }

#define MANY_CHUNK 16 /* items per internal call when drawing randomness from the OS (no allocation) */

int nuri_mlkem_encaps_many(const nuri_mlkem_ctx *ctx, uint8_t *ct, size_t ct_cap, uint8_t *ss, size_t ss_cap,
                           const uint8_t *ek, size_t ek_len, const uint8_t *m, size_t m_len, size_t n)
{
    const mlk_params *p = ctx_params(ctx);
    const nuri_mlkem_backend *be = ctx->impl;
    uint8_t rnd[MANY_CHUNK * NURI_MLKEM_ENCAPS_SEED_BYTES];
    int rc = NURI_OK;
    if (!p) rc = NURI_ESTATE;
    else if (n == 0) return NURI_OK;
    else if (!ct || !ss || times(n, p->ct_bytes) == 0 || ct_cap < times(n, p->ct_bytes) ||
             ss_cap < times(n, NURI_MLKEM_SS_BYTES))
        rc = NURI_EBUFFER;
    else if (!ek || ek_len != times(n, p->ek_bytes)) rc = NURI_ELENGTH;
    else if (m ? m_len != times(n, NURI_MLKEM_ENCAPS_SEED_BYTES) : m_len != 0) rc = NURI_ELENGTH;
    for (size_t i = 0; rc == NURI_OK && i < n; i++) rc = nuri_mlkem_check_ek_internal(be, p, ek + i * p->ek_bytes);
    if (rc == NURI_OK && m) nuri_mlkem_encaps_many_internal(be, p, ct, ss, ek, m, n);
    for (size_t i = 0; rc == NURI_OK && !m && i < n; i += MANY_CHUNK) {
        size_t cnt = n - i < MANY_CHUNK ? n - i : MANY_CHUNK;
        rc = nuri_randombytes(rnd, cnt * NURI_MLKEM_ENCAPS_SEED_BYTES);
        if (rc == NURI_OK)
            nuri_mlkem_encaps_many_internal(be, p, ct + i * p->ct_bytes, ss + i * NURI_MLKEM_SS_BYTES,
                                            ek + i * p->ek_bytes, rnd, cnt);
    }
    if (rc != NURI_OK) {
        zero(ct, ct_cap);
        zero(ss, ss_cap);
    }
    nuri_wipe(rnd, sizeof rnd);
    return rc;
}

int nuri_mlkem_decaps_many(const nuri_mlkem_ctx *ctx, uint8_t *ss, size_t ss_cap, const uint8_t *ct, size_t ct_len,
                           const uint8_t *dk, size_t dk_len, size_t n)
{
    const mlk_params *p = ctx_params(ctx);
    int rc = NURI_OK;
    if (!p) rc = NURI_ESTATE;
    else if (n == 0) return NURI_OK;
    else if (!ss || times(n, NURI_MLKEM_SS_BYTES) == 0 || ss_cap < times(n, NURI_MLKEM_SS_BYTES)) rc = NURI_EBUFFER;
    else if (!ct || !dk || ct_len != times(n, p->ct_bytes) || dk_len != p->dk_bytes) rc = NURI_ELENGTH;
    if (rc == NURI_OK) rc = nuri_mlkem_decaps_many_internal(ctx->impl, p, ss, ct, dk, n); /* runs the §7.3 check */
    if (rc != NURI_OK) zero(ss, ss_cap);
    return rc;
}
