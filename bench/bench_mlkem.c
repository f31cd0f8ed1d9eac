/* ML-KEM benchmarks: median cycles of keygen, encaps and decaps (the derandomized forms, so the
 * OS RNG is not timed) for ML-KEM-512/768/1024, per implementation. Decaps is timed on a valid
 * ciphertext; the implicit-rejection path does the same work (checked by tests/ct).
 * Batch forms: "encaps_many" (64 encapsulations to one ek) and "decaps_many" (64 ciphertexts under
 * one dk), recorded as cycles PER OPERATION (the call's median / 64, size 64) so they compare
 * directly with the single-call records.
 * Breakdown (NURI_BENCH_BREAKDOWN=1, set by `nuri-bench --breakdown` / `nuri bench mlkem
 * --breakdown`): per implementation, the cycles of one keygen/encaps/decaps split by step, from a
 * run of the FIPS 203 internals (kem.c) over a copy of the backend whose kernels are timed one
 * call at a time. Records "<op>:<step>" (medians over the runs); "<op>:other" is the rest of the
 * operation (kem.c's own work: copies, additions, the ciphertext comparison, wipes) and "<op>:total"
 * the whole internal call, timer overhead (~2 rdtsc per kernel call) included. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "mlkem/mlkem_impl.h"
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

/* ---- per-step breakdown ---- */

/* matrix: gen_matrix (SHAKE128 and rejection sampling); cbd: sample_cbd (SHAKE256 and CBD);
 * hash: H, G, J; mixed: the sample_many hook, which runs the three together (its share of each is
 * not separable); pack: ByteEncode/Decode, Compress/Decompress; reduce: tomont and reduce. */
enum { S_MATRIX, S_CBD, S_HASH, S_MIXED, S_NTT, S_BASEMUL, S_PACK, S_REDUCE, S_COUNT };
static const char *const STEP_NAMES[S_COUNT] = {"matrix", "cbd", "hash", "mixed", "ntt", "basemul", "pack", "reduce"};

static struct {
    const nuri_mlkem_backend *in; /* the backend being profiled */
    uint64_t t[S_COUNT];
} prof;

#define TIMED(step, call)                          \
    do {                                           \
        uint64_t t0_ = nuri_bench_cycles();        \
        call;                                      \
        prof.t[step] += nuri_bench_cycles() - t0_; \
    } while (0)

static void p_ntt(mlk_poly *r) { TIMED(S_NTT, prof.in->ntt(r)); }
static void p_invntt(mlk_poly *r) { TIMED(S_NTT, prof.in->invntt(r)); }
static void p_mulcache(mlk_mulcache *c, const mlk_poly *b) { TIMED(S_BASEMUL, prof.in->mulcache(c, b)); }
static void p_basemul_acc(mlk_poly *r, const mlk_poly *a, const mlk_poly *b, const mlk_mulcache *bc, unsigned k)
{
    TIMED(S_BASEMUL, prof.in->basemul_acc(r, a, b, bc, k));
}
static void p_tomont(mlk_poly *r) { TIMED(S_REDUCE, prof.in->tomont(r)); }
static void p_reduce(mlk_poly *r) { TIMED(S_REDUCE, prof.in->reduce(r)); }
static void p_tobytes(uint8_t *r, const mlk_poly *a) { TIMED(S_PACK, prof.in->tobytes(r, a)); }
static void p_frombytes(mlk_poly *r, const uint8_t *a) { TIMED(S_PACK, prof.in->frombytes(r, a)); }
static void p_compress(uint8_t *r, const mlk_poly *a, unsigned d) { TIMED(S_PACK, prof.in->compress(r, a, d)); }
static void p_decompress(mlk_poly *r, const uint8_t *a, unsigned d) { TIMED(S_PACK, prof.in->decompress(r, a, d)); }
static void p_sample_cbd(mlk_poly *r, unsigned n, const uint8_t seed[32], uint8_t nonce0, unsigned eta)
{
    TIMED(S_CBD, prof.in->sample_cbd(r, n, seed, nonce0, eta));
}
static void p_gen_matrix(mlk_poly *a, const uint8_t rho[32], unsigned k, int transposed)
{
    TIMED(S_MATRIX, prof.in->gen_matrix(a, rho, k, transposed));
}
static void p_keccak_jobs(const nuri_keccak_job *jobs, unsigned n, unsigned rate)
{
    TIMED(S_HASH, prof.in->keccak_jobs(jobs, n, rate));
}
static void p_sample_many(const mlk_sample_req *req) { TIMED(S_MIXED, prof.in->sample_many(req)); }

/* The backend of implementation ii: nuri_mlkem_impl_info returns the address of the backend's
 * first member (info), which is the address of the backend itself. */
static nuri_mlkem_backend profiled(size_t ii)
{
    prof.in = (const nuri_mlkem_backend *)(const void *)nuri_mlkem_impl_info(ii);
    nuri_mlkem_backend b = *prof.in;
    b.ntt = p_ntt;
    b.invntt = p_invntt;
    b.mulcache = p_mulcache;
    b.basemul_acc = p_basemul_acc;
    b.tomont = p_tomont;
    b.reduce = p_reduce;
    b.tobytes = p_tobytes;
    b.frombytes = p_frombytes;
    b.compress = p_compress;
    b.decompress = p_decompress;
    b.sample_cbd = p_sample_cbd;
    b.gen_matrix = p_gen_matrix;
    b.keccak_jobs = p_keccak_jobs;
    b.sample_many = prof.in->sample_many ? p_sample_many : NULL;
    return b;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* {median, min, max} of n values (sorts v). */
static void stats_of(uint64_t *v, size_t n, double st[3])
{
    qsort(v, n, sizeof v[0], cmp_u64);
    st[0] = (double)v[n / 2];
    st[1] = (double)v[0];
    st[2] = (double)v[n - 1];
}

static void breakdown(const nuri_bench *b, mlkem_job *j, size_t ii, const char *param)
{
    enum { RUNS_MAX = 201 };
    static uint64_t v[S_COUNT + 2][RUNS_MAX];
    const size_t runs = b->quick ? 31 : RUNS_MAX;
    const mlk_params *p = nuri_mlkem_params(j->kem.level);
    nuri_mlkem_backend be = profiled(ii);
    static const char *const ops[3] = {"keygen", "encaps", "decaps"};
    for (int op = 0; op < 3; op++) {
        for (size_t r = 0; r < runs + 1; r++) { /* run 0 warms up */
            memset(prof.t, 0, sizeof prof.t);
            uint64_t t0 = nuri_bench_cycles();
            if (op == 0) nuri_mlkem_keygen_internal(&be, p, j->ek, j->dk, j->seed, j->seed + 32);
            else if (op == 1) nuri_mlkem_encaps_internal(&be, p, j->ct, j->ss, j->ek, j->m);
            else if (nuri_mlkem_decaps_internal(&be, p, j->ss, j->ct, j->dk) != 0) abort();
            uint64_t total = nuri_bench_cycles() - t0, sum = 0;
            if (r == 0) continue;
            for (int s = 0; s < S_COUNT; s++) {
                v[s][r - 1] = prof.t[s];
                sum += prof.t[s];
            }
            v[S_COUNT][r - 1] = total > sum ? total - sum : 0;
            v[S_COUNT + 1][r - 1] = total;
        }
        for (int s = 0; s < S_COUNT + 2; s++) {
            char name[40];
            double st[3];
            snprintf(name, sizeof name, "%s:%s", ops[op],
                     s < S_COUNT    ? STEP_NAMES[s]
                     : s == S_COUNT ? "other"
                                    : "total");
            stats_of(v[s], runs, st);
            nuri_bench_record(b, "mlkem", nuri_mlkem_impl_info(ii)->name, name, param, 1, "cycles", st);
        }
    }
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
    const char *bd = getenv("NURI_BENCH_BREAKDOWN");
    const int only_breakdown = bd && strcmp(bd, "1") == 0;
    for (size_t ii = 0; ii < nuri_mlkem_impl_count(); ii++) {
        if (!nuri_mlkem_impl_supported(ii)) continue;
        const char *impl = nuri_mlkem_impl_info(ii)->name;
        if (!nuri_bench_selected(b, impl)) continue;
        for (int li = 0; li < 3; li++) {
            if (nuri_mlkem_init(&j->kem, levels[li], impl) != 0) abort();
            j->ekl = nuri_mlkem_ek_bytes(levels[li]);
            j->dkl = nuri_mlkem_dk_bytes(levels[li]);
            j->ctl = nuri_mlkem_ct_bytes(levels[li]);
            if (only_breakdown) {
                if (nuri_mlkem_keygen(&j->kem, j->ek, j->ekl, j->dk, j->dkl, j->seed, 64) != 0 ||
                    nuri_mlkem_encaps(&j->kem, j->ct, j->ctl, j->ss, 32, j->ek, j->ekl, j->m, 32) != 0)
                    abort();
                breakdown(b, j, ii, params[li]);
                continue;
            }
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
