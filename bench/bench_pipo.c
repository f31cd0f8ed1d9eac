/* PIPO benchmarks: every implementation x mode x key size at 64 B, 1 KiB, 16 KiB, 1 MiB,
 * key setup, and OpenSSL's AES-128-CTR as the peer users would pick instead. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "nuri/pipo.h"

#if defined(NURI_BENCH_OPENSSL)
#include <openssl/evp.h>
#endif

typedef struct {
    nuri_pipo_key key;
    nuri_pipo_mode mode;
    int encrypt;
    uint8_t *in, *out;
    size_t len;
    const uint8_t *rawkey;
    size_t rawkey_len;
    const char *impl;
} pipo_job;

static const uint8_t IV[8] = {0, 1, 2, 3, 4, 5, 6, 7};

static void run_mode(void *arg)
{
    pipo_job *j = arg;
    size_t ol;
    const uint8_t *iv = j->mode == NURI_PIPO_ECB ? NULL : IV;
    size_t ivl = j->mode == NURI_PIPO_ECB ? 0 : 8;
    int rc = j->encrypt
                 ? nuri_pipo_encrypt(&j->key, j->mode, iv, ivl, NURI_PAD_NONE, j->out, j->len, &ol, j->in, j->len)
                 : nuri_pipo_decrypt(&j->key, j->mode, iv, ivl, NURI_PAD_NONE, j->out, j->len, &ol, j->in, j->len);
    if (rc != 0) abort();
}

static void run_keysetup(void *arg)
{
    pipo_job *j = arg;
    if (nuri_pipo_key_init(&j->key, j->rawkey, j->rawkey_len, j->impl) != 0) abort();
}

#if defined(NURI_BENCH_OPENSSL)
typedef struct {
    EVP_CIPHER_CTX *ctx;
    uint8_t *in, *out;
    size_t len;
} ossl_job;
static void run_openssl(void *arg)
{
    ossl_job *j = arg;
    static const uint8_t iv[16];
    int ol;
    EVP_EncryptInit_ex(j->ctx, NULL, NULL, NULL, iv); /* reset the counter, keep the key */
    EVP_EncryptUpdate(j->ctx, j->out, &ol, j->in, (int)j->len);
}
#endif

int nuri_bench_pipo(const nuri_bench *b)
{
    static const size_t full_sizes[] = {64, 1024, 16384, 1048576}, quick_sizes[] = {64, 16384};
    const size_t *sizes = b->quick ? quick_sizes : full_sizes;
    size_t nsizes = b->quick ? 2 : 4, maxlen = 1048576;
    static const struct {
        nuri_pipo_mode mode;
        int enc;
        const char *op;
    } ops[] = {{NURI_PIPO_ECB, 1, "ecb-encrypt"},
               {NURI_PIPO_ECB, 0, "ecb-decrypt"},
               {NURI_PIPO_CBC, 1, "cbc-encrypt"},
               {NURI_PIPO_CBC, 0, "cbc-decrypt"},
               {NURI_PIPO_CTR, 1, "ctr-encrypt"}};
    uint8_t *in = calloc(1, maxlen), *out = calloc(1, maxlen), rawkey[32];
    if (!in || !out) return -1;
    for (size_t i = 0; i < maxlen; i++) in[i] = (uint8_t)(i * 131);
    for (int i = 0; i < 32; i++) rawkey[i] = (uint8_t)(i * 17 + 3);
    double st[3];
#if defined(NURI_BENCH_OPENSSL)
    const char *dflt = nuri_pipo_default_impl();
    ossl_job oj = {EVP_CIPHER_CTX_new(), in, out, 0};
    static const uint8_t iv[16];
    if (!oj.ctx || !EVP_EncryptInit_ex(oj.ctx, EVP_aes_128_ctr(), NULL, rawkey, iv)) return -1;
#endif
    for (size_t ii = 0; ii < nuri_pipo_impl_count(); ii++) {
        if (!nuri_pipo_impl_supported(ii)) continue;
        const char *impl = nuri_pipo_impl_info(ii)->name;
        if (!nuri_bench_selected(b, impl)) continue;
        for (size_t kl = 16; kl <= 32; kl += 16) {
            const char *param = kl == 16 ? "64/128" : "64/256";
            pipo_job j = {.in = in, .out = out, .rawkey = rawkey, .rawkey_len = kl, .impl = impl};
            if (nuri_pipo_key_init(&j.key, rawkey, kl, impl) != 0) return -1;
            nuri_bench_measure(b, run_keysetup, &j, 1000, st);
            nuri_bench_record(b, "pipo", impl, "key-setup", param, 1, "cycles", st);
            for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
                j.mode = ops[o].mode;
                j.encrypt = ops[o].enc;
                for (size_t s = 0; s < nsizes; s++) {
                    j.len = sizes[s];
#if defined(NURI_BENCH_OPENSSL)
                    /* OpenSSL's AES-128-CTR, the peer users would pick instead, is measured beside the
                     * default implementation's PIPO-64/128 CTR, the runs alternating */
                    if (ops[o].mode == NURI_PIPO_CTR && kl == 16 && dflt && strcmp(impl, dflt) == 0 &&
                        nuri_bench_selected(b, "peer:openssl")) {
                        double pst[3];
                        oj.len = j.len;
                        nuri_bench_measure_pair(b, run_mode, &j, run_openssl, &oj, st, pst);
                        nuri_bench_record(b, "pipo", impl, ops[o].op, param, (double)j.len, "cpb", st);
                        nuri_bench_record(b, "pipo", "peer:openssl-aes-128-ctr", "ctr-encrypt", "aes-128",
                                          (double)oj.len, "cpb", pst);
                        continue;
                    }
#endif
                    nuri_bench_measure_auto(b, run_mode, &j, st);
                    nuri_bench_record(b, "pipo", impl, ops[o].op, param, (double)j.len, "cpb", st);
                }
            }
            nuri_pipo_key_wipe(&j.key);
        }
    }
#if defined(NURI_BENCH_OPENSSL)
    EVP_CIPHER_CTX_free(oj.ctx);
#endif
    free(in);
    free(out);
    return 0;
}
