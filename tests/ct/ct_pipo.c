/* Constant-time check for PIPO (run under valgrind by ctest when NURI_CT_VALGRIND=ON).
 * The key and plaintext are marked undefined; any branch or memory index that depends on them
 * makes valgrind report an error (exit 99). Only the outputs are declassified. valgrind hides
 * AVX-512 from the program, so the avx512 kernel cannot run here: its code is table-free and
 * branch-free by construction (see src/pipo/avx512). */
#include <stdio.h>

#include "nuri/pipo.h"
#include "nuri_internal.h"

int main(void)
{
    uint8_t key[32], iv[8], pt[1024 + 8], ct[1024 + 16], back[1024 + 16];
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i * 7 + 1);
    for (size_t i = 0; i < sizeof pt; i++) pt[i] = (uint8_t)i;
    for (size_t i = 0; i < 8; i++) iv[i] = (uint8_t)(0xF0 + i);
    int checked = 0;
    for (size_t i = 0; i < nuri_pipo_impl_count(); i++) {
        if (!nuri_pipo_impl_supported(i)) continue;
        const char *name = nuri_pipo_impl_info(i)->name;
        for (size_t kl = 16; kl <= 32; kl += 16) {
            nuri_pipo_key k;
            NURI_CT_SECRET(key, sizeof key);
            NURI_CT_SECRET(pt, sizeof pt);
            if (nuri_pipo_key_init(&k, key, kl, name) != 0) return 2;
            for (int mode = 0; mode < 3; mode++) {
                size_t ol = 0, bl = 0;
                nuri_padding pad = mode == NURI_PIPO_CTR ? NURI_PAD_NONE : NURI_PAD_PKCS7;
                const uint8_t *ivp = mode == NURI_PIPO_ECB ? NULL : iv;
                size_t ivl = mode == NURI_PIPO_ECB ? 0 : 8;
                if (nuri_pipo_encrypt(&k, mode, ivp, ivl, pad, ct, sizeof ct, &ol, pt, 1021) != 0) return 3;
                /* decryption with padding: the pad check itself must be constant time */
                int rc = nuri_pipo_decrypt(&k, mode, ivp, ivl, pad, back, sizeof back, &bl, ct, ol);
                NURI_CT_PUBLIC(&rc, sizeof rc);
                if (rc != 0) return 4;
                NURI_CT_PUBLIC(back, sizeof back);
                NURI_CT_PUBLIC(ct, sizeof ct);
            }
            nuri_pipo_key_wipe(&k);
            checked++;
        }
        printf("ct_pipo: %s checked\n", name);
    }
    printf("ct_pipo: %d passed, 0 failed\n", checked);
    return 0;
}
