/* nuri-prov-decap: decapsulates an ML-KEM ciphertext with a private key file (PEM or DER, as
 * written by `openssl genpkey -algorithm ML-KEM-768 -provider nuri`) through the nuri provider,
 * and prints the shared secret in hex. OpenSSL before 3.4 has no `pkeyutl -decap`.
 * Usage: nuri-prov-decap <directory of nuri.so> <key file> <ciphertext file> */
#include <stdio.h>

#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

static long slurp(const char *path, unsigned char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t n = fread(buf, 1, cap, f);
    int big = !feof(f);
    fclose(f);
    return big ? -1 : (long)n;
}

int main(int argc, char **argv)
{
    static unsigned char key[16384], ct[4096];
    unsigned char ss[64];
    size_t sl = sizeof ss;
    if (argc != 4) {
        fprintf(stderr, "usage: %s <directory of nuri.so> <key file> <ciphertext file>\n", argv[0]);
        return 2;
    }
    long kl = slurp(argv[2], key, sizeof key), cl = slurp(argv[3], ct, sizeof ct);
    if (kl < 0 || cl < 0) {
        fprintf(stderr, "nuri-prov-decap: cannot read %s\n", kl < 0 ? argv[2] : argv[3]);
        return 1;
    }
    OSSL_LIB_CTX *lib = OSSL_LIB_CTX_new();
    EVP_PKEY *pk = NULL;
    EVP_PKEY_CTX *c = NULL;
    int ok = lib && OSSL_PROVIDER_set_default_search_path(lib, argv[1]) && OSSL_PROVIDER_load(lib, "nuri") &&
             OSSL_PROVIDER_load(lib, "default");
    OSSL_DECODER_CTX *dc =
        ok ? OSSL_DECODER_CTX_new_for_pkey(&pk, NULL, NULL, NULL, EVP_PKEY_KEYPAIR, lib, NULL) : NULL;
    const unsigned char *p = key;
    size_t left = (size_t)kl;
    ok = dc && OSSL_DECODER_from_data(dc, &p, &left) == 1 && pk;
    ok = ok && (c = EVP_PKEY_CTX_new_from_pkey(lib, pk, "provider=nuri")) && EVP_PKEY_decapsulate_init(c, NULL) == 1 &&
         EVP_PKEY_decapsulate(c, ss, &sl, ct, (size_t)cl) == 1;
    if (ok) {
        for (size_t i = 0; i < sl; i++) printf("%02x", ss[i]);
        printf("\n");
    } else {
        fprintf(stderr, "nuri-prov-decap: decapsulation failed\n");
        ERR_print_errors_fp(stderr);
    }
    EVP_PKEY_CTX_free(c);
    EVP_PKEY_free(pk);
    OSSL_DECODER_CTX_free(dc);
    OSSL_LIB_CTX_free(lib);
    return ok ? 0 : 1;
}
