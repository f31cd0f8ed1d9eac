/* Constant-time check for SPARKLE / Schwaemm / Esch (run under valgrind by ctest when
 * NURI_CT_VALGRIND=ON). Key, plaintext and hashed data are marked undefined; any branch or memory
 * index depending on them makes valgrind fail (exit 99). Decryption with a wrong tag is included:
 * the tag comparison is nuri_ct_memcmp and only its verdict is declassified (in schwaemm.c).
 * valgrind hides AVX-512 from the program, so the avx512 kernel is not exercised here; it is
 * branch-free and table-free by construction (src/sparkle/avx512). */
#include <stdio.h>

#include "nuri/sparkle.h"
#include "nuri_internal.h"

int main(void)
{
    uint8_t key[32], nonce[32], ad[40], pt[1500], ct[1600], back[1600], md[48], st[64];
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i * 7 + 1);
    for (size_t i = 0; i < sizeof nonce; i++) nonce[i] = (uint8_t)(i + 100);
    for (size_t i = 0; i < sizeof ad; i++) ad[i] = (uint8_t)(i * 3);
    for (size_t i = 0; i < sizeof pt; i++) pt[i] = (uint8_t)i;
    int checked = 0;
    for (size_t i = 0; i < nuri_sparkle_impl_count(); i++) {
        if (!nuri_sparkle_impl_supported(i)) continue;
        const char *name = nuri_sparkle_impl_info(i)->name;
        /* the permutation on a secret state */
        nuri_sparkle_ctx pc;
        if (nuri_sparkle_init(&pc, name) != 0) return 2;
        for (size_t len = 32; len <= 64; len += 16) {
            for (size_t k = 0; k < len; k++) st[k] = (uint8_t)k;
            NURI_CT_SECRET(st, len);
            if (nuri_sparkle_permute_bytes(&pc, st, len, 11) != 0) return 2;
        }
        nuri_schwaemm_key sk;
        for (int vi = 0; vi < 4; vi++) {
            nuri_schwaemm_variant v = (nuri_schwaemm_variant)vi;
            size_t kl = nuri_schwaemm_key_bytes(v), nl = nuri_schwaemm_nonce_bytes(v), tl = nuri_schwaemm_tag_bytes(v);
            /* 37 bytes: the single-pass staged decryption; 1500: the two-pass one */
            static const size_t lens[] = {37, 1500};
            for (int li = 0; li < 2; li++) {
                size_t m = lens[li], ol = 0, bl = 0;
                NURI_CT_SECRET(key, sizeof key);
                NURI_CT_SECRET(pt, sizeof pt);
                if (nuri_schwaemm_key_init(&sk, v, key, kl, name) != 0) return 3;
                if (nuri_schwaemm_encrypt(&sk, ct, sizeof ct, &ol, nonce, nl, ad, 19, pt, m) != 0) return 3;
                NURI_CT_PUBLIC(ct, sizeof ct); /* the ciphertext is public */
                int rc = nuri_schwaemm_decrypt(&sk, back, sizeof back, &bl, nonce, nl, ad, 19, ct, ol);
                NURI_CT_PUBLIC(&rc, sizeof rc);
                if (rc != 0) return 4;
                ct[ol - 1] ^= 1; /* wrong tag: rejected without secret-dependent branches */
                rc = nuri_schwaemm_decrypt(&sk, back, sizeof back, &bl, nonce, nl, ad, 19, ct, ol);
                NURI_CT_PUBLIC(&rc, sizeof rc);
                if (rc != NURI_EAUTH) return 5;
                ct[ol - 1] ^= 1;
                /* streaming two-pass decryption */
                nuri_schwaemm_ctx c;
                size_t w;
                if (nuri_schwaemm_init(&c, &sk, NURI_SCHWAEMM_DECRYPT, nonce, nl) != 0) return 6;
                if (nuri_schwaemm_update_ad(&c, ad, 19) != 0) return 6;
                if (nuri_schwaemm_verify_update(&c, ct, m) != 0) return 6;
                rc = nuri_schwaemm_verify_final(&c, ct + m, tl);
                NURI_CT_PUBLIC(&rc, sizeof rc);
                if (rc != 0) return 7;
                if (nuri_schwaemm_decrypt_update(&c, back, sizeof back, &w, ct, m) != 0) return 8;
                rc = nuri_schwaemm_decrypt_final(&c, back + w, sizeof back - w, &bl, ct + m, tl);
                NURI_CT_PUBLIC(&rc, sizeof rc);
                if (rc != 0) return 9;
                NURI_CT_PUBLIC(back, sizeof back);
                nuri_schwaemm_key_wipe(&sk);
            }
        }
        /* batch sealing and hashing of secret data */
        {
            uint8_t o0[80], o1[80];
            uint8_t *outs[2] = {o0, o1};
            const uint8_t *ns[2] = {nonce, nonce}, *as[2] = {ad, ad}, *ms[2] = {pt, pt + 64};
            size_t al[2] = {5, 0}, ml[2] = {40, 64};
            NURI_CT_SECRET(pt, sizeof pt);
            NURI_CT_SECRET(key, sizeof key);
            if (nuri_schwaemm_key_init(&sk, NURI_SCHWAEMM256_128, key, 16, name) != 0) return 10;
            if (nuri_schwaemm_encrypt_many(&sk, outs, ns, as, al, ms, ml, 2) != 0) return 10;
            uint8_t digests[2 * 32];
            nuri_esch_ctx h;
            if (nuri_esch_init(&h, NURI_ESCH256, name) != 0) return 11;
            if (nuri_esch_many(&h, digests, sizeof digests, ms, ml, 2) != 0) return 11;
        }
        /* a uniform batch (9 chunks of 150 bytes, 32-byte AD: the transposed duplex32 path on avx2,
         * one run of 8 and one alone), sealed and opened, one chunk with a wrong tag */
        for (int vi = 1; vi <= 3; vi += 2) {
            nuri_schwaemm_variant v = (nuri_schwaemm_variant)vi;
            enum { NB = 9, LEN = 150 };
            static uint8_t cts[NB][LEN + 32], pts[NB][LEN + 32];
            const uint8_t *ns[NB], *as[NB], *ms[NB], *cs[NB];
            uint8_t *outs[NB], *ps[NB];
            size_t al[NB], ml[NB], cl[NB], tl = nuri_schwaemm_tag_bytes(v);
            int status[NB];
            for (int k = 0; k < NB; k++) {
                ns[k] = nonce, as[k] = ad, al[k] = 32, ms[k] = pt + 100 * k, ml[k] = LEN;
                outs[k] = cts[k], cs[k] = cts[k], ps[k] = pts[k], cl[k] = LEN + tl;
            }
            NURI_CT_SECRET(pt, sizeof pt);
            NURI_CT_SECRET(key, sizeof key);
            if (nuri_schwaemm_key_init(&sk, v, key, nuri_schwaemm_key_bytes(v), name) != 0) return 13;
            if (nuri_schwaemm_encrypt_many(&sk, outs, ns, as, al, ms, ml, NB) != 0) return 13;
            NURI_CT_PUBLIC(cts, sizeof cts); /* ciphertexts are public */
            cts[4][LEN] ^= 1;
            int rc = nuri_schwaemm_decrypt_many(&sk, ps, ns, as, al, cs, cl, status, NB);
            NURI_CT_PUBLIC(&rc, sizeof rc);
            NURI_CT_PUBLIC(status, sizeof status);
            if (rc != NURI_EAUTH || status[4] != NURI_EAUTH || status[0] != 0 || status[8] != 0) return 14;
        }
        nuri_schwaemm_key_wipe(&sk);
        for (int e = 0; e < 2; e++) {
            nuri_esch_ctx h;
            size_t n;
            NURI_CT_SECRET(pt, sizeof pt);
            if (nuri_esch_init(&h, e ? NURI_ESCH384 : NURI_ESCH256, name) != 0 || nuri_esch_update(&h, pt, 333) != 0 ||
                nuri_esch_final(&h, md, sizeof md, &n) != 0)
                return 12;
        }
        checked++;
        printf("ct_sparkle: %s checked\n", name);
    }
    printf("ct_sparkle: %d passed, 0 failed\n", checked);
    return 0;
}
