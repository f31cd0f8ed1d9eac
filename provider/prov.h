/* nuri OpenSSL 3 provider: shared declarations. The provider holds no cryptography of its own:
 * every operation calls libnuri's public API (the headers in include/nuri). Written against the OpenSSL 3.0
 * provider API. */
#ifndef NURI_PROV_H
#define NURI_PROV_H

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/err.h>
#include <openssl/proverr.h>

/* Provider context: a child library context bound to the core (for BIOs over core BIOs). */
typedef struct nuri_prov_ctx {
    OSSL_LIB_CTX *libctx;
} nuri_prov_ctx;

/* Algorithm tables, one per operation (NULL-terminated). */
extern const OSSL_ALGORITHM nuri_prov_ciphers[];
extern const OSSL_ALGORITHM nuri_prov_digests[];
extern const OSSL_ALGORITHM nuri_prov_kems[];
extern const OSSL_ALGORITHM nuri_prov_keymgmt[];
extern const OSSL_ALGORITHM nuri_prov_encoders[];
extern const OSSL_ALGORITHM nuri_prov_decoders[];

/* Schwaemm dispatch tables (prov_schwaemm.c), listed in nuri_prov_ciphers (prov_pipo.c). */
extern const OSSL_DISPATCH nuri_prov_schwaemm128_128_functions[], nuri_prov_schwaemm256_128_functions[],
    nuri_prov_schwaemm192_192_functions[], nuri_prov_schwaemm256_256_functions[];

/* What EVP caches about a cipher (OSSL_FUNC_CIPHER_GET_PARAMS), shared by PIPO and Schwaemm.
 * aead = 1 also sets custom-iv (the AEAD handles its nonce itself). */
typedef struct nuri_prov_cipher_info {
    unsigned mode; /* EVP_CIPH_*_MODE */
    size_t key_bytes, iv_bytes, block_bytes;
    int aead;
} nuri_prov_cipher_info;
int nuri_prov_cipher_get_params(OSSL_PARAM params[], const nuri_prov_cipher_info *info);
const OSSL_PARAM *nuri_prov_cipher_gettable_params(void *provctx);

/* Raises an OpenSSL error in the provider library with a formatted message. */
#define NURI_PROV_ERR(reason, ...) ERR_raise_data(ERR_LIB_PROV, (reason), __VA_ARGS__)

/* ---- ML-KEM keys (prov_mlkem_key.c), shared by keymgmt, KEM, encoders and decoders ---- */
#include "nuri/mlkem.h"

typedef struct nuri_prov_mlkem_key {
    unsigned level; /* 512, 768, 1024 */
    int has_pub, has_priv, has_seed;
    uint8_t ek[NURI_MLKEM_MAX_EK_BYTES];
    uint8_t dk[NURI_MLKEM_MAX_DK_BYTES];
    uint8_t seed[NURI_MLKEM_KEYGEN_SEED_BYTES];
    nuri_prov_ctx *prov;
} nuri_prov_mlkem_key;

nuri_prov_mlkem_key *nuri_prov_mlkem_key_new(nuri_prov_ctx *prov, unsigned level);
void nuri_prov_mlkem_key_free(nuri_prov_mlkem_key *k);
/* Fill a key from raw material (any of them may be NULL); checks lengths and consistency.
 * Returns 1 on success, 0 with an OpenSSL error raised. */
int nuri_prov_mlkem_key_set(nuri_prov_mlkem_key *k, const uint8_t *seed, size_t seed_len, const uint8_t *dk,
                            size_t dk_len, const uint8_t *ek, size_t ek_len);
/* Names: "ML-KEM-768" etc.; the DER OID body for the SPKI/PKCS#8 algorithm identifier. */
const char *nuri_prov_mlkem_name(unsigned level);
/* NIST OID 2.16.840.1.101.3.4.4.{1,2,3} as dotted text. */
const char *nuri_prov_mlkem_oid(unsigned level);

#endif
