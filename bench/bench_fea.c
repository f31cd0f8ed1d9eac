/* FEA benchmarks: values/s of every implementation on batches of 10 000 values (one key, one n,
 * one tweak; and one tweak per value), n = 54 (16 digits) and n = 64, FEA-1/128 and FEA-2/128;
 * 16-digit decimal strings with cycle-walking; key setup; the 128-bit forms (n = 128 values,
 * 30-digit strings). The FF1 peer (Rust `fpe` crate,
 * AES-128, radix 10, 16 digits) is a separate program printing the same records:
 *   cargo build --release --manifest-path bench/peers/Cargo.toml && bench/peers/target/release/peer_ff1 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "nuri/fea.h"

typedef struct {
    nuri_fea_key key;
    nuri_fea_fmt fmt;
    uint64_t *in, *out;
    char *din, *dout;
    nuri_fea_u128 *tweaks, *in128, *out128;
    size_t count, ntweaks;
    const uint8_t *rawkey;
    const char *impl;
    unsigned variant, n;
} fea_job;

static void run_encrypt(void *arg)
{
    fea_job *j = arg;
    if (nuri_fea_encrypt_u64(&j->key, j->out, j->in, j->count, j->tweaks, j->ntweaks) != 0) abort();
}

static void run_encrypt_u128(void *arg)
{
    fea_job *j = arg;
    if (nuri_fea_encrypt_u128(&j->key, j->out128, j->in128, j->count, j->tweaks, j->ntweaks) != 0) abort();
}

static void run_digits(void *arg)
{
    fea_job *j = arg;
    if (nuri_fea_fmt_encrypt_digits(&j->fmt, j->dout, j->din, j->count, j->tweaks, j->ntweaks) != 0) abort();
}

static void run_keysetup(void *arg)
{
    fea_job *j = arg;
    if (nuri_fea_key_init(&j->key, j->rawkey, 16, j->variant, j->n, j->impl) != 0) abort();
}

/* Values per call from 1,000 to 100,000 (16-digit strings, one tweak), for the default
 * implementation and table: the batch layer works in blocks of NURI_FEA_CHUNK values, so the
 * figures should not depend on the batch size. Each size is recorded twice: on wall time
 * ("digits-encrypt-batch") and on the thread's CPU time ("digits-encrypt-batch-cpu"). On a shared
 * machine a call longer than a scheduler slice (a few ms: 10,000 FEA-2 values) is charged for
 * the other processes' slices in wall time; CPU time shows what the code costs. */
static int bench_batch_sizes(const nuri_bench *b, const uint8_t *rawkey)
{
    static const size_t sizes[3] = {1000, 10000, 100000};
    const size_t nsizes = b->quick ? 2 : 3, maxn = sizes[nsizes - 1];
    char *din = malloc(maxn * 16), *dout = malloc(maxn * 16);
    if (!din || !dout) return -1;
    uint64_t s = 0x13198A2E03707344ULL;
    for (size_t i = 0; i < maxn * 16; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        din[i] = (char)('0' + (s >> 33) % 10);
    }
    const char *impls[2] = {nuri_fea_default_impl(), "table"};
    double st[3];
    char param[64];
    for (int ii = 0; ii < 2; ii++) {
        if (!impls[ii] || !nuri_bench_selected(b, impls[ii])) continue;
        for (unsigned variant = 1; variant <= 2; variant++) {
            fea_job j = {.din = din, .dout = dout};
            if (nuri_fea_fmt_init(&j.fmt, rawkey, 16, variant, 10, 16, 0, impls[ii]) != 0) return -1;
            snprintf(param, sizeof param, "FEA-%u/128 16 digits", variant);
            for (size_t si = 0; si < nsizes; si++) {
                j.count = sizes[si];
                nuri_bench_measure_auto(b, run_digits, &j, st);
                nuri_bench_record(b, "fea", impls[ii], "digits-encrypt-batch", param, (double)j.count, "values_per_s",
                                  st);
                nuri_bench_measure_cpu(b, run_digits, &j, st);
                nuri_bench_record(b, "fea", impls[ii], "digits-encrypt-batch-cpu", param, (double)j.count,
                                  "values_per_s", st);
            }
            nuri_fea_fmt_wipe(&j.fmt);
        }
    }
    free(din);
    free(dout);
    return 0;
}

int nuri_bench_fea(const nuri_bench *b)
{
    const size_t count = b->quick ? 1000 : 10000;
    uint64_t *in = malloc(count * sizeof *in), *out = malloc(count * sizeof *out);
    char *din = malloc(count * 16), *dout = malloc(count * 16);
    nuri_fea_u128 *tw = malloc(count * sizeof *tw), *in128 = malloc(count * sizeof *in128),
                  *out128 = malloc(count * sizeof *out128);
    char *wdin = malloc(count * 30), *wdout = malloc(count * 30);
    uint8_t rawkey[16];
    if (!in || !out || !din || !dout || !tw || !in128 || !out128 || !wdin || !wdout) return -1;
    uint64_t s = 0x243F6A8885A308D3ULL;
    for (size_t i = 0; i < count; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        in[i] = s;
        tw[i].hi = 0;
        tw[i].lo = s >> 20; /* < 2^44: valid for FEA-1 at n = 54 and 64 */
        for (int d = 0; d < 16; d++) din[i * 16 + d] = (char)('0' + (s >> (4 * d)) % 10);
        in128[i].hi = s * 0x9E3779B97F4A7C15ULL;
        in128[i].lo = s ^ (s >> 29);
        for (int d = 0; d < 30; d++) wdin[i * 30 + d] = (char)('0' + (in128[i].hi >> (2 * d)) % 10);
    }
    for (int i = 0; i < 16; i++) rawkey[i] = (uint8_t)(i * 17 + 5);
    double st[3];
    char param[64];
    for (size_t ii = 0; ii < nuri_fea_impl_count(); ii++) {
        if (!nuri_fea_impl_supported(ii)) continue;
        const char *impl = nuri_fea_impl_info(ii)->name;
        if (!nuri_bench_selected(b, impl)) continue;
        for (unsigned variant = 1; variant <= 2; variant++) {
            static const unsigned ns[2] = {54, 64};
            for (int ni = 0; ni < 2; ni++) {
                unsigned n = ns[ni];
                fea_job j = {.in = in,
                             .out = out,
                             .count = count,
                             .rawkey = rawkey,
                             .impl = impl,
                             .variant = variant,
                             .n = n,
                             .tweaks = tw,
                             .ntweaks = 1};
                uint64_t mask = n == 64 ? ~0ULL : (1ULL << n) - 1;
                for (size_t i = 0; i < count; i++) in[i] &= mask;
                if (nuri_fea_key_init(&j.key, rawkey, 16, variant, n, impl) != 0) return -1;
                snprintf(param, sizeof param, "FEA-%u/128 n=%u", variant, n);
                nuri_bench_measure_auto(b, run_encrypt, &j, st);
                nuri_bench_record(b, "fea", impl, "encrypt", param, (double)count, "values_per_s", st);
                if (n == 54) {
                    j.ntweaks = count;
                    nuri_bench_measure_auto(b, run_encrypt, &j, st);
                    nuri_bench_record(b, "fea", impl, "encrypt-tweak-per-value", param, (double)count, "values_per_s",
                                      st);
                    nuri_bench_measure(b, run_keysetup, &j, b->quick ? 10 : 100, st);
                    nuri_bench_record(b, "fea", impl, "key-setup", param, 1, "cycles", st);
                }
                nuri_fea_key_wipe(&j.key);
            }
            /* 16-digit decimal strings (n = 54), cycle-walking included */
            fea_job j = {.din = din, .dout = dout, .count = count, .tweaks = tw, .ntweaks = 1};
            if (nuri_fea_fmt_init(&j.fmt, rawkey, 16, variant, 10, 16, 0, impl) != 0) return -1;
            snprintf(param, sizeof param, "FEA-%u/128 16 digits", variant);
            /* the FF1 peer (bench/peers) does this job: with the default implementation, runs alternate */
            const char *dflt = nuri_fea_default_impl();
            if (variant == 1 && dflt && strcmp(impl, dflt) == 0) nuri_bench_pair("digits-encrypt 16 digits");
            nuri_bench_measure_auto(b, run_digits, &j, st);
            nuri_bench_record(b, "fea", impl, "digits-encrypt", param, (double)count, "values_per_s", st);
            nuri_fea_fmt_wipe(&j.fmt);
            /* the 128-bit forms: n = 128 values ({hi, lo}), FEA-2 tweaks; 30-digit strings (n = 100) */
            fea_job w = {.in128 = in128,
                         .out128 = out128,
                         .count = count,
                         .tweaks = variant == 2 ? tw : NULL,
                         .ntweaks = variant == 2};
            if (nuri_fea_key_init(&w.key, rawkey, 16, variant, 128, impl) != 0) return -1;
            snprintf(param, sizeof param, "FEA-%u/128 n=128", variant);
            nuri_bench_measure_auto(b, run_encrypt_u128, &w, st);
            nuri_bench_record(b, "fea", impl, "encrypt-u128", param, (double)count, "values_per_s", st);
            nuri_fea_key_wipe(&w.key);
            w.din = wdin;
            w.dout = wdout;
            w.tweaks = NULL;
            w.ntweaks = 0;
            if (nuri_fea_fmt_init(&w.fmt, rawkey, 16, variant, 10, 30, 0, impl) != 0) return -1;
            snprintf(param, sizeof param, "FEA-%u/128 30 digits", variant);
            nuri_bench_measure_auto(b, run_digits, &w, st);
            nuri_bench_record(b, "fea", impl, "digits-encrypt", param, (double)count, "values_per_s", st);
            nuri_fea_fmt_wipe(&w.fmt);
        }
    }
    free(in);
    free(out);
    free(din);
    free(dout);
    free(tw);
    free(in128);
    free(out128);
    free(wdin);
    free(wdout);
    return bench_batch_sizes(b, rawkey);
}
