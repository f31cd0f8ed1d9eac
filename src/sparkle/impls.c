/* SPARKLE registry, implementation selection and the permutation entry points. */
#include "sparkle_impl.h"

/* The backends, fastest first (dispatch takes the first constant-time entry the CPU supports).
 * Each folder defines its entry nuri_sparkle_backend_<folder>; family.cmake's nuri_backend() line
 * defines NURI_HAVE_SPARKLE_<FOLDER> when it builds the folder. Adding a backend = one line here.
 * The multi-instance x86 entries use the opt kernel for single states and their SIMD kernel for
 * many states at once (batch API). */
#define SPARKLE_BACKENDS(X)             \
    X(NURI_HAVE_SPARKLE_AVX512, avx512) \
    X(NURI_HAVE_SPARKLE_AVX2, avx2)     \
    X(NURI_HAVE_SPARKLE_A64, a64)       \
    X(NURI_HAVE_SPARKLE_NEON, neon)     \
    X(NURI_HAVE_SPARKLE_OPT, opt)       \
    X(1, ref)

#define DECLARE(cfg, name) extern const nuri_sparkle_impl nuri_sparkle_backend_##name;
#define ENTRY(cfg, name)   NURI_IF(cfg, &nuri_sparkle_backend_##name)
SPARKLE_BACKENDS(DECLARE)
static const nuri_sparkle_impl *const impls[] = {SPARKLE_BACKENDS(ENTRY)};
#define N_IMPLS (sizeof impls / sizeof impls[0])

size_t nuri_sparkle_impl_count(void) { return N_IMPLS; }
const nuri_impl_info *nuri_sparkle_impl_info(size_t i) { return i < N_IMPLS ? &impls[i]->info : NULL; }
int nuri_sparkle_impl_supported(size_t i) { return i < N_IMPLS && nuri_cpu_has(impls[i]->info.cpu_features); }
int nuri_sparkle_impl_multi(size_t i) { return i < N_IMPLS && impls[i]->permute_many != NULL; }

static int pick(const char *forced)
{
    const nuri_impl_info *infos[N_IMPLS];
    for (size_t i = 0; i < N_IMPLS; i++) infos[i] = &impls[i]->info;
    return nuri_dispatch("sparkle", infos, N_IMPLS, forced);
}

const char *nuri_sparkle_default_impl(void)
{
    int i = pick(NULL);
    return i < 0 ? NULL : impls[i]->info.name;
}

int nuri_sparkle_select(const char *name, const nuri_sparkle_impl **out)
{
    int i = pick(name);
    if (i < 0) {
        *out = NULL;
        return i;
    }
    *out = impls[i];
    return NURI_OK;
}

void nuri_sparkle_impl_permute_many(const nuri_sparkle_impl *impl, uint32_t *states, size_t count, unsigned nb,
                                    unsigned steps)
{
    if (!count || !steps) return;
    if (impl->permute_many) {
        impl->permute_many(states, count, nb, steps);
        return;
    }
    for (size_t i = 0; i < count; i++) impl->permute(states + 2 * nb * i, nb, steps);
}

int nuri_sparkle_init(nuri_sparkle_ctx *ctx, const char *impl)
{
    const nuri_sparkle_impl *chosen;
    ctx->impl = NULL;
    int rc = nuri_sparkle_select(impl, &chosen);
    if (rc == NURI_OK) ctx->impl = chosen;
    return rc;
}

const char *nuri_sparkle_ctx_impl_name(const nuri_sparkle_ctx *ctx) { return ctx->impl ? ctx->impl->info.name : NULL; }

int nuri_sparkle_permute(const nuri_sparkle_ctx *ctx, uint32_t *state, unsigned nb, unsigned steps)
{
    if (nb != 4 && nb != 6 && nb != 8) return NURI_EINVAL;
    if (!ctx->impl) return NURI_ESTATE;
    if (steps) ctx->impl->permute(state, nb, steps);
    return NURI_OK;
}

int nuri_sparkle_permute_bytes(const nuri_sparkle_ctx *ctx, uint8_t *state, size_t state_len, unsigned steps)
{
    uint32_t w[NURI_SPARKLE_MAX_WORDS];
    if (state_len != 32 && state_len != 48 && state_len != 64) return NURI_ELENGTH;
    unsigned nwords = (unsigned)(state_len / 4);
    for (unsigned i = 0; i < nwords; i++) w[i] = nuri_load32_le(state + 4 * i);
    int rc = nuri_sparkle_permute(ctx, w, nwords / 2, steps);
    if (rc == NURI_OK)
        for (unsigned i = 0; i < nwords; i++) nuri_store32_le(state + 4 * i, w[i]);
    nuri_wipe(w, sizeof w);
    return rc;
}
