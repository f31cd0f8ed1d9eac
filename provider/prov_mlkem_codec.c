/* ML-KEM key encoders and decoders: SubjectPublicKeyInfo and PKCS#8 PrivateKeyInfo, DER and PEM,
 * with the NIST algorithm identifiers id-alg-ml-kem-{512,768,1024} = 2.16.840.1.101.3.4.4.{1,2,3}
 * (no parameters), as in the IETF LAMPS ML-KEM certificate profile:
 *   public key:  the BIT STRING holds ek as is;
 *   private key: ML-KEM-PrivateKey ::= CHOICE { seed [0] IMPLICIT OCTET STRING (64),
 *                  expandedKey OCTET STRING, both SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING } }.
 * We write `both` when the seed is known (generated keys), `expandedKey` otherwise, and read all
 * three (a seed is expanded with nuri's ML-KEM.KeyGen_internal and checked against the
 * expanded key when both are present). The DER is built and parsed here, by hand, because the
 * structures are fixed and OpenSSL 3.0's X509_PUBKEY parser would call back into the decoders.
 * PEM input is turned into DER by the default provider's PEM decoder (load it beside nuri).
 * With a cipher set (genpkey -aes256) the private key is written as a PKCS#8
 * EncryptedPrivateKeyInfo (PBES2/PBKDF2); the default provider decrypts it on reading. */
#include <string.h>

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>

#include "prov.h"

static size_t oid_body(unsigned level, uint8_t out[9])
{
    static const uint8_t prefix[8] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04};
    memcpy(out, prefix, 8);
    out[8] = (uint8_t)(level == 512 ? 1 : level == 768 ? 2 : 3);
    return 9;
}

/* ---- a minimal DER writer/reader for these fixed shapes ---- */

/* Writes tag and length (definite form) at p (if p is not NULL); returns their size. */
static size_t der_hdr(uint8_t *p, uint8_t tag, size_t len)
{
    size_t n = len < 0x80 ? 2 : len < 0x100 ? 3 : len < 0x10000 ? 4 : 5;
    if (p) {
        p[0] = tag;
        if (n == 2) p[1] = (uint8_t)len;
        else {
            p[1] = (uint8_t)(0x80 | (n - 2));
            for (size_t i = 0; i < n - 2; i++) p[n - 1 - i] = (uint8_t)(len >> (8 * i));
        }
    }
    return n;
}

/* Reads one element with the given tag from the n bytes at *p: its contents in val and vlen.
 * Returns 1 and advances, or 0 (wrong tag, bad or non-minimal length, truncated). */
static int der_get(const uint8_t **p, size_t *n, uint8_t tag, const uint8_t **val, size_t *vlen)
{
    const uint8_t *q = *p;
    size_t rem = *n, len;
    if (rem < 2 || q[0] != tag) return 0;
    if (q[1] < 0x80) {
        len = q[1];
        q += 2, rem -= 2;
    } else {
        size_t k = q[1] & 0x7f;
        if (k == 0 || k > 3 || rem < 2 + k || q[2] == 0) return 0;
        len = 0;
        for (size_t i = 0; i < k; i++) len = (len << 8) | q[2 + i];
        if (len < 0x80) return 0;
        q += 2 + k, rem -= 2 + k;
    }
    if (len > rem) return 0;
    *val = q;
    *vlen = len;
    *p = q + len;
    *n = rem - len;
    return 1;
}

/* AlgorithmIdentifier { OID } for the level; out may be NULL (size only). */
static size_t der_algid(uint8_t *out, unsigned level)
{
    uint8_t oid[9];
    size_t no = oid_body(level, oid), inner = der_hdr(NULL, 0x06, no) + no, h = der_hdr(out, 0x30, inner);
    if (out) {
        size_t o = h + der_hdr(out + h, 0x06, no);
        memcpy(out + o, oid, no);
    }
    return h + inner;
}

/* Checks that [p, p+n) is exactly the AlgorithmIdentifier of `level`. */
static int der_is_algid(const uint8_t *p, size_t n, unsigned level)
{
    uint8_t want[16];
    size_t nw = der_algid(want, level);
    return n == nw && memcmp(p, want, nw) == 0;
}

/* SubjectPublicKeyInfo; returns an OPENSSL_malloc'd buffer. */
static uint8_t *spki_der(const nuri_prov_mlkem_key *k, size_t *outlen)
{
    size_t nek = nuri_mlkem_ek_bytes(k->level), na = der_algid(NULL, k->level);
    size_t bits = der_hdr(NULL, 0x03, nek + 1) + nek + 1, body = na + bits, total = der_hdr(NULL, 0x30, body) + body;
    uint8_t *d = OPENSSL_malloc(total), *p = d;
    if (!d) return NULL;
    p += der_hdr(p, 0x30, body);
    p += der_algid(p, k->level);
    p += der_hdr(p, 0x03, nek + 1);
    *p++ = 0; /* no unused bits */
    memcpy(p, k->ek, nek);
    *outlen = total;
    return d;
}

/* PKCS#8 PrivateKeyInfo (version 0); returns an OPENSSL_secure-free-able buffer. */
static uint8_t *pkcs8_der(const nuri_prov_mlkem_key *k, size_t *outlen)
{
    size_t ndk = nuri_mlkem_dk_bytes(k->level), ns = sizeof k->seed;
    size_t dk_el = der_hdr(NULL, 0x04, ndk) + ndk, seed_el = der_hdr(NULL, 0x04, ns) + ns;
    size_t choice = k->has_seed ? der_hdr(NULL, 0x30, seed_el + dk_el) + seed_el + dk_el : dk_el;
    size_t na = der_algid(NULL, k->level), body = 3 + na + der_hdr(NULL, 0x04, choice) + choice;
    size_t total = der_hdr(NULL, 0x30, body) + body;
    uint8_t *d = OPENSSL_malloc(total), *p = d;
    if (!d) return NULL;
    p += der_hdr(p, 0x30, body);
    *p++ = 0x02, *p++ = 0x01, *p++ = 0x00; /* version v1 (0) */
    p += der_algid(p, k->level);
    p += der_hdr(p, 0x04, choice);
    if (k->has_seed) {
        p += der_hdr(p, 0x30, seed_el + dk_el);
        p += der_hdr(p, 0x04, ns);
        memcpy(p, k->seed, ns);
        p += ns;
    }
    p += der_hdr(p, 0x04, ndk);
    memcpy(p, k->dk, ndk);
    *outlen = total;
    return d;
}

/* Parses SubjectPublicKeyInfo for `level`: 1 and a key, 0 if it is not ours, -1 on a bad key. */
static int spki_parse(const uint8_t *der, size_t n, nuri_prov_mlkem_key *k)
{
    const uint8_t *seq, *alg, *bits, *p = der;
    size_t nseq, nalg, nbits;
    if (!der_get(&p, &n, 0x30, &seq, &nseq) || n != 0) return 0;
    p = seq, n = nseq;
    const uint8_t *alg_start = p;
    if (!der_get(&p, &n, 0x30, &alg, &nalg)) return 0;
    if (!der_is_algid(alg_start, (size_t)(p - alg_start), k->level)) return 0;
    if (!der_get(&p, &n, 0x03, &bits, &nbits) || n != 0 || nbits < 1 || bits[0] != 0) return -1;
    return nuri_prov_mlkem_key_set(k, NULL, 0, NULL, 0, bits + 1, nbits - 1) ? 1 : -1;
}

/* Parses PrivateKeyInfo for `level` (same results as spki_parse). */
static int pkcs8_parse(const uint8_t *der, size_t n, nuri_prov_mlkem_key *k)
{
    const uint8_t *seq, *ver, *alg, *oct, *p = der, *seed = NULL, *dk = NULL;
    size_t nseq, nver, nalg, noct, nseed = 0, ndk = 0;
    if (!der_get(&p, &n, 0x30, &seq, &nseq) || n != 0) return 0;
    p = seq, n = nseq;
    if (!der_get(&p, &n, 0x02, &ver, &nver) || nver != 1 || (ver[0] != 0 && ver[0] != 1)) return 0;
    const uint8_t *alg_start = p;
    if (!der_get(&p, &n, 0x30, &alg, &nalg)) return 0;
    if (!der_is_algid(alg_start, (size_t)(p - alg_start), k->level)) return 0;
    if (!der_get(&p, &n, 0x04, &oct, &noct)) return -1; /* optional attributes / public key may follow */
    p = oct, n = noct;
    if (n && p[0] == 0x80) { /* seed [0] */
        if (!der_get(&p, &n, 0x80, &seed, &nseed)) return -1;
    } else if (n && p[0] == 0x04) { /* expandedKey */
        if (!der_get(&p, &n, 0x04, &dk, &ndk)) return -1;
    } else { /* both */
        const uint8_t *both;
        size_t nboth;
        if (!der_get(&p, &n, 0x30, &both, &nboth) || n != 0) return -1;
        p = both, n = nboth;
        if (!der_get(&p, &n, 0x04, &seed, &nseed) || !der_get(&p, &n, 0x04, &dk, &ndk)) return -1;
    }
    if (n != 0) return -1;
    return nuri_prov_mlkem_key_set(k, seed, nseed, dk, ndk, NULL, 0) ? 1 : -1;
}

/* ---- encoders ---- */
typedef struct {
    nuri_prov_ctx *prov;
    char cipher[64], props[128]; /* PKCS#8 encryption requested (genpkey -aes256 ...) */
} enc_ctx;

static void *enc_newctx(void *provctx)
{
    enc_ctx *c = OPENSSL_zalloc(sizeof *c);
    if (c) c->prov = provctx;
    return c;
}

static void enc_freectx(void *vctx) { OPENSSL_free(vctx); }

static int enc_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    enc_ctx *c = vctx;
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_ENCODER_PARAM_PROPERTIES);
    const char *s = NULL;
    if (p && (!OSSL_PARAM_get_utf8_string_ptr(p, &s) || (s && strlen(s) >= sizeof c->props))) return 0;
    if (p) snprintf(c->props, sizeof c->props, "%s", s ? s : "");
    p = OSSL_PARAM_locate_const(params, OSSL_ENCODER_PARAM_CIPHER);
    s = NULL;
    if (p && (!OSSL_PARAM_get_utf8_string_ptr(p, &s) || (s && strlen(s) >= sizeof c->cipher))) {
        NURI_PROV_ERR(PROV_R_INVALID_DATA, "nuri: unusable key encryption cipher name");
        return 0;
    }
    if (p) snprintf(c->cipher, sizeof c->cipher, "%s", s ? s : "");
    return 1;
}

static const OSSL_PARAM *enc_settable_ctx_params(void *provctx)
{
    static const OSSL_PARAM t[] = {OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_CIPHER, NULL, 0),
                                   OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_PROPERTIES, NULL, 0), OSSL_PARAM_END};
    (void)provctx;
    return t;
}

/* Like OpenSSL's own key encoders: the first of private, public, parameters that `selection`
 * asks for decides whether this structure fits. */
static int enc_selection_fits(int selection, int mask)
{
    static const int order[] = {OSSL_KEYMGMT_SELECT_PRIVATE_KEY, OSSL_KEYMGMT_SELECT_PUBLIC_KEY,
                                OSSL_KEYMGMT_SELECT_ALL_PARAMETERS};
    if (selection == 0) return 1;
    for (size_t i = 0; i < 3; i++)
        if (selection & order[i]) return (mask & order[i]) != 0;
    return 0;
}

static int enc_priv_does_selection(void *provctx, int selection)
{
    (void)provctx;
    return enc_selection_fits(selection, OSSL_KEYMGMT_SELECT_PRIVATE_KEY);
}

static int enc_pub_does_selection(void *provctx, int selection)
{
    (void)provctx;
    return enc_selection_fits(selection, OSSL_KEYMGMT_SELECT_PUBLIC_KEY);
}

/* EncryptedPrivateKeyInfo (PKCS#5 v2: PBKDF2 + the requested cipher) around the PKCS#8 DER,
 * with the passphrase from the caller's callback. Returns the DER (OPENSSL_malloc) or NULL. */
static uint8_t *pkcs8_encrypt(enc_ctx *c, const uint8_t *der, size_t n, size_t *outlen, OSSL_PASSPHRASE_CALLBACK *cb,
                              void *cbarg)
{
    char pass[1024];
    size_t plen = 0;
    uint8_t *out = NULL;
    const unsigned char *p = der;
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(c->prov->libctx, c->cipher, c->props[0] ? c->props : NULL);
    PKCS8_PRIV_KEY_INFO *p8 = cipher ? d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, (long)n) : NULL;
    X509_SIG *sig = NULL;
    if (!cipher) NURI_PROV_ERR(PROV_R_INVALID_DATA, "nuri: key encryption cipher %s not found", c->cipher);
    else if (!cb || !cb(pass, sizeof pass, &plen, NULL, cbarg))
        NURI_PROV_ERR(PROV_R_UNABLE_TO_GET_PASSPHRASE, "nuri: no passphrase for the encrypted key");
    else if (p8)
        sig = PKCS8_encrypt_ex(-1, cipher, pass, (int)plen, NULL, 0, PKCS5_DEFAULT_ITER, p8, c->prov->libctx,
                               c->props[0] ? c->props : NULL);
    if (sig) {
        unsigned char *q = NULL;
        int len = i2d_X509_SIG(sig, &q);
        if (len > 0) {
            out = q;
            *outlen = (size_t)len;
        }
    }
    OPENSSL_cleanse(pass, sizeof pass);
    X509_SIG_free(sig);
    PKCS8_PRIV_KEY_INFO_free(p8);
    EVP_CIPHER_free(cipher);
    return out;
}

static int enc_write(enc_ctx *c, OSSL_CORE_BIO *cout, const void *obj, int priv, int pem, OSSL_PASSPHRASE_CALLBACK *cb,
                     void *cbarg)
{
    const nuri_prov_mlkem_key *k = obj;
    size_t n = 0;
    int ok = 0;
    if (!k || !(priv ? k->has_priv : k->has_pub)) {
        NURI_PROV_ERR(priv ? PROV_R_NOT_A_PRIVATE_KEY : PROV_R_NOT_A_PUBLIC_KEY, "ML-KEM: no %s key to encode",
                      priv ? "private" : "public");
        return 0;
    }
    uint8_t *der = priv ? pkcs8_der(k, &n) : spki_der(k, &n);
    const char *label = priv ? "PRIVATE KEY" : "PUBLIC KEY";
    if (der && priv && c->cipher[0]) { /* never falls back to writing the key in the clear */
        size_t en = 0;
        uint8_t *enc = pkcs8_encrypt(c, der, n, &en, cb, cbarg);
        OPENSSL_clear_free(der, n);
        der = enc;
        n = en;
        label = "ENCRYPTED PRIVATE KEY";
    }
    BIO *out = der ? BIO_new_from_core_bio(c->prov->libctx, cout) : NULL;
    if (out) {
        if (pem) ok = PEM_write_bio(out, label, "", der, (long)n) > 0;
        else ok = BIO_write(out, der, (int)n) == (int)n;
    }
    BIO_free(out);
    OPENSSL_clear_free(der, n);
    return ok;
}

#define ENCODER(kind, PRIV, fmt, PEM)                                                                            \
    static int enc_##kind##_##fmt(void *vctx, OSSL_CORE_BIO *cout, const void *obj, const OSSL_PARAM abstract[], \
                                  int selection, OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)                      \
    {                                                                                                            \
        (void)abstract, (void)selection;                                                                         \
        if (!obj) {                                                                                              \
            ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_KEY);                                                         \
            return 0;                                                                                            \
        }                                                                                                        \
        return enc_write(vctx, cout, obj, PRIV, PEM, cb, cbarg);                                                 \
    }                                                                                                            \
    static const OSSL_DISPATCH enc_##kind##_##fmt##_functions[] = {                                              \
        {OSSL_FUNC_ENCODER_NEWCTX, (void (*)(void))enc_newctx},                                                  \
        {OSSL_FUNC_ENCODER_FREECTX, (void (*)(void))enc_freectx},                                                \
        {OSSL_FUNC_ENCODER_SET_CTX_PARAMS, (void (*)(void))enc_set_ctx_params},                                  \
        {OSSL_FUNC_ENCODER_SETTABLE_CTX_PARAMS, (void (*)(void))enc_settable_ctx_params},                        \
        {OSSL_FUNC_ENCODER_DOES_SELECTION, (void (*)(void))enc_##kind##_does_selection},                         \
        {OSSL_FUNC_ENCODER_ENCODE, (void (*)(void))enc_##kind##_##fmt},                                          \
        {0, NULL}};

ENCODER(priv, 1, der, 0)
ENCODER(priv, 1, pem, 1)
ENCODER(pub, 0, der, 0)
ENCODER(pub, 0, pem, 1)

/* Text (openssl pkey -text / -text_pub): labelled hex, 15 bytes a line, like OpenSSL's own keys. */
static int print_hex(BIO *out, const char *label, const uint8_t *p, size_t n)
{
    if (BIO_printf(out, "%s:", label) <= 0) return 0;
    for (size_t i = 0; i < n; i++)
        if (BIO_printf(out, "%s%02x%s", i % 15 == 0 ? "\n    " : "", p[i], i + 1 < n ? ":" : "") <= 0) return 0;
    return BIO_printf(out, "\n") > 0;
}

static int enc_text_does_selection(void *provctx, int selection)
{
    (void)provctx, (void)selection;
    return 1;
}

static int enc_text(void *vctx, OSSL_CORE_BIO *cout, const void *obj, const OSSL_PARAM abstract[], int selection,
                    OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
    enc_ctx *c = vctx;
    const nuri_prov_mlkem_key *k = obj;
    (void)abstract, (void)cb, (void)cbarg;
    if (!k) {
        ERR_raise(ERR_LIB_PROV, PROV_R_INVALID_KEY);
        return 0;
    }
    int priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && k->has_priv;
    BIO *out = BIO_new_from_core_bio(c->prov->libctx, cout);
    int ok = out && BIO_printf(out, "%s %s-Key:\n", nuri_prov_mlkem_name(k->level), priv ? "Private" : "Public") > 0;
    if (ok && priv && k->has_seed) ok = print_hex(out, "seed", k->seed, sizeof k->seed);
    if (ok && priv) ok = print_hex(out, "dk", k->dk, nuri_mlkem_dk_bytes(k->level));
    if (ok && k->has_pub) ok = print_hex(out, "ek", k->ek, nuri_mlkem_ek_bytes(k->level));
    BIO_free(out);
    return ok;
}

static const OSSL_DISPATCH enc_text_functions[] = {
    {OSSL_FUNC_ENCODER_NEWCTX, (void (*)(void))enc_newctx},
    {OSSL_FUNC_ENCODER_FREECTX, (void (*)(void))enc_freectx},
    {OSSL_FUNC_ENCODER_DOES_SELECTION, (void (*)(void))enc_text_does_selection},
    {OSSL_FUNC_ENCODER_ENCODE, (void (*)(void))enc_text},
    {0, NULL}};

#define ENC_ROWS(L, n)                                                                                        \
    {"ML-KEM-" #L ":2.16.840.1.101.3.4.4." #n, "provider=nuri,output=der,structure=PrivateKeyInfo",           \
     enc_priv_der_functions, NULL},                                                                           \
        {"ML-KEM-" #L ":2.16.840.1.101.3.4.4." #n, "provider=nuri,output=pem,structure=PrivateKeyInfo",       \
         enc_priv_pem_functions, NULL},                                                                       \
        {"ML-KEM-" #L ":2.16.840.1.101.3.4.4." #n, "provider=nuri,output=der,structure=SubjectPublicKeyInfo", \
         enc_pub_der_functions, NULL},                                                                        \
        {"ML-KEM-" #L ":2.16.840.1.101.3.4.4." #n, "provider=nuri,output=pem,structure=SubjectPublicKeyInfo", \
         enc_pub_pem_functions, NULL},                                                                        \
        {"ML-KEM-" #L ":2.16.840.1.101.3.4.4." #n, "provider=nuri,output=text", enc_text_functions, NULL},

const OSSL_ALGORITHM nuri_prov_encoders[] = {ENC_ROWS(512, 1) ENC_ROWS(768, 2)
                                                 ENC_ROWS(1024, 3){NULL, NULL, NULL, NULL}};

/* ---- decoders (DER; PEM arrives as DER from the default provider's pem-to-der step) ---- */
typedef struct {
    nuri_prov_ctx *prov;
    unsigned level;
} dec_ctx;

static void dec_freectx(void *vctx) { OPENSSL_free(vctx); }

static int dec_priv_does_selection(void *provctx, int selection)
{
    (void)provctx;
    return enc_selection_fits(selection, OSSL_KEYMGMT_SELECT_PRIVATE_KEY);
}

static int dec_pub_does_selection(void *provctx, int selection)
{
    (void)provctx;
    return enc_selection_fits(selection, OSSL_KEYMGMT_SELECT_PUBLIC_KEY);
}

/* Reads the whole input (keys are at most a few KiB). */
static uint8_t *read_all(dec_ctx *c, OSSL_CORE_BIO *cin, size_t *n)
{
    BIO *in = BIO_new_from_core_bio(c->prov->libctx, cin);
    size_t cap = 8192, len = 0;
    uint8_t *buf = in ? OPENSSL_malloc(cap) : NULL;
    if (!buf) goto done;
    for (;;) {
        if (len == cap) {
            uint8_t *b = cap < (1u << 20) ? OPENSSL_clear_realloc(buf, cap, cap * 2) : NULL;
            if (!b) {
                OPENSSL_clear_free(buf, cap);
                buf = NULL;
                goto done;
            }
            buf = b;
            cap *= 2;
        }
        int r = BIO_read(in, buf + len, (int)(cap - len));
        if (r <= 0) break;
        len += (size_t)r;
    }
    *n = len;
done:
    BIO_free(in);
    return buf;
}

static int dec_decode(dec_ctx *c, int priv, OSSL_CORE_BIO *cin, OSSL_CALLBACK *data_cb, void *data_cbarg)
{
    size_t n = 0;
    uint8_t *der = read_all(c, cin, &n);
    nuri_prov_mlkem_key *k = der ? nuri_prov_mlkem_key_new(c->prov, c->level) : NULL;
    int ok = 1, r = 0;
    if (!k) {
        ok = 0;
        goto done;
    }
    r = priv ? pkcs8_parse(der, n, k) : spki_parse(der, n, k);
    if (r == 0) goto done; /* not an ML-KEM-<level> structure: let other decoders try (not an error) */
    if (r < 0) {
        ok = 0; /* ours, but the key is malformed: the error is already raised */
        goto done;
    }
    {
        int type = OSSL_OBJECT_PKEY;
        OSSL_PARAM p[4];
        p[0] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE, &type);
        p[1] = OSSL_PARAM_construct_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE, (char *)nuri_prov_mlkem_name(c->level), 0);
        p[2] = OSSL_PARAM_construct_octet_string(OSSL_OBJECT_PARAM_REFERENCE, &k, sizeof k);
        p[3] = OSSL_PARAM_construct_end();
        ok = data_cb(p, data_cbarg); /* the key manager's load() takes k and sets it to NULL */
    }
done:
    nuri_prov_mlkem_key_free(k);
    if (der) OPENSSL_clear_free(der, n);
    return ok;
}

static int dec_export_object(void *vctx, const void *reference, size_t reference_sz, OSSL_CALLBACK *export_cb,
                             void *export_cbarg)
{
    (void)vctx;
    if (reference_sz != sizeof(void *)) return 0;
    const nuri_prov_mlkem_key *k = *(nuri_prov_mlkem_key *const *)reference;
    OSSL_PARAM p[4];
    int n = 0;
    if (k->has_pub)
        p[n++] =
            OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)k->ek, nuri_mlkem_ek_bytes(k->level));
    if (k->has_priv)
        p[n++] =
            OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, (void *)k->dk, nuri_mlkem_dk_bytes(k->level));
    p[n] = OSSL_PARAM_construct_end();
    return export_cb(p, export_cbarg);
}

#define DECODER(L, kind, PRIV)                                                                                 \
    static void *dec##L##_##kind##_newctx(void *provctx)                                                       \
    {                                                                                                          \
        dec_ctx *c = OPENSSL_zalloc(sizeof *c);                                                                \
        if (c) c->prov = provctx, c->level = L;                                                                \
        return c;                                                                                              \
    }                                                                                                          \
    static int dec##L##_##kind##_decode(void *vctx, OSSL_CORE_BIO *cin, int selection, OSSL_CALLBACK *data_cb, \
                                        void *data_cbarg, OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg)     \
    {                                                                                                          \
        (void)selection, (void)pw_cb, (void)pw_cbarg;                                                          \
        return dec_decode(vctx, PRIV, cin, data_cb, data_cbarg);                                               \
    }                                                                                                          \
    static const OSSL_DISPATCH dec##L##_##kind##_functions[] = {                                               \
        {OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))dec##L##_##kind##_newctx},                                  \
        {OSSL_FUNC_DECODER_FREECTX, (void (*)(void))dec_freectx},                                              \
        {OSSL_FUNC_DECODER_DOES_SELECTION, (void (*)(void))dec_##kind##_does_selection},                       \
        {OSSL_FUNC_DECODER_DECODE, (void (*)(void))dec##L##_##kind##_decode},                                  \
        {OSSL_FUNC_DECODER_EXPORT_OBJECT, (void (*)(void))dec_export_object},                                  \
        {0, NULL}};

DECODER(512, priv, 1)
DECODER(512, pub, 0)
DECODER(768, priv, 1)
DECODER(768, pub, 0)
DECODER(1024, priv, 1)
DECODER(1024, pub, 0)

#define DEC_ROWS(L, n)                                                                                       \
    {"ML-KEM-" #L ":2.16.840.1.101.3.4.4." #n, "provider=nuri,input=der,structure=PrivateKeyInfo",           \
     dec##L##_priv_functions, NULL},                                                                         \
        {"ML-KEM-" #L ":2.16.840.1.101.3.4.4." #n, "provider=nuri,input=der,structure=SubjectPublicKeyInfo", \
         dec##L##_pub_functions, NULL},

const OSSL_ALGORITHM nuri_prov_decoders[] = {DEC_ROWS(512, 1) DEC_ROWS(768, 2)
                                                 DEC_ROWS(1024, 3){NULL, NULL, NULL, NULL}};
