/* ML-KEM benchmarks: median cycles of keygen, encaps and decaps (the derandomized forms, so the
 * OS RNG is not timed) for ML-KEM-512/768/1024, per implementation. Decaps is timed on a valid
 * ciphertext; the implicit-rejection path does the same work (checked by tests/ct).
 * Batch forms: "encaps_many" (64 encapsulations to one ek) and "decaps_many" (64 ciphertexts under
 * one dk), recorded as cycles PER OPERATION (the call's median / 64, size 64) so they compare
 * directly with the single-call records. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "nuri/mlkem.h"

#define BATCH 64

typedef struct {
    nuri_mlkem_ctx kem; /* the level and the implementation timed */
    uint8_t seed[64], m[32], ss[32];
    uint8_t ek[NURI_MLKEM_MAX_EK_BYTES], dk[NURI_MLKEM_MAX_DK_BYTES], ct[NURI_MLKEM_MAX_CT_BYTES];
    size_t ekl, dkl, ctl;
    uint8_t eks[BATCH * NURI_MLKEM_MAX_EK_BYTES], cts[BATCH * NURI_MLKEM_MAX_CT_BYTES], ms[BATCH * 32], sss[BATCH * 32];
} mlkem_job;

static void run_keygen(void *arg)
{
    mlkem_job *j = arg;
    if (nuri_mlkem_keygen(&j->kem, j->ek, j->ekl, j->dk, j->dkl, j->seed, 64) != 0) abort();
}
static void run_encaps(void *arg)
{
    mlkem_job *j = arg;
    if (nuri_mlkem_encaps(&j->kem, j->ct, j->ctl, j->ss, 32, j->ek, j->ekl, j->m, 32) != 0) abort();
}
static void run_decaps(void *arg)
{
    mlkem_job *j = arg;
    if (nuri_mlkem_decaps(&j->kem, j->ss, 32, j->ct, j->ctl, j->dk, j->dkl) != 0) abort();
}

static void run_encaps_many(void *arg)
{
    mlkem_job *j = arg;
    if (nuri_mlkem_encaps_many(&j->kem, j->cts, BATCH * j->ctl, j->sss, BATCH * 32, j->eks, BATCH * j->ekl, j->ms,
                               BATCH * 32, BATCH) != 0)
        abort();
}
static void run_decaps_many(void *arg)
{
    mlkem_job *j = arg;
    if (nuri_mlkem_decaps_many(&j->kem, j->sss, BATCH * 32, j->cts, BATCH * j->ctl, j->dk, j->dkl, BATCH) != 0) abort();
}

int nuri_bench_mlkem(const nuri_bench *b)
{
    static const nuri_mlkem_level levels[3] = {NURI_MLKEM512, NURI_MLKEM768, NURI_MLKEM1024};
    static const char *params[3] = {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"};
    mlkem_job *j = calloc(1, sizeof *j);
    if (!j) return -1;
    for (int i = 0; i < 64; i++) j->seed[i] = (uint8_t)(i * 11 + 5);
    for (int i = 0; i < 32; i++) j->m[i] = (uint8_t)(i * 3 + 9);
    double st[3];
    for (size_t ii = 0; ii < nuri_mlkem_impl_count(); ii++) {
        if (!nuri_mlkem_impl_supported(ii)) continue;
        const char *impl = nuri_mlkem_impl_info(ii)->name;
        if (!nuri_bench_selected(b, impl)) continue;
        for (int li = 0; li < 3; li++) {
            if (nuri_mlkem_init(&j->kem, levels[li], impl) != 0) abort();
            j->ekl = nuri_mlkem_ek_bytes(levels[li]);
            j->dkl = nuri_mlkem_dk_bytes(levels[li]);
            j->ctl = nuri_mlkem_ct_bytes(levels[li]);
            /* the default implementation is what the peers (bench/peers/mlkem) are compared with: its
             * runs alternate with theirs when the Python driver runs both (tag = op and parameter set) */
            const char *dflt = nuri_mlkem_default_impl();
            int paired = dflt && strcmp(impl, dflt) == 0;
            char tag[3][40];
            snprintf(tag[0], sizeof tag[0], "keygen %s", params[li]);
            snprintf(tag[1], sizeof tag[1], "encaps %s", params[li]);
            snprintf(tag[2], sizeof tag[2], "decaps %s", params[li]);
            if (paired) nuri_bench_pair(tag[0]);
            nuri_bench_measure_auto(b, run_keygen, j, st);
            nuri_bench_record(b, "mlkem", impl, "keygen", params[li], 1, "cycles", st);
            if (paired) nuri_bench_pair(tag[1]);
            nuri_bench_measure_auto(b, run_encaps, j, st);
            nuri_bench_record(b, "mlkem", impl, "encaps", params[li], 1, "cycles", st);
            if (paired) nuri_bench_pair(tag[2]);
            nuri_bench_measure_auto(b, run_decaps, j, st);
            nuri_bench_record(b, "mlkem", impl, "decaps", params[li], 1, "cycles", st);
            for (int i = 0; i < BATCH; i++) {
                memcpy(j->eks + i * j->ekl, j->ek, j->ekl);
                for (int t = 0; t < 32; t++) j->ms[32 * i + t] = (uint8_t)(i * 5 + t);
            }
            nuri_bench_measure_auto(b, run_encaps_many, j, st);
            for (int i = 0; i < 3; i++) st[i] /= BATCH;
            nuri_bench_record(b, "mlkem", impl, "encaps_many", params[li], BATCH, "cycles", st);
            nuri_bench_measure_auto(b, run_decaps_many, j, st);
            for (int i = 0; i < 3; i++) st[i] /= BATCH;
            nuri_bench_record(b, "mlkem", impl, "decaps_many", params[li], BATCH, "cycles", st);
        }
    }
    free(j);
    return 0;
}
