/* nuri.so: the OpenSSL 3 provider entry point (OSSL_provider_init), its parameters and the
 * operation query, and the cipher parameters PIPO and Schwaemm share. The algorithm tables live
 * beside their implementations (prov_*.c). */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "nuri/nuri.h"
#include "prov.h"

static const OSSL_PARAM *nuri_prov_gettable_params(void *provctx)
{
    static const OSSL_PARAM table[] = {OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
                                       OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
                                       OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
                                       OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
                                       OSSL_PARAM_END};
    (void)provctx;
    return table;
}

static int nuri_prov_get_params(void *provctx, OSSL_PARAM params[])
{
    OSSL_PARAM *p;
    (void)provctx;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) &&
        !OSSL_PARAM_set_utf8_ptr(p, "nuri provider (PIPO, Schwaemm, Esch, ML-KEM)"))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) && !OSSL_PARAM_set_utf8_ptr(p, nuri_version()))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) &&
        !OSSL_PARAM_set_utf8_ptr(p, "libnuri " NURI_VERSION_STRING))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) && !OSSL_PARAM_set_int(p, 1)) return 0;
    return 1;
}

int nuri_prov_cipher_get_params(OSSL_PARAM params[], const nuri_prov_cipher_info *info)
{
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE)) && !OSSL_PARAM_set_uint(p, info->mode)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !OSSL_PARAM_set_size_t(p, info->key_bytes))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !OSSL_PARAM_set_size_t(p, info->iv_bytes)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE)) && !OSSL_PARAM_set_size_t(p, info->block_bytes))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD)) && !OSSL_PARAM_set_int(p, info->aead)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CUSTOM_IV)) && !OSSL_PARAM_set_int(p, info->aead)) return 0;
    return 1;
}

const OSSL_PARAM *nuri_prov_cipher_gettable_params(void *provctx)
{
    static const OSSL_PARAM t[] = {OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
                                   OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
                                   OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
                                   OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
                                   OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
                                   OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
                                   OSSL_PARAM_END};
    (void)provctx;
    return t;
}

static const OSSL_ALGORITHM *nuri_prov_query(void *provctx, int operation_id, int *no_cache)
{
    (void)provctx;
    *no_cache = 0;
    switch (operation_id) {
    case OSSL_OP_CIPHER:
        return nuri_prov_ciphers;
    case OSSL_OP_DIGEST:
        return nuri_prov_digests;
    case OSSL_OP_KEM:
        return nuri_prov_kems;
    case OSSL_OP_KEYMGMT:
        return nuri_prov_keymgmt;
    case OSSL_OP_ENCODER:
        return nuri_prov_encoders;
    case OSSL_OP_DECODER:
        return nuri_prov_decoders;
    default:
        return NULL;
    }
}

static void nuri_prov_teardown(void *provctx)
{
    nuri_prov_ctx *ctx = provctx;
    if (!ctx) return;
    OSSL_LIB_CTX_free(ctx->libctx);
    OPENSSL_free(ctx);
}

static const OSSL_DISPATCH nuri_prov_dispatch[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))nuri_prov_teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))nuri_prov_gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))nuri_prov_get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))nuri_prov_query},
    {0, NULL}};

/* Exported (the only symbol of nuri.so besides libnuri's public API it links statically). */
__attribute__((visibility("default"))) int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                                                              const OSSL_DISPATCH **out, void **provctx);

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in, const OSSL_DISPATCH **out,
                       void **provctx)
{
    nuri_prov_ctx *ctx = OPENSSL_zalloc(sizeof *ctx);
    if (!ctx) return 0;
    /* A library context bound to the core: BIO_new_from_core_bio needs it (encoders/decoders). */
    ctx->libctx = OSSL_LIB_CTX_new_from_dispatch(handle, in);
    if (!ctx->libctx) {
        OPENSSL_free(ctx);
        return 0;
    }
    *provctx = ctx;
    *out = nuri_prov_dispatch;
    return 1;
}
