/* nuri.so through OpenSSL's EVP API, every algorithm fetched with the property query
 * "provider=nuri" from a private library context:
 *  - PIPO-{128,256}-{ECB,CBC,CTR}: the PIPO known answers (ECB), then random keys, IVs, lengths
 *    and chunkings against libnuri's one-shot nuri_pipo_encrypt/decrypt, padding on and off,
 *    bad padding and partial blocks refused at final;
 *  - SCHWAEMM*: NIST LWC known answers (embedded; every entry of the KAT files too when the
 *    vector directory is given), random inputs against nuri_schwaemm_encrypt, AAD in pieces,
 *    a tampered tag or ciphertext fails EVP_DecryptFinal_ex with nothing written;
 *  - ESCH256/384: NIST LWC known answers and random chunkings against nuri_esch;
 *  - ML-KEM-512/768/1024: ACVP keyGen (seed import) and decapsulation vectors, generation,
 *    encapsulation checked by libnuri's decapsulation and the reverse, pub/priv/seed export,
 *    FIPS 203 key checks, DER and PEM encoding and decoding;
 *  - wrong key, IV and tag lengths are refused with an OpenSSL error.
 * Usage: provider_evp <directory of nuri.so> [<sparkle vector directory>] */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "mlkem_vectors.h"
#include "nuri/mlkem.h"
#include "nuri/pipo.h"
#include "nuri/sparkle.h"
#include "pipo_vectors.h"
#include "test_util.h"

#define PQ "provider=nuri"
static OSSL_LIB_CTX *lib;

static size_t rnd(size_t n) { return n ? (size_t)(tu_rand64() % n) : 0; }

/* Drops the error queue, returning whether it held an error (for the must-refuse checks). */
static int had_error(void)
{
    int e = ERR_peek_error() != 0;
    ERR_clear_error();
    return e;
}

/* libnuri's own results to compare with, through its public API with dispatch: a key or context
 * set up for the call, then the call. */
static int lib_seal(nuri_schwaemm_variant v, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *key,
                    size_t key_len, const uint8_t *nonce, size_t nonce_len, const uint8_t *ad, size_t ad_len,
                    const uint8_t *msg, size_t msg_len)
{
    nuri_schwaemm_key k;
    int rc = nuri_schwaemm_key_init(&k, v, key, key_len, NULL);
    if (rc == NURI_OK)
        rc = nuri_schwaemm_encrypt(&k, out, out_cap, out_len, nonce, nonce_len, ad, ad_len, msg, msg_len);
    nuri_schwaemm_key_wipe(&k);
    return rc;
}

static int lib_esch(size_t digest_bytes, uint8_t *out, const uint8_t *in, size_t in_len)
{
    return digest_bytes == 48 ? nuri_esch384(out, in, in_len) : nuri_esch256(out, in, in_len);
}

static int lib_kem(nuri_mlkem_ctx *kem, unsigned level) { return nuri_mlkem_init(kem, (nuri_mlkem_level)level, NULL); }

/* ---------------- PIPO ---------------- */

/* Runs a whole message through EVP in random chunks; returns the output length or -1. */
static long evp_cipher(const EVP_CIPHER *c, int enc, int pad, const uint8_t *key, const uint8_t *iv, const uint8_t *in,
                       size_t inl, uint8_t *out)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    long total = -1;
    int n;
    if (!ctx || !EVP_CipherInit_ex2(ctx, c, key, iv, enc, NULL) || !EVP_CIPHER_CTX_set_padding(ctx, pad)) goto done;
    size_t off = 0, o = 0;
    while (off < inl) {
        size_t take = 1 + rnd(inl - off < 40 ? inl - off : 40);
        if (!EVP_CipherUpdate(ctx, out + o, &n, in + off, (int)take)) goto done;
        off += take;
        o += (size_t)n;
    }
    if (!EVP_CipherFinal_ex(ctx, out + o, &n)) goto done;
    total = (long)(o + (size_t)n);
done:
    EVP_CIPHER_CTX_free(ctx);
    return total;
}

static void test_pipo(void)
{
    static const char *const names[2][3] = {{"PIPO-128-ECB", "PIPO-128-CBC", "PIPO-128-CTR"},
                                            {"PIPO-256-ECB", "PIPO-256-CBC", "PIPO-256-CTR"}};
    uint8_t key[32], iv[8], pt[300], ct[320], ref[320], back[320];
    (void)pipo128_trace, (void)pipo128_trace_key, (void)pipo256_trace, (void)pipo256_trace_key;
    (void)pipo_sbox, (void)pipo_inv_sbox;

    /* Known answers (ECB, one block, padding off). */
    for (int ks = 0; ks < 2; ks++) {
        EVP_CIPHER *c = EVP_CIPHER_fetch(lib, names[ks][0], PQ);
        CHECK(c != NULL, "fetch %s", names[ks][0]);
        if (!c) continue;
        const pipo_ecb_vector *v = ks ? pipo64_256_ecb : pipo64_128_ecb;
        size_t nv = ks ? sizeof pipo64_256_ecb / sizeof *v : sizeof pipo64_128_ecb / sizeof *v;
        for (size_t i = 0; i < nv; i++) {
            uint8_t p[8], x[8];
            tu_unhex(key, sizeof key, v[i].key);
            tu_unhex(p, 8, v[i].pt);
            tu_unhex(x, 8, v[i].ct);
            CHECK(evp_cipher(c, 1, 0, key, NULL, p, 8, ct) == 8 && memcmp(ct, x, 8) == 0, "%s KAT %zu encrypt",
                  names[ks][0], i);
            CHECK(evp_cipher(c, 0, 0, key, NULL, x, 8, back) == 8 && memcmp(back, p, 8) == 0, "%s KAT %zu decrypt",
                  names[ks][0], i);
            /* EVP_Cipher: raw blocks whatever the padding setting */
            EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
            for (int enc = 0; enc < 2; enc++) {
                CHECK(EVP_CipherInit_ex2(ctx, c, key, NULL, enc, NULL) == 1 &&
                          EVP_Cipher(ctx, ct, enc ? p : x, 8) > 0 && memcmp(ct, enc ? x : p, 8) == 0,
                      "%s KAT %zu EVP_Cipher %s", names[ks][0], i, enc ? "encrypt" : "decrypt");
            }
            EVP_CIPHER_CTX_free(ctx);
        }
        EVP_CIPHER_free(c);
    }

    for (int ks = 0; ks < 2; ks++)
        for (int m = 0; m < 3; m++) {
            const char *name = names[ks][m];
            EVP_CIPHER *c = EVP_CIPHER_fetch(lib, name, PQ);
            CHECK(c != NULL, "fetch %s", name);
            if (!c) continue;
            size_t klen = ks ? 32 : 16;
            CHECK((size_t)EVP_CIPHER_get_key_length(c) == klen, "%s key length", name);
            CHECK(EVP_CIPHER_get_iv_length(c) == (m == 0 ? 0 : 8), "%s IV length", name);
            CHECK(EVP_CIPHER_get_block_size(c) == (m == 2 ? 1 : 8), "%s block size", name);
            for (int t = 0; t < 40; t++) {
                size_t len = rnd(sizeof pt - 8);
                tu_randbytes(key, klen);
                tu_randbytes(iv, 8);
                tu_randbytes(pt, len);
                nuri_pipo_key k;
                if (nuri_pipo_key_init(&k, key, klen, NULL) != NURI_OK) abort();
                int pad = m == 2 ? 0 : (int)(t & 1) ^ 1;
                size_t plen = pad || m == 2 ? len : len & ~(size_t)7; /* no padding: whole blocks */
                size_t rlen = 0;
                int rc = nuri_pipo_encrypt(&k, (nuri_pipo_mode)m, m ? iv : NULL, m ? 8 : 0,
                                           pad ? NURI_PAD_PKCS7 : NURI_PAD_NONE, ref, sizeof ref, &rlen, pt, plen);
                CHECK(rc == NURI_OK, "%s nuri_pipo_encrypt", name);
                long n = evp_cipher(c, 1, pad, key, iv, pt, plen, ct);
                CHECK(n == (long)rlen && memcmp(ct, ref, rlen) == 0, "%s pad=%d len=%zu: EVP matches libnuri", name,
                      pad, plen);
                long b = evp_cipher(c, 0, pad, key, iv, ct, (size_t)(n < 0 ? 0 : n), back);
                CHECK(b == (long)plen && memcmp(back, pt, plen) == 0, "%s pad=%d len=%zu: round trip", name, pad, plen);
                nuri_pipo_key_wipe(&k);
            }
            {
                /* EVP_CIPHER_CTX_copy mid-stream: the copy finishes like the original */
                size_t len = 50 + rnd(100);
                int n1, n2, n3, n4;
                tu_randbytes(pt, len);
                EVP_CIPHER_CTX *a = EVP_CIPHER_CTX_new(), *b = EVP_CIPHER_CTX_new();
                int ok = EVP_EncryptInit_ex2(a, c, key, iv, NULL) && EVP_EncryptUpdate(a, ct, &n1, pt, 21) &&
                         EVP_CIPHER_CTX_copy(b, a) && EVP_EncryptUpdate(a, ct + n1, &n2, pt + 21, (int)len - 21) &&
                         EVP_EncryptFinal_ex(a, ct + n1 + n2, &n3) &&
                         EVP_EncryptUpdate(b, ref + n1, &n4, pt + 21, (int)len - 21) && n4 == n2 &&
                         EVP_EncryptFinal_ex(b, ref + n1 + n2, &n4) && n4 == n3;
                CHECK(ok && memcmp(ct + n1, ref + n1, (size_t)(n2 + n3)) == 0, "%s context copy", name);
                EVP_CIPHER_CTX_free(a);
                EVP_CIPHER_CTX_free(b);
            }
            if (m != 2) {
                /* a partial block without padding and a corrupted pad are refused at final */
                tu_randbytes(key, klen);
                CHECK(evp_cipher(c, 1, 0, key, iv, pt, 13, ct) < 0 && had_error(), "%s partial block refused", name);
                memset(pt, 0x41, 16);
                long n = evp_cipher(c, 1, 0, key, iv, pt, 16, ct); /* last plaintext byte 0x41: bad pad */
                CHECK(n == 16 && evp_cipher(c, 0, 1, key, iv, ct, 16, back) < 0 && had_error(),
                      "%s bad padding refused", name);
            }
            /* wrong key and IV lengths: OpenSSL errors, not crashes */
            EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
            CHECK(EVP_EncryptInit_ex2(ctx, c, NULL, NULL, NULL) == 1, "%s init", name);
            CHECK(EVP_CIPHER_CTX_set_key_length(ctx, (int)klen + 1) != 1 && had_error(), "%s key length %zu refused",
                  name, klen + 1);
            size_t bad_iv = 12;
            OSSL_PARAM ivp[2] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &bad_iv), OSSL_PARAM_END};
            CHECK(EVP_CIPHER_CTX_set_params(ctx, ivp) != 1 && had_error(), "%s IV length 12 refused", name);
            unsigned char o[16];
            int ol;
            CHECK(EVP_EncryptUpdate(ctx, o, &ol, pt, 8) != 1 && had_error(), "%s update without key refused", name);
            EVP_CIPHER_CTX_free(ctx);
            EVP_CIPHER_free(c);
        }
}

/* ---------------- Schwaemm ---------------- */

static const struct {
    const char *name;
    int variant;
    const char *file;
    const char *ct[3]; /* NIST LWC KAT Count 1, 35 and 580 (key/nonce/PT/AD = 00 01 02 ...) */
} schwaemm[] = {
    {"SCHWAEMM128-128",
     NURI_SCHWAEMM128_128,
     "LWC_AEAD_KAT_128_128.txt",
     {"DDCE77CDB748E6D053CAB7E9190A8349", "C5F585269D44FE004995BA2272648CA3C1",
      "21112EE811A61E0020F50F9F3195CBCB2064528953B70DBF6E4825F246F080AF39"}},
    {"SCHWAEMM256-128",
     NURI_SCHWAEMM256_128,
     "LWC_AEAD_KAT_128_256.txt",
     {"9E3F9F2E8E26E7D00A9EB92730717A51", "2EDE54CA895FB69F695BAB81C36ABB2F76",
      "6C363BD409EDFBD4FF4CA6C0FAC41CAD5DCF1EF646714886217F40EF0DE7031EBC"}},
    {"SCHWAEMM192-192",
     NURI_SCHWAEMM192_192,
     "LWC_AEAD_KAT_192_192.txt",
     {"94FABEF076B80FA4CAE902DC5630A2B7B8A72282A560212C", "874E3B1EBF0CA8C8BDCBC2A8318455C5CEABBD3F4655CB6A55",
      "7A63C8CE398F9F7F075EA47C48EA65A7F0297DEB7BCDE031253307030C8FD497C05F6A5CE38F03D16A"}},
    {"SCHWAEMM256-256",
     NURI_SCHWAEMM256_256,
     "LWC_AEAD_KAT_256_256.txt",
     {"1E41C39049501061A480341DC8551F3CCE171900EB8F90BA5C54B2A7CC2BFDF2",
      "6AFBDF6159DF14F39BC24E408D6523ED40B7B836CEC4D7412ACACA1230B2142B5B",
      "F7196B244205671C7C2CF54CEC9A8192E2865BA10AE9536E090AB4728BEB44DD8E65CBCEA0C67F6A44601F872CCB903244"}},
};

/* Encrypts through EVP (AAD and message in random chunks); writes ct || tag, returns its length. */
static long aead_seal(const EVP_CIPHER *c, size_t taglen, const uint8_t *key, const uint8_t *nonce, const uint8_t *ad,
                      size_t adl, const uint8_t *pt, size_t len, uint8_t *out)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    long r = -1;
    int n;
    size_t o = 0, off;
    if (!ctx || !EVP_EncryptInit_ex2(ctx, c, key, nonce, NULL)) goto done;
    for (off = 0; off < adl;) {
        size_t take = 1 + rnd(adl - off);
        if (!EVP_EncryptUpdate(ctx, NULL, &n, ad + off, (int)take) || n != (int)take) goto done;
        off += take;
    }
    for (off = 0; off < len;) {
        size_t take = 1 + rnd(len - off < 70 ? len - off : 70);
        if (!EVP_EncryptUpdate(ctx, out + o, &n, pt + off, (int)take)) goto done;
        off += take;
        o += (size_t)n;
    }
    if (!EVP_EncryptFinal_ex(ctx, out + o, &n)) goto done;
    o += (size_t)n;
    if (o != len || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)taglen, out + o) != 1) goto done;
    r = (long)(o + taglen);
done:
    EVP_CIPHER_CTX_free(ctx);
    return r;
}

/* Decrypts ct || tag through EVP, one-shot: the tag first, the AAD in random chunks, the whole
 * ciphertext in one EVP_DecryptUpdate (the call that checks the tag and writes the plaintext).
 * Returns the plaintext length, or -1 with *released = bytes written before the failure (must be 0). */
static long aead_open(const EVP_CIPHER *c, size_t taglen, const uint8_t *key, const uint8_t *nonce, const uint8_t *ad,
                      size_t adl, const uint8_t *ct, size_t ctl, uint8_t *out, long *released)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    long r = -1;
    int n;
    size_t o = 0, off, len = ctl - taglen;
    *released = 0;
    if (!ctx || !EVP_DecryptInit_ex2(ctx, c, key, nonce, NULL)) goto done;
    if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen, (void *)(ct + len)) != 1) goto done;
    for (off = 0; off < adl;) {
        size_t take = 1 + rnd(adl - off);
        if (!EVP_DecryptUpdate(ctx, NULL, &n, ad + off, (int)take)) goto done;
        off += take;
    }
    if (len && !EVP_DecryptUpdate(ctx, out, &n, ct, (int)len)) goto done;
    o = len ? (size_t)n : 0;
    *released = (long)o;
    if (!EVP_DecryptFinal_ex(ctx, out + o, &n)) goto done;
    r = (long)(o + (size_t)n);
done:
    EVP_CIPHER_CTX_free(ctx);
    return r;
}

/* The loop GCM and ChaCha20-Poly1305 users write: CHUNK bytes per EVP_*Update into a buffer of
 * exactly CHUNK + EVP_MAX_BLOCK_LENGTH bytes (on the heap, so AddressSanitizer sees any write past
 * it), the output appended to `out`. tag_first: EVP_CTRL_AEAD_SET_TAG before the updates, else
 * before final. Returns the bytes produced (ok: *ok = 1), or those produced before the failure. */
#define LOOP_CHUNK 4096
static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= p[i];
    return acc == 0;
}

static size_t evp_loop(const EVP_CIPHER *c, int enc, const uint8_t *key, const uint8_t *nonce, const uint8_t *ad,
                       size_t adl, const uint8_t *in, size_t inl, uint8_t *out, uint8_t *tag, size_t taglen,
                       int tag_first, int *ok)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char *buf = malloc(LOOP_CHUNK + EVP_MAX_BLOCK_LENGTH);
    size_t o = 0;
    int n;
    *ok = 0;
    if (!ctx || !buf || !EVP_CipherInit_ex2(ctx, c, key, nonce, enc, NULL)) goto done;
    if (taglen && !enc && tag_first && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen, tag) != 1)
        goto done;
    if (adl && !EVP_CipherUpdate(ctx, NULL, &n, ad, (int)adl)) goto done;
    for (size_t off = 0; off < inl; off += LOOP_CHUNK) {
        size_t take = inl - off < LOOP_CHUNK ? inl - off : LOOP_CHUNK;
        if (!EVP_CipherUpdate(ctx, buf, &n, in + off, (int)take)) goto done;
        memcpy(out + o, buf, (size_t)n);
        o += (size_t)n;
    }
    if (taglen && !enc && !tag_first && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen, tag) != 1)
        goto done;
    if (!EVP_CipherFinal_ex(ctx, buf, &n)) goto done;
    memcpy(out + o, buf, (size_t)n);
    o += (size_t)n;
    if (taglen && enc && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)taglen, tag) != 1) goto done;
    *ok = 1;
done:
    ERR_clear_error();
    free(buf);
    EVP_CIPHER_CTX_free(ctx);
    return o;
}

/* The streaming loop over every cipher: never a write past the caller's buffer. Schwaemm encrypts
 * in the loop; it decrypts a long message only one-shot (tag first, one update): the loop fails with
 * nothing released, whether the tag comes first or last; a message within one block passes the
 * loop. PIPO (ECB/CBC with padding, CTR) round-trips in the loop. */
static void test_streaming_loop(void)
{
    static const char *const aeads[] = {"SCHWAEMM128-128", "SCHWAEMM256-128", "SCHWAEMM192-192", "SCHWAEMM256-256"};
    static const int variants[] = {NURI_SCHWAEMM128_128, NURI_SCHWAEMM256_128, NURI_SCHWAEMM192_192,
                                   NURI_SCHWAEMM256_256};
    const size_t len = 100000, adl = 37;
    uint8_t *pt = malloc(len), *ct = malloc(len + 64), *ref = malloc(len + 64), *back = malloc(len + 64);
    uint8_t key[32], nonce[32], ad[37], tag[32];
    CHECK(pt && ct && ref && back, "allocation");
    if (!pt || !ct || !ref || !back) goto out;
    tu_randbytes(pt, len), tu_randbytes(key, 32), tu_randbytes(nonce, 32), tu_randbytes(ad, adl);
    for (size_t i = 0; i < sizeof aeads / sizeof *aeads; i++) {
        EVP_CIPHER *c = EVP_CIPHER_fetch(lib, aeads[i], PQ);
        CHECK(c != NULL, "fetch %s", aeads[i]);
        if (!c) continue;
        const int v = variants[i];
        const size_t kl = nuri_schwaemm_key_bytes(v), nl = nuri_schwaemm_nonce_bytes(v),
                     tl = nuri_schwaemm_tag_bytes(v), bs = (size_t)EVP_CIPHER_get_block_size(c);
        size_t rl = 0;
        int ok;
        CHECK(lib_seal(v, ref, len + 64, &rl, key, kl, nonce, nl, ad, adl, pt, len) == NURI_OK && rl == len + tl,
              "%s one-shot reference", aeads[i]);
        size_t n = evp_loop(c, 1, key, nonce, ad, adl, pt, len, ct, tag, tl, 0, &ok);
        CHECK(ok && n == len && memcmp(ct, ref, len) == 0 && memcmp(tag, ref + len, tl) == 0,
              "%s: the streaming loop encrypts 100000 bytes", aeads[i]);
        for (int tag_first = 0; tag_first < 2; tag_first++) {
            memset(back, 0, len);
            n = evp_loop(c, 0, key, nonce, ad, adl, ct, len, back, tag, tl, tag_first, &ok);
            CHECK(!ok && n == 0 && all_zero(back, len),
                  "%s: the streaming decrypt loop (tag %s) fails with nothing released, no overrun", aeads[i],
                  tag_first ? "first" : "last");
        }
        /* one-shot: the whole ciphertext in one update into a buffer of len + the block size */
        long rel;
        uint8_t *exact = malloc(len + EVP_MAX_BLOCK_LENGTH);
        CHECK(exact && aead_open(c, tl, key, nonce, ad, adl, ref, len + tl, exact, &rel) == (long)len &&
                  memcmp(exact, pt, len) == 0,
              "%s: one-shot decryption of 100000 bytes", aeads[i]);
        free(exact);
        /* a message within one block passes the loop, tag first or last; a wrong tag releases nothing */
        for (int tag_first = 0; tag_first < 2; tag_first++) {
            const size_t sl = bs - 1;
            CHECK(lib_seal(v, ref, len + 64, &rl, key, kl, nonce, nl, ad, adl, pt, sl) == NURI_OK, "%s short reference",
                  aeads[i]);
            memset(back, 0, sl);
            n = evp_loop(c, 0, key, nonce, ad, adl, ref, sl, back, ref + sl, tl, tag_first, &ok);
            CHECK(ok && n == sl && memcmp(back, pt, sl) == 0, "%s: %zu-byte message through the loop (tag %s)",
                  aeads[i], sl, tag_first ? "first" : "last");
            ref[sl] ^= 1;
            memset(back, 0, sl);
            n = evp_loop(c, 0, key, nonce, ad, adl, ref, sl, back, ref + sl, tl, tag_first, &ok);
            CHECK(!ok && n == 0 && all_zero(back, sl), "%s: wrong tag through the loop releases nothing", aeads[i]);
        }
        EVP_CIPHER_free(c);
    }
    static const char *const pipos[] = {"PIPO-128-ECB", "PIPO-128-CBC", "PIPO-128-CTR", "PIPO-256-CBC"};
    for (size_t i = 0; i < sizeof pipos / sizeof *pipos; i++) {
        EVP_CIPHER *c = EVP_CIPHER_fetch(lib, pipos[i], PQ);
        CHECK(c != NULL, "fetch %s", pipos[i]);
        if (!c) continue;
        const size_t m = len - 3; /* not a whole number of blocks: padding in ECB/CBC */
        const uint8_t *iv = strstr(pipos[i], "ECB") ? NULL : nonce;
        int ok;
        size_t n = evp_loop(c, 1, key, iv, NULL, 0, pt, m, ct, NULL, 0, 0, &ok);
        CHECK(ok && n >= m && n <= m + 8, "%s: the streaming loop encrypts", pipos[i]);
        size_t b = evp_loop(c, 0, key, iv, NULL, 0, ct, n, back, NULL, 0, 0, &ok);
        CHECK(ok && b == m && memcmp(back, pt, m) == 0, "%s: the streaming loop decrypts", pipos[i]);
        EVP_CIPHER_free(c);
    }
out:
    free(pt), free(ct), free(ref), free(back);
}

static void lwc_seq(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)i;
}

static void test_schwaemm_file(const EVP_CIPHER *c, size_t taglen, const char *dir, const char *file)
{
    tu_set_begin();
    char path[1024];
    tu_kv kv;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (tu_kv_open(&kv, path) != 0) {
        CHECK(0, "cannot open %s", path);
        return;
    }
    unsigned count = 0, ok = 0;
    static uint8_t key[32], nonce[32], pt[64], ad[64], ct[128], out[128], back[128];
    while (tu_kv_next(&kv)) {
        long kl = tu_unhex(key, sizeof key, tu_kv_get(&kv, "Key")),
             nl = tu_unhex(nonce, sizeof nonce, tu_kv_get(&kv, "Nonce"));
        long pl = tu_unhex(pt, sizeof pt, tu_kv_get(&kv, "PT")), al = tu_unhex(ad, sizeof ad, tu_kv_get(&kv, "AD"));
        long cl = tu_unhex(ct, sizeof ct, tu_kv_get(&kv, "CT")), rel;
        (void)kl, (void)nl;
        count++;
        long n = aead_seal(c, taglen, key, nonce, ad, (size_t)al, pt, (size_t)pl, out);
        long b = aead_open(c, taglen, key, nonce, ad, (size_t)al, ct, (size_t)cl, back, &rel);
        ok += n == cl && memcmp(out, ct, (size_t)cl) == 0 && b == pl && memcmp(back, pt, (size_t)pl) == 0;
    }
    tu_kv_close(&kv);
    CHECK(count > 0 && ok == count, "%s: %u of %u KAT entries through EVP", file, ok, count);
    char set[96];
    snprintf(set, sizeof set, "%s (%s)", file, EVP_CIPHER_get0_name(c));
    tu_set_end("provider_evp", set, count, 1089);
}

static void test_schwaemm(const char *vecdir)
{
    static uint8_t key[32], nonce[32], pt[600], ad[100], ct[700], ref[700], back[700], sentinel[700];
    for (size_t s = 0; s < sizeof schwaemm / sizeof *schwaemm; s++) {
        const char *name = schwaemm[s].name;
        const int v = schwaemm[s].variant;
        const size_t kl = nuri_schwaemm_key_bytes(v), nl = nuri_schwaemm_nonce_bytes(v),
                     tl = nuri_schwaemm_tag_bytes(v);
        EVP_CIPHER *c = EVP_CIPHER_fetch(lib, name, PQ);
        CHECK(c != NULL, "fetch %s", name);
        if (!c) continue;
        CHECK((EVP_CIPHER_get_flags(c) & EVP_CIPH_FLAG_AEAD_CIPHER) != 0, "%s is an AEAD", name);
        CHECK((size_t)EVP_CIPHER_get_key_length(c) == kl && (size_t)EVP_CIPHER_get_iv_length(c) == nl,
              "%s key and nonce lengths", name);
        /* embedded NIST LWC answers */
        static const unsigned counts[3] = {1, 35, 580};
        for (int i = 0; i < 3; i++) {
            size_t pl = (counts[i] - 1) / 33, al = (counts[i] - 1) % 33;
            long want = tu_unhex(ref, sizeof ref, schwaemm[s].ct[i]), rel;
            lwc_seq(key, kl), lwc_seq(nonce, nl), lwc_seq(pt, pl), lwc_seq(ad, al);
            long n = aead_seal(c, tl, key, nonce, ad, al, pt, pl, ct);
            CHECK(n == want && memcmp(ct, ref, (size_t)want) == 0, "%s KAT Count %u encrypt", name, counts[i]);
            long b = aead_open(c, tl, key, nonce, ad, al, ref, (size_t)want, back, &rel);
            CHECK(b == (long)pl && memcmp(back, pt, pl) == 0, "%s KAT Count %u decrypt", name, counts[i]);
        }
        test_schwaemm_file(c, tl, vecdir, schwaemm[s].file);
        /* random inputs against libnuri's one-shot form; tampering */
        for (int t = 0; t < 30; t++) {
            size_t len = rnd(sizeof pt), adl = rnd(sizeof ad), rl = 0;
            long rel;
            tu_randbytes(key, kl), tu_randbytes(nonce, nl), tu_randbytes(pt, len), tu_randbytes(ad, adl);
            CHECK(lib_seal(v, ref, sizeof ref, &rl, key, kl, nonce, nl, ad, adl, pt, len) == NURI_OK,
                  "%s nuri_schwaemm_encrypt", name);
            long n = aead_seal(c, tl, key, nonce, ad, adl, pt, len, ct);
            CHECK(n == (long)rl && memcmp(ct, ref, rl) == 0, "%s len=%zu ad=%zu: EVP matches libnuri", name, len, adl);
            long b = aead_open(c, tl, key, nonce, ad, adl, ct, rl, back, &rel);
            CHECK(b == (long)len && memcmp(back, pt, len) == 0, "%s len=%zu: round trip", name, len);
            /* a flipped bit in the tag, the ciphertext or the AAD: final fails, nothing released */
            size_t where = t % 3 == 0 || len == 0 ? len + rnd(tl) : rnd(len);
            if (t % 3 == 2 && adl) ad[rnd(adl)] ^= 0x20;
            else ct[where] ^= (uint8_t)(1u << rnd(8));
            memset(back, 0xA5, sizeof back);
            memset(sentinel, 0xA5, sizeof sentinel);
            b = aead_open(c, tl, key, nonce, ad, adl, ct, rl, back, &rel);
            CHECK(b < 0 && rel == 0 && memcmp(back, sentinel, sizeof back) == 0 && had_error(),
                  "%s tampered (case %d): EVP_DecryptFinal_ex fails and releases nothing", name, t % 3);
        }
        {
            /* EVP_CIPHER_CTX_copy mid-message (encrypting and decrypting): both finish alike */
            size_t len = 100 + rnd(200), rl = 0;
            int n1 = 0, n2 = 0, n3 = 0, n4 = 0;
            uint8_t tag2[32];
            tu_randbytes(pt, len);
            CHECK(lib_seal(v, ref, sizeof ref, &rl, key, kl, nonce, nl, ad, 5, pt, len) == NURI_OK,
                  "nuri_schwaemm_encrypt");
            EVP_CIPHER_CTX *a = EVP_CIPHER_CTX_new(), *b = EVP_CIPHER_CTX_new();
            int ok = EVP_EncryptInit_ex2(a, c, key, nonce, NULL) && EVP_EncryptUpdate(a, NULL, &n1, ad, 5) &&
                     EVP_EncryptUpdate(a, ct, &n1, pt, 77) && EVP_CIPHER_CTX_copy(b, a) &&
                     EVP_EncryptUpdate(b, ct + n1, &n2, pt + 77, (int)len - 77) &&
                     EVP_EncryptFinal_ex(b, ct + n1 + n2, &n3) &&
                     EVP_CIPHER_CTX_ctrl(b, EVP_CTRL_AEAD_GET_TAG, (int)tl, tag2) == 1;
            CHECK(ok && (size_t)(n1 + n2 + n3) == len && memcmp(ct, ref, len) == 0 && memcmp(tag2, ref + len, tl) == 0,
                  "%s encryption context copy", name);
            /* decryption (one-shot: tag first, the whole ciphertext in one update), copied mid-AAD */
            ok = EVP_DecryptInit_ex2(a, c, key, nonce, NULL) &&
                 EVP_CIPHER_CTX_ctrl(a, EVP_CTRL_AEAD_SET_TAG, (int)tl, ref + len) == 1 &&
                 EVP_DecryptUpdate(a, NULL, &n1, ad, 2) && EVP_CIPHER_CTX_copy(b, a) &&
                 EVP_DecryptUpdate(b, NULL, &n1, ad + 2, 3) && EVP_DecryptUpdate(b, back, &n2, ref, (int)len) &&
                 EVP_DecryptFinal_ex(b, back + n2, &n4);
            CHECK(ok && (size_t)n2 == len && n4 == 0 && memcmp(back, pt, len) == 0, "%s decryption context copy", name);
            EVP_CIPHER_CTX_free(a);
            EVP_CIPHER_CTX_free(b);
        }
        {
            /* one decryption context for several messages (decryption holds AAD and ciphertext
             * until final and keeps the key): a re-init with only a new nonce keeps the key, a
             * failed tag check leaves the context usable after a re-init, AAD and ciphertext of
             * one message never leak into the next, and AAD after the message is refused */
            static uint8_t ct2[700], nonce2[32];
            size_t l1 = 1 + rnd(300), l2 = 1 + rnd(300), r1 = 0, r2 = 0;
            int n1 = 0, n2 = 0, ok;
            tu_randbytes(pt, l1 > l2 ? l1 : l2), tu_randbytes(nonce2, nl), tu_randbytes(ad, 9);
            CHECK(lib_seal(v, ref, sizeof ref, &r1, key, kl, nonce, nl, ad, 9, pt, l1) == NURI_OK &&
                      lib_seal(v, ct2, sizeof ct2, &r2, key, kl, nonce2, nl, NULL, 0, pt, l2) == NURI_OK,
                  "nuri_schwaemm_encrypt");
            EVP_CIPHER_CTX *a = EVP_CIPHER_CTX_new();
            ok = EVP_DecryptInit_ex2(a, c, key, nonce, NULL) &&
                 EVP_CIPHER_CTX_ctrl(a, EVP_CTRL_AEAD_SET_TAG, (int)tl, ref + l1) == 1 &&
                 EVP_DecryptUpdate(a, NULL, &n1, ad, 4) && EVP_DecryptUpdate(a, NULL, &n1, ad + 4, 5) &&
                 EVP_DecryptUpdate(a, back, &n1, ref, (int)l1) && EVP_DecryptFinal_ex(a, back + n1, &n2);
            CHECK(ok && (size_t)n1 == l1 && n2 == 0 && memcmp(back, pt, l1) == 0, "%s decrypt, first message", name);
            ok = EVP_DecryptInit_ex2(a, NULL, NULL, nonce2, NULL) &&
                 EVP_CIPHER_CTX_ctrl(a, EVP_CTRL_AEAD_SET_TAG, (int)tl, ct2 + l2) == 1 &&
                 EVP_DecryptUpdate(a, back, &n1, ct2, (int)l2) && EVP_DecryptFinal_ex(a, back + n1, &n2);
            CHECK(ok && (size_t)n1 == l2 && memcmp(back, pt, l2) == 0, "%s decrypt, new nonce only: key kept", name);
            ct2[0] ^= 1;
            memset(back, 0xA5, sizeof back);
            memset(sentinel, 0xA5, sizeof sentinel);
            ok = EVP_DecryptInit_ex2(a, NULL, NULL, nonce2, NULL) &&
                 EVP_CIPHER_CTX_ctrl(a, EVP_CTRL_AEAD_SET_TAG, (int)tl, ct2 + l2) == 1;
            CHECK(ok && EVP_DecryptUpdate(a, back, &n1, ct2, (int)l2) != 1 && had_error() &&
                      EVP_DecryptFinal_ex(a, back, &n2) != 1 && memcmp(back, sentinel, sizeof back) == 0,
                  "%s decrypt, tampered: refused, nothing written", name);
            ERR_clear_error();
            ct2[0] ^= 1;
            ok = EVP_DecryptInit_ex2(a, NULL, NULL, nonce2, NULL) &&
                 EVP_CIPHER_CTX_ctrl(a, EVP_CTRL_AEAD_SET_TAG, (int)tl, ct2 + l2) == 1 &&
                 EVP_DecryptUpdate(a, back, &n1, ct2, (int)l2) && EVP_DecryptFinal_ex(a, back + n1, &n2);
            CHECK(ok && (size_t)n1 == l2 && memcmp(back, pt, l2) == 0, "%s decrypt after a failed tag and re-init",
                  name);
            /* one-shot means one update: a second one with message bytes is refused */
            ok = EVP_DecryptInit_ex2(a, NULL, NULL, nonce2, NULL) &&
                 EVP_CIPHER_CTX_ctrl(a, EVP_CTRL_AEAD_SET_TAG, (int)tl, ct2 + l2) == 1 &&
                 EVP_DecryptUpdate(a, back, &n1, ct2, (int)l2) && EVP_DecryptUpdate(a, back, &n2, ct2, 1) != 1 &&
                 had_error();
            CHECK(ok, "%s decrypt: a second update after the one-shot one is refused", name);
            ok = EVP_DecryptInit_ex2(a, NULL, NULL, nonce, NULL) && EVP_DecryptUpdate(a, back, &n1, ref, 3) &&
                 EVP_DecryptUpdate(a, NULL, &n2, ad, 3) != 1 && had_error();
            CHECK(ok, "%s decrypt: AAD after the message refused", name);
            EVP_CIPHER_CTX_free(a);
        }
        /* wrong lengths and call order are refused with an OpenSSL error */
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        CHECK(EVP_EncryptInit_ex2(ctx, c, NULL, NULL, NULL) == 1, "%s init", name);
        CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) != 1 && had_error(),
              "%s IV length 12 refused", name);
        CHECK(EVP_CIPHER_CTX_set_key_length(ctx, (int)kl + 8) != 1 && had_error(), "%s key length refused", name);
        CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)nl, NULL) == 1, "%s own IV length accepted", name);
        CHECK(EVP_EncryptInit_ex2(ctx, NULL, key, nonce, NULL) == 1, "%s init with key", name);
        uint8_t tag[32];
        CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)tl, tag) != 1 && had_error(),
              "%s tag before final refused", name);
        int n1, n2;
        CHECK(EVP_EncryptUpdate(ctx, ct, &n1, pt, 10) == 1 && EVP_EncryptUpdate(ctx, NULL, &n2, ad, 3) != 1 &&
                  had_error(),
              "%s AAD after the message refused", name);
        CHECK(EVP_DecryptInit_ex2(ctx, c, key, nonce, NULL) == 1, "%s decrypt init", name);
        CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)tl - 1, tag) != 1 && had_error(),
              "%s short tag refused", name);
        CHECK(EVP_DecryptUpdate(ctx, back, &n1, ct, 10) == 1 && n1 == 0, "%s decrypt update releases nothing", name);
        CHECK(EVP_DecryptFinal_ex(ctx, back, &n2) != 1 && had_error(), "%s final without a tag refused", name);
        EVP_CIPHER_CTX_free(ctx);
        EVP_CIPHER_free(c);
    }
}

/* ---------------- Esch ---------------- */

static void test_esch_file(const EVP_MD *md, const char *dir, const char *file)
{
    tu_set_begin();
    char path[1024];
    tu_kv kv;
    static uint8_t msg[1100], want[48], got[64];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (tu_kv_open(&kv, path) != 0) {
        CHECK(0, "cannot open %s", path);
        return;
    }
    unsigned count = 0, ok = 0;
    while (tu_kv_next(&kv)) {
        long ml = tu_unhex(msg, sizeof msg, tu_kv_get(&kv, "Msg")),
             dl = tu_unhex(want, sizeof want, tu_kv_get(&kv, "MD"));
        unsigned gl = 0;
        count++;
        ok += ml >= 0 && EVP_Digest(msg, (size_t)ml, got, &gl, md, NULL) == 1 && (long)gl == dl &&
              memcmp(got, want, gl) == 0;
    }
    tu_kv_close(&kv);
    CHECK(count > 0 && ok == count, "%s: %u of %u KAT entries through EVP", file, ok, count);
    char set[96];
    snprintf(set, sizeof set, "%s (%s)", file, EVP_MD_get0_name(md));
    tu_set_end("provider_evp", set, count, 1025);
}

static void test_esch(const char *vecdir)
{
    static const struct {
        const char *name, *file;
        size_t dl;
        const char *md[2];
    } esch[] = {
        {"ESCH256",
         "LWC_HASH_KAT_256.txt",
         32,
         {"C0E815D78B875DC768C6C8B3AFA51987CD69E5C087D387368628A511CFAD5730",
          "E6BF73941A7417FEFD2DD5882FFCBFAEA22B4C131EF155943FC817F61AD05B85"}},
        {"ESCH384",
         "LWC_HASH_KAT_384.txt",
         48,
         {"2981715E2263EBD0CB6E5C2C99D0776D5E691EE737FDE05247895E75D02E7447FD6AB707E2EC8385A539777965E472EE",
          "4D5607783A26B83FD478C8EAC31634DD3641ADB61C6DF964D6935E716D6826397C01AAEC57F584E6FB293EC26B547CE8"}},
    };
    static uint8_t msg[2000], got[64], ref[64], want[64];
    for (size_t e = 0; e < 2; e++) {
        EVP_MD *md = EVP_MD_fetch(lib, esch[e].name, PQ);
        CHECK(md != NULL, "fetch %s", esch[e].name);
        if (!md) continue;
        CHECK((size_t)EVP_MD_get_size(md) == esch[e].dl, "%s size", esch[e].name);
        static const size_t lens[2] = {0, 17}; /* KAT Count 1 and 18 */
        for (int i = 0; i < 2; i++) {
            unsigned gl = 0;
            lwc_seq(msg, lens[i]);
            tu_unhex(want, sizeof want, esch[e].md[i]);
            CHECK(EVP_Digest(msg, lens[i], got, &gl, md, NULL) == 1 && gl == esch[e].dl && memcmp(got, want, gl) == 0,
                  "%s KAT len %zu", esch[e].name, lens[i]);
        }
        test_esch_file(md, vecdir, esch[e].file);
        for (int t = 0; t < 40; t++) {
            size_t len = rnd(sizeof msg);
            tu_randbytes(msg, len);
            CHECK(lib_esch(esch[e].dl, ref, msg, len) == NURI_OK, "nuri_esch");
            EVP_MD_CTX *ctx = EVP_MD_CTX_new();
            int ok = EVP_DigestInit_ex2(ctx, md, NULL);
            for (size_t off = 0; ok && off < len;) {
                size_t take = 1 + rnd(len - off < 50 ? len - off : 50);
                ok = EVP_DigestUpdate(ctx, msg + off, take);
                off += take;
            }
            /* a copy taken mid-way finishes the same way */
            EVP_MD_CTX *dup = EVP_MD_CTX_new();
            unsigned gl = 0, dl2 = 0;
            ok = ok && EVP_MD_CTX_copy_ex(dup, ctx) && EVP_DigestFinal_ex(ctx, got, &gl) &&
                 EVP_DigestFinal_ex(dup, want, &dl2);
            CHECK(ok && gl == esch[e].dl && memcmp(got, ref, gl) == 0 && memcmp(want, ref, gl) == 0,
                  "%s len=%zu chunked matches libnuri", esch[e].name, len);
            EVP_MD_CTX_free(dup);
            EVP_MD_CTX_free(ctx);
        }
        EVP_MD_free(md);
    }
}

/* ---------------- ML-KEM ---------------- */

static EVP_PKEY *key_from(unsigned level, int selection, const char *pname, const uint8_t *p, size_t n)
{
    char name[16];
    snprintf(name, sizeof name, "ML-KEM-%u", level);
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(lib, name, PQ);
    EVP_PKEY *pk = NULL;
    OSSL_PARAM prm[2] = {OSSL_PARAM_construct_octet_string(pname, (void *)p, n), OSSL_PARAM_END};
    if (pc && EVP_PKEY_fromdata_init(pc) == 1) (void)EVP_PKEY_fromdata(pc, &pk, selection, prm);
    EVP_PKEY_CTX_free(pc);
    return pk;
}

static int get_oct(const EVP_PKEY *pk, const char *pname, uint8_t *out, size_t cap, size_t *n)
{
    return EVP_PKEY_get_octet_string_param(pk, pname, out, cap, n);
}

static int encap(EVP_PKEY *pk, uint8_t *ct, size_t *ctl, uint8_t *ss)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(lib, pk, PQ);
    size_t sl = 32;
    int ok = c && EVP_PKEY_encapsulate_init(c, NULL) == 1 && EVP_PKEY_encapsulate(c, ct, ctl, ss, &sl) == 1 && sl == 32;
    EVP_PKEY_CTX_free(c);
    return ok;
}

static int decap(EVP_PKEY *pk, const uint8_t *ct, size_t ctl, uint8_t *ss)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(lib, pk, PQ);
    size_t sl = 32;
    int ok = c && EVP_PKEY_decapsulate_init(c, NULL) == 1 && EVP_PKEY_decapsulate(c, ss, &sl, ct, ctl) == 1 && sl == 32;
    EVP_PKEY_CTX_free(c);
    return ok;
}

/* Encodes pk (selection, "DER"/"PEM", structure) and decodes it back. */
static EVP_PKEY *codec_round_trip(EVP_PKEY *pk, int selection, const char *fmt, const char *structure, size_t *enclen)
{
    OSSL_ENCODER_CTX *ec = OSSL_ENCODER_CTX_new_for_pkey(pk, selection, fmt, structure, PQ);
    unsigned char *data = NULL;
    size_t len = 0;
    EVP_PKEY *back = NULL;
    *enclen = 0;
    if (ec && OSSL_ENCODER_CTX_get_num_encoders(ec) > 0 && OSSL_ENCODER_to_data(ec, &data, &len) == 1) {
        *enclen = len;
        OSSL_DECODER_CTX *dc = OSSL_DECODER_CTX_new_for_pkey(&back, fmt, structure, NULL, selection, lib, NULL);
        const unsigned char *p = data;
        size_t left = len;
        if (!dc || OSSL_DECODER_from_data(dc, &p, &left) != 1) {
            EVP_PKEY_free(back);
            back = NULL;
        }
        OSSL_DECODER_CTX_free(dc);
    }
    OPENSSL_free(data);
    OSSL_ENCODER_CTX_free(ec);
    return back;
}

static void test_mlkem(void)
{
    static const unsigned levels[3] = {512, 768, 1024};
    static uint8_t ek[NURI_MLKEM_MAX_EK_BYTES], dk[NURI_MLKEM_MAX_DK_BYTES], ct[NURI_MLKEM_MAX_CT_BYTES], seed[64],
        buf[NURI_MLKEM_MAX_DK_BYTES + 64], buf2[NURI_MLKEM_MAX_DK_BYTES];
    uint8_t ss1[32], ss2[32];
    (void)mlkem_kat_digests;

    /* ACVP keyGen: the seed d || z imported, pub and priv exported match ek and dk. */
    unsigned seen[3] = {0, 0, 0};
    for (size_t i = 0; i < sizeof mlkem_acvp_keygen / sizeof *mlkem_acvp_keygen; i++) {
        const mlkem_keygen_vec *v = &mlkem_acvp_keygen[i];
        int li = v->level == 512 ? 0 : v->level == 768 ? 1 : 2;
        if (seen[li]++ >= 3) continue;
        size_t nek = nuri_mlkem_ek_bytes(v->level), ndk = nuri_mlkem_dk_bytes(v->level), n = 0;
        tu_unhex(seed, 32, v->d);
        tu_unhex(seed + 32, 32, v->z);
        tu_unhex(ek, sizeof ek, v->ek);
        tu_unhex(dk, sizeof dk, v->dk);
        EVP_PKEY *pk = key_from(v->level, EVP_PKEY_KEYPAIR, "seed", seed, 64);
        CHECK(pk != NULL, "ML-KEM-%u keyGen tcId %u: seed import", v->level, v->tcid);
        if (!pk) continue;
        CHECK(get_oct(pk, OSSL_PKEY_PARAM_PUB_KEY, buf, sizeof buf, &n) && n == nek && memcmp(buf, ek, nek) == 0,
              "ML-KEM-%u keyGen tcId %u: ek", v->level, v->tcid);
        CHECK(get_oct(pk, OSSL_PKEY_PARAM_PRIV_KEY, buf, sizeof buf, &n) && n == ndk && memcmp(buf, dk, ndk) == 0,
              "ML-KEM-%u keyGen tcId %u: dk", v->level, v->tcid);
        EVP_PKEY_free(pk);
    }
    /* ACVP decapsulation (valid and implicit-rejection ciphertexts) with the imported dk. */
    for (int li = 0; li < 3; li++) seen[li] = 0;
    for (size_t i = 0; i < sizeof mlkem_acvp_decaps / sizeof *mlkem_acvp_decaps; i++) {
        const mlkem_decaps_vec *v = &mlkem_acvp_decaps[i];
        int li = v->level == 512 ? 0 : v->level == 768 ? 1 : 2;
        if (seen[li]++ >= 4) continue;
        size_t ndk = nuri_mlkem_dk_bytes(v->level), nct = nuri_mlkem_ct_bytes(v->level);
        uint8_t k[32];
        tu_unhex(dk, sizeof dk, v->dk);
        tu_unhex(ct, sizeof ct, v->c);
        tu_unhex(k, 32, v->k);
        EVP_PKEY *pk = key_from(v->level, EVP_PKEY_KEYPAIR, OSSL_PKEY_PARAM_PRIV_KEY, dk, ndk);
        CHECK(pk && decap(pk, ct, nct, ss1) && memcmp(ss1, k, 32) == 0, "ML-KEM-%u decaps tcId %u%s", v->level, v->tcid,
              v->implicit_rejection ? " (implicit rejection)" : "");
        EVP_PKEY_free(pk);
    }
    /* ACVP encapsulation with the randomness m fixed through the "ikme" parameter. */
    for (int li = 0; li < 3; li++) seen[li] = 0;
    for (size_t i = 0; i < sizeof mlkem_acvp_encaps / sizeof *mlkem_acvp_encaps; i++) {
        const mlkem_encaps_vec *v = &mlkem_acvp_encaps[i];
        int li = v->level == 512 ? 0 : v->level == 768 ? 1 : 2;
        if (seen[li]++ >= 4) continue;
        size_t nek = nuri_mlkem_ek_bytes(v->level), nct = nuri_mlkem_ct_bytes(v->level), ctl = sizeof ct, sl = 32;
        uint8_t m[32], k[32], want[NURI_MLKEM_MAX_CT_BYTES];
        tu_unhex(ek, sizeof ek, v->ek);
        tu_unhex(m, 32, v->m);
        tu_unhex(want, sizeof want, v->c);
        tu_unhex(k, 32, v->k);
        EVP_PKEY *pk = key_from(v->level, EVP_PKEY_PUBLIC_KEY, OSSL_PKEY_PARAM_PUB_KEY, ek, nek);
        EVP_PKEY_CTX *c = pk ? EVP_PKEY_CTX_new_from_pkey(lib, pk, PQ) : NULL;
        OSSL_PARAM prm[2] = {OSSL_PARAM_construct_octet_string("ikme", m, 32), OSSL_PARAM_END};
        CHECK(c && EVP_PKEY_encapsulate_init(c, prm) == 1 && EVP_PKEY_encapsulate(c, ct, &ctl, ss1, &sl) == 1 &&
                  ctl == nct && memcmp(ct, want, nct) == 0 && memcmp(ss1, k, 32) == 0,
              "ML-KEM-%u encaps tcId %u (ikme)", v->level, v->tcid);
        /* the fixed m is used once: the next encapsulation draws fresh randomness */
        ctl = sizeof ct;
        CHECK(c && EVP_PKEY_encapsulate(c, ct, &ctl, ss2, &sl) == 1 && memcmp(ct, want, nct) != 0,
              "ML-KEM-%u ikme used once", v->level);
        EVP_PKEY_CTX_free(c);
        EVP_PKEY_free(pk);
    }
    /* ACVP key checks: keys failing the FIPS 203 checks are refused at import. */
    for (size_t i = 0; i < sizeof mlkem_acvp_ekcheck / sizeof *mlkem_acvp_ekcheck; i++) {
        const mlkem_keycheck_vec *v = &mlkem_acvp_ekcheck[i];
        long n = tu_unhex(buf, sizeof buf, v->key);
        EVP_PKEY *pk = key_from(v->level, EVP_PKEY_PUBLIC_KEY, OSSL_PKEY_PARAM_PUB_KEY, buf, (size_t)n);
        CHECK((pk != NULL) == (v->passed != 0), "ML-KEM-%u ek check tcId %u", v->level, v->tcid);
        EVP_PKEY_free(pk);
        ERR_clear_error();
    }
    for (size_t i = 0; i < sizeof mlkem_acvp_dkcheck / sizeof *mlkem_acvp_dkcheck; i++) {
        const mlkem_keycheck_vec *v = &mlkem_acvp_dkcheck[i];
        long n = tu_unhex(buf, sizeof buf, v->key);
        EVP_PKEY *pk = key_from(v->level, EVP_PKEY_KEYPAIR, OSSL_PKEY_PARAM_PRIV_KEY, buf, (size_t)n);
        CHECK((pk != NULL) == (v->passed != 0), "ML-KEM-%u dk check tcId %u", v->level, v->tcid);
        EVP_PKEY_free(pk);
        ERR_clear_error();
    }
    /* Degenerate keys (t-hat zero: the ciphertext would carry m in the clear) are refused at import,
     * as a public key, inside a private key (its H(ek) recomputed, so the FIPS 203 hash check
     * passes); nothing can be encapsulated to them. */
    for (int li = 0; li < 3; li++) {
        const unsigned L = levels[li], k = L / 256;
        const size_t nek = nuri_mlkem_ek_bytes(L), ndk = nuri_mlkem_dk_bytes(L);
        nuri_mlkem_ctx kem;
        CHECK(lib_kem(&kem, L) == NURI_OK && nuri_mlkem_keygen(&kem, ek, nek, dk, ndk, NULL, 0) == NURI_OK,
              "ML-KEM-%u keygen", L);
        memset(ek, 0, 384 * k); /* t = 0, rho kept */
        EVP_PKEY *pk = key_from(L, EVP_PKEY_PUBLIC_KEY, OSSL_PKEY_PARAM_PUB_KEY, ek, nek);
        CHECK(pk == NULL, "ML-KEM-%u: a public key with t = 0 is refused at import", L);
        EVP_PKEY_free(pk);
        ERR_clear_error();
        memset(buf, 0, nek); /* the all-zero file */
        pk = key_from(L, EVP_PKEY_PUBLIC_KEY, OSSL_PKEY_PARAM_PUB_KEY, buf, nek);
        CHECK(pk == NULL, "ML-KEM-%u: the all-zero public key is refused at import", L);
        EVP_PKEY_free(pk);
        ERR_clear_error();
        memcpy(dk + 384 * k, ek, nek);
        size_t hl = 0;
        CHECK(EVP_Q_digest(lib, "SHA3-256", NULL, ek, nek, dk + 384 * k + nek, &hl) == 1 && hl == 32,
              "SHA3-256 of the degenerate ek");
        CHECK(nuri_mlkem_check_dk(L, dk, ndk) == NURI_OK, "ML-KEM-%u: that dk passes the FIPS 203 hash check", L);
        pk = key_from(L, EVP_PKEY_KEYPAIR, OSSL_PKEY_PARAM_PRIV_KEY, dk, ndk);
        CHECK(pk == NULL, "ML-KEM-%u: a private key whose ek has t = 0 is refused at import", L);
        EVP_PKEY_free(pk);
        ERR_clear_error();
    }

    for (int li = 0; li < 3; li++) {
        const unsigned L = levels[li];
        const size_t nek = nuri_mlkem_ek_bytes(L), ndk = nuri_mlkem_dk_bytes(L), nct = nuri_mlkem_ct_bytes(L);
        char name[16];
        snprintf(name, sizeof name, "ML-KEM-%u", L);
        /* generation through EVP */
        EVP_PKEY *pk = NULL;
        EVP_PKEY_CTX *gc = EVP_PKEY_CTX_new_from_name(lib, name, PQ);
        CHECK(gc && EVP_PKEY_keygen_init(gc) == 1 && EVP_PKEY_generate(gc, &pk) == 1, "%s generate", name);
        EVP_PKEY_CTX_free(gc);
        if (!pk) continue;
        CHECK(EVP_PKEY_is_a(pk, name) && EVP_PKEY_get_security_bits(pk) == (L == 512   ? 128
                                                                            : L == 768 ? 192
                                                                                       : 256),
              "%s type and security bits", name);
        size_t n = 0, sn = 0;
        CHECK(get_oct(pk, OSSL_PKEY_PARAM_PUB_KEY, ek, sizeof ek, &n) && n == nek, "%s pub", name);
        CHECK(get_oct(pk, OSSL_PKEY_PARAM_PRIV_KEY, dk, sizeof dk, &n) && n == ndk, "%s priv", name);
        CHECK(get_oct(pk, "seed", seed, sizeof seed, &sn) && sn == 64, "%s seed", name);
        /* the seed reproduces the key in libnuri (KeyGen_internal) */
        nuri_mlkem_ctx kem;
        CHECK(lib_kem(&kem, L) == NURI_OK, "%s: libnuri context", name);
        CHECK(nuri_mlkem_keygen(&kem, buf, nek, buf2, ndk, seed, 64) == NURI_OK && memcmp(buf, ek, nek) == 0 &&
                  memcmp(buf2, dk, ndk) == 0,
              "%s: libnuri keygen from the exported seed gives the same key", name);
        /* EVP_PKEY_todata */
        OSSL_PARAM *all = NULL;
        CHECK(EVP_PKEY_todata(pk, EVP_PKEY_KEYPAIR, &all) == 1 && OSSL_PARAM_locate(all, "pub") &&
                  OSSL_PARAM_locate(all, "priv") && OSSL_PARAM_locate(all, "seed"),
              "%s todata has pub, priv, seed", name);
        OSSL_PARAM_free(all);
        /* provider encapsulates, libnuri decapsulates; and the reverse */
        size_t ctl = sizeof ct;
        CHECK(encap(pk, ct, &ctl, ss1) && ctl == nct, "%s encapsulate", name);
        CHECK(nuri_mlkem_decaps(&kem, ss2, 32, ct, nct, dk, ndk) == NURI_OK && memcmp(ss1, ss2, 32) == 0,
              "%s: libnuri decapsulates the provider's ciphertext", name);
        CHECK(nuri_mlkem_encaps(&kem, ct, nct, ss1, 32, ek, nek, NULL, 0) == NURI_OK && decap(pk, ct, nct, ss2) &&
                  memcmp(ss1, ss2, 32) == 0,
              "%s: the provider decapsulates libnuri's ciphertext", name);
        CHECK(!decap(pk, ct, nct - 1, ss2) && had_error(), "%s short ciphertext refused", name);
        /* a public-only key encapsulates but cannot decapsulate */
        EVP_PKEY *pub = key_from(L, EVP_PKEY_PUBLIC_KEY, OSSL_PKEY_PARAM_PUB_KEY, ek, nek);
        ctl = sizeof ct;
        CHECK(pub && encap(pub, ct, &ctl, ss1) && decap(pk, ct, ctl, ss2) && memcmp(ss1, ss2, 32) == 0,
              "%s public-key import encapsulates", name);
        CHECK(pub && !decap(pub, ct, ctl, ss2) && had_error(), "%s decapsulation needs the private key", name);
        CHECK(pub && EVP_PKEY_eq(pub, pk) == 1, "%s public key matches the pair", name);
        EVP_PKEY_free(pub);
        /* import: a priv alone, wrong lengths refused, seed and priv must agree */
        EVP_PKEY *pv = key_from(L, EVP_PKEY_KEYPAIR, OSSL_PKEY_PARAM_PRIV_KEY, dk, ndk);
        CHECK(pv && get_oct(pv, OSSL_PKEY_PARAM_PUB_KEY, buf, sizeof buf, &n) && n == nek && memcmp(buf, ek, nek) == 0,
              "%s priv import derives pub", name);
        EVP_PKEY_free(pv);
        CHECK(!key_from(L, EVP_PKEY_PUBLIC_KEY, OSSL_PKEY_PARAM_PUB_KEY, ek, nek - 1) && had_error(),
              "%s short pub refused", name);
        CHECK(!key_from(L, EVP_PKEY_KEYPAIR, OSSL_PKEY_PARAM_PRIV_KEY, dk, ndk + 1) && had_error(),
              "%s long priv refused", name);
        CHECK(!key_from(L, EVP_PKEY_KEYPAIR, "seed", seed, 63) && had_error(), "%s 63-byte seed refused", name);
        /* encoders and decoders: PKCS#8 and SubjectPublicKeyInfo, DER and PEM */
        static const char *const fmts[2] = {"DER", "PEM"};
        for (int f = 0; f < 2; f++) {
            size_t el = 0;
            EVP_PKEY *back = codec_round_trip(pk, EVP_PKEY_KEYPAIR, fmts[f], "PrivateKeyInfo", &el);
            CHECK(back && EVP_PKEY_eq(back, pk) == 1 && get_oct(back, OSSL_PKEY_PARAM_PRIV_KEY, buf, sizeof buf, &n) &&
                      n == ndk && memcmp(buf, dk, ndk) == 0 && get_oct(back, "seed", buf, sizeof buf, &n) && n == 64 &&
                      memcmp(buf, seed, 64) == 0,
                  "%s PrivateKeyInfo %s round trip (%zu bytes)", name, fmts[f], el);
            EVP_PKEY_free(back);
            back = codec_round_trip(pk, EVP_PKEY_PUBLIC_KEY, fmts[f], "SubjectPublicKeyInfo", &el);
            CHECK(back && EVP_PKEY_eq(back, pk) == 1 && !get_oct(back, OSSL_PKEY_PARAM_PRIV_KEY, buf, sizeof buf, &n),
                  "%s SubjectPublicKeyInfo %s round trip (%zu bytes)", name, fmts[f], el);
            if (f == 0) CHECK(el == nek + 22, "%s SPKI DER is %zu bytes", name, el);
            EVP_PKEY_free(back);
        }
        {
            /* an encrypted PKCS#8 (PBES2, AES-256-CBC) comes back with the right passphrase only */
            static const unsigned char pw[] = "correct horse", bad[] = "wrong horse";
            OSSL_ENCODER_CTX *ec = OSSL_ENCODER_CTX_new_for_pkey(pk, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", PQ);
            unsigned char *data = NULL;
            size_t len = 0;
            int ok = ec && OSSL_ENCODER_CTX_set_cipher(ec, "AES-256-CBC", NULL) &&
                     OSSL_ENCODER_CTX_set_passphrase(ec, pw, sizeof pw - 1) && OSSL_ENCODER_to_data(ec, &data, &len);
            CHECK(ok && len > ndk && !memmem(data, len, dk, 64), "%s encrypted PKCS#8 written", name);
            for (int right = 0; ok && right < 2; right++) {
                EVP_PKEY *back = NULL;
                OSSL_DECODER_CTX *dc =
                    OSSL_DECODER_CTX_new_for_pkey(&back, "DER", NULL, NULL, EVP_PKEY_KEYPAIR, lib, NULL);
                const unsigned char *p = data;
                size_t left = len;
                int dec =
                    dc &&
                    OSSL_DECODER_CTX_set_passphrase(dc, right ? pw : bad, right ? sizeof pw - 1 : sizeof bad - 1) &&
                    OSSL_DECODER_from_data(dc, &p, &left) == 1 && back;
                CHECK(right ? dec && EVP_PKEY_eq(back, pk) == 1 : !dec,
                      "%s encrypted PKCS#8 read with the %s passphrase", name, right ? "right" : "wrong");
                EVP_PKEY_free(back);
                OSSL_DECODER_CTX_free(dc);
            }
            OPENSSL_free(data);
            OSSL_ENCODER_CTX_free(ec);
        }
        ERR_clear_error();
        EVP_PKEY_free(pk);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s <directory of nuri.so> <tests/vectors/sparkle>\n", argv[0]);
        return 2;
    }
    tu_seed_from_env();
    lib = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *nuri = NULL, *dflt = NULL;
    if (lib && OSSL_PROVIDER_set_default_search_path(lib, argv[1])) {
        nuri = OSSL_PROVIDER_load(lib, "nuri");
        dflt = OSSL_PROVIDER_load(lib, "default"); /* PEM <-> DER for the key codecs */
    }
    CHECK(nuri != NULL, "load nuri.so from %s", argv[1]);
    if (!nuri) {
        ERR_print_errors_fp(stderr);
        return tu_finish("provider_evp");
    }
    const char *pname = NULL;
    OSSL_PARAM gp[2] = {OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_NAME, (char **)&pname, 0), OSSL_PARAM_END};
    CHECK(OSSL_PROVIDER_get_params(nuri, gp) == 1 && pname && strstr(pname, "nuri"), "provider name");
    CHECK(EVP_CIPHER_fetch(lib, "PIPO-128-CTR", "provider=default") == NULL, "the default provider has no PIPO");
    ERR_clear_error();
    test_pipo();
    test_schwaemm(argv[2]);
    test_streaming_loop();
    test_esch(argv[2]);
    test_mlkem();
    ERR_print_errors_fp(stderr);
    OSSL_PROVIDER_unload(dflt);
    OSSL_PROVIDER_unload(nuri);
    OSSL_LIB_CTX_free(lib);
    return tu_finish("provider_evp");
}
