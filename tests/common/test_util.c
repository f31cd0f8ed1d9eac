#include "test_util.h"

#include <ctype.h>

unsigned long tu_passed, tu_failed;

int tu_finish(const char *name)
{
    printf("%s: %lu passed, %lu failed\n", name, tu_passed, tu_failed);
    return tu_failed ? 1 : 0;
}

static unsigned long set_failed_before;

void tu_set_begin(void) { set_failed_before = tu_failed; }

void tu_set_end(const char *test, const char *set, unsigned long count, unsigned long expected)
{
    CHECK(expected ? count == expected : count > 0, "%s: %s: %lu vectors, expected %lu", test, set, count, expected);
    unsigned long failed = tu_failed - set_failed_before;
    const char *noun = count == 1 ? "vector" : "vectors";
    if (failed) printf("%s: %s: %lu %s, %lu checks FAILED\n", test, set, count, noun, failed);
    else printf("%s: %s: %lu %s passed\n", test, set, count, noun);
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    c = tolower(c);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

long tu_unhex(uint8_t *out, size_t cap, const char *hex)
{
    size_t len = strlen(hex);
    while (len && isspace((unsigned char)hex[len - 1])) len--;
    if (len % 2 || len / 2 > cap) return -1;
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(len / 2);
}

void tu_hex(char *out, const uint8_t *in, size_t n)
{
    static const char d[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = d[in[i] >> 4];
        out[2 * i + 1] = d[in[i] & 15];
    }
    out[2 * n] = 0;
}

static uint64_t rng_state = 0x6e757269u;

uint64_t tu_rand64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void tu_randbytes(uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i += 8) {
        uint64_t r = tu_rand64();
        for (size_t j = 0; j < 8 && i + j < n; j++) out[i + j] = (uint8_t)(r >> (8 * j));
    }
}

uint64_t tu_seed_from_env(void)
{
    const char *s = getenv("NURI_TEST_SEED");
    rng_state = s ? strtoull(s, NULL, 0) : 0x6e757269u;
    printf("seed: NURI_TEST_SEED=0x%llx\n", (unsigned long long)rng_state);
    return rng_state;
}

int tu_kv_open(tu_kv *kv, const char *path)
{
    memset(kv, 0, sizeof *kv);
    kv->f = fopen(path, "r");
    return kv->f ? 0 : -1;
}

static void kv_clear(tu_kv *kv)
{
    for (int i = 0; i < kv->nfields; i++) free(kv->value[i]);
    kv->nfields = 0;
}

int tu_kv_next(tu_kv *kv)
{
    kv_clear(kv);
    ssize_t n;
    while ((n = getline(&kv->line, &kv->linecap, kv->f)) >= 0) {
        char *l = kv->line;
        while (n > 0 && (l[n - 1] == '\n' || l[n - 1] == '\r')) l[--n] = 0;
        while (*l == ' ' || *l == '\t') l++;
        if (*l == '#') continue;
        if (*l == 0) {
            if (kv->nfields) return 1;
            continue;
        }
        char *eq = strchr(l, '=');
        if (!eq || kv->nfields == TU_KV_MAX) continue;
        char *ne = eq;
        while (ne > l && (ne[-1] == ' ' || ne[-1] == '\t')) ne--;
        size_t nl = (size_t)(ne - l);
        if (nl >= sizeof kv->name[0]) nl = sizeof kv->name[0] - 1;
        memcpy(kv->name[kv->nfields], l, nl);
        kv->name[kv->nfields][nl] = 0;
        char *v = eq + 1;
        while (*v == ' ' || *v == '\t') v++;
        kv->value[kv->nfields++] = strdup(v);
    }
    return kv->nfields ? 1 : 0;
}

const char *tu_kv_get(const tu_kv *kv, const char *name)
{
    for (int i = 0; i < kv->nfields; i++)
        if (strcmp(kv->name[i], name) == 0) return kv->value[i];
    return NULL;
}

void tu_kv_close(tu_kv *kv)
{
    kv_clear(kv);
    free(kv->line);
    if (kv->f) fclose(kv->f);
    memset(kv, 0, sizeof *kv);
}
