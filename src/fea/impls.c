/* FEA registry and key schedule (one for every kernel: it calls the kernel's own SD, so a
 * constant-time kernel gets a constant-time key schedule). */
#include "fea_impl.h"
#include "fea_tables.h"

/* Ordered fastest first: dispatch takes the first constant-time entry the CPU supports. */
#if defined(NURI_HAVE_FEA_GFNI)
static const nuri_fea_impl impl_gfni = {
    {"gfni", NURI_CPU_AVX512F | NURI_CPU_AVX512BW | NURI_CPU_GFNI, 1,
     "AVX-512 + GFNI: 32 values per pass, 8 per zmm; S-box as gf2p8affineqb + gf2p8affineinvqb with M's "
     "coefficients folded in, M as 8 byte shuffles"},
    nuri_fea_gfni_f, nuri_fea_gfni_sd};
#endif
#if defined(NURI_HAVE_FEA_AESNI)
static const nuri_fea_impl impl_vaes = {
    {"vaes", NURI_CPU_AVX2 | NURI_CPU_AESNI | NURI_CPU_VAES, 1,
     "AVX2 + VAES: 8 values per pass, 4 per ymm; S-box as AESENCLAST with a zero key between GF(2)-linear maps "
     "(pshufb nibble tables), M as pshufb constant multiplies and byte shuffles"},
    nuri_fea_vaes_f, nuri_fea_vaes_sd};
static const nuri_fea_impl impl_aesni = {
    {"aesni", NURI_CPU_SSSE3 | NURI_CPU_AESNI, 1,
     "AES-NI + SSSE3: the vaes kernel on xmm, 2 values per register (x86-64 without AVX2/VAES)"},
    nuri_fea_aesni_f, nuri_fea_aesni_sd};
#endif
#if defined(NURI_HAVE_FEA_NEON)
#include "neon/fea_neon.h"
static const nuri_fea_impl impl_neon = {
    {"neon", NURI_CPU_NEON, 1,
     "AArch64 NEON, 16 values per pass, byte-sliced; S-box as tbl/tbx on registers, M as a truncated product in "
     "the (z+1) basis with split-nibble tbl multiplies"},
    nuri_fea_neon_f, nuri_fea_neon_sd};
#endif
#if defined(__AVR__)
static const nuri_fea_impl impl_avr = {
    {"avr", 0, 0, "AVR assembly, flash tables c_k*S read with LPM; secret-indexed: NOT constant time"},
    nuri_fea_avr_f, nuri_fea_avr_sd};
#else
static const nuri_fea_impl impl_table = {
    {"table", 0, 0, "8 T-tables of 256 x u64 (S-layer and M combined); secret-indexed loads: NOT constant time"},
    nuri_fea_table_f, nuri_fea_table_sd};
static const nuri_fea_impl impl_ct64 = {
    {"ct64", 0, 1, "portable C, bitsliced across 64 values; S-box computed as x^254 in GF(2^8) (no tables)"},
    nuri_fea_ct64_f, nuri_fea_ct64_sd};
#endif
static const nuri_fea_impl impl_bitplane = {
    {"bitplane", 0, 1, "portable C, one value at a time, the 8 S-boxes of a layer as bit planes; no tables"},
    nuri_fea_bitplane_f, nuri_fea_bitplane_sd};
static const nuri_fea_impl impl_ref = {
    {"ref", 0, 0, "mirror of the spec: S-box table and GF(2^8) multiplies per byte; NOT constant time"},
    nuri_fea_ref_f, nuri_fea_ref_sd};

static const nuri_fea_impl *const impls[] = {
#if defined(NURI_HAVE_FEA_GFNI)
    &impl_gfni,
#endif
#if defined(NURI_HAVE_FEA_AESNI)
    &impl_vaes,
    &impl_aesni,
#endif
#if defined(NURI_HAVE_FEA_NEON)
    &impl_neon,
#endif
#if defined(__AVR__)
    &impl_bitplane, /* the constant-time default on AVR */
    &impl_avr,
#else
    &impl_table,
    &impl_bitplane, /* as fast as ct64 on batches (x86-64), much faster on one value and the key schedule */
    &impl_ct64,
#endif
    &impl_ref,
};
#define N_IMPLS (sizeof impls / sizeof impls[0])

#if defined(__AVR__)
#define FEA_RC(v, ks, s) nuri_fea_avr_rc((v), (ks), (s)) /* in flash: 2 KiB of RAM */
#else
#define FEA_RC(v, ks, s) fea_rc[(v) - 1][ks][s]
#endif

size_t nuri_fea_key_bytes(void) { return sizeof(nuri_fea_key); }
size_t nuri_fea_impl_count(void) { return N_IMPLS; }
const nuri_impl_info *nuri_fea_impl_info(size_t i) { return i < N_IMPLS ? &impls[i]->info : NULL; }
int nuri_fea_impl_supported(size_t i) { return i < N_IMPLS && nuri_cpu_has(impls[i]->info.cpu_features); }

static int pick(const char *forced)
{
    const nuri_impl_info *infos[N_IMPLS];
    for (size_t i = 0; i < N_IMPLS; i++) infos[i] = &impls[i]->info;
    return nuri_dispatch("fea", infos, N_IMPLS, forced);
}

const char *nuri_fea_default_impl(void)
{
    int i = pick(NULL);
    return i < 0 ? NULL : impls[i]->info.name;
}

int nuri_fea_key_init(nuri_fea_key *k, const uint8_t *key, size_t key_len, unsigned variant, unsigned nbits,
                      const char *impl_name)
{
    memset(k, 0, sizeof *k);
    if (key_len != 16 && key_len != 24 && key_len != 32) return NURI_ELENGTH;
    if (variant != 1 && variant != 2) return NURI_EINVAL;
    if (nbits < NURI_FEA_MIN_BITS || nbits > NURI_FEA_MAX_BITS) return NURI_EINVAL;
    int i = pick(impl_name);
    if (i < 0) return i;
    const nuri_fea_impl *impl = impls[i];
    unsigned ks = (unsigned)(key_len / 8 - 2); /* 0, 1, 2 for 128/192/256 */
    static const unsigned rounds[2][3] = {{12, 14, 16}, {18, 21, 24}};
    k->rounds = rounds[variant - 1][ks];
    k->variant = variant;
    k->key_bits = (unsigned)key_len * 8;
    k->n = nbits;
    k->n1 = (nbits + 1) / 2;
    k->n2 = nbits / 2;
    k->impl = impl;
    /* Key schedule (spec section 1): key words big-endian, absent words 0; n XORed into Y's input. */
    uint64_t ka = nuri_load64_be(key), kb = nuri_load64_be(key + 8);
    uint64_t kc = key_len >= 24 ? nuri_load64_be(key + 16) : 0, kd = key_len == 32 ? nuri_load64_be(key + 24) : 0;
    for (unsigned s = 0; s < (k->rounds + 1) / 2; s++) {
        uint64_t x = impl->sd(ka ^ kc ^ FEA_RC(variant, ks, s));
        uint64_t y = impl->sd(kb ^ kd ^ (uint64_t)nbits ^ x);
        x ^= y;
        ka ^= x;
        kb ^= y;
        kc ^= x;
        kd ^= y;
        uint64_t t = kc;
        kc ^= kd;
        kd = t;
        k->rk[2 * s][0] = ka;
        k->rk[2 * s][1] = kb;
        k->rk[2 * s + 1][0] = kc;
        k->rk[2 * s + 1][1] = kd;
    }
    nuri_wipe(&ka, sizeof ka);
    nuri_wipe(&kb, sizeof kb);
    nuri_wipe(&kc, sizeof kc);
    nuri_wipe(&kd, sizeof kd);
    return NURI_OK;
}

void nuri_fea_key_wipe(nuri_fea_key *k) { nuri_wipe(k, sizeof *k); }

const char *nuri_fea_key_impl_name(const nuri_fea_key *k) { return k->impl ? k->impl->info.name : NULL; }

unsigned nuri_fea_tweak_bits(const nuri_fea_key *k) { return k->variant == 1 ? 128 - k->n : 128; }
