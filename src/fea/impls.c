/* FEA registry and key schedule (one for every kernel: it calls the kernel's own SD, so a
 * constant-time kernel gets a constant-time key schedule). */
#include "fea_impl.h"
#include "fea_tables.h"

/* The backends, fastest first (dispatch takes the first constant-time entry the CPU supports).
 * Each folder defines its entry nuri_fea_backend_<name>; family.cmake's nuri_backend() line
 * defines NURI_HAVE_FEA_<FOLDER> when it builds the folder. Adding a backend = one line here.
 * The aesni folder holds two backends (vaes: AVX2 + VAES, aesni: 128-bit AES-NI); neon_aes is
 * the same body on ARMv8 AESE, after neon, which executes fewer instructions (485 vs 906 per
 * value at 256 values, scripts/bench-fea-neon.sh). bitplane is as
 * fast as ct64 on batches (x86-64) and much faster on one value and the key schedule; it is the
 * constant-time default on AVR (table and avr are not constant time: never chosen silently). */
#define FEA_BACKENDS(X)                 \
    X(NURI_HAVE_FEA_GFNI, gfni)         \
    X(NURI_HAVE_FEA_AESNI, vaes)        \
    X(NURI_HAVE_FEA_AESNI, aesni)       \
    X(NURI_HAVE_FEA_NEON, neon)         \
    X(NURI_HAVE_FEA_NEON_AES, neon_aes) \
    X(NURI_HAVE_FEA_TABLE, table)       \
    X(NURI_HAVE_FEA_AVR, avr)           \
    X(NURI_HAVE_FEA_BITPLANE, bitplane) \
    X(NURI_HAVE_FEA_CT64, ct64)         \
    X(1, ref)

#define DECLARE(cfg, name) extern const nuri_fea_impl nuri_fea_backend_##name;
#define ENTRY(cfg, name)   NURI_IF(cfg, &nuri_fea_backend_##name)
FEA_BACKENDS(DECLARE)
static const nuri_fea_impl *const impls[] = {FEA_BACKENDS(ENTRY)};
#define N_IMPLS (sizeof impls / sizeof impls[0])

#if defined(__AVR__)
#define FEA_RC(v, ks, s) nuri_fea_avr_rc((v), (ks), (s)) /* in flash: 2 KiB of RAM */
#else
#define FEA_RC(v, ks, s) fea_rc[(v) - 1][ks][s]
#endif

size_t nuri_fea_key_struct_bytes(void) { return sizeof(nuri_fea_key); }
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

int nuri_fea_key_init(nuri_fea_key *k, const uint8_t *key, size_t key_len, nuri_fea_variant variant, unsigned nbits,
                      const char *impl)
{
    memset(k, 0, sizeof *k);
    if (key_len != 16 && key_len != 24 && key_len != 32) return NURI_ELENGTH;
    if (variant != NURI_FEA1 && variant != NURI_FEA2) return NURI_EINVAL;
    if (nbits < NURI_FEA_MIN_BITS || nbits > NURI_FEA_MAX_BITS) return NURI_EINVAL;
    int i = pick(impl);
    if (i < 0) return i;
    const nuri_fea_impl *be = impls[i];
    unsigned ks = (unsigned)(key_len / 8 - 2); /* 0, 1, 2 for 128/192/256 */
    static const unsigned rounds[2][3] = {{12, 14, 16}, {18, 21, 24}};
    k->rounds = rounds[variant - 1][ks];
    k->variant = variant;
    k->n = nbits;
    k->n1 = (nbits + 1) / 2;
    k->n2 = nbits / 2;
    k->impl = be;
    /* Key schedule (spec section 1): key words big-endian, absent words 0; n XORed into Y's input. */
    uint64_t ka = nuri_load64_be(key), kb = nuri_load64_be(key + 8);
    uint64_t kc = key_len >= 24 ? nuri_load64_be(key + 16) : 0, kd = key_len == 32 ? nuri_load64_be(key + 24) : 0;
    for (unsigned s = 0; s < (k->rounds + 1) / 2; s++) {
        uint64_t x = be->sd(ka ^ kc ^ FEA_RC(variant, ks, s));
        uint64_t y = be->sd(kb ^ kd ^ (uint64_t)nbits ^ x);
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
