/* PIPO tests: known answers (the files of tests/vectors/pipo, and the same vectors embedded for the
 * targets without files), S-box tables, per-round traces, then differential tests across every
 * implementation this CPU can run, mode compositions checked against ECB, CTR wrap/carries,
 * streaming vs one-shot, and every error path. Usage: test_pipo <tests/vectors/pipo> */
#include <stdlib.h>

#include "nuri/pipo.h"
#include "pipo_vectors.h"
#include "test_util.h"

#define MAXLEN 100000

static size_t n_impls;
static const char *impl_names[16];

static void load_impls(void)
{
    for (size_t i = 0; i < nuri_pipo_impl_count(); i++)
        if (nuri_pipo_impl_supported(i)) impl_names[n_impls++] = nuri_pipo_impl_info(i)->name;
    printf("implementations:");
    for (size_t i = 0; i < n_impls; i++) printf(" %s", impl_names[i]);
    printf("\n");
}

static void key_for(nuri_pipo_key *k, const uint8_t *key, size_t len, const char *impl)
{
    int rc = nuri_pipo_key_init(k, key, len, impl);
    if (rc != NURI_OK) {
        fprintf(stderr, "key_init(%s) failed: %s\n", impl, nuri_strerror(rc));
        exit(2);
    }
}

static void ecb_vector(const char *impl, const char *khex, const char *phex, const char *chex)
{
    uint8_t key[32], pt[8], ct[8], out[8 * 70], big[8 * 70];
    long kl = tu_unhex(key, sizeof key, khex);
    tu_unhex(pt, 8, phex);
    tu_unhex(ct, 8, chex);
    nuri_pipo_key k;
    key_for(&k, key, (size_t)kl, impl);
    nuri_pipo_encrypt_blocks(&k, out, pt, 1);
    CHECK_MEM(out, ct, 8, "%s: ECB encrypt key %s", impl, khex);
    nuri_pipo_decrypt_blocks(&k, out, ct, 1);
    CHECK_MEM(out, pt, 8, "%s: ECB decrypt key %s", impl, khex);
    /* the same block at every position of a 70-block batch (exercises full passes and tails) */
    for (int i = 0; i < 70; i++) memcpy(big + 8 * i, pt, 8);
    nuri_pipo_encrypt_blocks(&k, out, big, 70);
    int ok = 1;
    for (int i = 0; i < 70; i++) ok &= memcmp(out + 8 * i, ct, 8) == 0;
    CHECK(ok, "%s: batched ECB key %s", impl, khex);
    nuri_pipo_key_wipe(&k);
}

static void test_embedded_vectors(void)
{
    for (size_t i = 0; i < n_impls; i++) {
        for (size_t v = 0; v < sizeof pipo64_128_ecb / sizeof pipo64_128_ecb[0]; v++)
            ecb_vector(impl_names[i], pipo64_128_ecb[v].key, pipo64_128_ecb[v].pt, pipo64_128_ecb[v].ct);
        for (size_t v = 0; v < sizeof pipo64_256_ecb / sizeof pipo64_256_ecb[0]; v++)
            ecb_vector(impl_names[i], pipo64_256_ecb[v].key, pipo64_256_ecb[v].pt, pipo64_256_ecb[v].ct);
    }
}

static void test_vector_files(const char *dir)
{
    static const char *files[] = {"pipo64_128_ecb.txt", "pipo64_256_ecb.txt"};
    for (int f = 0; f < 2; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        tu_set_begin();
        tu_kv kv;
        unsigned long count = 0;
        if (tu_kv_open(&kv, path) != 0) {
            CHECK(0, "cannot open %s", path);
        } else {
            while (tu_kv_next(&kv)) {
                const char *k = tu_kv_get(&kv, "KEY"), *p = tu_kv_get(&kv, "PT"), *c = tu_kv_get(&kv, "CT");
                if (!k || !p || !c) continue;
                for (size_t i = 0; i < n_impls; i++) ecb_vector(impl_names[i], k, p, c);
                count++;
            }
            tu_kv_close(&kv);
        }
        tu_set_end("test_pipo", files[f], count, 9);
    }
}

/* Round-reduced runs give the state after round r's key addition (RK_i depends only on i). */
static void test_traces(void)
{
    tu_set_begin();
    const char *const *tr[2] = {pipo128_trace, pipo256_trace};
    const char *keys[2] = {pipo128_trace_key, pipo256_trace_key};
    unsigned rounds[2] = {13, 17};
    for (size_t i = 0; i < n_impls; i++) {
        for (int t = 0; t < 2; t++) {
            uint8_t key[32], pt[8], want[8], got[8];
            long kl = tu_unhex(key, 32, keys[t]);
            tu_unhex(pt, 8, pipo64_128_ecb[0].pt);
            nuri_pipo_key k;
            key_for(&k, key, (size_t)kl, impl_names[i]);
            for (unsigned r = 0; r <= rounds[t]; r++) {
                nuri_pipo_key kr = k;
                kr.rounds = r;
                tu_unhex(want, 8, tr[t][r]);
                nuri_pipo_encrypt_blocks(&kr, got, pt, 1);
                CHECK_MEM(got, want, 8, "%s: trace %d round %u", impl_names[i], t, r);
                nuri_pipo_decrypt_blocks(&kr, got, want, 1);
                CHECK_MEM(got, pt, 8, "%s: trace %d round %u inverse", impl_names[i], t, r);
                /* the same in a 70-block batch (kernels may hand tiny calls to ref) */
                uint8_t batch[8 * 70];
                for (int b = 0; b < 70; b++) memcpy(batch + 8 * b, pt, 8);
                nuri_pipo_encrypt_blocks(&kr, batch, batch, 70);
                int ok = 1;
                for (int b = 0; b < 70; b++) ok &= memcmp(batch + 8 * b, want, 8) == 0;
                CHECK(ok, "%s: trace %d round %u, 70-block batch", impl_names[i], t, r);
                nuri_pipo_decrypt_blocks(&kr, batch, batch, 70);
                ok = 1;
                for (int b = 0; b < 70; b++) ok &= memcmp(batch + 8 * b, pt, 8) == 0;
                CHECK(ok, "%s: trace %d round %u inverse, 70-block batch", impl_names[i], t, r);
            }
        }
    }
    /* the round states of both official vectors (embedded from the file by scripts/embed_pipo_vectors.py) */
    tu_set_end("test_pipo", "pipo_official_trace.txt",
               sizeof pipo128_trace / sizeof pipo128_trace[0] + sizeof pipo256_trace / sizeof pipo256_trace[0],
               (13 + 1) + (17 + 1));
}

/* One round with zero keys = R-layer(S-layer(x)); check S on all 256 column values. */
static void test_sbox_tables(void)
{
    static const unsigned rot[8] = {0, 7, 4, 3, 6, 5, 1, 2};
    uint8_t zero[16] = {0}, in[32 * 8], out[32 * 8], want[32 * 8];
    memset(in, 0, sizeof in);
    for (int v = 0; v < 256; v++) { /* value v goes in column v%8 of block v/8 */
        int b = v / 8, c = v % 8;
        for (int j = 0; j < 8; j++) in[8 * b + j] |= (uint8_t)(((v >> j) & 1) << c);
    }
    /* expected: per column apply S, then rotate rows */
    for (int b = 0; b < 32; b++) {
        uint8_t s[8] = {0};
        for (int c = 0; c < 8; c++) {
            int x = 0;
            for (int j = 0; j < 8; j++) x |= ((in[8 * b + j] >> c) & 1) << j;
            int y = pipo_sbox[x];
            for (int j = 0; j < 8; j++) s[j] |= (uint8_t)(((y >> j) & 1) << c);
        }
        for (int j = 0; j < 8; j++) want[8 * b + j] = (uint8_t)((s[j] << rot[j]) | (s[j] >> ((8 - rot[j]) & 7)));
    }
    tu_set_begin();
    for (int i = 0; i < 256; i++) CHECK(pipo_inv_sbox[pipo_sbox[i]] == i, "S_inv table inverts S at %d", i);
    for (size_t i = 0; i < n_impls; i++) {
        nuri_pipo_key k;
        key_for(&k, zero, 16, impl_names[i]);
        k.rk[0] = k.rk[1] = 0;
        k.rounds = 1;
        nuri_pipo_encrypt_blocks(&k, out, in, 32);
        CHECK_MEM(out, want, sizeof out, "%s: S-layer+R-layer matches the S-box table", impl_names[i]);
        nuri_pipo_decrypt_blocks(&k, out, want, 32);
        CHECK_MEM(out, in, sizeof out, "%s: inverse S-layer matches the table", impl_names[i]);
    }
    tu_set_end("test_pipo", "pipo_sbox.txt", 256, 256); /* every entry of S and S^-1 */
}

static const size_t lengths[] = {0,   1,   7,   8,   9,   15,   16,   63,   64,   65,    127,   128,
                                 255, 256, 511, 512, 513, 1000, 1024, 4096, 8191, 16384, 65536, 100000};
#define NLEN (sizeof lengths / sizeof lengths[0])

/* CBC and CTR composed by hand from single-block ECB with ref: an independent model of the modes. */
static void model_cbc_encrypt(const nuri_pipo_key *k, const uint8_t iv[8], uint8_t *out, const uint8_t *in, size_t n)
{
    uint8_t c[8];
    memcpy(c, iv, 8);
    for (size_t b = 0; b < n / 8; b++) {
        for (int j = 0; j < 8; j++) c[j] ^= in[8 * b + j];
        nuri_pipo_encrypt_blocks(k, c, c, 1);
        memcpy(out + 8 * b, c, 8);
    }
}
static void model_ctr(const nuri_pipo_key *k, const uint8_t iv[8], uint8_t *out, const uint8_t *in, size_t n)
{
    uint8_t ctr[8], ks[8];
    memcpy(ctr, iv, 8);
    for (size_t i = 0; i < n; i++) {
        if (i % 8 == 0) {
            nuri_pipo_encrypt_blocks(k, ks, ctr, 1);
            for (int j = 7; j >= 0; j--)
                if (++ctr[j]) break; /* big-endian increment, wraps */
        }
        out[i] = in[i] ^ ks[i % 8];
    }
}

static uint8_t *msg, *ref_out, *out, *back;

static void test_modes_differential(void)
{
    for (size_t li = 0; li < NLEN; li++) {
        size_t len = lengths[li];
        for (int ks = 16; ks <= 32; ks += 16) {
            uint8_t key[32], iv[8];
            tu_randbytes(key, sizeof key);
            tu_randbytes(iv, 8);
            tu_randbytes(msg, len);
            nuri_pipo_key kref;
            key_for(&kref, key, (size_t)ks, "ref");
            for (int mode = 0; mode < 3; mode++) {
                for (int pad = 0; pad < 2; pad++) {
                    if (mode == NURI_PIPO_CTR && pad) continue;
                    int whole = len % 8 == 0;
                    const uint8_t *ivp = mode == NURI_PIPO_ECB ? NULL : iv;
                    size_t ivl = mode == NURI_PIPO_ECB ? 0 : 8;
                    /* model result (no padding, whole blocks / CTR) */
                    size_t mlen = len;
                    if (mode == NURI_PIPO_ECB && !pad && whole) nuri_pipo_encrypt_blocks(&kref, ref_out, msg, len / 8);
                    if (mode == NURI_PIPO_CBC && !pad && whole) model_cbc_encrypt(&kref, iv, ref_out, msg, len);
                    if (mode == NURI_PIPO_CTR) model_ctr(&kref, iv, ref_out, msg, len);
                    int have_model = pad == 0 && (whole || mode == NURI_PIPO_CTR);
                    uint8_t first[8 * 2];
                    size_t first_len = 0;
                    for (size_t i = 0; i < n_impls; i++) {
                        nuri_pipo_key k;
                        key_for(&k, key, (size_t)ks, impl_names[i]);
                        size_t ol = 0, bl = 0;
                        int rc = nuri_pipo_encrypt(&k, mode, ivp, ivl, pad, out, len + 8, &ol, msg, len);
                        if (!pad && !whole && mode != NURI_PIPO_CTR) {
                            CHECK(rc == NURI_ELENGTH, "%s mode %d len %zu: partial block must be ELENGTH",
                                  impl_names[i], mode, len);
                            continue;
                        }
                        CHECK(rc == NURI_OK, "%s mode %d pad %d len %zu: encrypt rc %d", impl_names[i], mode, pad, len,
                              rc);
                        if (have_model) {
                            CHECK(ol == mlen && memcmp(out, ref_out, len) == 0, "%s mode %d len %zu: matches the model",
                                  impl_names[i], mode, len);
                        } else if (i == 0) {
                            memcpy(ref_out, out, ol);
                            first_len = ol;
                        } else {
                            CHECK(ol == first_len && memcmp(out, ref_out, ol) == 0,
                                  "%s mode %d pad %d len %zu: equals %s", impl_names[i], mode, pad, len, impl_names[0]);
                        }
                        if (pad) CHECK(ol == (len / 8 + 1) * 8, "padded length for %zu is %zu", len, ol);
                        rc = nuri_pipo_decrypt(&k, mode, ivp, ivl, pad, back, ol + 8, &bl, out, ol);
                        CHECK(rc == NURI_OK && bl == len && memcmp(back, msg, len) == 0,
                              "%s mode %d pad %d len %zu: decrypt(encrypt(x)) == x (rc %d)", impl_names[i], mode, pad,
                              len, rc);
                        nuri_pipo_key_wipe(&k);
                    }
                    (void)first;
                }
            }
        }
    }
}

static void test_ctr_wrap(void)
{
    /* counters just below 2^64 and below byte carries */
    static const char *ivs[] = {"FFFFFFFFFFFFFFF0", "00000000000000F8", "0000000000FFFFFE", "FFFFFFFFFFFFFFFF",
                                "7FFFFFFFFFFFFFFF"};
    uint8_t key[16], iv[8];
    tu_randbytes(key, 16);
    tu_randbytes(msg, 4096);
    for (size_t v = 0; v < sizeof ivs / sizeof ivs[0]; v++) {
        tu_unhex(iv, 8, ivs[v]);
        nuri_pipo_key kref;
        key_for(&kref, key, 16, "ref");
        model_ctr(&kref, iv, ref_out, msg, 4096);
        /* the model wraps: after FF..FF comes 00..00 */
        for (size_t i = 0; i < n_impls; i++) {
            nuri_pipo_key k;
            key_for(&k, key, 16, impl_names[i]);
            size_t ol;
            int rc = nuri_pipo_encrypt(&k, NURI_PIPO_CTR, iv, 8, NURI_PAD_NONE, out, 4096, &ol, msg, 4096);
            CHECK(rc == 0 && memcmp(out, ref_out, 4096) == 0, "%s: CTR across carry from %s", impl_names[i], ivs[v]);
        }
    }
    /* explicit wrap check: the block after counter FF..FF uses counter 00..00 */
    uint8_t zero[8] = {0}, ks0[8];
    nuri_pipo_key k;
    key_for(&k, key, 16, "ref");
    nuri_pipo_encrypt_blocks(&k, ks0, zero, 1);
    memset(iv, 0xFF, 8);
    memset(msg, 0, 16);
    size_t ol;
    int rc = nuri_pipo_encrypt(&k, NURI_PIPO_CTR, iv, 8, NURI_PAD_NONE, out, 16, &ol, msg, 16);
    CHECK(rc == 0 && memcmp(out + 8, ks0, 8) == 0, "CTR: counter wraps mod 2^64 to zero");
}

static void test_streaming(void)
{
    for (int trial = 0; trial < 60; trial++) {
        size_t len = (size_t)(tu_rand64() % 5000);
        int mode = (int)(tu_rand64() % 3), pad = mode == NURI_PIPO_CTR ? 0 : (int)(tu_rand64() % 2);
        if (!pad && mode != NURI_PIPO_CTR) len -= len % 8;
        uint8_t key[32], iv[8];
        tu_randbytes(key, 32);
        tu_randbytes(iv, 8);
        tu_randbytes(msg, len);
        for (size_t i = 0; i < n_impls; i++) {
            nuri_pipo_key k;
            key_for(&k, key, (trial & 1) ? 32 : 16, impl_names[i]);
            const uint8_t *ivp = mode == NURI_PIPO_ECB ? NULL : iv;
            size_t ivl = mode == NURI_PIPO_ECB ? 0 : 8, ol, sl = 0;
            int rc = nuri_pipo_encrypt(&k, mode, ivp, ivl, pad, ref_out, len + 8, &ol, msg, len);
            CHECK(rc == 0, "one-shot encrypt");
            for (int dir = 1; dir >= 0; dir--) {
                const uint8_t *src = dir ? msg : ref_out;
                size_t srclen = dir ? len : ol;
                nuri_pipo_ctx ctx;
                rc = nuri_pipo_init(&ctx, &k, mode, dir, ivp, ivl, pad);
                CHECK(rc == 0, "init");
                size_t pos = 0;
                sl = 0;
                while (pos < srclen) {
                    size_t c = (size_t)(tu_rand64() % 70);
                    if (c > srclen - pos) c = srclen - pos;
                    size_t w;
                    rc = nuri_pipo_update(&ctx, out + sl, c + 8, &w, src + pos, c);
                    CHECK(rc == 0 && w <= c + 8, "update");
                    pos += c;
                    sl += w;
                }
                size_t w;
                rc = nuri_pipo_final(&ctx, out + sl, 8, &w);
                CHECK(rc == 0, "final rc %d", rc);
                sl += w;
                if (dir)
                    CHECK(sl == ol && memcmp(out, ref_out, ol) == 0,
                          "%s: streaming encrypt == one-shot (mode %d pad %d len %zu)", impl_names[i], mode, pad, len);
                else
                    CHECK(sl == len && memcmp(out, msg, len) == 0,
                          "%s: streaming decrypt == plaintext (mode %d pad %d len %zu)", impl_names[i], mode, pad, len);
            }
        }
    }
}

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= p[i];
    return acc == 0;
}

/* Streaming errors zero the bytes of out the call may write (at most out_cap; pipo.h): update's
 * NURI_EBUFFER / NURI_ESTATE, final's NURI_ELENGTH / NURI_EBUFFER / NURI_EPADDING / NURI_ESTATE. */
static void test_stream_errors_zero(const nuri_pipo_key *k)
{
    static const uint8_t iv[8] = {3};
    uint8_t in[64], o[80], ct[16];
    size_t ol;
    nuri_pipo_ctx ctx;
    memset(in, 0x5C, sizeof in);
    for (int mode = NURI_PIPO_ECB; mode <= NURI_PIPO_CTR; mode++) {
        const uint8_t *v = mode == NURI_PIPO_ECB ? NULL : iv;
        size_t vl = mode == NURI_PIPO_ECB ? 0 : 8;
        CHECK(nuri_pipo_init(&ctx, k, (nuri_pipo_mode)mode, 1, v, vl, NURI_PAD_NONE) == 0, "init mode %d", mode);
        memset(o, 0xAA, sizeof o);
        ol = 99;
        CHECK(nuri_pipo_update(&ctx, o, 20, &ol, in, 24) == NURI_EBUFFER && ol == 0 && all_zero(o, 20) && o[20] == 0xAA,
              "mode %d: update into a short buffer: EBUFFER, the 20 bytes given zeroed, nothing past them", mode);
        /* the context is unchanged: the same update with room succeeds */
        CHECK(nuri_pipo_update(&ctx, o, 64, &ol, in, 24) == 0 && ol == 24, "mode %d: update after EBUFFER", mode);
        if (mode != NURI_PIPO_CTR) {
            CHECK(nuri_pipo_update(&ctx, o, 64, &ol, in, 5) == 0 && ol == 0, "mode %d: partial block kept", mode);
            memset(o, 0xAA, sizeof o);
            CHECK(nuri_pipo_final(&ctx, o, 64, &ol) == NURI_ELENGTH && ol == 0 && all_zero(o, 8) && o[8] == 0xAA,
                  "mode %d: final with a partial block: ELENGTH, 8 bytes zeroed", mode);
        } else {
            CHECK(nuri_pipo_final(&ctx, o, 64, &ol) == 0 && ol == 0, "CTR final");
        }
        memset(o, 0xAA, sizeof o);
        CHECK(nuri_pipo_update(&ctx, o, 64, &ol, in, 16) == NURI_ESTATE && ol == 0 && all_zero(o, 24) && o[24] == 0xAA,
              "mode %d: update after final: ESTATE, in_len + 8 bytes zeroed", mode);
        memset(o, 0xAA, sizeof o);
        CHECK(nuri_pipo_final(&ctx, o, 64, &ol) == NURI_ESTATE && ol == 0 && all_zero(o, 8) && o[8] == 0xAA,
              "mode %d: final after final: ESTATE, 8 bytes zeroed", mode);
    }
    /* padded encryption: final needs 8 bytes */
    CHECK(nuri_pipo_init(&ctx, k, NURI_PIPO_CBC, 1, iv, 8, NURI_PAD_PKCS7) == 0, "init CBC PKCS7");
    CHECK(nuri_pipo_update(&ctx, o, 64, &ol, in, 3) == 0 && ol == 0, "CBC PKCS7 update");
    memset(o, 0xAA, sizeof o);
    CHECK(nuri_pipo_final(&ctx, o, 5, &ol) == NURI_EBUFFER && ol == 0 && all_zero(o, 5) && o[5] == 0xAA,
          "final into a 5-byte buffer: EBUFFER, the 5 bytes zeroed");
    /* padded decryption with a bad pad: final's EPADDING zeroes its 8 bytes */
    {
        uint8_t blk[16];
        memset(blk, 0x07, sizeof blk);
        blk[15] = 0;
        nuri_pipo_encrypt_blocks(k, ct, blk, 2);
        CHECK(nuri_pipo_init(&ctx, k, NURI_PIPO_ECB, 0, NULL, 0, NURI_PAD_PKCS7) == 0, "init ECB PKCS7 decrypt");
        CHECK(nuri_pipo_update(&ctx, o, 64, &ol, ct, 16) == 0 && ol == 8, "ECB PKCS7 decrypt update");
        memset(o, 0xAA, sizeof o);
        CHECK(nuri_pipo_final(&ctx, o, 64, &ol) == NURI_EPADDING && ol == 0 && all_zero(o, 8) && o[8] == 0xAA,
              "final with a bad pad: EPADDING, 8 bytes zeroed");
    }
}

static void test_errors(void)
{
    uint8_t key[32] = {1}, iv[8] = {2}, buf[64], o[64];
    size_t ol = 99;
    nuri_pipo_key k;
    CHECK(nuri_pipo_key_init(&k, key, 15, NULL) == NURI_ELENGTH, "15-byte key rejected");
    CHECK(nuri_pipo_key_init(&k, key, 24, NULL) == NURI_ELENGTH, "24-byte key rejected");
    CHECK(nuri_pipo_key_init(&k, key, 16, "nosuch") == NURI_ENOTFOUND, "unknown implementation name");
    CHECK(nuri_pipo_key_init(&k, key, 16, NULL) == NURI_OK, "default dispatch works");
    CHECK(nuri_pipo_encrypt(&k, NURI_PIPO_CBC, iv, 7, NURI_PAD_NONE, o, 64, &ol, buf, 8) == NURI_ELENGTH, "7-byte IV");
    CHECK(nuri_pipo_encrypt(&k, NURI_PIPO_CBC, NULL, 0, NURI_PAD_NONE, o, 64, &ol, buf, 8) == NURI_ELENGTH,
          "missing IV");
    CHECK(nuri_pipo_encrypt(&k, NURI_PIPO_ECB, iv, 8, NURI_PAD_NONE, o, 64, &ol, buf, 8) == NURI_ELENGTH,
          "IV given for ECB");
    CHECK(nuri_pipo_encrypt(&k, NURI_PIPO_CTR, iv, 8, NURI_PAD_PKCS7, o, 64, &ol, buf, 8) == NURI_EINVAL,
          "padding with CTR");
    CHECK(nuri_pipo_encrypt(&k, NURI_PIPO_ECB, NULL, 0, NURI_PAD_PKCS7, o, 8, &ol, buf, 8) == NURI_EBUFFER && ol == 0,
          "small output buffer");
    CHECK(nuri_pipo_encrypt(&k, NURI_PIPO_ECB, NULL, 0, NURI_PAD_NONE, o, 64, &ol, buf, 12) == NURI_ELENGTH,
          "ECB partial block");
    CHECK(nuri_pipo_decrypt(&k, NURI_PIPO_ECB, NULL, 0, NURI_PAD_PKCS7, o, 64, &ol, buf, 0) == NURI_ELENGTH,
          "padded decrypt of empty input");
    CHECK(nuri_pipo_decrypt(&k, NURI_PIPO_CBC, iv, 8, NURI_PAD_PKCS7, o, 64, &ol, buf, 13) == NURI_ELENGTH,
          "padded decrypt of partial block");
    /* bad padding: every last-byte value that is not a valid pad */
    int bad_ok = 1;
    for (int p = 0; p < 256; p++) {
        uint8_t blk[8] = {7, 7, 7, 7, 7, 7, 7, (uint8_t)p}, ct[8];
        int valid = p >= 1 && p <= 8;
        for (int i = 8 - (valid ? p : 0); i < 8; i++) valid &= blk[i] == p;
        nuri_pipo_encrypt_blocks(&k, ct, blk, 1);
        memset(o, 0xAA, sizeof o);
        int rc = nuri_pipo_decrypt(&k, NURI_PIPO_ECB, NULL, 0, NURI_PAD_PKCS7, o, 64, &ol, ct, 8);
        if (valid) bad_ok &= rc == 0 && ol == (size_t)(8 - p);
        else bad_ok &= rc == NURI_EPADDING && ol == 0 && o[0] == 0 && o[7] == 0;
    }
    CHECK(bad_ok, "PKCS#7: exactly the valid pads accepted; errors zero the output");
    {
        uint8_t blk[8] = {8, 8, 8, 8, 8, 8, 8, 8}, ct[8];
        nuri_pipo_encrypt_blocks(&k, ct, blk, 1);
        CHECK(nuri_pipo_decrypt(&k, NURI_PIPO_ECB, NULL, 0, NURI_PAD_PKCS7, o, 64, &ol, ct, 8) == 0 && ol == 0,
              "full pad block");
        blk[0] = 9;
        nuri_pipo_encrypt_blocks(&k, ct, blk, 1);
        CHECK(nuri_pipo_decrypt(&k, NURI_PIPO_ECB, NULL, 0, NURI_PAD_PKCS7, o, 64, &ol, ct, 8) == NURI_EPADDING,
              "pad 8 with a wrong byte");
    }
    nuri_pipo_ctx ctx;
    CHECK(nuri_pipo_init(&ctx, &k, NURI_PIPO_ECB, 1, NULL, 0, NURI_PAD_NONE) == 0, "init");
    CHECK(nuri_pipo_final(&ctx, o, 64, &ol) == 0, "final");
    CHECK(nuri_pipo_update(&ctx, o, 64, &ol, buf, 8) == NURI_ESTATE, "update after final");
    test_stream_errors_zero(&k);
}

/* The batch kernels directly: every block count 0..300 (every tail shape of 8-, 32-, 64- and
 * 128-block passes) and a few large ones, against ref, out of place and in place (in == out). */
static void test_kernels_batch(void)
{
    static const size_t extra[] = {511, 512, 513, 1000, 2048, 4099};
    for (int ks = 16; ks <= 32; ks += 16) {
        uint8_t key[32];
        tu_randbytes(key, sizeof key);
        nuri_pipo_key kref;
        key_for(&kref, key, (size_t)ks, "ref");
        for (size_t t = 0; t < 301 + sizeof extra / sizeof extra[0]; t++) {
            size_t nb = t < 301 ? t : extra[t - 301];
            tu_randbytes(msg, 8 * nb);
            nuri_pipo_encrypt_blocks(&kref, ref_out, msg, nb);
            for (size_t i = 0; i < n_impls; i++) {
                nuri_pipo_key k;
                key_for(&k, key, (size_t)ks, impl_names[i]);
                memset(out, 0xA5, 8 * nb + 8);
                nuri_pipo_encrypt_blocks(&k, out, msg, nb);
                CHECK(memcmp(out, ref_out, 8 * nb) == 0 && out[8 * nb] == 0xA5, "%s: encrypt %zu blocks (key %d)",
                      impl_names[i], nb, ks);
                memcpy(back, ref_out, 8 * nb);
                back[8 * nb] = 0x5A;
                nuri_pipo_decrypt_blocks(&k, back, back, nb);
                CHECK(memcmp(back, msg, 8 * nb) == 0 && back[8 * nb] == 0x5A,
                      "%s: in-place decrypt %zu blocks (key %d)", impl_names[i], nb, ks);
                nuri_pipo_encrypt_blocks(&k, back, back, nb);
                CHECK(memcmp(back, ref_out, 8 * nb) == 0, "%s: in-place encrypt %zu blocks (key %d)", impl_names[i], nb,
                      ks);
                nuri_pipo_key_wipe(&k);
            }
        }
        nuri_pipo_key_wipe(&kref);
    }
}

static void test_dispatch_env(void)
{
    uint8_t key[16] = {0};
    nuri_pipo_key k;
    for (size_t i = 0; i < n_impls; i++) {
        char env[64];
        snprintf(env, sizeof env, "fea:x,pipo:%s", impl_names[i]);
        setenv("NURI_IMPL", env, 1);
        CHECK(nuri_pipo_key_init(&k, key, 16, NULL) == 0 && strcmp(nuri_pipo_key_impl_name(&k), impl_names[i]) == 0,
              "NURI_IMPL=%s selects it", env);
    }
    setenv("NURI_IMPL", "pipo:nosuch", 1);
    CHECK(nuri_pipo_key_init(&k, key, 16, NULL) == NURI_ENOTFOUND, "NURI_IMPL with an unknown name is an error");
    unsetenv("NURI_IMPL");
    CHECK(nuri_pipo_key_init(&k, key, 16, NULL) == 0 && strcmp(nuri_pipo_key_impl_name(&k), impl_names[0]) == 0,
          "default dispatch picks the first (fastest) supported constant-time implementation");
    /* masking every CPU feature leaves only portable code */
    setenv("NURI_CPU_MASK", "ffffffff", 1);
    CHECK(nuri_pipo_key_init(&k, key, 16, NULL) == 0 && strcmp(nuri_pipo_key_impl_name(&k), "bitslice64") == 0,
          "without CPU features dispatch falls back to bitslice64");
    unsetenv("NURI_CPU_MASK");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_pipo <tests/vectors/pipo>\n");
        return 2;
    }
    tu_seed_from_env();
    load_impls();
    msg = malloc(MAXLEN + 16);
    ref_out = malloc(MAXLEN + 16);
    out = malloc(MAXLEN + 16);
    back = malloc(MAXLEN + 16);
    test_embedded_vectors();
    test_vector_files(argv[1]);
    test_traces();
    test_sbox_tables();
    test_modes_differential();
    test_ctr_wrap();
    test_streaming();
    test_errors();
    test_kernels_batch();
    test_dispatch_env();
    free(msg);
    free(ref_out);
    free(out);
    free(back);
    return tu_finish("test_pipo");
}
