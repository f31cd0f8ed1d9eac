typedef struct nuri_schwaemm_ctx { ...; } nuri_schwaemm_ctx;
typedef struct nuri_esch_ctx { ...; } nuri_esch_ctx;
size_t nuri_sparkle_impl_count(void);
const nuri_impl_info *nuri_sparkle_impl_info(size_t i);
int nuri_sparkle_impl_supported(size_t i);
int nuri_sparkle_impl_multi(size_t i);
const char *nuri_sparkle_default_impl(void);
int nuri_sparkle_permute(uint32_t *state, unsigned nb, unsigned steps, const char *impl_name);
int nuri_sparkle_permute_bytes(uint8_t *state, size_t state_len, unsigned steps, const char *impl_name);
size_t nuri_schwaemm_key_bytes(int variant);
size_t nuri_schwaemm_nonce_bytes(int variant);
size_t nuri_schwaemm_tag_bytes(int variant);
size_t nuri_schwaemm_rate_bytes(int variant);
size_t nuri_schwaemm_ctx_bytes(void);
int nuri_schwaemm_encrypt(int variant, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *key,
                          size_t key_len, const uint8_t *nonce, size_t nonce_len, const uint8_t *ad, size_t ad_len,
                          const uint8_t *msg, size_t msg_len, const char *impl_name);
int nuri_schwaemm_decrypt(int variant, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *key,
                          size_t key_len, const uint8_t *nonce, size_t nonce_len, const uint8_t *ad, size_t ad_len,
                          const uint8_t *ct, size_t ct_len, const char *impl_name);
int nuri_schwaemm_encrypt_many(int variant, uint8_t *const *out, const uint8_t *key, size_t key_len,
                               const uint8_t *const *nonces, const uint8_t *const *ads, const size_t *ad_lens,
                               const uint8_t *const *msgs, const size_t *msg_lens, size_t count,
                               const char *impl_name);
size_t nuri_esch_ctx_bytes(void);
int nuri_esch_init(nuri_esch_ctx *ctx, size_t digest_bytes, const char *impl_name);
int nuri_esch_update(nuri_esch_ctx *ctx, const uint8_t *in, size_t in_len);
int nuri_esch_final(nuri_esch_ctx *ctx, uint8_t *out, size_t out_len);
int nuri_esch(size_t digest_bytes, uint8_t *out, const uint8_t *in, size_t in_len, const char *impl_name);
int nuri_esch_many(size_t digest_bytes, uint8_t *out, const uint8_t *const *msgs, const size_t *lens, size_t count,
                   const char *impl_name);
