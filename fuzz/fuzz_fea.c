/* FEA-1/FEA-2, properties:
 *  - integer API (u64 and u128), digit strings and radix formats: every implementation gives ref's
 *    output; decrypt(encrypt(x)) = x; outputs stay in the domain (digits stay digits, symbols < radix);
 *  - patterns (digits, template, alphabet) from the fuzzer: split + encrypt + join keeps every
 *    character that is not encrypted, and decrypting gives the value back; a value that does not fit
 *    is refused with a message, never a crash. */
#include <nuri/fea.h>

#include "fuzz_util.h"

static int u128_eq(const nuri_fea_u128 *a, const nuri_fea_u128 *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].hi != b[i].hi || a[i].lo != b[i].lo) return 0;
    return 1;
}

static void formats(fz_in *in, const uint8_t *key, size_t kl, unsigned variant, const char **impl, size_t ni)
{
    unsigned radix = 2 + fz_u16(in) % 300, len = 1 + fz_u8(in) % 40;
    if (!nuri_fea_fmt_nbits(radix, len)) return;
    nuri_fea_fmt ref, f;
    if (nuri_fea_fmt_init(&ref, key, kl, variant, radix, len, 1u /* small domains too */, "ref")) return;
    uint16_t sym[4 * 40], c0[4 * 40], c1[4 * 40], back[4 * 40];
    for (unsigned i = 0; i < 4 * len; i++) sym[i] = fz_u16(in) % radix;
    PROPERTY(nuri_fea_fmt_encrypt(&ref, c0, sym, 4, NULL, 0) == 0, "ref fmt encrypt");
    for (unsigned i = 0; i < 4 * len; i++) PROPERTY(c0[i] < radix, "symbol out of radix");
    for (size_t i = 0; i < ni; i++) {
        PROPERTY(nuri_fea_fmt_init(&f, key, kl, variant, radix, len, 1u, impl[i]) == 0, "%s fmt", impl[i]);
        PROPERTY(nuri_fea_fmt_encrypt(&f, c1, sym, 4, NULL, 0) == 0 && !memcmp(c0, c1, 8 * len),
                 "%s radix %u len %u != ref", impl[i], radix, len);
        PROPERTY(nuri_fea_fmt_decrypt(&f, back, c1, 4, NULL, 0) == 0 && !memcmp(back, sym, 8 * len),
                 "%s radix decrypt(encrypt) != x", impl[i]);
        nuri_fea_fmt_wipe(&f);
    }
    nuri_fea_fmt_wipe(&ref);
}

static void pattern(fz_in *in, const uint8_t *key, size_t kl, unsigned variant)
{
    static const char *const specs[] = {"digits",
                                        "template:####-####-####-****",
                                        "template:******-#######",
                                        "alphabet:0123456789abcdef",
                                        "alphabet:ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                                        "template:010-####-####"};
    const char *spec = specs[fz_u8(in) % 6];
    nuri_fea_pattern p;
    char msg[256];
    PROPERTY(nuri_fea_pattern_init(&p, spec, strlen(spec), NULL, 0, msg, sizeof msg) == 0, "pattern %s", spec);
    size_t vl;
    const char *value = (const char *)fz_bytes(in, fz_u8(in) % 64, &vl);
    uint16_t syms[NURI_FEA_PATTERN_MAX_SYMBOLS], enc[NURI_FEA_PATTERN_MAX_SYMBOLS], dec[NURI_FEA_PATTERN_MAX_SYMBOLS];
    size_t ns;
    msg[0] = 0;
    if (nuri_fea_pattern_split(&p, value, vl, syms, &ns, 1u, msg, sizeof msg) != 0) {
        PROPERTY(msg[0] != 0, "a refused value gets a message");
        return;
    }
    nuri_fea_fmt f;
    if (nuri_fea_fmt_init(&f, key, kl, variant, p.radix, (unsigned)ns, 1u, NULL) != 0) return;
    PROPERTY(nuri_fea_fmt_encrypt(&f, enc, syms, 1, NULL, 0) == 0, "encrypt");
    size_t cap = nuri_fea_pattern_max_out(&p, vl), ol, bl;
    char *out = malloc(cap + 1), *back = malloc(cap + 1);
    PROPERTY(out && back, "malloc");
    PROPERTY(nuri_fea_pattern_join(&p, value, vl, enc, ns, out, cap, &ol) == 0, "join");
    /* the encrypted value fits the pattern again, with the same number of symbols */
    size_t ns2;
    uint16_t again[NURI_FEA_PATTERN_MAX_SYMBOLS];
    PROPERTY(nuri_fea_pattern_split(&p, out, ol, again, &ns2, 1u, msg, sizeof msg) == 0 && ns2 == ns &&
                 !memcmp(again, enc, ns * 2),
             "encrypted value does not split back (%s)", spec);
    PROPERTY(nuri_fea_fmt_decrypt(&f, dec, again, 1, NULL, 0) == 0 && !memcmp(dec, syms, ns * 2), "decrypt");
    PROPERTY(nuri_fea_pattern_join(&p, out, ol, dec, ns, back, cap, &bl) == 0, "join back");
    PROPERTY(bl == vl && !memcmp(back, value, vl), "pattern round trip changed the value (%s)", spec);
    free(out);
    free(back);
    nuri_fea_fmt_wipe(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    uint8_t sel = fz_u8(&in);
    unsigned variant = 1 + (sel & 1);
    size_t kl = 16 + 8 * ((sel >> 1) % 3);
    uint8_t key[32];
    fz_fill(&in, key, kl);
    unsigned nbits = 8 + fz_u8(&in) % 121;
    const char *impl[16];
    size_t ni;
    FZ_IMPLS(fea, impl, ni);

    nuri_fea_u128 x[4], t[4], c0[4], c1[4], back[4];
    for (int i = 0; i < 4; i++) {
        uint8_t b[16];
        fz_fill(&in, b, 16);
        memcpy(&x[i].hi, b, 8);
        memcpy(&x[i].lo, b + 8, 8);
        if (nbits < 64) {
            x[i].hi = 0;
            x[i].lo &= (1ull << nbits) - 1;
        } else if (nbits < 128) x[i].hi &= (1ull << (nbits - 64)) - 1;
        fz_fill(&in, b, 16);
        memcpy(&t[i].hi, b, 8);
        memcpy(&t[i].lo, b + 8, 8);
        unsigned tb = variant == 1 ? 128 - nbits : 128;
        if (tb < 64) {
            t[i].hi = 0;
            t[i].lo &= tb ? (1ull << tb) - 1 : 0;
        } else if (tb < 128) t[i].hi &= (1ull << (tb - 64)) - 1;
    }
    nuri_fea_key ref, k;
    PROPERTY(nuri_fea_key_init(&ref, key, kl, variant, nbits, "ref") == 0, "ref key");
    PROPERTY(nuri_fea_encrypt_u128(&ref, c0, x, 4, t, 4) == 0, "ref encrypt");
    for (size_t i = 0; i < ni; i++) {
        PROPERTY(nuri_fea_key_init(&k, key, kl, variant, nbits, impl[i]) == 0, "%s key", impl[i]);
        PROPERTY(nuri_fea_encrypt_u128(&k, c1, x, 4, t, 4) == 0 && u128_eq(c0, c1, 4), "%s FEA-%u n=%u != ref", impl[i],
                 variant, nbits);
        PROPERTY(nuri_fea_decrypt_u128(&k, back, c1, 4, t, 4) == 0 && u128_eq(back, x, 4), "%s decrypt(encrypt)",
                 impl[i]);
        if (nbits <= 64) {
            uint64_t xs[4], cs[4];
            for (int j = 0; j < 4; j++) xs[j] = x[j].lo;
            PROPERTY(nuri_fea_encrypt_u64(&k, cs, xs, 4, t, 4) == 0, "%s u64", impl[i]);
            for (int j = 0; j < 4; j++) PROPERTY(cs[j] == c0[j].lo && c0[j].hi == 0, "%s u64 != u128", impl[i]);
        }
        nuri_fea_key_wipe(&k);
    }
    nuri_fea_key_wipe(&ref);
    formats(&in, key, kl, variant, impl, ni);
    pattern(&in, key, kl, variant);
    return 0;
}
