/* SPARKLE registry, implementation selection and the permutation entry points. */
#include "sparkle_impl.h"

/* Ordered fastest first: dispatch takes the first constant-time entry the CPU supports.
 * The multi-instance x86 entries use the opt kernel for single states and their SIMD kernel
 * for many states at once (batch API). */
#if defined(NURI_HAVE_SPARKLE_AVX512)
static const nuri_sparkle_impl impl_avx512 = {
    {"avx512", NURI_CPU_AVX512F, 1,
     "16 states per pass, one 32-bit word of 16 states per zmm register (vprold rotations); single states: opt"},
    nuri_sparkle_opt_permute, nuri_sparkle_avx512_permute_many};
#endif
#if defined(NURI_HAVE_SPARKLE_AVX2)
static const nuri_sparkle_impl impl_avx2 = {
    {"avx2", NURI_CPU_AVX2, 1,
     "8 states per pass, one 32-bit word of 8 states per ymm register (vpshufb for rotations by 16/24); "
     "single states: opt"},
    nuri_sparkle_opt_permute, nuri_sparkle_avx2_permute_many};
#endif
#if defined(NURI_HAVE_SPARKLE_A64)
static const nuri_sparkle_impl impl_a64 = {
    {"a64", 0, 1, "AArch64 assembly, all state words and constants in general registers"},
    nuri_sparkle_a64_permute, NULL};
#endif
#if defined(NURI_HAVE_SPARKLE_NEON)
static const nuri_sparkle_impl impl_neon = {
    {"neon", NURI_CPU_NEON, 1, "AArch64 ASIMD, the Alzettes of one step in vector lanes"},
    nuri_sparkle_neon_permute, NULL};
#endif
#if !defined(NURI_SPARKLE_NO_OPT)
static const nuri_sparkle_impl impl_opt = {
    {"opt", 0, 1, "portable C, state in locals, Alzette and linear layer unrolled per branch count"},
    nuri_sparkle_opt_permute, NULL};
#endif
static const nuri_sparkle_impl impl_ref = {
    {"ref", 0, 1, "portable C transcription of the specification (loops over branches)"},
    nuri_sparkle_ref_permute, NULL};

static const nuri_sparkle_impl *const impls[] = {
#if defined(NURI_HAVE_SPARKLE_AVX512)
    &impl_avx512,
#endif
#if defined(NURI_HAVE_SPARKLE_AVX2)
    &impl_avx2,
#endif
#if defined(NURI_HAVE_SPARKLE_A64)
    &impl_a64,
#endif
#if defined(NURI_HAVE_SPARKLE_NEON)
    &impl_neon,
#endif
#if !defined(NURI_SPARKLE_NO_OPT)
    &impl_opt,
#endif
    &impl_ref,
};
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

int nuri_sparkle_permute(uint32_t *state, unsigned nb, unsigned steps, const char *impl_name)
{
    const nuri_sparkle_impl *impl;
    if (nb != 4 && nb != 6 && nb != 8) return NURI_EINVAL;
    int rc = nuri_sparkle_select(impl_name, &impl);
    if (rc) return rc;
    if (steps) impl->permute(state, nb, steps);
    return NURI_OK;
}

int nuri_sparkle_permute_bytes(uint8_t *state, size_t state_len, unsigned steps, const char *impl_name)
{
    uint32_t w[NURI_SPARKLE_MAX_WORDS];
    if (state_len != 32 && state_len != 48 && state_len != 64) return NURI_ELENGTH;
    unsigned nwords = (unsigned)(state_len / 4);
    for (unsigned i = 0; i < nwords; i++) w[i] = nuri_load32_le(state + 4 * i);
    int rc = nuri_sparkle_permute(w, nwords / 2, steps, impl_name);
    if (rc == NURI_OK)
        for (unsigned i = 0; i < nwords; i++) nuri_store32_le(state + 4 * i, w[i]);
    nuri_wipe(w, sizeof w);
    return rc;
}
