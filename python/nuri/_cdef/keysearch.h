typedef struct nuri_keysearch_params {
    uint8_t key[32];
    uint8_t mask[32];
    size_t key_len;
    unsigned rounds;
    uint8_t pt[8], ct[8];
} nuri_keysearch_params;
int nuri_keysearch_bits(const nuri_keysearch_params *p, unsigned *bits);
int nuri_keysearch_key(const nuri_keysearch_params *p, uint64_t index, uint8_t *key_out);
int nuri_keysearch_run(const nuri_keysearch_params *p, uint64_t start, uint64_t count,
                       uint64_t *hits, size_t max_hits, size_t *n_hits, uint64_t *done, const char *engine);
int nuri_keysearch_selftest(const char *engine);
int nuri_keysearch_encrypt(const uint8_t *key, size_t key_len, unsigned rounds, const uint8_t *pt, uint8_t *ct);
int nuri_keysearch_verify(const uint8_t *key, size_t key_len, unsigned rounds, const uint8_t *pts,
                          const uint8_t *cts, size_t npairs);
size_t nuri_keysearch_impl_count(void);
const nuri_impl_info *nuri_keysearch_impl_info(size_t i);
int nuri_keysearch_impl_supported(size_t i);
size_t nuri_keysearch_impl_lanes(size_t i);
const char *nuri_keysearch_default_impl(void);
