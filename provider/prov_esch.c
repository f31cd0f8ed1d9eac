/* ESCH256 and ESCH384 as OpenSSL digests over nuri's streaming Esch (nuri_esch_init/update/final). */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "nuri/sparkle.h"
#include "prov.h"

typedef struct {
    size_t digest_bytes;
    int ready;
    nuri_esch_ctx st;
} esch_ctx;

static void *esch_newctx(size_t digest_bytes)
{
    esch_ctx *c = OPENSSL_zalloc(sizeof *c);
    if (c) c->digest_bytes = digest_bytes;
    return c;
}

static void esch_freectx(void *vctx)
{
    esch_ctx *c = vctx;
    if (c) OPENSSL_clear_free(c, sizeof *c);
}

static void *esch_dupctx(void *vctx)
{
    esch_ctx *d = OPENSSL_malloc(sizeof *d);
    if (d) memcpy(d, vctx, sizeof *d);
    return d;
}

static int esch_init(void *vctx, const OSSL_PARAM params[])
{
    esch_ctx *c = vctx;
    (void)params;
    int rc = nuri_esch_init(&c->st, c->digest_bytes == NURI_ESCH384_DIGEST_BYTES ? NURI_ESCH384 : NURI_ESCH256, NULL);
    c->ready = rc == NURI_OK;
    if (!c->ready) NURI_PROV_ERR(PROV_R_FAILED_TO_GET_PARAMETER, "Esch init: %s", nuri_strerror(rc));
    return c->ready;
}

static int esch_update(void *vctx, const unsigned char *in, size_t inl)
{
    esch_ctx *c = vctx;
    int rc = c->ready ? nuri_esch_update(&c->st, in, inl) : NURI_ESTATE;
    if (rc != NURI_OK) NURI_PROV_ERR(PROV_R_INVALID_STATE, "Esch update: %s", nuri_strerror(rc));
    return rc == NURI_OK;
}

static int esch_final(void *vctx, unsigned char *out, size_t *outl, size_t outsz)
{
    esch_ctx *c = vctx;
    *outl = 0;
    if (outsz < c->digest_bytes) {
        ERR_raise(ERR_LIB_PROV, PROV_R_OUTPUT_BUFFER_TOO_SMALL);
        return 0;
    }
    size_t n = 0;
    int rc = c->ready ? nuri_esch_final(&c->st, out, outsz, &n) : NURI_ESTATE;
    c->ready = 0;
    if (rc != NURI_OK) {
        NURI_PROV_ERR(PROV_R_INVALID_STATE, "Esch final: %s", nuri_strerror(rc));
        return 0;
    }
    *outl = n;
    return 1;
}

static int esch_get_params(OSSL_PARAM params[], size_t digest_bytes)
{
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_BLOCK_SIZE)) &&
        !OSSL_PARAM_set_size_t(p, NURI_ESCH_RATE_BYTES))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_SIZE)) && !OSSL_PARAM_set_size_t(p, digest_bytes)) return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_XOF)) && !OSSL_PARAM_set_int(p, 0)) return 0;
    return 1;
}

static const OSSL_PARAM *esch_gettable_params(void *provctx)
{
    static const OSSL_PARAM t[] = {OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_BLOCK_SIZE, NULL),
                                   OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, NULL),
                                   OSSL_PARAM_int(OSSL_DIGEST_PARAM_XOF, NULL), OSSL_PARAM_END};
    (void)provctx;
    return t;
}

#define ESCH(bits)                                                                                        \
    static void *esch##bits##_newctx(void *provctx)                                                       \
    {                                                                                                     \
        (void)provctx;                                                                                    \
        return esch_newctx(bits / 8);                                                                     \
    }                                                                                                     \
    static int esch##bits##_get_params(OSSL_PARAM params[]) { return esch_get_params(params, bits / 8); } \
    static const OSSL_DISPATCH esch##bits##_functions[] = {                                               \
        {OSSL_FUNC_DIGEST_NEWCTX, (void (*)(void))esch##bits##_newctx},                                   \
        {OSSL_FUNC_DIGEST_FREECTX, (void (*)(void))esch_freectx},                                         \
        {OSSL_FUNC_DIGEST_DUPCTX, (void (*)(void))esch_dupctx},                                           \
        {OSSL_FUNC_DIGEST_INIT, (void (*)(void))esch_init},                                               \
        {OSSL_FUNC_DIGEST_UPDATE, (void (*)(void))esch_update},                                           \
        {OSSL_FUNC_DIGEST_FINAL, (void (*)(void))esch_final},                                             \
        {OSSL_FUNC_DIGEST_GET_PARAMS, (void (*)(void))esch##bits##_get_params},                           \
        {OSSL_FUNC_DIGEST_GETTABLE_PARAMS, (void (*)(void))esch_gettable_params},                         \
        {0, NULL}};

ESCH(256)
ESCH(384)

const OSSL_ALGORITHM nuri_prov_digests[] = {
    {"ESCH256", "provider=nuri", esch256_functions, "Esch256 hash, SPARKLE384 sponge (nuri)"},
    {"ESCH384", "provider=nuri", esch384_functions, "Esch384 hash, SPARKLE512 sponge (nuri)"},
    {NULL, NULL, NULL, NULL}};
