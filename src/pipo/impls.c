/* PIPO registry, key schedule and the batch block entry points. */
#include "pipo_impl.h"

/* The backends, fastest first (dispatch takes the first constant-time entry the CPU supports).
 * Each folder defines its entry nuri_pipo_backend_<folder>; family.cmake's nuri_backend() line
 * defines NURI_HAVE_PIPO_<FOLDER> when it builds the folder. Adding a backend = one line here. */
#define PIPO_BACKENDS(X)                     \
    X(NURI_HAVE_PIPO_AVX512, avx512)         \
    X(NURI_HAVE_PIPO_AVX2, avx2)             \
    X(NURI_HAVE_PIPO_NEON, neon)             \
    X(NURI_HAVE_PIPO_RV32, rv32_bs32)        \
    X(NURI_HAVE_PIPO_RV32, rv32_4blk)        \
    X(NURI_HAVE_PIPO_RV32, rv32_1blk)        \
    X(NURI_HAVE_PIPO_BITSLICE64, bitslice64) \
    X(1, ref)

#define DECLARE(cfg, name) extern const nuri_pipo_impl nuri_pipo_backend_##name;
#define ENTRY(cfg, name)   NURI_IF(cfg, &nuri_pipo_backend_##name)
PIPO_BACKENDS(DECLARE)
static const nuri_pipo_impl *const impls[] = {PIPO_BACKENDS(ENTRY)};
#define N_IMPLS (sizeof impls / sizeof impls[0])

size_t nuri_pipo_block_bytes(void) { return NURI_PIPO_BLOCK_BYTES; }
size_t nuri_pipo_ctx_bytes(void) { return sizeof(nuri_pipo_ctx); }
size_t nuri_pipo_key_struct_bytes(void) { return sizeof(nuri_pipo_key); }
size_t nuri_pipo_impl_count(void) { return N_IMPLS; }
const nuri_impl_info *nuri_pipo_impl_info(size_t i) { return i < N_IMPLS ? &impls[i]->info : NULL; }
int nuri_pipo_impl_supported(size_t i) { return i < N_IMPLS && nuri_cpu_has(impls[i]->info.cpu_features); }

static int pick(const char *forced)
{
    const nuri_impl_info *infos[N_IMPLS];
    for (size_t i = 0; i < N_IMPLS; i++) infos[i] = &impls[i]->info;
    return nuri_dispatch("pipo", infos, N_IMPLS, forced);
}

const char *nuri_pipo_default_impl(void)
{
    int i = pick(NULL);
    return i < 0 ? NULL : impls[i]->info.name;
}

int nuri_pipo_key_init(nuri_pipo_key *k, const uint8_t *key, size_t key_len, const char *impl)
{
    memset(k, 0, sizeof *k);
    if (key_len != NURI_PIPO128_KEY_BYTES && key_len != NURI_PIPO256_KEY_BYTES) return NURI_ELENGTH;
    int i = pick(impl);
    if (i < 0) return i;
    /* RK_i = K_(i mod w) with the round constant i XORed into byte X[0] (spec §1). */
    size_t words = key_len / 8;
    k->rounds = key_len == 16 ? NURI_PIPO128_ROUNDS : NURI_PIPO256_ROUNDS;
    for (unsigned r = 0; r <= k->rounds; r++) k->rk[r] = nuri_load64_le(key + 8 * (r % words)) ^ (uint64_t)r;
    k->impl = impls[i];
    return NURI_OK;
}

void nuri_pipo_key_wipe(nuri_pipo_key *k) { nuri_wipe(k, sizeof *k); }

const char *nuri_pipo_key_impl_name(const nuri_pipo_key *k) { return k->impl ? k->impl->info.name : NULL; }

void nuri_pipo_encrypt_blocks(const nuri_pipo_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    if (!nblocks) return;
    nuri_pipo_blocks_fn f = nblocks <= k->impl->small_to_ref ? nuri_pipo_ref_encrypt : k->impl->encrypt;
    f(k->rk, k->rounds, out, in, nblocks);
}

void nuri_pipo_decrypt_blocks(const nuri_pipo_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    if (!nblocks) return;
    nuri_pipo_blocks_fn f = nblocks <= k->impl->small_to_ref ? nuri_pipo_ref_decrypt : k->impl->decrypt;
    f(k->rk, k->rounds, out, in, nblocks);
}
