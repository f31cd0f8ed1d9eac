typedef struct nuri_fea_u128 { uint64_t hi, lo; } nuri_fea_u128;
typedef struct nuri_fea_key { ...; } nuri_fea_key;
typedef struct nuri_fea_fmt { ...; } nuri_fea_fmt;
#define NURI_FEA_ALLOW_SMALL_DOMAIN 1
size_t nuri_fea_key_bytes(void);
int nuri_fea_key_init(nuri_fea_key *k, const uint8_t *key, size_t key_len, unsigned variant, unsigned nbits,
                      const char *impl_name);
void nuri_fea_key_wipe(nuri_fea_key *k);
const char *nuri_fea_key_impl_name(const nuri_fea_key *k);
unsigned nuri_fea_tweak_bits(const nuri_fea_key *k);
int nuri_fea_encrypt_u64(const nuri_fea_key *k, uint64_t *out, const uint64_t *in, size_t count,
                         const nuri_fea_u128 *tweaks, size_t ntweaks);
int nuri_fea_decrypt_u64(const nuri_fea_key *k, uint64_t *out, const uint64_t *in, size_t count,
                         const nuri_fea_u128 *tweaks, size_t ntweaks);
int nuri_fea_encrypt_u128(const nuri_fea_key *k, nuri_fea_u128 *out, const nuri_fea_u128 *in, size_t count,
                          const nuri_fea_u128 *tweaks, size_t ntweaks);
int nuri_fea_decrypt_u128(const nuri_fea_key *k, nuri_fea_u128 *out, const nuri_fea_u128 *in, size_t count,
                          const nuri_fea_u128 *tweaks, size_t ntweaks);
size_t nuri_fea_impl_count(void);
const nuri_impl_info *nuri_fea_impl_info(size_t i);
int nuri_fea_impl_supported(size_t i);
const char *nuri_fea_default_impl(void);
size_t nuri_fea_fmt_bytes(void);
unsigned nuri_fea_fmt_nbits(unsigned radix, unsigned len);
int nuri_fea_fmt_init(nuri_fea_fmt *f, const uint8_t *key, size_t key_len, unsigned variant, unsigned radix,
                      unsigned len, unsigned flags, const char *impl_name);
void nuri_fea_fmt_wipe(nuri_fea_fmt *f);
int nuri_fea_fmt_encrypt(const nuri_fea_fmt *f, uint16_t *out, const uint16_t *in, size_t count,
                         const nuri_fea_u128 *tweaks, size_t ntweaks);
int nuri_fea_fmt_decrypt(const nuri_fea_fmt *f, uint16_t *out, const uint16_t *in, size_t count,
                         const nuri_fea_u128 *tweaks, size_t ntweaks);
int nuri_fea_fmt_encrypt_digits(const nuri_fea_fmt *f, char *out, const char *in, size_t count,
                                const nuri_fea_u128 *tweaks, size_t ntweaks);
int nuri_fea_fmt_decrypt_digits(const nuri_fea_fmt *f, char *out, const char *in, size_t count,
                                const nuri_fea_u128 *tweaks, size_t ntweaks);
