/* nuri-bench-provider: the cost of going through OpenSSL's EVP API and nuri.so against calling
 * libnuri directly, same process, same buffers, 16 KiB messages:
 *   PIPO-128-CTR encrypt (direct: nuri_pipo_encrypt with the expanded key; EVP: re-init with
 *   the IV, EVP_EncryptUpdate, EVP_EncryptFinal_ex), SCHWAEMM256-128 encrypt and decrypt
 *   (direct: the one-shot nuri_schwaemm_encrypt/decrypt; EVP: init with the nonce, update,
 *   final, tag get/set). Records: family "provider", impl "direct" and "evp:nuri", metric cpb.
 * The two are measured alternately, nine rounds (three with --quick), and each keeps its round
 * with the lowest median, so a burst of load from other processes (the build machine is shared)
 * does not decide the ratio. The EVP/direct ratios are
 * printed to stderr. Usage: nuri-bench-provider <directory of nuri.so> [--quick] */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/provider.h>

#include "bench.h"
#include "nuri/pipo.h"
#include "nuri/sparkle.h"

#define LEN 16384
static uint8_t in[LEN], out[LEN + 64], back[LEN + 64];
static const uint8_t KEY[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const uint8_t NONCE[32] = {9, 8, 7, 6, 5, 4, 3, 2, 1};

typedef struct {
    EVP_CIPHER_CTX *ctx;
    nuri_pipo_key pk;
} job;

static void direct_pipo_ctr(void *arg)
{
    job *j = arg;
    size_t n;
    if (nuri_pipo_encrypt(&j->pk, NURI_PIPO_CTR, NONCE, 8, NURI_PAD_NONE, out, sizeof out, &n, in, LEN)) abort();
}

static void evp_pipo_ctr(void *arg)
{
    job *j = arg;
    int n, m;
    if (!EVP_EncryptInit_ex2(j->ctx, NULL, NULL, NONCE, NULL) || !EVP_EncryptUpdate(j->ctx, out, &n, in, LEN) ||
        !EVP_EncryptFinal_ex(j->ctx, out + n, &m))
        abort();
}

static nuri_schwaemm_key sk; /* Schwaemm256-128 with KEY, dispatch: what an application holds */

static void direct_seal(void *arg)
{
    size_t n;
    (void)arg;
    if (nuri_schwaemm_encrypt(&sk, out, sizeof out, &n, NONCE, 32, NULL, 0, in, LEN)) abort();
}

static void evp_seal(void *arg)
{
    job *j = arg;
    int n, m;
    if (!EVP_EncryptInit_ex2(j->ctx, NULL, NULL, NONCE, NULL) || !EVP_EncryptUpdate(j->ctx, out, &n, in, LEN) ||
        !EVP_EncryptFinal_ex(j->ctx, out + n, &m) ||
        EVP_CIPHER_CTX_ctrl(j->ctx, EVP_CTRL_AEAD_GET_TAG, 16, out + LEN) != 1)
        abort();
}

static void direct_open(void *arg)
{
    size_t n;
    (void)arg;
    if (nuri_schwaemm_decrypt(&sk, back, sizeof back, &n, NONCE, 32, NULL, 0, out, LEN + 16)) abort();
}

static void evp_open(void *arg)
{
    job *j = arg;
    int n, m;
    if (!EVP_DecryptInit_ex2(j->ctx, NULL, NULL, NONCE, NULL) ||
        EVP_CIPHER_CTX_ctrl(j->ctx, EVP_CTRL_AEAD_SET_TAG, 16, out + LEN) != 1 ||
        !EVP_DecryptUpdate(j->ctx, back, &n, out, LEN) || !EVP_DecryptFinal_ex(j->ctx, back + n, &m) || n + m != LEN)
        abort();
}

static double pair(const nuri_bench *b, const char *op, const char *param, nuri_bench_fn direct, nuri_bench_fn evp,
                   job *j)
{
    double best[2][3] = {{0}}, st[3];
    for (int round = 0; round < (b->quick ? 3 : 9); round++)
        for (int k = 0; k < 2; k++) {
            nuri_bench_measure_auto(b, k ? evp : direct, j, st);
            if (round == 0 || st[0] < best[k][0]) memcpy(best[k], st, sizeof st);
        }
    nuri_bench_record(b, "provider", "direct", op, param, LEN, "cpb", best[0]);
    nuri_bench_record(b, "provider", "evp:nuri", op, param, LEN, "cpb", best[1]);
    double ratio = best[1][0] / best[0][0];
    fprintf(stderr, "provider: %s %s at 16 KiB: EVP/direct = %.3f (%s)\n", param, op, ratio,
            ratio <= 1.10 ? "within 10%" : "MORE than 10% slower");
    return ratio;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s <directory of nuri.so> [--quick]\n", argv[0]);
        return 2;
    }
    int quick = argc > 2 && strcmp(argv[2], "--quick") == 0;
    nuri_bench b = {stdout, quick, quick ? 5 : 11, "x86_64", NULL};
#if !defined(__x86_64__)
    b.platform = "other";
#endif
    for (size_t i = 0; i < LEN; i++) in[i] = (uint8_t)(i * 7 + 1);
    OSSL_LIB_CTX *lib = OSSL_LIB_CTX_new();
    if (!lib || !OSSL_PROVIDER_set_default_search_path(lib, argv[1]) || !OSSL_PROVIDER_load(lib, "nuri")) {
        fprintf(stderr, "nuri-bench-provider: cannot load nuri.so from %s\n", argv[1]);
        return 1;
    }
    EVP_CIPHER *pipo = EVP_CIPHER_fetch(lib, "PIPO-128-CTR", "provider=nuri");
    EVP_CIPHER *sch = EVP_CIPHER_fetch(lib, "SCHWAEMM256-128", "provider=nuri");
    job j = {EVP_CIPHER_CTX_new(), {{0}, 0, NULL}};
    if (!pipo || !sch || !j.ctx || nuri_pipo_key_init(&j.pk, KEY, 16, NULL) ||
        nuri_schwaemm_key_init(&sk, NURI_SCHWAEMM256_128, KEY, 16, NULL))
        return 1;
    double worst = 0, r;

    if (!EVP_EncryptInit_ex2(j.ctx, pipo, KEY, NONCE, NULL)) return 1;
    r = pair(&b, "encrypt", "PIPO-128-CTR", direct_pipo_ctr, evp_pipo_ctr, &j);
    worst = r > worst ? r : worst;

    if (!EVP_EncryptInit_ex2(j.ctx, sch, KEY, NONCE, NULL)) return 1;
    r = pair(&b, "aead-encrypt", "Schwaemm256-128", direct_seal, evp_seal, &j);
    worst = r > worst ? r : worst;
    evp_seal(&j); /* out = ciphertext || tag for the decryption runs */
    if (!EVP_DecryptInit_ex2(j.ctx, sch, KEY, NONCE, NULL)) return 1;
    r = pair(&b, "aead-decrypt", "Schwaemm256-128", direct_open, evp_open, &j);
    worst = r > worst ? r : worst;

    nuri_pipo_key_wipe(&j.pk);
    EVP_CIPHER_CTX_free(j.ctx);
    EVP_CIPHER_free(pipo);
    EVP_CIPHER_free(sch);
    OSSL_LIB_CTX_free(lib);
    fprintf(stderr, "provider: worst EVP/direct ratio %.3f\n", worst);
    return 0;
}
