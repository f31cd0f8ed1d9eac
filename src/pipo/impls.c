/* PIPO registry, key schedule and the batch block entry points. */
#include "pipo_impl.h"

/* Ordered fastest first: dispatch takes the first constant-time entry the CPU supports. */
#if defined(NURI_HAVE_PIPO_AVX512)
static const nuri_pipo_impl impl_avx512 = {
    {"avx512", NURI_CPU_AVX512F | NURI_CPU_AVX512BW | NURI_CPU_AVX512VL | NURI_CPU_GFNI, 1,
     "64 blocks per pass, byte-sliced in zmm registers; R-layer with gf2p8affineqb, S-layer with vpternlogq"},
    nuri_pipo_avx512_encrypt, nuri_pipo_avx512_decrypt, 64, NULL, 2};
#endif
#if defined(NURI_HAVE_PIPO_AVX2)
static const nuri_pipo_impl impl_avx2 = {
    {"avx2", NURI_CPU_AVX2, 1, "32 blocks per pass, byte-sliced in ymm registers"},
    nuri_pipo_avx2_encrypt, nuri_pipo_avx2_decrypt, 32, NULL, 3};
#endif
#if defined(NURI_HAVE_PIPO_RV32)
#include "rv32/pipo_rv32.h"
#endif
#if defined(NURI_HAVE_PIPO_NEON)
#include "neon/pipo_neon.h"
static const nuri_pipo_impl impl_neon = {
    {"neon", NURI_CPU_NEON, 1, "AArch64 NEON, 16 blocks per pass, byte-sliced, shl+sri rotations"},
    nuri_pipo_neon_encrypt, nuri_pipo_neon_decrypt, 16, NULL, 0};
#endif
#if defined(NURI_HAVE_PIPO_RV32_BS32)
static const nuri_pipo_impl impl_rv32_bs32 = {
    {"rv32-bs32", 0, 1, "rv32imac assembly, 32 blocks bitsliced (one state bit of 32 blocks per register)"},
    nuri_pipo_rv32_bs32_encrypt, nuri_pipo_rv32_bs32_decrypt, 32, nuri_pipo_rv32_bs32_ctr, 0};
#endif
#if defined(NURI_HAVE_PIPO_RV32)
static const nuri_pipo_impl impl_rv32_4blk = {
    {"rv32-4blk", 0, 1, "rv32imac assembly, 4 blocks per pass (one state byte of 4 blocks per register)"},
    nuri_pipo_rv32_4blk_encrypt, nuri_pipo_rv32_4blk_decrypt, 4, NULL, 0};
static const nuri_pipo_impl impl_rv32_1blk = {
    {"rv32-1blk", 0, 1, "rv32imac assembly, one block, rows in the low byte of 8 registers"},
    nuri_pipo_rv32_1blk_enc, nuri_pipo_rv32_1blk_dec, 1, NULL, 0};
#endif
#if !defined(NURI_PIPO_NO_BS64)
static const nuri_pipo_impl impl_bs64 = {
    {"bitslice64", 0, 1,
     "portable C, one state byte of 8 blocks per 64-bit word; 32 blocks per pass where 128-bit vectors exist"},
    nuri_pipo_bs64_encrypt, nuri_pipo_bs64_decrypt, 32, NULL, 4};
#endif
static const nuri_pipo_impl impl_ref = {
    {"ref", 0, 1, "one block at a time, the designers' byte-oriented form (34-op bitsliced S-layer)"},
    nuri_pipo_ref_encrypt, nuri_pipo_ref_decrypt, 1, NULL, 0};

static const nuri_pipo_impl *const impls[] = {
#if defined(NURI_HAVE_PIPO_AVX512)
    &impl_avx512,
#endif
#if defined(NURI_HAVE_PIPO_AVX2)
    &impl_avx2,
#endif
#if defined(NURI_HAVE_PIPO_NEON)
    &impl_neon,
#endif
#if defined(NURI_HAVE_PIPO_RV32_BS32)
    &impl_rv32_bs32,
#endif
#if defined(NURI_HAVE_PIPO_RV32)
    &impl_rv32_4blk,
    &impl_rv32_1blk,
#endif
#if !defined(NURI_PIPO_NO_BS64)
    &impl_bs64,
#endif
    &impl_ref,
};
#define N_IMPLS (sizeof impls / sizeof impls[0])

size_t nuri_pipo_block_bytes(void) { return NURI_PIPO_BLOCK_BYTES; }
size_t nuri_pipo_ctx_bytes(void) { return sizeof(nuri_pipo_ctx); }
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

int nuri_pipo_key_init(nuri_pipo_key *k, const uint8_t *key, size_t key_len, const char *impl_name)
{
    memset(k, 0, sizeof *k);
    if (key_len != NURI_PIPO128_KEY_BYTES && key_len != NURI_PIPO256_KEY_BYTES) return NURI_ELENGTH;
    int i = pick(impl_name);
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
