/* PIPO counts on the emulated targets, printed as JSON records in the harness schema
 * (bench/bench.h). Units: rv32 under QEMU -icount shift=0 counts executed INSTRUCTIONS (minstret;
 * QEMU models no pipeline, so these are not cycles); simavr counts exact AVR CYCLES.
 * Counts are deterministic: each is taken RUNS times and median/min/max are reported. */
#include "cross_support.h"
#include "nuri/pipo.h"

#ifndef NURI_PLATFORM
#define NURI_PLATFORM "unknown"
#endif
#ifdef __AVR__
#define LEN        64
#define MODE_SIZES {64}
#else
#define LEN        4096 /* the mode layer is also measured at 4 KiB, where per-call costs weigh less */
#define MODE_SIZES {1024, 4096}
#endif
#define RUNS 3

static uint8_t in[LEN], out[LEN + 8];

static void sort3(uint32_t v[RUNS])
{
    for (int i = 0; i < RUNS; i++)
        for (int j = i + 1; j < RUNS; j++)
            if (v[j] < v[i]) {
                uint32_t t = v[i];
                v[i] = v[j];
                v[j] = t;
            }
}

/* value/size with two decimals, printed without floating point (AVR printf has none) */
static void print_ratio(uint32_t v, uint32_t size)
{
    uint32_t q = (uint32_t)(((uint64_t)v * 100u + size / 2) / size);
    printf("%lu.%02lu", (unsigned long)(q / 100), (unsigned long)(q % 100));
}

static void record(const char *impl, const char *op, const char *param, uint32_t size, const char *metric,
                   uint32_t v[RUNS], int per_byte)
{
    sort3(v);
    printf("{\"family\": \"pipo\", \"impl\": \"%s\", \"op\": \"%s\", \"param\": \"%s\", \"size\": %lu, "
           "\"platform\": \"%s\", \"metric\": \"%s\", ",
           impl, op, param, (unsigned long)size, NURI_PLATFORM, metric);
    const char *names[3] = {"median", "min", "max"};
    uint32_t vals[3] = {v[RUNS / 2], v[0], v[RUNS - 1]};
    for (int i = 0; i < 3; i++) {
        printf("\"%s\": ", names[i]);
        if (per_byte) print_ratio(vals[i], size);
        else printf("%lu", (unsigned long)vals[i]);
        printf(", ");
    }
    printf("\"runs\": %d}\n", RUNS);
}

int cross_main(void)
{
    const char *unit = cross_count_unit();
    int cycles = strcmp(unit, "cycles") == 0;
    const char *m_call = cycles ? "cycles" : "instructions";
    const char *m_byte = cycles ? "cpb" : "instructions_per_byte";
    static const uint8_t iv[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    uint8_t key[32];
    for (int i = 0; i < 32; i++) key[i] = (uint8_t)(0x11 * i + 3);
    for (int i = 0; i < LEN; i++) in[i] = (uint8_t)(i * 7 + 1);
    if (strcmp(unit, "none") == 0) {
        printf("bench_pipo_cross: this target cannot count by itself\n");
        return 0;
    }
    for (size_t ii = 0; ii < nuri_pipo_impl_count(); ii++) {
        if (!nuri_pipo_impl_supported(ii)) continue;
        const char *impl = nuri_pipo_impl_info(ii)->name;
        for (int kl = 16; kl <= 32; kl += 16) {
            const char *param = kl == 16 ? "64/128" : "64/256";
            nuri_pipo_key k;
            if (nuri_pipo_key_init(&k, key, (size_t)kl, impl) != 0) return 1;
            uint32_t v[RUNS];
            /* kernel calls: one block, one pass of the implementation, and LEN bytes */
            static const uint16_t nbs[] = {1, 4, 32, LEN / 8};
            for (size_t bi = 0; bi < sizeof nbs / sizeof nbs[0]; bi++) {
                uint16_t nb = nbs[bi];
                if (nb * 8u > LEN || (bi > 0 && nb == nbs[bi - 1])) continue;
                for (int r = 0; r < RUNS; r++) {
                    cross_count_begin();
                    nuri_pipo_encrypt_blocks(&k, out, in, nb);
                    v[r] = cross_count_end();
                }
                record(impl, "blocks-encrypt", param, 8u * nb, m_call, v, 0);
                if (nb > 1) record(impl, "blocks-encrypt", param, 8u * nb, m_byte, v, 1);
            }
            /* the mode layer (src/pipo/modes.c, the same code as on the host) on LEN bytes */
            static const struct {
                nuri_pipo_mode mode;
                uint8_t enc;
                const char *op;
            } ops[] = {{NURI_PIPO_ECB, 1, "ecb-encrypt"},
                       {NURI_PIPO_ECB, 0, "ecb-decrypt"},
                       {NURI_PIPO_CBC, 0, "cbc-decrypt"},
                       {NURI_PIPO_CTR, 1, "ctr-encrypt"}};
            static const uint16_t mode_sizes[] = MODE_SIZES;
            for (size_t si = 0; si < sizeof mode_sizes / sizeof mode_sizes[0]; si++)
                for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
                    const uint8_t *ivp = ops[o].mode == NURI_PIPO_ECB ? NULL : iv;
                    size_t ivl = ivp ? 8 : 0, ol = 0, len = mode_sizes[si];
                    for (int r = 0; r < RUNS; r++) {
                        int rc;
                        cross_count_begin();
                        if (ops[o].enc)
                            rc = nuri_pipo_encrypt(&k, ops[o].mode, ivp, ivl, NURI_PAD_NONE, out, sizeof out, &ol, in,
                                                   len);
                        else
                            rc = nuri_pipo_decrypt(&k, ops[o].mode, ivp, ivl, NURI_PAD_NONE, out, sizeof out, &ol, in,
                                                   len);
                        v[r] = cross_count_end();
                        if (rc != 0) return 1;
                    }
                    record(impl, ops[o].op, param, (uint32_t)len, m_byte, v, 1);
                }
            nuri_pipo_key_wipe(&k);
        }
    }
    return 0;
}
