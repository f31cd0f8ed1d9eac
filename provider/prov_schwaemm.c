/* SCHWAEMM128-128, SCHWAEMM256-128, SCHWAEMM192-192 and SCHWAEMM256-256 as OpenSSL AEAD ciphers
 * over libnuri's Schwaemm API.
 *
 * Encryption streams: EVP_EncryptUpdate(out = NULL) absorbs AAD, EVP_EncryptUpdate(out) writes
 * ciphertext one rate-sized block behind the input (Schwaemm treats the last block specially,
 * so it is held until final); the block size is reported as the rate, so EVP's output bounds
 * (update: inl + block size, final: block size) hold. The tag is read after
 * EVP_EncryptFinal_ex through OSSL_CIPHER_PARAM_AEAD_TAG (EVP_CTRL_AEAD_GET_TAG).
 *
 * Decryption never releases unauthenticated plaintext, and never writes more than the caller's
 * output size (outsize: EVP_DecryptUpdate passes inl + the block size, EVP_DecryptFinal_ex the
 * block size). Two ways to call it:
 *  - one-shot, for messages of any length: set the tag (EVP_CTRL_AEAD_SET_TAG /
 *    OSSL_CIPHER_PARAM_AEAD_TAG) first, then the AAD, then the WHOLE ciphertext in one
 *    EVP_DecryptUpdate. That call runs libnuri's one-pass decryption (nuri_schwaemm_decrypt, the call
 *    an application would make directly) and writes the plaintext only if the tag verified;
 *    EVP_DecryptFinal_ex writes 0 bytes. A second EVP_DecryptUpdate with message bytes is an error.
 *  - streaming, with the tag set after the updates: EVP_DecryptUpdate holds copies of the AAD and
 *    the ciphertext and writes 0 bytes; EVP_DecryptFinal_ex checks the tag and writes the plaintext,
 *    which it can only do when it fits the block size it is given. A longer message fails there with
 *    "output buffer too small" and nothing written (the loop GCM users write would otherwise overrun
 *    its buffer: an AEAD that holds everything until the tag cannot release it piecewise).
 * A wrong tag fails with nothing written. The held buffers are wiped once used (the ciphertext
 * buffer held the plaintext) and when the context is freed; the key and nonce live in the context
 * until then. */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "nuri/sparkle.h"
#include "prov.h"

/* A growing buffer (decryption holds its AAD and ciphertext until final). */
typedef struct {
    uint8_t *p;
    size_t len, cap;
} sch_buf;

static int buf_add(sch_buf *b, const unsigned char *in, size_t inl)
{
    if (b->len + inl < inl) return 0;
    if (b->len + inl > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + inl) {
            if (cap > SIZE_MAX / 2) return 0;
            cap *= 2;
        }
        /* not OPENSSL_realloc: the old block goes back wiped (it may have held plaintext) */
        uint8_t *p = OPENSSL_malloc(cap);
        if (!p) return 0;
        if (b->len) memcpy(p, b->p, b->len);
        OPENSSL_clear_free(b->p, b->cap);
        b->p = p;
        b->cap = cap;
    }
    if (inl) memcpy(b->p + b->len, in, inl);
    b->len += inl;
    return 1;
}

/* Empties the buffer, wiping what it held; keeps the memory for the next message. */
static void buf_clear(sch_buf *b)
{
    if (b->len) OPENSSL_cleanse(b->p, b->len);
    b->len = 0;
}

static void buf_free(sch_buf *b)
{
    OPENSSL_clear_free(b->p, b->cap);
    b->p = NULL;
    b->len = b->cap = 0;
}

/* d = a copy of the held bytes of s (d's struct was memcpy'd from s). */
static int buf_dup(sch_buf *d, const sch_buf *s)
{
    d->p = NULL;
    d->len = d->cap = 0;
    return buf_add(d, s->p, s->len);
}

typedef struct {
    int variant;
    size_t key_bytes, nonce_bytes, tag_bytes;
    uint8_t key[NURI_SCHWAEMM_MAX_KEY_BYTES], nonce[NURI_SCHWAEMM_MAX_NONCE_BYTES];
    uint8_t tag[NURI_SCHWAEMM_MAX_TAG_BYTES];
    int have_key, have_nonce, encrypt, started, in_msg, tag_ready, failed;
    int oneshot;          /* decryption: the tag came first and the one EVP_DecryptUpdate released the message */
    nuri_schwaemm_ctx st; /* encryption only */
    sch_buf ad, ct;       /* decryption: the AAD, and the ciphertext || tag until final */
} sch_ctx;

static void *sch_newctx(int variant)
{
    sch_ctx *c = OPENSSL_zalloc(sizeof *c);
    if (!c) return NULL;
    c->variant = variant;
    c->key_bytes = nuri_schwaemm_key_bytes(variant);
    c->nonce_bytes = nuri_schwaemm_nonce_bytes(variant);
    c->tag_bytes = nuri_schwaemm_tag_bytes(variant);
    return c;
}

static void sch_reset_stream(sch_ctx *c)
{
    nuri_schwaemm_ctx_wipe(&c->st);
    c->started = c->in_msg = c->failed = c->oneshot = 0;
    c->tag_ready = 0; /* a tag is for one message (decryption) / read after its final (encryption) */
    buf_clear(&c->ad);
    buf_clear(&c->ct);
}

static void sch_freectx(void *vctx)
{
    sch_ctx *c = vctx;
    if (!c) return;
    sch_reset_stream(c);
    buf_free(&c->ad);
    buf_free(&c->ct);
    OPENSSL_clear_free(c, sizeof *c);
}

static void *sch_dupctx(void *vctx)
{
    sch_ctx *c = vctx, *d = OPENSSL_malloc(sizeof *d);
    if (!d) return NULL;
    memcpy(d, c, sizeof *d);
    int ok = buf_dup(&d->ad, &c->ad);
    ok = buf_dup(&d->ct, &c->ct) && ok;
    if (!ok) {
        sch_freectx(d);
        return NULL;
    }
    return d;
}

static int sch_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int sch_init(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                    const OSSL_PARAM params[], int encrypt)
{
    sch_ctx *c = vctx;
    sch_reset_stream(c);
    c->encrypt = encrypt;
    c->tag_ready = 0;
    if (key) {
        if (keylen != c->key_bytes) {
            NURI_PROV_ERR(PROV_R_INVALID_KEY_LENGTH, "this Schwaemm variant needs a %zu-byte key, got %zu",
                          c->key_bytes, keylen);
            return 0;
        }
        memcpy(c->key, key, keylen);
        c->have_key = 1;
    }
    if (!sch_set_ctx_params(c, params)) return 0;
    if (iv) {
        if (ivlen != c->nonce_bytes) {
            NURI_PROV_ERR(PROV_R_INVALID_IV_LENGTH, "this Schwaemm variant needs a %zu-byte nonce, got %zu",
                          c->nonce_bytes, ivlen);
            return 0;
        }
        memcpy(c->nonce, iv, ivlen);
        c->have_nonce = 1;
    }
    return 1;
}

static int sch_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                     const OSSL_PARAM params[])
{
    return sch_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int sch_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                     const OSSL_PARAM params[])
{
    return sch_init(vctx, key, keylen, iv, ivlen, params, 0);
}

static int sch_start(sch_ctx *c)
{
    if (c->failed) {
        NURI_PROV_ERR(PROV_R_CIPHER_OPERATION_FAILED, "Schwaemm: an earlier call failed; init again");
        return 0;
    }
    if (c->started) return 1;
    if (!c->have_key || !c->have_nonce) {
        NURI_PROV_ERR(c->have_key ? PROV_R_INVALID_IV_LENGTH : PROV_R_NO_KEY_SET, "Schwaemm: no %s set",
                      c->have_key ? "nonce (IV)" : "key");
        return 0;
    }
    if (!c->encrypt) { /* decryption only holds its input until final */
        c->started = 1;
        return 1;
    }
    nuri_schwaemm_key k; /* the context keeps its own copy */
    int rc = nuri_schwaemm_key_init(&k, (nuri_schwaemm_variant)c->variant, c->key, c->key_bytes, NULL);
    if (rc == NURI_OK)
        rc = nuri_schwaemm_init(&c->st, &k, c->encrypt ? NURI_SCHWAEMM_ENCRYPT : NURI_SCHWAEMM_DECRYPT, c->nonce,
                                c->nonce_bytes);
    nuri_schwaemm_key_wipe(&k);
    if (rc != NURI_OK) {
        NURI_PROV_ERR(PROV_R_CIPHER_OPERATION_FAILED, "Schwaemm init: %s", nuri_strerror(rc));
        return 0;
    }
    c->started = 1;
    return 1;
}

static int sch_fail(sch_ctx *c, int rc, const char *what)
{
    NURI_PROV_ERR(rc == NURI_EBUFFER ? PROV_R_OUTPUT_BUFFER_TOO_SMALL : PROV_R_CIPHER_OPERATION_FAILED,
                  "Schwaemm %s: %s", what, nuri_strerror(rc));
    sch_reset_stream(c);
    c->failed = 1;
    return 0;
}

static int sch_nomem(sch_ctx *c)
{
    ERR_raise(ERR_LIB_PROV, ERR_R_MALLOC_FAILURE);
    sch_reset_stream(c);
    c->failed = 1;
    return 0;
}

/* Decrypts the held ciphertext with the expected tag, in place in the held buffer, and copies the
 * plaintext to out only when the tag verified and it fits outsize (nothing is written otherwise).
 * Ends the message: the held buffers are wiped. */
static int sch_release(sch_ctx *c, unsigned char *out, size_t *outl, size_t outsize)
{
    size_t len = c->ct.len, n = 0;
    if (len > outsize || (len && !out)) {
        NURI_PROV_ERR(PROV_R_OUTPUT_BUFFER_TOO_SMALL,
                      "Schwaemm: the %zu-byte plaintext is released at once after the tag check and this call may "
                      "write %zu bytes: set the tag first and give the whole ciphertext to one EVP_DecryptUpdate",
                      len, out ? outsize : 0);
        sch_reset_stream(c);
        c->failed = 1;
        return 0;
    }
    if (!buf_add(&c->ct, c->tag, c->tag_bytes)) return sch_nomem(c);
    /* in place: on a wrong tag libnuri zeroes its output, here our own buffer, so out is untouched */
    nuri_schwaemm_key k;
    int rc = nuri_schwaemm_key_init(&k, (nuri_schwaemm_variant)c->variant, c->key, c->key_bytes, NULL);
    if (rc == NURI_OK)
        rc = nuri_schwaemm_decrypt(&k, c->ct.p, c->ct.cap, &n, c->nonce, c->nonce_bytes, c->ad.p, c->ad.len, c->ct.p,
                                   c->ct.len);
    nuri_schwaemm_key_wipe(&k);
    if (rc == NURI_EAUTH) {
        sch_reset_stream(c);
        c->failed = 1;
        NURI_PROV_ERR(PROV_R_CIPHER_OPERATION_FAILED,
                      "Schwaemm: authentication failed (wrong tag), no plaintext released");
        return 0;
    }
    if (rc != NURI_OK || n != len) return sch_fail(c, rc != NURI_OK ? rc : NURI_ESTATE, "decrypt");
    if (len) memcpy(out, c->ct.p, len);
    *outl = len;
    if (c->oneshot) { /* the message is out; final ends it */
        buf_clear(&c->ad);
        buf_clear(&c->ct); /* wipes the plaintext left there */
    } else {
        sch_reset_stream(c);
    }
    return 1;
}

static int sch_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in, size_t inl)
{
    sch_ctx *c = vctx;
    int rc;
    *outl = 0;
    if (!sch_start(c)) return 0;
    if (!out) { /* AAD */
        if (c->in_msg) {
            NURI_PROV_ERR(PROV_R_INVALID_STATE, "Schwaemm: AAD must come before the message");
            return 0;
        }
        if (!c->encrypt) {
            if (!buf_add(&c->ad, in, inl)) return sch_nomem(c);
        } else if ((rc = nuri_schwaemm_update_ad(&c->st, in, inl)) != NURI_OK) {
            return sch_fail(c, rc, "AAD");
        }
        *outl = inl; /* as OpenSSL's own AEADs report AAD */
        return 1;
    }
    c->in_msg = 1;
    if (inl == 0) return 1;
    if (c->encrypt) {
        rc = nuri_schwaemm_encrypt_update(&c->st, out, outsize, outl, in, inl);
        return rc == NURI_OK ? 1 : sch_fail(c, rc, "encrypt");
    }
    if (c->oneshot) {
        NURI_PROV_ERR(PROV_R_INVALID_STATE, "Schwaemm: with the tag set first, decryption is one-shot: the whole "
                                            "ciphertext in one EVP_DecryptUpdate");
        sch_reset_stream(c);
        c->failed = 1;
        return 0;
    }
    const int first = c->ct.len == 0;
    if (!buf_add(&c->ct, in, inl)) return sch_nomem(c);
    if (!first || !c->tag_ready) return 1; /* streaming: held until final */
    c->oneshot = 1;
    return sch_release(c, out, outl, outsize);
}

static int sch_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    sch_ctx *c = vctx;
    int rc;
    *outl = 0;
    if (!sch_start(c)) return 0;
    if (c->encrypt) {
        rc = nuri_schwaemm_encrypt_final(&c->st, out, outsize, outl, c->tag, c->tag_bytes);
        c->started = c->in_msg = 0;
        if (rc != NURI_OK) return sch_fail(c, rc, "encrypt final");
        c->tag_ready = 1;
        return 1;
    }
    if (c->oneshot) { /* released by the one EVP_DecryptUpdate */
        sch_reset_stream(c);
        return 1;
    }
    if (!c->tag_ready) {
        NURI_PROV_ERR(PROV_R_TAG_NOT_SET, "Schwaemm: set the expected tag (EVP_CTRL_AEAD_SET_TAG) before final");
        return 0;
    }
    return sch_release(c, out, outl, outsize);
}

static int sch_get_params(OSSL_PARAM params[], int variant)
{
    nuri_prov_cipher_info info = {EVP_CIPH_STREAM_CIPHER, nuri_schwaemm_key_bytes(variant),
                                  nuri_schwaemm_nonce_bytes(variant), nuri_schwaemm_rate_bytes(variant), 1};
    return nuri_prov_cipher_get_params(params, &info);
}

static int sch_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    sch_ctx *c = vctx;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !OSSL_PARAM_set_size_t(p, c->key_bytes)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !OSSL_PARAM_set_size_t(p, c->nonce_bytes)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN)) && !OSSL_PARAM_set_size_t(p, c->tag_bytes))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAG))) {
        if (!c->encrypt || !c->tag_ready) {
            NURI_PROV_ERR(PROV_R_TAG_NOT_SET, "Schwaemm: the tag is available after EVP_EncryptFinal_ex");
            return 0;
        }
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != c->tag_bytes) {
            NURI_PROV_ERR(PROV_R_INVALID_TAG_LENGTH, "Schwaemm: the tag is %zu bytes (no truncation)", c->tag_bytes);
            return 0;
        }
        if (!OSSL_PARAM_set_octet_string(p, c->tag, c->tag_bytes)) return 0;
    }
    return 1;
}

static int sch_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    sch_ctx *c = vctx;
    const OSSL_PARAM *p;
    size_t n;
    if (!params) return 1;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG))) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != c->tag_bytes) {
            NURI_PROV_ERR(PROV_R_INVALID_TAG_LENGTH, "Schwaemm: the tag is %zu bytes, got %zu", c->tag_bytes,
                          p->data_size);
            return 0;
        }
        if (p->data) { /* a NULL buffer only states the tag length (accepted when it matches) */
            if (c->encrypt) {
                NURI_PROV_ERR(PROV_R_TAG_NOT_NEEDED, "Schwaemm: the tag is set only when decrypting");
                return 0;
            }
            memcpy(c->tag, p->data, c->tag_bytes);
            c->tag_ready = 1;
        }
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_IVLEN))) {
        if (!OSSL_PARAM_get_size_t(p, &n) || n != c->nonce_bytes) {
            NURI_PROV_ERR(PROV_R_INVALID_IV_LENGTH, "this Schwaemm variant has a fixed %zu-byte nonce", c->nonce_bytes);
            return 0;
        }
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN))) {
        if (!OSSL_PARAM_get_size_t(p, &n) || n != c->key_bytes) {
            NURI_PROV_ERR(PROV_R_INVALID_KEY_LENGTH, "this Schwaemm variant has a fixed %zu-byte key", c->key_bytes);
            return 0;
        }
    }
    return 1;
}

static const OSSL_PARAM *sch_gettable_ctx_params(void *cctx, void *provctx)
{
    static const OSSL_PARAM t[] = {OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
                                   OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
                                   OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
                                   OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0), OSSL_PARAM_END};
    (void)cctx, (void)provctx;
    return t;
}

static const OSSL_PARAM *sch_settable_ctx_params(void *cctx, void *provctx)
{
    static const OSSL_PARAM t[] = {OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
                                   OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
                                   OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL), OSSL_PARAM_END};
    (void)cctx, (void)provctx;
    return t;
}

#define SCHWAEMM(name, VARIANT)                                                                   \
    static void *name##_newctx(void *provctx)                                                     \
    {                                                                                             \
        (void)provctx;                                                                            \
        return sch_newctx(VARIANT);                                                               \
    }                                                                                             \
    static int name##_get_params(OSSL_PARAM params[]) { return sch_get_params(params, VARIANT); } \
    const OSSL_DISPATCH nuri_prov_##name##_functions[] = {                                        \
        {OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))name##_newctx},                                 \
        {OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))sch_freectx},                                  \
        {OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))sch_dupctx},                                    \
        {OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))sch_einit},                               \
        {OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))sch_dinit},                               \
        {OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))sch_update},                                    \
        {OSSL_FUNC_CIPHER_FINAL, (void (*)(void))sch_final},                                      \
        {OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))name##_get_params},                         \
        {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))nuri_prov_cipher_gettable_params},     \
        {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))sch_get_ctx_params},                    \
        {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))sch_set_ctx_params},                    \
        {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))sch_gettable_ctx_params},          \
        {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))sch_settable_ctx_params},          \
        {0, NULL}};

SCHWAEMM(schwaemm128_128, NURI_SCHWAEMM128_128)
SCHWAEMM(schwaemm256_128, NURI_SCHWAEMM256_128)
SCHWAEMM(schwaemm192_192, NURI_SCHWAEMM192_192)
SCHWAEMM(schwaemm256_256, NURI_SCHWAEMM256_256)
