/* PIPO-128-{ECB,CBC,CTR} and PIPO-256-{ECB,CBC,CTR} as OpenSSL ciphers over nuri's streaming
 * PIPO modes (nuri_pipo_init/update/final). ECB and CBC are 8-byte block ciphers with PKCS#7
 * padding switchable through EVP_CIPHER_CTX_set_padding, exactly like OpenSSL's own block
 * ciphers (the last block is held back until final when decrypting with padding). CTR is a
 * stream cipher (block size 1, any length, the 8-byte IV is the initial 64-bit big-endian counter). */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "nuri/pipo.h"
#include "prov.h"

typedef struct {
    size_t key_bytes;
    int mode; /* nuri_pipo_mode */
    nuri_pipo_key key;
    uint8_t iv[NURI_PIPO_BLOCK_BYTES];
    int have_key, have_iv, encrypt, padding, started;
    nuri_pipo_ctx st;
} pipo_ctx;

static void *pipo_newctx(size_t key_bytes, int mode)
{
    pipo_ctx *c = OPENSSL_zalloc(sizeof *c);
    if (!c) return NULL;
    c->key_bytes = key_bytes;
    c->mode = mode;
    c->padding = mode != NURI_PIPO_CTR; /* OpenSSL's default: padding on for block modes */
    return c;
}

static void pipo_freectx(void *vctx)
{
    pipo_ctx *c = vctx;
    if (!c) return;
    nuri_pipo_ctx_wipe(&c->st);
    nuri_pipo_key_wipe(&c->key);
    OPENSSL_clear_free(c, sizeof *c);
}

static void *pipo_dupctx(void *vctx)
{
    pipo_ctx *c = vctx, *d = OPENSSL_malloc(sizeof *d);
    if (d) memcpy(d, c, sizeof *d);
    return d;
}

static size_t pipo_iv_bytes(const pipo_ctx *c) { return c->mode == NURI_PIPO_ECB ? 0 : NURI_PIPO_BLOCK_BYTES; }

static int pipo_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int pipo_init(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                     const OSSL_PARAM params[], int encrypt)
{
    pipo_ctx *c = vctx;
    nuri_pipo_ctx_wipe(&c->st);
    c->started = 0;
    c->encrypt = encrypt;
    if (key) {
        if (keylen != c->key_bytes) {
            NURI_PROV_ERR(PROV_R_INVALID_KEY_LENGTH, "PIPO-%zu needs a %zu-byte key, got %zu", c->key_bytes * 8,
                          c->key_bytes, keylen);
            return 0;
        }
        if (nuri_pipo_key_init(&c->key, key, keylen, NULL) != NURI_OK) {
            NURI_PROV_ERR(PROV_R_INVALID_KEY, "PIPO key setup failed");
            return 0;
        }
        c->have_key = 1;
    }
    if (iv && c->mode != NURI_PIPO_ECB) {
        if (ivlen != NURI_PIPO_BLOCK_BYTES) {
            NURI_PROV_ERR(PROV_R_INVALID_IV_LENGTH, "PIPO needs an 8-byte IV, got %zu", ivlen);
            return 0;
        }
        memcpy(c->iv, iv, NURI_PIPO_BLOCK_BYTES);
        c->have_iv = 1;
    }
    return pipo_set_ctx_params(c, params);
}

static int pipo_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                      const OSSL_PARAM params[])
{
    return pipo_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int pipo_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                      const OSSL_PARAM params[])
{
    return pipo_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/* The nuri context is set up at the first update, so a padding change made after init (the
 * usual EVP_CIPHER_CTX_set_padding order) still applies. */
static int pipo_start(pipo_ctx *c)
{
    if (c->started) return 1;
    if (!c->have_key) {
        NURI_PROV_ERR(PROV_R_NO_KEY_SET, "PIPO: no key set");
        return 0;
    }
    if (c->mode != NURI_PIPO_ECB && !c->have_iv) {
        NURI_PROV_ERR(PROV_R_INVALID_IV_LENGTH, "PIPO: no IV set");
        return 0;
    }
    int rc =
        nuri_pipo_init(&c->st, &c->key, (nuri_pipo_mode)c->mode, c->encrypt, c->mode == NURI_PIPO_ECB ? NULL : c->iv,
                       pipo_iv_bytes(c), c->padding && c->mode != NURI_PIPO_CTR ? NURI_PAD_PKCS7 : NURI_PAD_NONE);
    if (rc != NURI_OK) {
        NURI_PROV_ERR(PROV_R_CIPHER_OPERATION_FAILED, "PIPO init: %s", nuri_strerror(rc));
        return 0;
    }
    c->started = 1;
    return 1;
}

static int pipo_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                       size_t inl)
{
    pipo_ctx *c = vctx;
    *outl = 0;
    if (!pipo_start(c)) return 0;
    if (inl == 0) return 1;
    if (!out) {
        NURI_PROV_ERR(PROV_R_INVALID_OUTPUT_LENGTH, "PIPO: no output buffer");
        return 0;
    }
    int rc = nuri_pipo_update(&c->st, out, outsize, outl, in, inl);
    if (rc != NURI_OK) {
        NURI_PROV_ERR(rc == NURI_EBUFFER ? PROV_R_OUTPUT_BUFFER_TOO_SMALL : PROV_R_CIPHER_OPERATION_FAILED,
                      "PIPO update: %s", nuri_strerror(rc));
        return 0;
    }
    return 1;
}

static int pipo_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    pipo_ctx *c = vctx;
    *outl = 0;
    if (!pipo_start(c)) return 0;
    int rc = nuri_pipo_final(&c->st, out, outsize, outl);
    c->started = 0; /* nuri_pipo_final wiped the stream; a new init (or update) starts over */
    if (rc == NURI_OK) return 1;
    if (rc == NURI_ELENGTH)
        NURI_PROV_ERR(PROV_R_WRONG_FINAL_BLOCK_LENGTH, "PIPO: data not a multiple of the 8-byte block");
    else if (rc == NURI_EPADDING) ERR_raise(ERR_LIB_PROV, PROV_R_BAD_DECRYPT);
    else NURI_PROV_ERR(PROV_R_CIPHER_OPERATION_FAILED, "PIPO final: %s", nuri_strerror(rc));
    return 0;
}

/* EVP_Cipher(): raw blocks, no padding and nothing held back (as OpenSSL's own ciphers do):
 * ECB and CBC take whole blocks only; CTR any length. */
static int pipo_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                       size_t inl)
{
    pipo_ctx *c = vctx;
    *outl = 0;
    if (c->mode != NURI_PIPO_CTR && inl % NURI_PIPO_BLOCK_BYTES != 0) {
        NURI_PROV_ERR(PROV_R_WRONG_FINAL_BLOCK_LENGTH, "PIPO: EVP_Cipher takes whole 8-byte blocks");
        return 0;
    }
    if (!c->started) {
        int pad = c->padding;
        c->padding = 0;
        int ok = pipo_start(c);
        c->padding = pad;
        if (!ok) return 0;
    } else if (c->st.padding != NURI_PAD_NONE) {
        NURI_PROV_ERR(PROV_R_INVALID_MODE, "PIPO: EVP_Cipher cannot continue a padded EVP_CipherUpdate stream");
        return 0;
    }
    return pipo_update(c, out, outl, outsize, in, inl);
}

static int pipo_get_params(OSSL_PARAM params[], size_t key_bytes, int mode)
{
    static const unsigned evp_mode[] = {EVP_CIPH_ECB_MODE, EVP_CIPH_CBC_MODE, EVP_CIPH_CTR_MODE};
    nuri_prov_cipher_info info = {evp_mode[mode], key_bytes, mode == NURI_PIPO_ECB ? 0 : NURI_PIPO_BLOCK_BYTES,
                                  mode == NURI_PIPO_CTR ? 1 : NURI_PIPO_BLOCK_BYTES, 0};
    return nuri_prov_cipher_get_params(params, &info);
}

static int pipo_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    pipo_ctx *c = vctx;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !OSSL_PARAM_set_size_t(p, c->key_bytes)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !OSSL_PARAM_set_size_t(p, pipo_iv_bytes(c)))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_PADDING)) && !OSSL_PARAM_set_uint(p, (unsigned)c->padding))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IV)) && c->mode != NURI_PIPO_ECB &&
        !OSSL_PARAM_set_octet_string(p, c->iv, NURI_PIPO_BLOCK_BYTES))
        return 0;
    return 1;
}

static int pipo_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    pipo_ctx *c = vctx;
    const OSSL_PARAM *p;
    if (!params) return 1;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_PADDING))) {
        unsigned pad;
        if (!OSSL_PARAM_get_uint(p, &pad)) {
            ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_GET_PARAMETER);
            return 0;
        }
        if (c->started && (pad != 0) != (c->padding != 0)) {
            NURI_PROV_ERR(PROV_R_INVALID_MODE, "PIPO: padding cannot change in the middle of a message");
            return 0;
        }
        c->padding = pad != 0;
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_IVLEN))) {
        size_t il;
        if (!OSSL_PARAM_get_size_t(p, &il) || il != pipo_iv_bytes(c)) {
            NURI_PROV_ERR(PROV_R_INVALID_IV_LENGTH, "PIPO: the IV length is fixed (%zu bytes)", pipo_iv_bytes(c));
            return 0;
        }
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN))) {
        size_t kl;
        if (!OSSL_PARAM_get_size_t(p, &kl) || kl != c->key_bytes) {
            NURI_PROV_ERR(PROV_R_INVALID_KEY_LENGTH, "PIPO-%zu has a fixed %zu-byte key", c->key_bytes * 8,
                          c->key_bytes);
            return 0;
        }
    }
    return 1;
}

static const OSSL_PARAM *pipo_gettable_ctx_params(void *cctx, void *provctx)
{
    static const OSSL_PARAM t[] = {OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
                                   OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
                                   OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
                                   OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0), OSSL_PARAM_END};
    (void)cctx, (void)provctx;
    return t;
}

static const OSSL_PARAM *pipo_settable_ctx_params(void *cctx, void *provctx)
{
    static const OSSL_PARAM t[] = {OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
                                   OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
                                   OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL), OSSL_PARAM_END};
    (void)cctx, (void)provctx;
    return t;
}

#define PIPO_CIPHER(bits, MODE, mode)                                                         \
    static void *pipo##bits##_##mode##_newctx(void *provctx)                                  \
    {                                                                                         \
        (void)provctx;                                                                        \
        return pipo_newctx(bits / 8, NURI_PIPO_##MODE);                                       \
    }                                                                                         \
    static int pipo##bits##_##mode##_get_params(OSSL_PARAM params[])                          \
    {                                                                                         \
        return pipo_get_params(params, bits / 8, NURI_PIPO_##MODE);                           \
    }                                                                                         \
    static const OSSL_DISPATCH pipo##bits##_##mode##_functions[] = {                          \
        {OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))pipo##bits##_##mode##_newctx},              \
        {OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))pipo_freectx},                             \
        {OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))pipo_dupctx},                               \
        {OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))pipo_einit},                          \
        {OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))pipo_dinit},                          \
        {OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))pipo_update},                               \
        {OSSL_FUNC_CIPHER_FINAL, (void (*)(void))pipo_final},                                 \
        {OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))pipo_cipher},                               \
        {OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))pipo##bits##_##mode##_get_params},      \
        {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))nuri_prov_cipher_gettable_params}, \
        {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))pipo_get_ctx_params},               \
        {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))pipo_set_ctx_params},               \
        {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))pipo_gettable_ctx_params},     \
        {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))pipo_settable_ctx_params},     \
        {0, NULL}};

PIPO_CIPHER(128, ECB, ecb)
PIPO_CIPHER(128, CBC, cbc)
PIPO_CIPHER(128, CTR, ctr)
PIPO_CIPHER(256, ECB, ecb)
PIPO_CIPHER(256, CBC, cbc)
PIPO_CIPHER(256, CTR, ctr)

#define NURI_PROPS "provider=nuri"
const OSSL_ALGORITHM nuri_prov_ciphers[] = {
    {"PIPO-128-ECB", NURI_PROPS, pipo128_ecb_functions, "PIPO-64/128 in ECB mode (nuri)"},
    {"PIPO-128-CBC", NURI_PROPS, pipo128_cbc_functions, "PIPO-64/128 in CBC mode (nuri)"},
    {"PIPO-128-CTR", NURI_PROPS, pipo128_ctr_functions, "PIPO-64/128 in CTR mode (nuri)"},
    {"PIPO-256-ECB", NURI_PROPS, pipo256_ecb_functions, "PIPO-64/256 in ECB mode (nuri)"},
    {"PIPO-256-CBC", NURI_PROPS, pipo256_cbc_functions, "PIPO-64/256 in CBC mode (nuri)"},
    {"PIPO-256-CTR", NURI_PROPS, pipo256_ctr_functions, "PIPO-64/256 in CTR mode (nuri)"},
    {"SCHWAEMM128-128", NURI_PROPS, nuri_prov_schwaemm128_128_functions, "Schwaemm128-128 AEAD (nuri)"},
    {"SCHWAEMM256-128", NURI_PROPS, nuri_prov_schwaemm256_128_functions, "Schwaemm256-128 AEAD (nuri)"},
    {"SCHWAEMM192-192", NURI_PROPS, nuri_prov_schwaemm192_192_functions, "Schwaemm192-192 AEAD (nuri)"},
    {"SCHWAEMM256-256", NURI_PROPS, nuri_prov_schwaemm256_256_functions, "Schwaemm256-256 AEAD (nuri)"},
    {NULL, NULL, NULL, NULL}};
