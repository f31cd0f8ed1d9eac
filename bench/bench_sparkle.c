/* SPARKLE benchmarks: the permutations (slim and big step counts, every implementation),
 * Schwaemm encryption and Esch hashing at 4 KiB (cpb), and the batch API against opt: 16 Esch256
 * hashes of 64-byte messages per call (cycles per batch; the ratio to opt is the multi-instance
 * speed-up). The Ascon peer (RustCrypto ascon-aead / ascon-hash) is bench/peers/ascon, a separate
 * program that prints records of the same schema. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "nuri/sparkle.h"
#include "sparkle/sparkle_impl.h"

typedef struct {
    const nuri_sparkle_impl *impl;
    uint32_t st[16];
    unsigned nb, steps;
} perm_job;

static void run_perm(void *arg)
{
    perm_job *j = arg;
    j->impl->permute(j->st, j->nb, j->steps);
}

/* the public entry point over a context set up with dispatch (what users call; the records above time
 * kernels) */
typedef struct {
    nuri_sparkle_ctx ctx;
    uint32_t st[16];
    unsigned nb, steps;
} perm_api_job;

static void run_perm_api(void *arg)
{
    perm_api_job *j = arg;
    if (nuri_sparkle_permute(&j->ctx, j->st, j->nb, j->steps)) abort();
}

/* impl NULL: the dispatching one-shot functions where they exist (nuri_esch256); keys and contexts
 * are set up once per job with impl (mode_job_setup), as an application holds its key. */
typedef struct {
    const char *impl;
    nuri_schwaemm_variant variant;
    nuri_schwaemm_key key;
    nuri_esch_ctx esch; /* a fresh context: the variant and implementation of the hashes */
    size_t len, digest;
    uint8_t *in, *out;
    const uint8_t *msgs[16];
    size_t lens[16];
} mode_job;

static const uint8_t KEY[32] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                                17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
static const uint8_t NONCE[32] = {9, 8, 7, 6, 5, 4, 3, 2, 1};

/* The Schwaemm key of j->variant and the Esch context of j->digest, with j->impl. */
static void mode_job_setup(mode_job *j)
{
    if (nuri_schwaemm_key_init(&j->key, j->variant, KEY, nuri_schwaemm_key_bytes(j->variant), j->impl) ||
        nuri_esch_init(&j->esch, j->digest == 48 ? NURI_ESCH384 : NURI_ESCH256, j->impl))
        abort();
}

static void run_seal(void *arg)
{
    mode_job *j = arg;
    size_t ol;
    int rc = nuri_schwaemm_encrypt(&j->key, j->out, j->len + 32, &ol, NONCE, nuri_schwaemm_nonce_bytes(j->variant),
                                   NULL, 0, j->in, j->len);
    if (rc) abort();
}

static void run_open(void *arg)
{
    mode_job *j = arg;
    size_t ol;
    int rc =
        nuri_schwaemm_decrypt(&j->key, j->out + j->len + 64, j->len, &ol, NONCE, nuri_schwaemm_nonce_bytes(j->variant),
                              NULL, 0, j->out, j->len + nuri_schwaemm_tag_bytes(j->variant));
    if (rc) abort();
}

/* One hash: nuri_esch256 / nuri_esch384 for dispatch, a context of the named implementation otherwise. */
static void hash_one(const mode_job *j, uint8_t *out, const uint8_t *in, size_t len)
{
    int rc;
    if (!j->impl) {
        rc = j->digest == 48 ? nuri_esch384(out, in, len) : nuri_esch256(out, in, len);
    } else {
        nuri_esch_ctx c = j->esch;
        size_t n;
        rc = nuri_esch_update(&c, in, len);
        if (!rc) rc = nuri_esch_final(&c, out, j->digest, &n);
    }
    if (rc) abort();
}

static void run_hash(void *arg)
{
    mode_job *j = arg;
    hash_one(j, j->out, j->in, j->len);
}

static void run_hash_many(void *arg)
{
    mode_job *j = arg;
    if (nuri_esch_many(&j->esch, j->out, 16 * j->digest, j->msgs, j->lens, 16)) abort();
}

/* The same 16 hashes one after the other (what a caller without the batch API does). */
static void run_hash_loop(void *arg)
{
    mode_job *j = arg;
    for (int i = 0; i < 16; i++) hash_one(j, j->out + 32 * i, j->msgs[i], j->lens[i]);
}

/* Schwaemm256-128 over 16 chunks of 64 KiB with a 32-byte AD (what nuri seal does per share):
 * the batch API, and the same chunks one call after the other. */
typedef struct {
    const char *impl;
    nuri_schwaemm_key key; /* Schwaemm256-128 with impl */
    uint8_t *in, *out;
    const uint8_t *msgs[16], *nonces[16], *ads[16], *cts[16];
    uint8_t *outs[16], *pts[16];
    size_t lens[16], ad_lens[16], ct_lens[16];
} chunk_job;

enum { CHUNK_LEN = 65536, CHUNKS = 16 };

static void run_seal_many(void *arg)
{
    chunk_job *j = arg;
    if (nuri_schwaemm_encrypt_many(&j->key, j->outs, j->nonces, j->ads, j->ad_lens, j->msgs, j->lens, CHUNKS)) abort();
}

static void run_open_many(void *arg)
{
    chunk_job *j = arg;
    if (nuri_schwaemm_decrypt_many(&j->key, j->pts, j->nonces, j->ads, j->ad_lens, j->cts, j->ct_lens, NULL, CHUNKS))
        abort();
}

static void run_seal_loop(void *arg)
{
    chunk_job *j = arg;
    for (int i = 0; i < CHUNKS; i++) {
        size_t ol;
        if (nuri_schwaemm_encrypt(&j->key, j->outs[i], CHUNK_LEN + 16, &ol, j->nonces[i], 32, j->ads[i], j->ad_lens[i],
                                  j->msgs[i], j->lens[i]))
            abort();
    }
}

static void bench_chunks(const nuri_bench *b, const char *name, int multi)
{
    chunk_job j = {.impl = name};
    if (nuri_schwaemm_key_init(&j.key, NURI_SCHWAEMM256_128, KEY, 16, name)) abort();
    j.in = calloc(CHUNKS, CHUNK_LEN);
    j.out = calloc(CHUNKS, 2 * (CHUNK_LEN + 16));
    if (!j.in || !j.out) abort();
    for (int i = 0; i < CHUNKS; i++) {
        j.msgs[i] = j.in + (size_t)i * CHUNK_LEN;
        j.lens[i] = CHUNK_LEN;
        j.nonces[i] = KEY; /* distinct nonces do not change the work */
        j.ads[i] = NONCE;
        j.ad_lens[i] = 32;
        j.outs[i] = j.out + (size_t)i * 2 * (CHUNK_LEN + 16);
        j.cts[i] = j.outs[i];
        j.ct_lens[i] = CHUNK_LEN + 16;
        j.pts[i] = j.outs[i] + CHUNK_LEN + 16;
    }
    double st[3]; /* thread CPU time: a 16 x 64 KiB call outlasts a time slice on a loaded machine */
    const double bytes = (double)CHUNKS * CHUNK_LEN;
    nuri_bench_measure_cpu(b, run_seal_many, &j, st);
    nuri_bench_record(b, "sparkle", name, "aead-encrypt-many-16x64K", "Schwaemm256-128", bytes, "cpb", st);
    nuri_bench_measure_cpu(b, run_open_many, &j, st);
    nuri_bench_record(b, "sparkle", name, "aead-decrypt-many-16x64K", "Schwaemm256-128", bytes, "cpb", st);
    if (multi) {
        nuri_bench_measure_cpu(b, run_seal_loop, &j, st);
        nuri_bench_record(b, "sparkle", name, "aead-encrypt-loop-16x64K", "Schwaemm256-128", bytes, "cpb", st);
    }
    free(j.in);
    free(j.out);
}

int nuri_bench_sparkle(const nuri_bench *b)
{
    static const struct {
        unsigned nb, steps;
        const char *name;
    } perms[] = {{4, 7, "SPARKLE256-7"},   {4, 10, "SPARKLE256-10"}, {6, 7, "SPARKLE384-7"},
                 {6, 11, "SPARKLE384-11"}, {8, 8, "SPARKLE512-8"},   {8, 12, "SPARKLE512-12"}};
    static const char *const vnames[4] = {"Schwaemm128-128", "Schwaemm256-128", "Schwaemm192-192", "Schwaemm256-256"};
    const size_t len = 4096;
    uint8_t *in = calloc(1, len), *out = calloc(1, 2 * len + 128);
    if (!in || !out) return -1;
    for (size_t i = 0; i < len; i++) in[i] = (uint8_t)(i * 7 + 1);
    double st[3];
    for (size_t ii = 0; ii < nuri_sparkle_impl_count(); ii++) {
        if (!nuri_sparkle_impl_supported(ii)) continue;
        const char *name = nuri_sparkle_impl_info(ii)->name;
        if (!nuri_bench_selected(b, name)) continue;
        const nuri_sparkle_impl *impl;
        if (nuri_sparkle_select(name, &impl)) continue;
        int multi = nuri_sparkle_impl_multi(ii);
        /* single-state permutation (the multi-instance entries use opt for single states) */
        if (!multi) {
            for (size_t p = 0; p < sizeof perms / sizeof perms[0]; p++) {
                if (b->quick && perms[p].steps < 10) continue;
                perm_job pj = {impl, {0}, perms[p].nb, perms[p].steps};
                for (unsigned k = 0; k < 16; k++) pj.st[k] = 0x01010101u * k;
                nuri_bench_measure_auto(b, run_perm, &pj, st);
                nuri_bench_record(b, "sparkle", name, "permute", perms[p].name, 1, "cycles", st);
            }
            mode_job mj = {.impl = name, .len = len, .in = in, .out = out};
            for (int v = 0; v < 4; v++) {
                if (b->quick && v != NURI_SCHWAEMM256_128) continue;
                mj.variant = (nuri_schwaemm_variant)v;
                mj.digest = 32;
                mode_job_setup(&mj);
                nuri_bench_measure_auto(b, run_seal, &mj, st);
                nuri_bench_record(b, "sparkle", name, "aead-encrypt", vnames[v], (double)len, "cpb", st);
                nuri_bench_measure_auto(b, run_open, &mj, st);
                nuri_bench_record(b, "sparkle", name, "aead-decrypt", vnames[v], (double)len, "cpb", st);
            }
            for (size_t d = 32; d <= 48; d += 16) {
                if (b->quick && d == 48) continue;
                mj.digest = d;
                mode_job_setup(&mj);
                nuri_bench_measure_auto(b, run_hash, &mj, st);
                nuri_bench_record(b, "sparkle", name, "hash", d == 32 ? "Esch256" : "Esch384", (double)len, "cpb", st);
            }
        }
        if (!b->quick || multi) bench_chunks(b, name, multi);
        /* 16 Esch256 hashes of 64-byte messages: batch API (multi-instance kernels) or, for the
         * single-state implementations, the same batch call (it then loops over permute) */
        mode_job hj = {.impl = name, .digest = 32, .out = out};
        mode_job_setup(&hj);
        for (int i = 0; i < 16; i++) {
            hj.msgs[i] = in + 64 * i;
            hj.lens[i] = 64;
        }
        nuri_bench_measure_auto(b, run_hash_many, &hj, st);
        nuri_bench_record(b, "sparkle", name, "hash-many-16x64", "Esch256", 16 * 64, "cpb", st);
        if (!multi) {
            nuri_bench_measure_auto(b, run_hash_loop, &hj, st);
            nuri_bench_record(b, "sparkle", name, "hash-loop-16x64", "Esch256", 16 * 64, "cpb", st);
        }
    }
    /* The public API beside the kernels: "api" records go through the entry points users call with
     * dispatch (keys and contexts set up with impl NULL, nuri_esch256), on single messages of 64 bytes and
     * of len bytes, with "opt" at 64 bytes beside them. */
    if (nuri_bench_selected(b, "api")) {
        for (size_t p = 0; p < sizeof perms / sizeof perms[0]; p++) {
            if (b->quick && perms[p].steps < 10) continue;
            perm_api_job pj = {{NULL}, {0}, perms[p].nb, perms[p].steps};
            if (nuri_sparkle_init(&pj.ctx, NULL)) abort();
            for (unsigned k = 0; k < 16; k++) pj.st[k] = 0x01010101u * k;
            nuri_bench_measure_auto(b, run_perm_api, &pj, st);
            nuri_bench_record(b, "sparkle", "api", "permute", perms[p].name, 1, "cycles", st);
        }
    }
    static const size_t api_lens[2] = {64, 4096};
    for (int who = 0; who < 2; who++) {
        const char *name = who ? "opt" : "api";
        if (!nuri_bench_selected(b, name)) continue;
        for (int li = 0; li < 2; li++) {
            if (who && api_lens[li] != 64) continue; /* opt at 4 KiB is in the records above */
            mode_job mj = {.impl = who ? "opt" : NULL,
                           .len = api_lens[li],
                           .in = in,
                           .out = out,
                           .variant = NURI_SCHWAEMM256_128,
                           .digest = 32};
            mode_job_setup(&mj);
            /* the public calls at 4 KiB are what the Ascon peer (bench/peers/ascon) is compared with:
             * their runs alternate with the peer's when the Python driver runs both */
            int paired = !who && mj.len == 4096;
            if (paired) nuri_bench_pair("aead-encrypt 4096");
            nuri_bench_measure_auto(b, run_seal, &mj, st);
            nuri_bench_record(b, "sparkle", name, "aead-encrypt", vnames[NURI_SCHWAEMM256_128], (double)mj.len, "cpb",
                              st);
            nuri_bench_measure_auto(b, run_open, &mj, st);
            nuri_bench_record(b, "sparkle", name, "aead-decrypt", vnames[NURI_SCHWAEMM256_128], (double)mj.len, "cpb",
                              st);
            if (paired) nuri_bench_pair("hash 4096");
            nuri_bench_measure_auto(b, run_hash, &mj, st);
            nuri_bench_record(b, "sparkle", name, "hash", "Esch256", (double)mj.len, "cpb", st);
        }
    }
    free(in);
    free(out);
    return 0;
}
