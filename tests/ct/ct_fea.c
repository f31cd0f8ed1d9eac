/* Constant-time check for FEA (run under valgrind by ctest when NURI_CT_VALGRIND=ON).
 * The key and the values are marked undefined; any branch or memory index that depends on them
 * makes valgrind report an error (exit 99). Only outputs (and, inside the library, the public
 * facts "input in range" and the cycle-walking comparison on ciphertexts) are declassified.
 * Checked: every constant-time implementation valgrind can run (ct64: key schedule, batch API
 * with one and per-value tweaks, n <= 64 and n > 64, FEA-1 and FEA-2, decimal digits with
 * cycle-walking), among them aesni (AES-NI, 128-bit) and bitplane (the MCU kernel, its 32-bit
 * C form). valgrind hides AVX-512 and VAES from the program, so avx512-gfni and avx2-vaes
 * cannot run here: the first is table-free and branch-free by construction
 * (src/fea/gfni/fea_gfni.c); the second is the aesni body on ymm (src/fea/fea_aes_body.h).
 * Patterns (src/fea/pattern.c): split, encrypt, join and back with the whole value secret, for
 * digits, an ASCII template with literals and kept symbols, and a Hangul alphabet (3-byte UTF-8);
 * the one-string decimal parser/formatter (nuri_fea_digits_to_u64, nuri_fea_u64_to_digits: 6, 13,
 * 16 and 19 digits) and the u64 integer form with cycle-walking;
 * only the format (where digits/literals are, the characters' byte lengths, validity) is
 * declassified inside pattern.c. */
#include <stdio.h>
#include <string.h>

#include "nuri/fea.h"
#include "nuri_internal.h"

/* One value through split -> encrypt -> join -> split -> decrypt -> join, all of it secret. */
static int pattern_round_trip(const uint8_t *key, const char *spec, const char *value)
{
    nuri_fea_pattern p;
    nuri_fea_fmt f;
    char v[64], out[256], back[256];
    uint16_t syms[NURI_FEA_PATTERN_MAX_SYMBOLS];
    size_t n, n2, olen, blen, vlen = strlen(value);
    if (nuri_fea_pattern_init(&p, spec, strlen(spec), NULL, 0, NULL, 0) != 0) return 20;
    memcpy(v, value, vlen);
    NURI_CT_SECRET(v, vlen);
    if (nuri_fea_pattern_split(&p, v, vlen, syms, &n, 0, NULL, 0) != 0) return 21;
    if (nuri_fea_fmt_init(&f, key, 16, 1, p.radix, (unsigned)n, 0, NULL) != 0) return 22;
    if (nuri_fea_fmt_encrypt(&f, syms, syms, 1, NULL, 0) != 0) return 23;
    if (nuri_fea_pattern_join(&p, v, vlen, syms, n, out, sizeof out, &olen) != 0) return 24;
    NURI_CT_PUBLIC(out, olen); /* the ciphertext */
    NURI_CT_SECRET(out, olen); /* decrypting: the ciphertext in, the secret value out */
    if (nuri_fea_pattern_split(&p, out, olen, syms, &n2, 0, NULL, 0) != 0 || n2 != n) return 25;
    if (nuri_fea_fmt_decrypt(&f, syms, syms, 1, NULL, 0) != 0) return 26;
    if (nuri_fea_pattern_join(&p, out, olen, syms, n, back, sizeof back, &blen) != 0) return 27;
    NURI_CT_PUBLIC(back, blen);
    nuri_fea_fmt_wipe(&f);
    return blen == vlen && memcmp(back, value, vlen) == 0 ? 0 : 28;
}

int main(void)
{
    uint8_t key[32];
    uint64_t v[100], o[100];
    nuri_fea_u128 w[70], wo[70], tw[100];
    char digits[20 * 16 + 1], dout[20 * 16];
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i * 29 + 3);
    for (size_t i = 0; i < 100; i++) tw[i] = (nuri_fea_u128){0, i * 0x9E3779B9u};
    int checked = 0;
    for (size_t ii = 0; ii < nuri_fea_impl_count(); ii++) {
        const nuri_impl_info *info = nuri_fea_impl_info(ii);
        if (!nuri_fea_impl_supported(ii) || !info->constant_time) continue;
        for (unsigned variant = 1; variant <= 2; variant++) {
            for (size_t kl = 16; kl <= 32; kl += 16) {
                nuri_fea_key k;
                /* n = 54 through the u64 API */
                for (size_t i = 0; i < 100; i++) v[i] = (i * 0x0123456789ABCDULL) & ((1ULL << 54) - 1);
                NURI_CT_SECRET(key, sizeof key);
                NURI_CT_SECRET(v, sizeof v);
                if (nuri_fea_key_init(&k, key, kl, variant, 54, info->name) != 0) return 2;
                if (nuri_fea_encrypt_u64(&k, o, v, 100, tw, 100) != 0) return 3;
                if (nuri_fea_decrypt_u64(&k, o, o, 100, tw, 1) != 0) return 4;
                NURI_CT_PUBLIC(o, sizeof o);
                nuri_fea_key_wipe(&k);
                /* n = 100 through the u128 API */
                for (size_t i = 0; i < 70; i++) w[i] = (nuri_fea_u128){i & 0xFFFFFFFFFu, i * 0x1111111111111111ULL};
                NURI_CT_SECRET(w, sizeof w);
                if (nuri_fea_key_init(&k, key, kl, variant, 100, info->name) != 0) return 5;
                if (nuri_fea_encrypt_u128(&k, wo, w, 70, tw, 1) != 0) return 6;
                if (nuri_fea_decrypt_u128(&k, wo, wo, 70, NULL, 0) != 0) return 7;
                NURI_CT_PUBLIC(wo, sizeof wo);
                nuri_fea_key_wipe(&k);
                /* 16-digit decimal strings, cycle-walking */
                nuri_fea_fmt f;
                for (size_t i = 0; i < 20 * 16; i++) digits[i] = (char)('0' + (i * 7 + i / 16) % 10);
                NURI_CT_SECRET(digits, sizeof digits);
                if (nuri_fea_fmt_init(&f, key, kl, variant, 10, 16, 0, info->name) != 0) return 8;
                if (nuri_fea_fmt_encrypt_digits(&f, dout, digits, 20, tw, 20) != 0) return 9;
                NURI_CT_PUBLIC(dout, sizeof dout);
                if (nuri_fea_fmt_decrypt_digits(&f, dout, dout, 20, tw, 20) != 0) return 10;
                NURI_CT_PUBLIC(dout, sizeof dout);
                /* one string at a time (the DuckDB path): parse, the u64 form, format, and back */
                NURI_CT_SECRET(digits, sizeof digits);
                for (size_t i = 0; i < 20; i++)
                    if (nuri_fea_digits_to_u64(digits + i * 16, 16, &v[i]) != 0) return 11;
                if (nuri_fea_fmt_encrypt_u64(&f, o, v, 20, tw, 20) != 0) return 12;
                NURI_CT_PUBLIC(o, 20 * sizeof o[0]);
                NURI_CT_SECRET(o, 20 * sizeof o[0]);
                if (nuri_fea_fmt_decrypt_u64(&f, o, o, 20, tw, 20) != 0) return 13;
                for (size_t i = 0; i < 20; i++)
                    if (nuri_fea_u64_to_digits(o[i], dout + i * 16, 16) != 0) return 14;
                NURI_CT_PUBLIC(dout, sizeof dout);
                NURI_CT_PUBLIC(digits, sizeof digits); /* the test's own comparison */
                if (memcmp(dout, digits, sizeof dout) != 0) return 15;
                /* odd lengths: the first L % 8 digits take the shifted load (L >= 8) or the copy */
                for (size_t L = 6; L <= 19; L += 13 - 6) {
                    uint64_t x;
                    char back[19];
                    NURI_CT_SECRET(digits, L);
                    if (nuri_fea_digits_to_u64(digits, L, &x) != 0) return 16;
                    if (nuri_fea_u64_to_digits(x, back, L) != 0) return 17;
                    NURI_CT_PUBLIC(back, L);
                    NURI_CT_PUBLIC(digits, L);
                    if (memcmp(back, digits, L) != 0) return 18;
                }
                nuri_fea_fmt_wipe(&f);
                checked++;
            }
        }
        printf("ct_fea: %s checked\n", info->name);
    }
    static const char *const patterns[][2] = {
        {"digits", "4111-1111-1111-1111"},
        {"template:010-####-**##", "010-9876-5432"},
        {"alphabet:\xea\xb0\x80\xeb\x82\x98\xeb\x8b\xa4\xeb\x9d\xbc\xeb\xa7\x88\xeb\xb0\x94\xec\x82\xac"
         "\xec\x95\x84", /* 가나다라마바사아 */
         "\xeb\x8b\xa4\xea\xb0\x80\xec\x95\x84\xeb\x82\x98\xeb\xa7\x88\xec\x82\xac\xeb\x9d\xbc"
         "\xeb\xb0\x94"},
    };
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        int rc = pattern_round_trip(key, patterns[i][0], patterns[i][1]);
        if (rc) return rc;
        printf("ct_fea: pattern %.20s checked\n", patterns[i][0]);
        checked++;
    }
    printf("ct_fea: %d passed, 0 failed\n", checked);
    return checked ? 0 : 1;
}
