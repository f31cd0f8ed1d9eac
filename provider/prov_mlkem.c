/* ML-KEM-512/768/1024: key management (generation, import/export of `pub`, `priv`, `seed`,
 * loading keys handed over by the decoders) and the KEM operation (EVP_PKEY_encapsulate /
 * decapsulate), all over nuri's length-checked ML-KEM API (include/nuri/mlkem.h).
 * Key material: `pub` = ek (FIPS 203 encapsulation key), `priv` = dk (the expanded decapsulation
 * key), `seed` = d || z (64 bytes, FIPS 203 KeyGen_internal input), kept when known so the
 * private key can be written in the compact seed form. */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include "prov.h"

#define P_SEED "seed" /* OSSL_PKEY_PARAM_ML_KEM_SEED in OpenSSL >= 3.5 */

const char *nuri_prov_mlkem_name(unsigned level)
{
    return level == 512 ? "ML-KEM-512" : level == 768 ? "ML-KEM-768" : "ML-KEM-1024";
}

const char *nuri_prov_mlkem_oid(unsigned level)
{
    return level == 512 ? "2.16.840.1.101.3.4.4.1" : level == 768 ? "2.16.840.1.101.3.4.4.2" : "2.16.840.1.101.3.4.4.3";
}

nuri_prov_mlkem_key *nuri_prov_mlkem_key_new(nuri_prov_ctx *prov, unsigned level)
{
    nuri_prov_mlkem_key *k = OPENSSL_zalloc(sizeof *k);
    if (!k) return NULL;
    k->level = level;
    k->prov = prov;
    return k;
}

void nuri_prov_mlkem_key_free(nuri_prov_mlkem_key *k)
{
    if (k) OPENSSL_clear_free(k, sizeof *k);
}

/* libnuri's ML-KEM context for level L with dispatch (honours NURI_IMPL=mlkem:<name>). */
static int kem_for(nuri_mlkem_ctx *kem, unsigned L) { return nuri_mlkem_init(kem, (nuri_mlkem_level)L, NULL); }

int nuri_prov_mlkem_key_set(nuri_prov_mlkem_key *k, const uint8_t *seed, size_t seed_len, const uint8_t *dk,
                            size_t dk_len, const uint8_t *ek, size_t ek_len)
{
    const unsigned L = k->level;
    const size_t nek = nuri_mlkem_ek_bytes(L), ndk = nuri_mlkem_dk_bytes(L), pke = ndk - nek - 64;
    const char *name = nuri_prov_mlkem_name(L);
    nuri_prov_mlkem_key t;
    nuri_mlkem_ctx kem;
    memset(&t, 0, sizeof t);
    if (seed) {
        if (seed_len != NURI_MLKEM_KEYGEN_SEED_BYTES || kem_for(&kem, L) != NURI_OK ||
            nuri_mlkem_keygen(&kem, t.ek, nek, t.dk, ndk, seed, seed_len) != NURI_OK) {
            NURI_PROV_ERR(PROV_R_INVALID_SEED_LENGTH, "%s: the seed (d || z) is 64 bytes, got %zu", name, seed_len);
            goto fail;
        }
        memcpy(t.seed, seed, seed_len);
        t.has_seed = t.has_priv = t.has_pub = 1;
    }
    if (dk) {
        if (dk_len != ndk || nuri_mlkem_check_dk(L, dk, dk_len) != NURI_OK) {
            NURI_PROV_ERR(PROV_R_INVALID_KEY, "%s: the private key must be %zu bytes and pass the FIPS 203 hash check",
                          name, ndk);
            goto fail;
        }
        if (t.has_priv && CRYPTO_memcmp(t.dk, dk, ndk) != 0) {
            NURI_PROV_ERR(PROV_R_INVALID_KEY, "%s: the private key does not match its seed", name);
            goto fail;
        }
        /* the ek inside dk passes the same checks as a public key on its own (a degenerate t is
         * refused here too, so no key object ever holds one) */
        int rc = nuri_mlkem_check_ek(L, dk + pke, nek);
        if (rc != NURI_OK) {
            NURI_PROV_ERR(PROV_R_INVALID_KEY, "%s: the public key inside the private key: %s", name, nuri_strerror(rc));
            goto fail;
        }
        memcpy(t.dk, dk, ndk);
        memcpy(t.ek, dk + pke, nek); /* dk = dk_PKE || ek || H(ek) || z */
        t.has_priv = t.has_pub = 1;
    }
    if (ek) {
        if (ek_len != nek) {
            NURI_PROV_ERR(PROV_R_INVALID_KEY, "%s: the public key must be %zu bytes, got %zu", name, nek, ek_len);
            goto fail;
        }
        int rc = nuri_mlkem_check_ek(L, ek, ek_len); /* FIPS 203 modulus check, then the degenerate-t check */
        if (rc != NURI_OK) {
            NURI_PROV_ERR(PROV_R_INVALID_KEY, "%s: %s", name, nuri_strerror(rc));
            goto fail;
        }
        if (t.has_pub && memcmp(t.ek, ek, nek) != 0) {
            NURI_PROV_ERR(PROV_R_INVALID_KEY, "%s: the public key does not match the private key", name);
            goto fail;
        }
        memcpy(t.ek, ek, nek);
        t.has_pub = 1;
    }
    if (!t.has_pub) {
        NURI_PROV_ERR(PROV_R_MISSING_KEY, "%s: no key material (pub, priv or seed)", name);
        goto fail;
    }
    t.level = L;
    t.prov = k->prov;
    memcpy(k, &t, sizeof t);
    OPENSSL_cleanse(&t, sizeof t);
    return 1;
fail:
    OPENSSL_cleanse(&t, sizeof t);
    return 0;
}

/* ---- key management ---- */

static int mlkem_has(const void *vkey, int selection)
{
    const nuri_prov_mlkem_key *k = vkey;
    if (!k) return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && !k->has_priv) return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) && !k->has_pub) return 0;
    return 1;
}

static int mlkem_match(const void *va, const void *vb, int selection)
{
    const nuri_prov_mlkem_key *a = va, *b = vb;
    if (a->level != b->level) return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) &&
        (a->has_priv != b->has_priv ||
         (a->has_priv && CRYPTO_memcmp(a->dk, b->dk, nuri_mlkem_dk_bytes(a->level)) != 0)))
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) &&
        (a->has_pub != b->has_pub || (a->has_pub && memcmp(a->ek, b->ek, nuri_mlkem_ek_bytes(a->level)) != 0)))
        return 0;
    return 1;
}

static int mlkem_import(void *vkey, int selection, const OSSL_PARAM params[])
{
    nuri_prov_mlkem_key *k = vkey;
    const OSSL_PARAM *ps = NULL, *pd = NULL, *pe = NULL;
    const void *seed = NULL, *dk = NULL, *ek = NULL;
    size_t ns = 0, nd = 0, ne = 0;
    if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) {
        ps = OSSL_PARAM_locate_const(params, P_SEED);
        pd = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
    }
    if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) pe = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
    if ((ps && !OSSL_PARAM_get_octet_string_ptr(ps, &seed, &ns)) ||
        (pd && !OSSL_PARAM_get_octet_string_ptr(pd, &dk, &nd)) ||
        (pe && !OSSL_PARAM_get_octet_string_ptr(pe, &ek, &ne))) {
        ERR_raise(ERR_LIB_PROV, PROV_R_FAILED_TO_GET_PARAMETER);
        return 0;
    }
    return nuri_prov_mlkem_key_set(k, seed, ns, dk, nd, ek, ne);
}

static const OSSL_PARAM mlkem_key_types[] = {OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
                                             OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
                                             OSSL_PARAM_octet_string(P_SEED, NULL, 0), OSSL_PARAM_END};

static const OSSL_PARAM *mlkem_io_types(int selection)
{
    (void)selection;
    return mlkem_key_types;
}

static int mlkem_export(void *vkey, int selection, OSSL_CALLBACK *cb, void *cbarg)
{
    nuri_prov_mlkem_key *k = vkey;
    OSSL_PARAM p[4];
    int n = 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) && k->has_pub)
        p[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, k->ek, nuri_mlkem_ek_bytes(k->level));
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && k->has_priv) {
        p[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, k->dk, nuri_mlkem_dk_bytes(k->level));
        if (k->has_seed) p[n++] = OSSL_PARAM_construct_octet_string(P_SEED, k->seed, sizeof k->seed);
    }
    p[n] = OSSL_PARAM_construct_end();
    return cb(p, cbarg);
}

static int mlkem_get_params(void *vkey, OSSL_PARAM params[])
{
    nuri_prov_mlkem_key *k = vkey;
    const unsigned L = k->level;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) &&
        !OSSL_PARAM_set_int(p, (int)nuri_mlkem_ek_bytes(L) * 8))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) && !OSSL_PARAM_set_int(p, L == 512   ? 128
                                                                                                 : L == 768 ? 192
                                                                                                            : 256))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) &&
        !OSSL_PARAM_set_int(p, (int)nuri_mlkem_ct_bytes(L)))
        return 0;
    if (k->has_pub && (p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY)) &&
        !OSSL_PARAM_set_octet_string(p, k->ek, nuri_mlkem_ek_bytes(L)))
        return 0;
    if (k->has_pub && (p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PUB_KEY)) &&
        !OSSL_PARAM_set_octet_string(p, k->ek, nuri_mlkem_ek_bytes(L)))
        return 0;
    if (k->has_priv && (p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PRIV_KEY)) &&
        !OSSL_PARAM_set_octet_string(p, k->dk, nuri_mlkem_dk_bytes(L)))
        return 0;
    if (k->has_seed && (p = OSSL_PARAM_locate(params, P_SEED)) &&
        !OSSL_PARAM_set_octet_string(p, k->seed, sizeof k->seed))
        return 0;
    return 1;
}

static const OSSL_PARAM *mlkem_gettable_params(void *provctx)
{
    static const OSSL_PARAM t[] = {OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
                                   OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
                                   OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
                                   OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
                                   OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
                                   OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
                                   OSSL_PARAM_octet_string(P_SEED, NULL, 0),
                                   OSSL_PARAM_END};
    (void)provctx;
    return t;
}

static void *mlkem_dup(const void *vkey, int selection)
{
    const nuri_prov_mlkem_key *k = vkey;
    nuri_prov_mlkem_key *d = nuri_prov_mlkem_key_new(k->prov, k->level);
    if (!d) return NULL;
    if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) {
        memcpy(d->ek, k->ek, sizeof d->ek);
        d->has_pub = k->has_pub;
    }
    if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) {
        memcpy(d->dk, k->dk, sizeof d->dk);
        memcpy(d->seed, k->seed, sizeof d->seed);
        d->has_priv = k->has_priv;
        d->has_seed = k->has_seed;
    }
    return d;
}

/* The decoders hand over a key they built (OSSL_OBJECT_PARAM_REFERENCE): take ownership. */
static void *mlkem_load(const void *reference, size_t reference_sz)
{
    nuri_prov_mlkem_key *k = NULL;
    if (reference_sz != sizeof k) return NULL;
    k = *(nuri_prov_mlkem_key *const *)reference;
    *(nuri_prov_mlkem_key **)reference = NULL;
    return k;
}

/* ---- key generation ---- */
typedef struct {
    nuri_prov_ctx *prov;
    unsigned level;
    int selection, have_seed;
    uint8_t seed[NURI_MLKEM_KEYGEN_SEED_BYTES];
} mlkem_gen_ctx;

static int mlkem_gen_set_params(void *vg, const OSSL_PARAM params[])
{
    mlkem_gen_ctx *g = vg;
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, P_SEED);
    if (!p) return 1;
    void *dst = g->seed;
    size_t n = 0;
    if (!OSSL_PARAM_get_octet_string(p, &dst, sizeof g->seed, &n) || n != sizeof g->seed) {
        NURI_PROV_ERR(PROV_R_INVALID_SEED_LENGTH, "ML-KEM: the key generation seed (d || z) is 64 bytes");
        return 0;
    }
    g->have_seed = 1;
    return 1;
}

static const OSSL_PARAM *mlkem_gen_settable_params(void *vg, void *provctx)
{
    static const OSSL_PARAM t[] = {OSSL_PARAM_octet_string(P_SEED, NULL, 0), OSSL_PARAM_END};
    (void)vg, (void)provctx;
    return t;
}

static void *mlkem_gen_init(nuri_prov_ctx *prov, unsigned level, int selection, const OSSL_PARAM params[])
{
    mlkem_gen_ctx *g = OPENSSL_zalloc(sizeof *g);
    if (!g) return NULL;
    g->prov = prov;
    g->level = level;
    g->selection = selection;
    if (!mlkem_gen_set_params(g, params)) {
        OPENSSL_clear_free(g, sizeof *g);
        return NULL;
    }
    return g;
}

static void *mlkem_gen(void *vg, OSSL_CALLBACK *cb, void *cbarg)
{
    mlkem_gen_ctx *g = vg;
    (void)cb, (void)cbarg;
    nuri_prov_mlkem_key *k = nuri_prov_mlkem_key_new(g->prov, g->level);
    if (!k) return NULL;
    if ((g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return k; /* parameters only: an empty key */
    /* Draw d || z from OpenSSL's DRBG of this library context (so RAND providers and seeding
     * policies apply), unless the caller fixed it, and keep it as the key's seed. */
    if (!g->have_seed && RAND_priv_bytes_ex(g->prov->libctx, g->seed, sizeof g->seed, 0) != 1) {
        nuri_prov_mlkem_key_free(k);
        return NULL;
    }
    int ok = nuri_prov_mlkem_key_set(k, g->seed, sizeof g->seed, NULL, 0, NULL, 0);
    OPENSSL_cleanse(g->seed, sizeof g->seed);
    g->have_seed = 0;
    if (!ok) {
        nuri_prov_mlkem_key_free(k);
        return NULL;
    }
    return k;
}

static void mlkem_gen_cleanup(void *vg)
{
    if (vg) OPENSSL_clear_free(vg, sizeof(mlkem_gen_ctx));
}

/* ---- the KEM operation ---- */
typedef struct {
    nuri_prov_ctx *prov;
    nuri_prov_mlkem_key *key;
    uint8_t m[NURI_MLKEM_ENCAPS_SEED_BYTES]; /* "ikme": fixed encapsulation randomness (tests, KATs) */
    int have_m;
} mlkem_kem_ctx;

#define P_IKME "ikme" /* OSSL_KEM_PARAM_IKME, as OpenSSL >= 3.5 names it for ML-KEM */

static void *kem_newctx(void *provctx)
{
    mlkem_kem_ctx *c = OPENSSL_zalloc(sizeof *c);
    if (c) c->prov = provctx;
    return c;
}

static void kem_freectx(void *vctx)
{
    if (vctx) OPENSSL_clear_free(vctx, sizeof(mlkem_kem_ctx)); /* the key belongs to its EVP_PKEY */
}

static void *kem_dupctx(void *vctx)
{
    mlkem_kem_ctx *d = OPENSSL_malloc(sizeof *d);
    if (d) memcpy(d, vctx, sizeof *d);
    return d;
}

static int kem_init(void *vctx, void *vkey, int need_priv)
{
    mlkem_kem_ctx *c = vctx;
    nuri_prov_mlkem_key *k = vkey;
    if (!k || !(need_priv ? k->has_priv : k->has_pub)) {
        NURI_PROV_ERR(need_priv ? PROV_R_NOT_A_PRIVATE_KEY : PROV_R_NOT_A_PUBLIC_KEY, "ML-KEM: %s key needed",
                      need_priv ? "a private" : "a public");
        return 0;
    }
    c->key = k;
    return 1;
}

static int kem_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int kem_encap_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    return kem_init(vctx, vkey, 0) && kem_set_ctx_params(vctx, params);
}

static int kem_decap_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    (void)params;
    return kem_init(vctx, vkey, 1);
}

static int kem_encapsulate(void *vctx, unsigned char *out, size_t *outlen, unsigned char *secret, size_t *secretlen)
{
    mlkem_kem_ctx *c = vctx;
    if (!c->key) {
        ERR_raise(ERR_LIB_PROV, PROV_R_NO_KEY_SET);
        return 0;
    }
    const unsigned L = c->key->level;
    const size_t nct = nuri_mlkem_ct_bytes(L);
    if (!out) { /* size query */
        if (outlen) *outlen = nct;
        if (secretlen) *secretlen = NURI_MLKEM_SS_BYTES;
        return outlen || secretlen;
    }
    if (!secret || (outlen && *outlen < nct) || (secretlen && *secretlen < NURI_MLKEM_SS_BYTES)) {
        NURI_PROV_ERR(PROV_R_OUTPUT_BUFFER_TOO_SMALL, "ML-KEM: ciphertext %zu and shared secret %d bytes needed", nct,
                      NURI_MLKEM_SS_BYTES);
        return 0;
    }
    uint8_t m[NURI_MLKEM_ENCAPS_SEED_BYTES];
    if (c->have_m) { /* used once, then forgotten */
        memcpy(m, c->m, sizeof m);
        OPENSSL_cleanse(c->m, sizeof c->m);
        c->have_m = 0;
    } else if (RAND_priv_bytes_ex(c->prov->libctx, m, sizeof m, 0) != 1) {
        return 0;
    }
    nuri_mlkem_ctx kem;
    int rc = kem_for(&kem, L);
    if (rc == NURI_OK)
        rc = nuri_mlkem_encaps(&kem, out, nct, secret, NURI_MLKEM_SS_BYTES, c->key->ek, nuri_mlkem_ek_bytes(L), m,
                               sizeof m);
    OPENSSL_cleanse(m, sizeof m);
    if (rc != NURI_OK) {
        NURI_PROV_ERR(PROV_R_INVALID_KEY, "ML-KEM encapsulation: %s", nuri_strerror(rc));
        return 0;
    }
    if (outlen) *outlen = nct;
    if (secretlen) *secretlen = NURI_MLKEM_SS_BYTES;
    return 1;
}

static int kem_decapsulate(void *vctx, unsigned char *out, size_t *outlen, const unsigned char *in, size_t inlen)
{
    mlkem_kem_ctx *c = vctx;
    if (!c->key) {
        ERR_raise(ERR_LIB_PROV, PROV_R_NO_KEY_SET);
        return 0;
    }
    const unsigned L = c->key->level;
    if (!out) {
        if (outlen) *outlen = NURI_MLKEM_SS_BYTES;
        return outlen != NULL;
    }
    if (outlen && *outlen < NURI_MLKEM_SS_BYTES) {
        ERR_raise(ERR_LIB_PROV, PROV_R_OUTPUT_BUFFER_TOO_SMALL);
        return 0;
    }
    if (inlen != nuri_mlkem_ct_bytes(L)) {
        NURI_PROV_ERR(PROV_R_INVALID_INPUT_LENGTH, "%s: the ciphertext is %zu bytes, got %zu", nuri_prov_mlkem_name(L),
                      nuri_mlkem_ct_bytes(L), inlen);
        return 0;
    }
    nuri_mlkem_ctx kem;
    int rc = kem_for(&kem, L);
    if (rc == NURI_OK)
        rc = nuri_mlkem_decaps(&kem, out, NURI_MLKEM_SS_BYTES, in, inlen, c->key->dk, nuri_mlkem_dk_bytes(L));
    if (rc != NURI_OK) {
        NURI_PROV_ERR(PROV_R_INVALID_KEY, "ML-KEM decapsulation: %s", nuri_strerror(rc));
        return 0;
    }
    if (outlen) *outlen = NURI_MLKEM_SS_BYTES;
    return 1;
}

static int kem_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    mlkem_kem_ctx *c = vctx;
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, P_IKME);
    if (!p) return 1;
    void *dst = c->m;
    size_t n = 0;
    if (!OSSL_PARAM_get_octet_string(p, &dst, sizeof c->m, &n) || n != sizeof c->m) {
        OPENSSL_cleanse(c->m, sizeof c->m);
        NURI_PROV_ERR(PROV_R_INVALID_SEED_LENGTH, "ML-KEM: the encapsulation randomness (ikme) is 32 bytes");
        return 0;
    }
    c->have_m = 1;
    return 1;
}

static const OSSL_PARAM *kem_settable_ctx_params(void *vctx, void *provctx)
{
    static const OSSL_PARAM t[] = {OSSL_PARAM_octet_string(P_IKME, NULL, 0), OSSL_PARAM_END};
    (void)vctx, (void)provctx;
    return t;
}

static const OSSL_DISPATCH mlkem_kem_functions[] = {
    {OSSL_FUNC_KEM_NEWCTX, (void (*)(void))kem_newctx},
    {OSSL_FUNC_KEM_FREECTX, (void (*)(void))kem_freectx},
    {OSSL_FUNC_KEM_DUPCTX, (void (*)(void))kem_dupctx},
    {OSSL_FUNC_KEM_ENCAPSULATE_INIT, (void (*)(void))kem_encap_init},
    {OSSL_FUNC_KEM_ENCAPSULATE, (void (*)(void))kem_encapsulate},
    {OSSL_FUNC_KEM_DECAPSULATE_INIT, (void (*)(void))kem_decap_init},
    {OSSL_FUNC_KEM_DECAPSULATE, (void (*)(void))kem_decapsulate},
    {OSSL_FUNC_KEM_SET_CTX_PARAMS, (void (*)(void))kem_set_ctx_params},
    {OSSL_FUNC_KEM_SETTABLE_CTX_PARAMS, (void (*)(void))kem_settable_ctx_params},
    {0, NULL}};

#define MLKEM_KEYMGMT(L)                                                                       \
    static void *mlkem##L##_new(void *provctx) { return nuri_prov_mlkem_key_new(provctx, L); } \
    static void *mlkem##L##_gen_init(void *provctx, int selection, const OSSL_PARAM params[])  \
    {                                                                                          \
        return mlkem_gen_init(provctx, L, selection, params);                                  \
    }                                                                                          \
    static const char *mlkem##L##_query_name(int operation_id)                                 \
    {                                                                                          \
        (void)operation_id;                                                                    \
        return "ML-KEM-" #L;                                                                   \
    }                                                                                          \
    static const OSSL_DISPATCH mlkem##L##_keymgmt_functions[] = {                              \
        {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))mlkem##L##_new},                               \
        {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))nuri_prov_mlkem_key_free},                    \
        {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))mlkem_dup},                                    \
        {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))mlkem_has},                                    \
        {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))mlkem_match},                                \
        {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))mlkem_import},                              \
        {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))mlkem_io_types},                      \
        {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))mlkem_export},                              \
        {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))mlkem_io_types},                      \
        {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))mlkem_get_params},                      \
        {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))mlkem_gettable_params},            \
        {OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))mlkem_load},                                  \
        {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))mlkem##L##_gen_init},                     \
        {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))mlkem_gen_set_params},              \
        {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))mlkem_gen_settable_params},    \
        {OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))mlkem_gen},                                    \
        {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))mlkem_gen_cleanup},                    \
        {OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, (void (*)(void))mlkem##L##_query_name},       \
        {0, NULL}};

MLKEM_KEYMGMT(512)
MLKEM_KEYMGMT(768)
MLKEM_KEYMGMT(1024)

/* The dotted OIDs are aliases so OpenSSL 3.0 (which has no ML-KEM object names) matches the
 * algorithm of a SubjectPublicKeyInfo / PKCS#8 structure to these key managers. */
#define MLKEM_NAMES(L, n) "ML-KEM-" #L ":MLKEM" #L ":id-alg-ml-kem-" #L ":2.16.840.1.101.3.4.4." #n
const OSSL_ALGORITHM nuri_prov_keymgmt[] = {
    {MLKEM_NAMES(512, 1), "provider=nuri", mlkem512_keymgmt_functions, "ML-KEM-512 keys (FIPS 203, nuri)"},
    {MLKEM_NAMES(768, 2), "provider=nuri", mlkem768_keymgmt_functions, "ML-KEM-768 keys (FIPS 203, nuri)"},
    {MLKEM_NAMES(1024, 3), "provider=nuri", mlkem1024_keymgmt_functions, "ML-KEM-1024 keys (FIPS 203, nuri)"},
    {NULL, NULL, NULL, NULL}};

const OSSL_ALGORITHM nuri_prov_kems[] = {
    {MLKEM_NAMES(512, 1), "provider=nuri", mlkem_kem_functions, "ML-KEM-512 (FIPS 203, nuri)"},
    {MLKEM_NAMES(768, 2), "provider=nuri", mlkem_kem_functions, "ML-KEM-768 (FIPS 203, nuri)"},
    {MLKEM_NAMES(1024, 3), "provider=nuri", mlkem_kem_functions, "ML-KEM-1024 (FIPS 203, nuri)"},
    {NULL, NULL, NULL, NULL}};
