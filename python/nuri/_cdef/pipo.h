typedef struct nuri_pipo_key { ...; } nuri_pipo_key;
typedef struct nuri_pipo_ctx { ...; } nuri_pipo_ctx;
int nuri_pipo_key_init(nuri_pipo_key *k, const uint8_t *key, size_t key_len, const char *impl_name);
void nuri_pipo_key_wipe(nuri_pipo_key *k);
const char *nuri_pipo_key_impl_name(const nuri_pipo_key *k);
void nuri_pipo_encrypt_blocks(const nuri_pipo_key *k, uint8_t *out, const uint8_t *in, size_t nblocks);
void nuri_pipo_decrypt_blocks(const nuri_pipo_key *k, uint8_t *out, const uint8_t *in, size_t nblocks);
size_t nuri_pipo_impl_count(void);
const nuri_impl_info *nuri_pipo_impl_info(size_t i);
int nuri_pipo_impl_supported(size_t i);
const char *nuri_pipo_default_impl(void);
int nuri_pipo_init(nuri_pipo_ctx *ctx, const nuri_pipo_key *k, int mode, int encrypt,
                   const uint8_t *iv, size_t iv_len, int padding);
int nuri_pipo_update(nuri_pipo_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len,
                     const uint8_t *in, size_t in_len);
int nuri_pipo_final(nuri_pipo_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len);
void nuri_pipo_ctx_wipe(nuri_pipo_ctx *ctx);
int nuri_pipo_encrypt(const nuri_pipo_key *k, int mode, const uint8_t *iv, size_t iv_len, int padding,
                      uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *in, size_t in_len);
int nuri_pipo_decrypt(const nuri_pipo_key *k, int mode, const uint8_t *iv, size_t iv_len, int padding,
                      uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *in, size_t in_len);
