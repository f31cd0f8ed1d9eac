/* Constant-time check for ML-KEM (run under valgrind by ctest when NURI_CT_VALGRIND=ON).
 * Secrets marked undefined: the keygen seed d || z, the encapsulation randomness m, and the
 * secret parts of dk (dk_PKE and z). Declassified: only what is public by definition -- ek, the
 * ek and H(ek) copies inside dk, the ciphertext, and the outputs once an operation returns.
 * The re-encryption comparison in decapsulation is never declassified: the implicit-rejection
 * selection must be branch-free, so valgrind would report any branch on it. The only
 * declassification inside the library is rho (public, part of ek) in key generation. */
#include <stdio.h>
#include <string.h>

#include "nuri/mlkem.h"
#include "nuri_internal.h"

int main(void)
{
    static const unsigned levels[3] = {512, 768, 1024};
    int checked = 0;
    for (size_t i = 0; i < nuri_mlkem_impl_count(); i++) {
        const char *name = nuri_mlkem_impl_info(i)->name;
        if (!nuri_mlkem_impl_supported(i)) {
            /* valgrind's CPU has no AVX-512: the avx512 code is checked by its emulated build
             * (make check-mlkem-avx512-emul: the same sources through portable intrinsics) */
            char names[128];
            const uint32_t lacks = nuri_mlkem_impl_info(i)->cpu_features & ~nuri_cpu_features();
            printf("ct_mlkem: %s skipped: CPU lacks %s%s\n", name, nuri_cpu_feature_names(lacks, names, sizeof names),
                   strcmp(name, "avx512") == 0 ? " (valgrind has no AVX-512: see make check-mlkem-avx512-emul)" : "");
            continue;
        }
        for (int li = 0; li < 3; li++) {
            unsigned level = levels[li], k = level / 256;
            size_t ekl = nuri_mlkem_ek_bytes(level), dkl = nuri_mlkem_dk_bytes(level), ctl = nuri_mlkem_ct_bytes(level);
            uint8_t seed[64], m[32], ek[NURI_MLKEM_MAX_EK_BYTES], dk[NURI_MLKEM_MAX_DK_BYTES],
                ct[NURI_MLKEM_MAX_CT_BYTES], ss[32], ss2[32], ss3[32];
            for (size_t j = 0; j < 64; j++) seed[j] = (uint8_t)(j * 13 + level);
            for (size_t j = 0; j < 32; j++) m[j] = (uint8_t)(j * 7 + 1);

            nuri_mlkem_ctx kem;
            if (nuri_mlkem_init(&kem, (nuri_mlkem_level)level, name) != 0) return 2;
            NURI_CT_SECRET(seed, sizeof seed);
            if (nuri_mlkem_keygen(&kem, ek, ekl, dk, dkl, seed, 64) != 0) return 2;
            NURI_CT_PUBLIC(ek, ekl);

            /* dk: dk_PKE and z stay secret, the ek copy and H(ek) are public */
            NURI_CT_SECRET(dk, dkl);
            NURI_CT_PUBLIC(dk + 384 * k, ekl + 32);

            NURI_CT_SECRET(m, sizeof m);
            if (nuri_mlkem_encaps(&kem, ct, ctl, ss, 32, ek, ekl, m, 32) != 0) return 3;
            NURI_CT_PUBLIC(ct, ctl);

            int rc = nuri_mlkem_decaps(&kem, ss2, 32, ct, ctl, dk, dkl);
            if (rc != 0) return 4;
            /* implicit rejection path: a ciphertext differing in its last byte */
            ct[ctl - 1] ^= 1;
            rc = nuri_mlkem_decaps(&kem, ss3, 32, ct, ctl, dk, dkl);
            if (rc != 0) return 5;

            /* batch form: 5 ciphertexts (one altered) under the secret dk */
            static uint8_t cts[5 * NURI_MLKEM_MAX_CT_BYTES], sss[5 * 32];
            for (int t = 0; t < 5; t++) memcpy(cts + t * ctl, ct, ctl);
            cts[ctl - 1] ^= 1; /* item 0 is the valid ciphertext again */
            rc = nuri_mlkem_decaps_many(&kem, sss, 5 * 32, cts, 5 * ctl, dk, dkl, 5);
            if (rc != 0) return 8;

            NURI_CT_PUBLIC(ss, 32);
            NURI_CT_PUBLIC(ss2, 32);
            NURI_CT_PUBLIC(ss3, 32);
            NURI_CT_PUBLIC(sss, 5 * 32);
            if (memcmp(sss, ss, 32) != 0 || memcmp(sss + 32, ss3, 32) != 0) return 9;
            if (memcmp(ss, ss2, 32) != 0) return 6;
            if (memcmp(ss, ss3, 32) == 0) return 7;
            checked++;
        }
        printf("ct_mlkem: %s checked\n", name);
    }
    printf("ct_mlkem: %d passed, 0 failed\n", checked);
    return 0;
}
