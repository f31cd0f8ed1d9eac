#define NURI_MLKEM512_EK_BYTES 800
#define NURI_MLKEM512_DK_BYTES 1632
#define NURI_MLKEM512_CT_BYTES 768
#define NURI_MLKEM768_EK_BYTES 1184
#define NURI_MLKEM768_DK_BYTES 2400
#define NURI_MLKEM768_CT_BYTES 1088
#define NURI_MLKEM1024_EK_BYTES 1568
#define NURI_MLKEM1024_DK_BYTES 3168
#define NURI_MLKEM1024_CT_BYTES 1568
#define NURI_MLKEM_SS_BYTES 32
#define NURI_MLKEM_KEYGEN_SEED_BYTES 64
#define NURI_MLKEM_ENCAPS_SEED_BYTES 32
size_t nuri_mlkem_ek_bytes(unsigned level);
size_t nuri_mlkem_dk_bytes(unsigned level);
size_t nuri_mlkem_ct_bytes(unsigned level);
size_t nuri_mlkem_ss_bytes(void);
int nuri_mlkem_keygen(unsigned level, uint8_t *ek, size_t ek_len, uint8_t *dk, size_t dk_len,
                      const uint8_t *seed, size_t seed_len, const char *impl);
int nuri_mlkem_encaps(unsigned level, uint8_t *ct, size_t ct_len, uint8_t *ss, size_t ss_len,
                      const uint8_t *ek, size_t ek_len, const uint8_t *m, size_t m_len, const char *impl);
int nuri_mlkem_decaps(unsigned level, uint8_t *ss, size_t ss_len, const uint8_t *ct, size_t ct_len,
                      const uint8_t *dk, size_t dk_len, const char *impl);
int nuri_mlkem_encaps_many(unsigned level, uint8_t *ct, size_t ct_len, uint8_t *ss, size_t ss_len,
                           const uint8_t *ek, size_t ek_len, const uint8_t *m, size_t m_len, size_t n,
                           const char *impl);
int nuri_mlkem_decaps_many(unsigned level, uint8_t *ss, size_t ss_len, const uint8_t *ct, size_t ct_len,
                           const uint8_t *dk, size_t dk_len, size_t n, const char *impl);
int nuri_mlkem_check_ek(unsigned level, const uint8_t *ek, size_t ek_len);
int nuri_mlkem_check_dk(unsigned level, const uint8_t *dk, size_t dk_len);
size_t nuri_mlkem_impl_count(void);
const nuri_impl_info *nuri_mlkem_impl_info(size_t i);
int nuri_mlkem_impl_supported(size_t i);
const char *nuri_mlkem_default_impl(void);
