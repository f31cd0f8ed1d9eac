/* The pattern layer (src/fea/pattern.c) in C, under the sanitizers: every case of the shared table
 * tests/fea/pattern_cases.tsv (split + encrypt + join + decrypt round trip, or the expected
 * refusal), then random byte strings (valid and invalid UTF-8) through every kind of pattern:
 * split either refuses or its join reproduces the value. */
#include "nuri/fea.h"
#include "test_util.h"

static const uint8_t KEY[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

static void roundtrip(const char *spec, const char *value, const char *want)
{
    nuri_fea_pattern p;
    char msg[256], out[512], back[512];
    uint16_t syms[NURI_FEA_PATTERN_MAX_SYMBOLS], enc[NURI_FEA_PATTERN_MAX_SYMBOLS];
    size_t n, olen, blen, vlen = strlen(value);
    CHECK(nuri_fea_pattern_init(&p, spec, strlen(spec), NULL, 0, msg, sizeof msg) == 0, "%s: init: %s", spec, msg);
    int rc = nuri_fea_pattern_split(&p, value, vlen, syms, &n, 0, msg, sizeof msg);
    if (strncmp(want, "error:", 6) == 0) {
        CHECK(rc == NURI_EDOMAIN && strstr(msg, want + 6) != NULL, "%s / %s: want %s, got %d '%s'", spec, value, want,
              rc, msg);
        return;
    }
    CHECK(rc == 0, "%s / %s: split: %s", spec, value, msg);
    if (rc != 0) return;
    nuri_fea_fmt f;
    nuri_fea_u128 tw = {0, 1};
    CHECK(nuri_fea_fmt_init(&f, KEY, 16, 1, p.radix, (unsigned)n, 0, NULL) == 0, "fmt_init");
    CHECK(nuri_fea_fmt_encrypt(&f, enc, syms, 1, &tw, 1) == 0, "encrypt");
    CHECK(nuri_fea_pattern_join(&p, value, vlen, enc, n, out, sizeof out, &olen) == 0, "join");
    CHECK(olen == vlen && memcmp(out, value, vlen) != 0, "%s: the ciphertext keeps the length, differs", value);
    CHECK(nuri_fea_pattern_split(&p, out, olen, syms, &n, 0, msg, sizeof msg) == 0, "split ciphertext: %s", msg);
    CHECK(nuri_fea_fmt_decrypt(&f, enc, syms, 1, &tw, 1) == 0, "decrypt");
    CHECK(nuri_fea_pattern_join(&p, out, olen, enc, n, back, sizeof back, &blen) == 0, "join back");
    CHECK(blen == vlen && memcmp(back, value, vlen) == 0, "%s / %s: round trip", spec, value);
    nuri_fea_fmt_wipe(&f);
}

static void shared_cases(const char *path)
{
    FILE *fp = fopen(path, "r");
    CHECK(fp != NULL, "cannot open %s", path);
    if (!fp) return;
    char line[1024];
    int cases = 0;
    while (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#') continue;
        char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        CHECK(t2 != NULL, "malformed line: %s", line);
        if (!t2) continue;
        *t1 = *t2 = 0;
        roundtrip(line, t1 + 1, t2 + 1);
        cases++;
    }
    fclose(fp);
    CHECK(cases >= 16, "only %d cases read", cases);
}

static void random_strings(void)
{
    static const char *specs[] = {"digits", "template:####-####-****", "template:\xEC\xB9\xB4##\\###",
                                  "alphabet:0123456789abcdef", "alphabet:ab\xEA\xB0\x80\xEA\xB0\x81\xF0\x9F\x98\x80"};
    static const char *samples[] = {"12-3456 789", "1234-5678-9012",
                                    "\xEC\xB9\xB4"
                                    "12#34",
                                    "deadbeef",
                                    "ab\xEA\xB0\x80\xF0\x9F\x98\x80"
                                    "ba\xEA\xB0\x81\xEA\xB0\x80"};
    static const char pool[] = "0123456789-*#\\ab\xEA\xB0\x80\xEA\xB0\x81\xF0\x9F\x98\x80\xC0\xFF\x80";
    char value[64], out[256], msg[256];
    uint16_t syms[NURI_FEA_PATTERN_MAX_SYMBOLS];
    size_t n, olen;
    for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
        nuri_fea_pattern p;
        CHECK(nuri_fea_pattern_init(&p, specs[s], strlen(specs[s]), NULL, 0, msg, sizeof msg) == 0, "%s: %s", specs[s],
              msg);
        unsigned ok = 0;
        for (int it = 0; it < 20000; it++) {
            size_t len = (size_t)(tu_rand64() % 24);
            for (size_t i = 0; i < len; i++) value[i] = pool[tu_rand64() % (sizeof pool - 1)];
            if (tu_rand64() & 1) { /* also a valid value of the pattern, sometimes with one byte changed */
                len = strlen(samples[s]);
                memcpy(value, samples[s], len);
                if (tu_rand64() & 1) value[tu_rand64() % len] = pool[tu_rand64() % (sizeof pool - 1)];
            }
            int rc = nuri_fea_pattern_split(&p, value, len, syms, &n, NURI_FEA_ALLOW_SMALL_DOMAIN, msg, sizeof msg);
            if (rc != 0) {
                CHECK(rc == NURI_EDOMAIN && msg[0], "%s: refusal without a message", specs[s]);
                continue;
            }
            ok++;
            CHECK(nuri_fea_pattern_join(&p, value, len, syms, n, out, sizeof out, &olen) == 0 && olen == len &&
                      memcmp(out, value, len) == 0,
                  "%s: split/join is not the identity", specs[s]);
        }
        CHECK(ok > 100, "%s: only %u values split", specs[s], ok);
    }
    nuri_fea_pattern p;
    CHECK(nuri_fea_pattern_init(&p, "alphabet:aba", 12, NULL, 0, msg, sizeof msg) == NURI_EINVAL &&
              strstr(msg, "repeats"),
          "repeated symbol refused");
    CHECK(nuri_fea_pattern_init(&p, "alphabet:a\xC0", 11, NULL, 0, msg, sizeof msg) == NURI_EINVAL, "bad UTF-8");
    CHECK(nuri_fea_pattern_init(&p, "template:####", 13, NULL, 0, msg, sizeof msg) == 0, "template");
    memset(out, 0xAA, sizeof out);
    olen = 99;
    CHECK(nuri_fea_pattern_join(&p, "1234", 4, syms, 4, out, 3, &olen) == NURI_EBUFFER && olen == 0 && out[0] == 0 &&
              out[2] == 0 && (unsigned char)out[3] == 0xAA,
          "short buffer refused, the 3 bytes given zeroed");
    /* errors zero the bytes join may write (max_out, within out_cap) */
    static const uint16_t digits[4] = {1, 2, 3, 4}, bad[4] = {1, 2, 10, 4};
    memset(out, 0xAA, sizeof out);
    CHECK(nuri_fea_pattern_join(&p, "5678", 4, bad, 4, out, sizeof out, &olen) == NURI_EINVAL && olen == 0 &&
              out[0] == 0 && out[3] == 0 && (unsigned char)out[4] == 0xAA,
          "symbol >= radix refused, output zeroed");
    memset(out, 0xAA, sizeof out);
    CHECK(nuri_fea_pattern_join(&p, "5678", 4, digits, 3, out, sizeof out, &olen) == NURI_EINVAL && olen == 0 &&
              out[0] == 0 && out[3] == 0 && (unsigned char)out[4] == 0xAA,
          "too few symbols refused, output zeroed");
}

int main(int argc, char **argv)
{
    shared_cases(argc > 1 ? argv[1] : "pattern_cases.tsv");
    random_strings();
    return tu_finish("test_fea_pattern");
}
