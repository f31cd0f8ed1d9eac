/* ML-KEM tests: the ACVP subset (keyGen, encapsulation, decapsulation incl. implicit rejection,
 * both key checks) for every implementation; the NIST-style KAT regenerated with the AES-256
 * CTR-DRBG and compared by SHA-256 with the liboqs digests; our own input-check tests (modulus
 * check for every value 3329..4095, wrong H(ek), every length error, implicit rejection on a
 * one-byte change); SHA-3/SHAKE against known answers and OpenSSL; the SIMD Keccak forms (AVX2 x4,
 * NEON x2 on plain NEON and on the SHA-3 extension) against the portable one; kernel-level
 * differential tests of every backend against ref and against schoolbook arithmetic; the
 * sample_many hook against the generic path; every backend against ref on malformed keys and
 * ciphertexts.
 * Usage: test_mlkem <tests/vectors/mlkem> (the count = 0 .rsp entries are compared field by field) */
#include <stdlib.h>

#include "aes256.h"
#include "fips202.h"
#include "mlkem_impl.h"
#include "mlkem_vectors.h"
#include "nuri/mlkem.h"
#include "nuri/sha3.h"
#include "sha256.h"
#include "test_util.h"

#if defined(NURI_TEST_OPENSSL)
#include <openssl/evp.h>
#endif

static size_t n_impls;
static const char *impl_names[16];
static const unsigned LEVELS[3] = {512, 768, 1024};

static void load_impls(void)
{
    for (size_t i = 0; i < nuri_mlkem_impl_count(); i++) {
        const nuri_impl_info *info = nuri_mlkem_impl_info(i);
        if (nuri_mlkem_impl_supported(i)) {
            impl_names[n_impls++] = info->name;
            continue;
        }
        /* a registered implementation this CPU cannot run: said, so a log shows what did not run */
        char names[128];
        const uint32_t lacks = info->cpu_features & ~nuri_cpu_features();
        const uint32_t avx512 = NURI_CPU_AVX512F | NURI_CPU_AVX512BW | NURI_CPU_AVX512VL | NURI_CPU_AVX512DQ;
        printf("%s: skipped: CPU lacks %s(%s)\n", info->name, lacks & avx512 ? "AVX-512 " : "",
               nuri_cpu_feature_names(lacks, names, sizeof names));
    }
    printf("implementations:");
    for (size_t i = 0; i < n_impls; i++) printf(" %s", impl_names[i]);
    printf(" (default %s)\n", nuri_mlkem_default_impl());
}

static uint8_t *unhex_alloc(const char *hex, size_t *len)
{
    size_t n = strlen(hex) / 2;
    uint8_t *p = malloc(n ? n : 1);
    long r = tu_unhex(p, n, hex);
    if (r < 0) {
        fprintf(stderr, "bad hex\n");
        exit(2);
    }
    *len = (size_t)r;
    return p;
}

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= p[i];
    return acc == 0;
}

/* The tests run one level with one named implementation at a time: these set up the context of
 * the length-checked API (nuri_mlkem_init; impl NULL = dispatch) and make the call. A setup error
 * is returned as the call's. */
static int kg(unsigned level, uint8_t *ek, size_t ek_cap, uint8_t *dk, size_t dk_cap, const uint8_t *seed,
              size_t seed_len, const char *impl)
{
    nuri_mlkem_ctx c;
    int rc = nuri_mlkem_init(&c, (nuri_mlkem_level)level, impl);
    return rc ? rc : nuri_mlkem_keygen(&c, ek, ek_cap, dk, dk_cap, seed, seed_len);
}

static int enc(unsigned level, uint8_t *ct, size_t ct_cap, uint8_t *ss, size_t ss_cap, const uint8_t *ek, size_t ek_len,
               const uint8_t *m, size_t m_len, const char *impl)
{
    nuri_mlkem_ctx c;
    int rc = nuri_mlkem_init(&c, (nuri_mlkem_level)level, impl);
    return rc ? rc : nuri_mlkem_encaps(&c, ct, ct_cap, ss, ss_cap, ek, ek_len, m, m_len);
}

static int dec(unsigned level, uint8_t *ss, size_t ss_cap, const uint8_t *ct, size_t ct_len, const uint8_t *dk,
               size_t dk_len, const char *impl)
{
    nuri_mlkem_ctx c;
    int rc = nuri_mlkem_init(&c, (nuri_mlkem_level)level, impl);
    return rc ? rc : nuri_mlkem_decaps(&c, ss, ss_cap, ct, ct_len, dk, dk_len);
}

static int enc_many(unsigned level, uint8_t *ct, size_t ct_cap, uint8_t *ss, size_t ss_cap, const uint8_t *ek,
                    size_t ek_len, const uint8_t *m, size_t m_len, size_t n, const char *impl)
{
    nuri_mlkem_ctx c;
    int rc = nuri_mlkem_init(&c, (nuri_mlkem_level)level, impl);
    return rc ? rc : nuri_mlkem_encaps_many(&c, ct, ct_cap, ss, ss_cap, ek, ek_len, m, m_len, n);
}

static int dec_many(unsigned level, uint8_t *ss, size_t ss_cap, const uint8_t *ct, size_t ct_len, const uint8_t *dk,
                    size_t dk_len, size_t n, const char *impl)
{
    nuri_mlkem_ctx c;
    int rc = nuri_mlkem_init(&c, (nuri_mlkem_level)level, impl);
    return rc ? rc : nuri_mlkem_decaps_many(&c, ss, ss_cap, ct, ct_len, dk, dk_len, n);
}

/* ---------------- SHA-3 ---------------- */

#if defined(NURI_HAVE_MLKEM_AVX512)
/* A Keccak sponge from the permutation alone, for any rate, domain byte and output length: the
 * reference for the task runners. */
static void ref_sponge(uint8_t *out, size_t outlen, unsigned rate, uint8_t ds, const uint8_t *in, size_t len)
{
    uint64_t s[25] = {0};
    uint8_t blk[200];
    for (;;) {
        const size_t n = len < rate ? len : rate;
        memset(blk, 0, rate);
        memcpy(blk, in, n);
        if (n < rate) {
            blk[n] ^= ds;
            blk[rate - 1] ^= 0x80;
        }
        for (unsigned i = 0; i < rate / 8; i++) s[i] ^= nuri_load64_le(blk + 8 * i);
        nuri_keccakf1600(s);
        if (n < rate) break;
        in += rate;
        len -= rate;
    }
    for (size_t o = 0; o < outlen; o += rate) {
        if (o) nuri_keccakf1600(s);
        for (size_t b = 0; b < rate && o + b < outlen; b++) out[o + b] = (uint8_t)(s[b / 8] >> (8 * (b % 8)));
    }
}

/* The eight-way task runner against ref_sponge: random lists of 1..70 tasks (idle lanes, more
 * tasks than lanes, more than one ordering chunk) mixing rates, domain bytes, prefixes, message
 * lengths around block boundaries and outputs of several blocks. */
static void test_keccak_tasks_x8(void)
{
    if (!nuri_cpu_has(nuri_mlkem_backend_avx512.info.cpu_features)) {
        printf("Keccak x8 task runner: skipped: CPU lacks AVX-512\n");
        return;
    }
    enum { NT = 70, OUTMAX = 3 * 168 + 60 };
    static const unsigned rates[3] = {72, 136, 168};
    static uint8_t msg[1500], out[NT][OUTMAX], want[OUTMAX], cat[1500];
    static nuri_keccak_task t[NT];
    tu_randbytes(msg, sizeof msg);
    int ok = 1;
    for (int it = 0; it < 80; it++) {
        const unsigned n = it == 0 ? NT : 1 + (unsigned)(tu_rand64() % (it % 2 ? 9 : 24));
        for (unsigned j = 0; j < n; j++) {
            const unsigned rate = rates[tu_rand64() % 3];
            const size_t prelen = tu_rand64() % 3 == 0 ? tu_rand64() % 50 : 0;
            size_t len = tu_rand64() % 4 == 0 ? rate * (tu_rand64() % 5) + tu_rand64() % 3 : tu_rand64() % 700;
            const size_t outlen = 1 + tu_rand64() % OUTMAX;
            t[j] = (nuri_keccak_task){.job = {prelen ? msg + 1200 : NULL, prelen, msg + tu_rand64() % 400, len, out[j],
                                              outlen, (uint8_t)(tu_rand64() & 1 ? 0x06 : 0x1F)},
                                      .rate = rate};
        }
        nuri_keccak_tasks_x8_avx512(t, n);
        for (unsigned j = 0; j < n; j++) {
            memcpy(cat, t[j].job.pre ? t[j].job.pre : msg, t[j].job.prelen);
            memcpy(cat + t[j].job.prelen, t[j].job.in, t[j].job.len);
            ref_sponge(want, t[j].job.outlen, t[j].rate, t[j].job.ds, cat, t[j].job.prelen + t[j].job.len);
            ok &= memcmp(want, t[j].job.out, t[j].job.outlen) == 0;
        }
    }
    CHECK(ok, "Keccak x8 task runner == reference sponge on 80 random task lists (rates 72/136/168, 1..70 tasks)");

    /* messages hashed in two parts: whole blocks absorbed into a saved state (beside other
     * tasks), then the rest from that state in a second list */
    static uint64_t st[NT][25];
    static nuri_keccak_task t2[NT];
    ok = 1;
    for (int it = 0; it < 40; it++) {
        const unsigned n = 1 + (unsigned)(tu_rand64() % 12);
        for (unsigned j = 0; j < n; j++) {
            const unsigned rate = rates[tu_rand64() % 3];
            const size_t len = tu_rand64() % 900, cut = rate * (tu_rand64() % (len / rate + 1));
            const uint8_t *in = msg + tu_rand64() % 400;
            memset(st[j], 0, sizeof st[j]);
            t[j] = (nuri_keccak_task){.job = {NULL, 0, in, cut, NULL, 0, 0}, .rate = rate, .state = st[j]};
            t2[j] = (nuri_keccak_task){.job = {NULL, 0, in + cut, len - cut, out[j], 1 + tu_rand64() % OUTMAX, 0x06},
                                       .rate = rate,
                                       .state = st[j]};
            t[n + j] = (nuri_keccak_task){.job = {NULL, 0, msg, tu_rand64() % 300, out[n + j], 200, 0x1F}, .rate = 136};
        }
        nuri_keccak_tasks_x8_avx512(t, 2 * n);
        nuri_keccak_tasks_x8_avx512(t2, n);
        for (unsigned j = 0; j < n; j++) {
            ref_sponge(want, t2[j].job.outlen, t2[j].rate, 0x06, t[j].job.in, t[j].job.len + t2[j].job.len);
            ok &= memcmp(want, out[j], t2[j].job.outlen) == 0;
            ref_sponge(want, 200, 136, 0x1F, msg, t[n + j].job.len);
            ok &= memcmp(want, out[n + j], 200) == 0;
        }
    }
    CHECK(ok, "Keccak x8 task runner: messages absorbed in parts through a saved state == reference sponge");
}
#endif

static void test_sha3(void)
{
    static const struct {
        const char *msg;
        const char *h256, *h512;
    } kat[] = {
        {"", "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
         "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b2123af1f5f94c11e3e9402c3ac558f500199d95b6d"
         "3e301758586281dcd26"},
        {"abc", "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
         "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d"
         "5a56592f8274eec53f0"},
    };
    uint8_t out[64], want[64];
    for (size_t i = 0; i < 2; i++) {
        nuri_sha3_256(out, (const uint8_t *)kat[i].msg, strlen(kat[i].msg));
        tu_unhex(want, 32, kat[i].h256);
        CHECK_MEM(out, want, 32, "SHA3-256 '%s'", kat[i].msg);
        nuri_sha3_512(out, (const uint8_t *)kat[i].msg, strlen(kat[i].msg));
        tu_unhex(want, 64, kat[i].h512);
        CHECK_MEM(out, want, 64, "SHA3-512 '%s'", kat[i].msg);
    }
    nuri_shake128(out, 32, NULL, 0);
    tu_unhex(want, 32, "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26");
    CHECK_MEM(out, want, 32, "SHAKE128('')");
    nuri_shake256(out, 64, NULL, 0);
    tu_unhex(want, 64,
             "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200cb05019d67b592f6fc821c494"
             "79ab48640292eacb3b7c4be");
    CHECK_MEM(out, want, 64, "SHAKE256('')");

    /* incremental (odd chunkings) == one-shot; block API and x4 == one-shot */
    uint8_t msg[700], a[600], b[600], c[4][3 * 168];
    tu_randbytes(msg, sizeof msg);
    for (size_t len = 0; len < sizeof msg; len += 37) {
        for (int v = 0; v < 2; v++) {
            unsigned rate = v ? 136 : 168;
            if (v) nuri_shake256(a, sizeof a, msg, len);
            else nuri_shake128(a, sizeof a, msg, len);
            nuri_shake_ctx x;
            if (v) nuri_shake256_init(&x);
            else nuri_shake128_init(&x);
            for (size_t p = 0, step = 1; p < len; p += step, step = step * 3 % 17 + 1)
                nuri_shake_absorb(&x, msg + p, p + step <= len ? step : len - p);
            for (size_t p = 0, step = 5; p < sizeof b; p += step, step = step * 7 % 151 + 1)
                nuri_shake_squeeze(&x, b + p, p + step <= sizeof b ? step : sizeof b - p);
            CHECK_MEM(a, b, sizeof b, "incremental SHAKE%d len %zu", v ? 256 : 128, len);
            uint64_t s[25];
            nuri_shake_absorb_once(s, rate, msg, len);
            nuri_shake_squeezeblocks(b, 3, s, rate);
            CHECK_MEM(a, b, 3 * rate, "block SHAKE%d len %zu", v ? 256 : 128, len);
            nuri_keccakx4 st;
            nuri_shake_x4_absorb_once(&st, rate, msg, msg, msg, msg, len);
            nuri_shake_x4_squeezeblocks(c[0], c[1], c[2], c[3], 3, &st, rate);
            for (int j = 0; j < 4; j++)
                CHECK_MEM(a, c[j], 3 * rate, "x4 SHAKE%d lane %d len %zu", v ? 256 : 128, j, len);
#if defined(NURI_HAVE_MLKEM_AVX2)
            if (nuri_cpu_has(NURI_CPU_AVX2)) {
                /* AVX2 x4 on four different messages (prefixes of msg) against one-shot SHAKE */
                uint8_t w4[4][3 * 168];
                size_t l4 = len;
                for (int j = 0; j < 4; j++) {
                    if (v) nuri_shake256(w4[j], 3 * rate, msg + j, l4);
                    else nuri_shake128(w4[j], 3 * rate, msg + j, l4);
                }
                _Alignas(32) nuri_keccakx4 sa;
                nuri_shake_x4_absorb_once_avx2(&sa, rate, msg, msg + 1, msg + 2, msg + 3, l4);
                nuri_shake_x4_squeezeblocks_avx2(c[0], c[1], c[2], c[3], 1, &sa, rate);
                nuri_shake_x4_squeezeblocks_avx2(c[0] + rate, c[1] + rate, c[2] + rate, c[3] + rate, 2, &sa, rate);
                for (int j = 0; j < 4; j++)
                    CHECK_MEM(w4[j], c[j], 3 * rate, "AVX2 x4 SHAKE%d lane %d len %zu", v ? 256 : 128, j, len);
            }
#endif
#if defined(NURI_HAVE_MLKEM_NEON)
            /* NEON x2 (plain NEON, and the SHA-3 extension where the CPU has it) on two different
             * messages (prefixes of msg and msg + 1) against one-shot SHAKE */
            for (int sha3 = 0; sha3 <= nuri_keccakx2_has_sha3(); sha3++) {
                uint8_t w2[2][3 * 168];
                for (int j = 0; j < 2; j++) {
                    if (v) nuri_shake256(w2[j], 3 * rate, msg + j, len);
                    else nuri_shake128(w2[j], 3 * rate, msg + j, len);
                }
                nuri_keccakx2 s2;
                nuri_shake_x2_absorb_once(&s2, rate, msg, msg + 1, len, sha3);
                nuri_shake_x2_squeezeblocks(c[0], c[1], 1, &s2, rate, sha3);
                nuri_shake_x2_squeezeblocks(c[0] + rate, c[1] + rate, 2, &s2, rate, sha3);
                for (int j = 0; j < 2; j++)
                    CHECK_MEM(w2[j], c[j], 3 * rate, "NEON x2%s SHAKE%d lane %d len %zu", sha3 ? " (SHA-3 ext.)" : "",
                              v ? 256 : 128, j, len);
            }
#endif
        }
    }
    /* Keccak job lists (pre || in, any domain byte, several rates): portable and SIMD forms against
     * one-shot SHA-3/SHAKE, with groups of equal and of different block counts */
    {
        static const unsigned rates[3] = {72, 136, 168};
        int ok = 1;
        for (int it = 0; it < 60; it++) {
            unsigned rate = rates[it % 3];
            unsigned n = 1 + (unsigned)(tu_rand64() % 6);
            nuri_keccak_job jobs[6];
            uint8_t outs[2][6][168], ref[6][168], cat[6][800];
            size_t base = tu_rand64() % 500;
            for (unsigned j = 0; j < n; j++) {
                size_t prelen = tu_rand64() % 3 == 0 ? 0 : tu_rand64() % 40;
                /* usually the same number of blocks as its neighbours, sometimes not */
                size_t len = it % 4 == 3 ? tu_rand64() % 600 : base + tu_rand64() % 8;
                int sha3 = rate == 72 || (rate == 136 && (tu_rand64() & 1));
                size_t outlen = rate == 72 ? 64 : sha3 ? 32 : 1 + tu_rand64() % rate;
                jobs[j] = (nuri_keccak_job){prelen ? msg + 600 : NULL,    prelen, msg + j, len, NULL, outlen,
                                            (uint8_t)(sha3 ? 0x06 : 0x1F)};
                memcpy(cat[j], msg + 600, prelen);
                memcpy(cat[j] + prelen, msg + j, len);
                if (rate == 72) nuri_sha3_512(ref[j], cat[j], prelen + len);
                else if (sha3) nuri_sha3_256(ref[j], cat[j], prelen + len);
                else if (rate == 136) nuri_shake256(ref[j], outlen, cat[j], prelen + len);
                else nuri_shake128(ref[j], outlen, cat[j], prelen + len);
            }
            /* v = 0 portable; 1 AVX2 x4 (lone jobs on the BMI2 single state); 2 the same with BMI2
             * masked (NURI_CPU_MASK), so lone jobs take the portable fallback; 3, 4 NEON x2 on plain
             * NEON and on the SHA-3 extension (where the CPU has it) */
            for (int v = 0; v < 5; v++) {
#if defined(NURI_HAVE_MLKEM_NEON)
                if (v >= 3) {
                    if (v == 4 && !nuri_keccakx2_has_sha3()) continue;
                    for (unsigned j = 0; j < n; j++) jobs[j].out = outs[1][j];
                    nuri_keccak_jobs_x2(jobs, n, rate, v == 4);
                    for (unsigned j = 0; j < n; j++) ok &= memcmp(outs[1][j], ref[j], jobs[j].outlen) == 0;
                    continue;
                }
#else
                if (v >= 3) continue;
#endif
                for (unsigned j = 0; j < n; j++) jobs[j].out = outs[v > 0][j];
#if defined(NURI_HAVE_MLKEM_AVX2)
                char saved[32] = "";
                const char *was = getenv("NURI_CPU_MASK");
                if (was) snprintf(saved, sizeof saved, "%s", was);
                if (v == 2) setenv("NURI_CPU_MASK", "20", 1); /* NURI_CPU_BMI2 (hides it only: no bits added) */
                if (v && nuri_cpu_has(NURI_CPU_AVX2)) nuri_keccak_jobs_avx2(jobs, n, rate);
                else nuri_keccak_jobs(jobs, n, rate);
#if defined(NURI_HAVE_MLKEM_AVX512)
                if (v == 1 && nuri_cpu_has(nuri_mlkem_backend_avx512.info.cpu_features)) { /* and the x8 form */
                    for (unsigned j = 0; j < n; j++) ok &= memcmp(outs[1][j], ref[j], jobs[j].outlen) == 0;
                    memset(outs[1], 0, sizeof outs[1]);
                    nuri_keccak_jobs_x8_avx512(jobs, n, rate);
                }
#endif
                if (v == 2) {
                    if (was) setenv("NURI_CPU_MASK", saved, 1);
                    else unsetenv("NURI_CPU_MASK");
                }
#else
                nuri_keccak_jobs(jobs, n, rate);
#endif
                for (unsigned j = 0; j < n; j++) ok &= memcmp(outs[v > 0][j], ref[j], jobs[j].outlen) == 0;
            }
        }
        CHECK(ok,
              "Keccak job lists (portable, AVX2 x4, AVX-512 x8, NEON x2) == one-shot SHA-3/SHAKE on 60 random lists");
    }
#if defined(NURI_TEST_OPENSSL)
    /* differential against OpenSSL on random lengths */
    for (int it = 0; it < 200; it++) {
        size_t len = tu_rand64() % sizeof msg, olen = 1 + tu_rand64() % 300;
        tu_randbytes(msg, len);
        const EVP_MD *mds[4] = {EVP_sha3_256(), EVP_sha3_512(), EVP_shake128(), EVP_shake256()};
        for (int m = 0; m < 4; m++) {
            EVP_MD_CTX *ctx = EVP_MD_CTX_new();
            unsigned int ol = 0;
            EVP_DigestInit_ex(ctx, mds[m], NULL);
            EVP_DigestUpdate(ctx, msg, len);
            if (m < 2) EVP_DigestFinal_ex(ctx, b, &ol);
            else EVP_DigestFinalXOF(ctx, b, olen);
            EVP_MD_CTX_free(ctx);
            switch (m) {
            case 0:
                nuri_sha3_256(a, msg, len);
                ol = 32;
                break;
            case 1:
                nuri_sha3_512(a, msg, len);
                ol = 64;
                break;
            case 2:
                nuri_shake128(a, olen, msg, len);
                ol = (unsigned)olen;
                break;
            default:
                nuri_shake256(a, olen, msg, len);
                ol = (unsigned)olen;
                break;
            }
            CHECK_MEM(a, b, ol, "SHA-3 variant %d vs OpenSSL, len %zu", m, len);
        }
    }
#endif
}

#if defined(NURI_HAVE_MLKEM_NEON)
/* The two-way permutations against the portable one on random states (each lane its own state). */
static void test_keccakx2(void)
{
    printf("neon: the two-way Keccak %s\n", nuri_keccakx2_has_sha3()
                                                ? "runs on the SHA-3 extension (EOR3/RAX1/XAR/BCAX)"
                                                : "runs on plain NEON (no SHA-3 extension)");
    for (int sha3 = 0; sha3 <= nuri_keccakx2_has_sha3(); sha3++) {
        int ok = 1;
        for (int it = 0; it < 20; it++) {
            uint64_t a[25], b[25];
            nuri_keccakx2 x;
            for (int i = 0; i < 25; i++) {
                a[i] = tu_rand64();
                b[i] = tu_rand64();
                x.s[2 * i] = a[i];
                x.s[2 * i + 1] = b[i];
            }
            nuri_keccakf1600(a);
            nuri_keccakf1600(b);
            if (sha3) nuri_keccakf1600_x2_sha3(x.s);
            else nuri_keccakf1600_x2_neon(x.s);
            for (int i = 0; i < 25; i++) ok &= x.s[2 * i] == a[i] && x.s[2 * i + 1] == b[i];
        }
        CHECK(ok, "Keccak-f[1600] x2 on %s == the portable permutation (20 random state pairs)",
              sha3 ? "the SHA-3 extension" : "plain NEON");
    }
}
#endif

/* ---------------- kernels ---------------- */
static int16_t modq(int32_t x) { return (int16_t)(((x % MLKEM_Q) + MLKEM_Q) % MLKEM_Q); }

static void schoolbook(int16_t *r, const int16_t *a, const int16_t *b)
{
    int32_t t[512] = {0};
    for (int i = 0; i < 256; i++)
        for (int j = 0; j < 256; j++) t[i + j] = (t[i + j] + (int32_t)a[i] * b[j]) % MLKEM_Q;
    for (int i = 0; i < 256; i++) r[i] = modq(t[i] - t[i + 256]);
}

static void rand_poly(mlk_poly *p, int lo, int hi)
{
    for (int i = 0; i < 256; i++) p->c[i] = (int16_t)(lo + (int)(tu_rand64() % (uint64_t)(hi - lo + 1)));
}

static int poly_eq_modq(const mlk_poly *a, const mlk_poly *b)
{
    for (int i = 0; i < 256; i++)
        if (modq(a->c[i]) != modq(b->c[i])) return 0;
    return 1;
}

static int in_range(const mlk_poly *a, int lo, int hi)
{
    for (int i = 0; i < 256; i++)
        if (a->c[i] < lo || a->c[i] > hi) return 0;
    return 1;
}

static const nuri_mlkem_backend *backend_by_name(const char *name)
{
    static const nuri_mlkem_backend *const all[] = {
        &nuri_mlkem_backend_ref, /* every build */
        &nuri_mlkem_backend_opt,
#if defined(NURI_HAVE_MLKEM_AVX2)
        &nuri_mlkem_backend_avx2,
#endif
#if defined(NURI_HAVE_MLKEM_AVX512)
        &nuri_mlkem_backend_avx512,
#endif
#if defined(NURI_HAVE_MLKEM_NEON)
        &nuri_mlkem_backend_neon,
#endif
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i] && strcmp(all[i]->info.name, name) == 0) return all[i];
    return NULL;
}

static void test_compress_exhaustive(void)
{
    static const unsigned ds[] = {1, 4, 5, 10, 11};
    for (size_t di = 0; di < 5; di++) {
        unsigned d = ds[di];
        int bad = 0;
        for (int base = 0; base < MLKEM_Q; base += 256) {
            mlk_poly a, back;
            uint8_t buf[32 * 11];
            for (int i = 0; i < 256; i++) a.c[i] = (int16_t)((base + i) % MLKEM_Q);
            nuri_mlkem_ref_compress(buf, &a, d);
            nuri_mlkem_ref_decompress(&back, buf, d);
            for (int i = 0; i < 256; i++) {
                /* independent model with division: round(2^d x / q) mod 2^d, and round(q y / 2^d) */
                uint32_t x = (uint32_t)a.c[i];
                uint32_t y = (uint32_t)(((x << (d + 1)) + MLKEM_Q) / (2 * MLKEM_Q)) & ((1u << d) - 1);
                uint32_t got = 0;
                for (unsigned bit = 0; bit < d; bit++) {
                    unsigned pos = (unsigned)i * d + bit;
                    got |= (uint32_t)((buf[pos / 8] >> (pos % 8)) & 1) << bit;
                }
                int32_t dec = (int32_t)((2 * (uint64_t)y * MLKEM_Q + (1u << d)) / (2u << d));
                bad += got != y || back.c[i] != dec;
            }
        }
        CHECK(bad == 0, "Compress/Decompress d=%u exhaustive: %d mismatches", d, bad);
    }
}

/* Compress_d of every x in [0, q) and Decompress_d of every d-bit value, every backend == ref. */
static void test_compress_all_backends(void)
{
    static const unsigned ds[] = {1, 4, 5, 10, 11};
    for (size_t ii = 0; ii < n_impls; ii++) {
        const nuri_mlkem_backend *be = backend_by_name(impl_names[ii]);
        int bad = 0;
        for (size_t di = 0; be && di < 5; di++) {
            unsigned d = ds[di];
            for (int base = 0; base < MLKEM_Q; base += 256) {
                mlk_poly a;
                uint8_t b1[32 * 11], b2[32 * 11];
                for (int i = 0; i < 256; i++) a.c[i] = (int16_t)((base + i) % MLKEM_Q);
                nuri_mlkem_ref_compress(b1, &a, d);
                be->compress(b2, &a, d);
                bad += memcmp(b1, b2, 32 * d) != 0;
            }
            for (unsigned base = 0; base < (1u << d); base += 256) { /* every d-bit value, packed */
                mlk_poly v, x, y;
                uint8_t buf[32 * 11 + 8];
                for (int i = 0; i < 256; i++) v.c[i] = (int16_t)((base + (unsigned)i) & ((1u << d) - 1));
                uint64_t acc = 0; /* ByteEncode_d of the raw values */
                unsigned bits = 0, o = 0;
                for (int i = 0; i < 256; i++) {
                    acc |= (uint64_t)(uint16_t)v.c[i] << bits;
                    bits += d;
                    while (bits >= 8) {
                        buf[o++] = (uint8_t)acc;
                        acc >>= 8;
                        bits -= 8;
                    }
                }
                nuri_mlkem_ref_decompress(&x, buf, d);
                be->decompress(&y, buf, d);
                bad += memcmp(&x, &y, sizeof x) != 0;
            }
        }
        CHECK(be && bad == 0,
              "%s: Compress_d of every x < q and Decompress_d of every d-bit value == ref (d = 1, 4, 5, 10, 11)",
              impl_names[ii]);
    }
}

static void test_kernels(void)
{
    const nuri_mlkem_backend *ref = &nuri_mlkem_backend_ref;
    /* NTT-based product == schoolbook product in Z_q[X]/(X^256+1), for ref */
    for (int it = 0; it < 4; it++) {
        mlk_poly a, b, an, bn, r, want;
        mlk_mulcache bc;
        rand_poly(&a, 0, MLKEM_Q - 1);
        rand_poly(&b, -MLKEM_Q + 1, MLKEM_Q - 1);
        schoolbook(want.c, a.c, b.c);
        an = a;
        bn = b;
        ref->ntt(&an);
        ref->ntt(&bn);
        ref->reduce(&an);
        ref->mulcache(&bc, &bn);
        ref->basemul_acc(&r, &an, &bn, &bc, 1);
        ref->invntt(&r);
        CHECK(poly_eq_modq(&r, &want), "ref: NTT product == schoolbook (it %d)", it);
    }
    for (size_t ii = 0; ii < n_impls; ii++) {
        const nuri_mlkem_backend *be = backend_by_name(impl_names[ii]);
        if (!be) {
            CHECK(0, "no backend %s", impl_names[ii]);
            continue;
        }
        int ok_ntt = 1, ok_inv = 1, ok_bm = 1, ok_red = 1, ok_mont = 1, ok_pack = 1, ok_cbd = 1, ok_mat = 1;
        for (int it = 0; it < 50; it++) {
            mlk_poly a, b, x, y, av[4], bv[4];
            mlk_mulcache c1[4], c2[4];
            rand_poly(&a, -MLKEM_Q, MLKEM_Q);
            x = a;
            y = a;
            ref->ntt(&x);
            be->ntt(&y);
            ok_ntt &= poly_eq_modq(&x, &y) && in_range(&y, -MLKEM_Q + 1, MLKEM_Q - 1);
            rand_poly(&a, -MLKEM_Q + 1, MLKEM_Q - 1);
            x = a;
            y = a;
            ref->invntt(&x);
            be->invntt(&y);
            ok_inv &= poly_eq_modq(&x, &y) && in_range(&y, -MLKEM_Q + 1, MLKEM_Q - 1);
            /* invntt(ntt(a)) == a * R (and * R^-1 from basemul: check via the unit) */
            rand_poly(&a, -32768, 32767);
            x = a;
            y = a;
            ref->reduce(&x);
            be->reduce(&y);
            ok_red &= poly_eq_modq(&x, &a) && in_range(&y, 0, MLKEM_Q - 1) && poly_eq_modq(&y, &a);
            x = a;
            y = a;
            ref->tomont(&x);
            be->tomont(&y);
            ok_mont &= poly_eq_modq(&x, &y) && in_range(&y, -MLKEM_Q + 1, MLKEM_Q - 1);
            for (unsigned k = 1; k <= 4; k++) {
                for (unsigned l = 0; l < k; l++) {
                    rand_poly(&av[l], 0, MLKEM_Q - 1);
                    rand_poly(&bv[l], -MLKEM_Q + 1, MLKEM_Q - 1);
                    ref->mulcache(&c1[l], &bv[l]);
                    be->mulcache(&c2[l], &bv[l]);
                }
                ref->basemul_acc(&x, av, bv, c1, k);
                be->basemul_acc(&y, av, bv, c2, k);
                ok_bm &= poly_eq_modq(&x, &y) && in_range(&y, -MLKEM_Q + 1, MLKEM_Q - 1);
            }
            uint8_t buf1[384], buf2[384];
            rand_poly(&a, 0, MLKEM_Q - 1);
            ref->tobytes(buf1, &a);
            be->tobytes(buf2, &a);
            ok_pack &= memcmp(buf1, buf2, 384) == 0;
            tu_randbytes(buf1, 384);
            ref->frombytes(&x, buf1);
            be->frombytes(&y, buf1);
            ok_pack &= memcmp(&x, &y, sizeof x) == 0 && in_range(&y, 0, MLKEM_Q - 1);
            static const unsigned ds[] = {1, 4, 5, 10, 11};
            for (int di = 0; di < 5; di++) {
                be->compress(buf2, &a, ds[di]);
                ref->compress(buf1, &a, ds[di]);
                ok_pack &= memcmp(buf1, buf2, 32 * ds[di]) == 0;
                ref->decompress(&x, buf1, ds[di]);
                be->decompress(&y, buf1, ds[di]);
                ok_pack &= memcmp(&x, &y, sizeof x) == 0;
            }
            uint8_t seed[32];
            tu_randbytes(seed, 32);
            for (unsigned eta = 2; eta <= 3; eta++) {
                mlk_poly p1[9], p2[9];
                unsigned n = 1 + (unsigned)(tu_rand64() % 9);
                uint8_t nonce = (uint8_t)tu_rand64();
                ref->sample_cbd(p1, n, seed, nonce, eta);
                be->sample_cbd(p2, n, seed, nonce, eta);
                ok_cbd &= memcmp(p1, p2, n * sizeof p1[0]) == 0;
            }
            if (it < 6) {
                mlk_poly m1[16], m2[16];
                unsigned k = 2 + (unsigned)(it % 3);
                ref->gen_matrix(m1, seed, k, it & 1);
                be->gen_matrix(m2, seed, k, it & 1);
                ok_mat &= memcmp(m1, m2, k * k * sizeof m1[0]) == 0;
            }
            (void)b;
        }
        CHECK(ok_ntt, "%s: ntt matches ref, |x| < q", be->info.name);
        CHECK(ok_inv, "%s: invntt matches ref, |x| < q", be->info.name);
        CHECK(ok_bm, "%s: basemul_acc matches ref for k = 1..4", be->info.name);
        CHECK(ok_red, "%s: reduce gives [0, q)", be->info.name);
        CHECK(ok_mont, "%s: tomont matches ref", be->info.name);
        CHECK(ok_pack, "%s: tobytes/frombytes/compress/decompress match ref", be->info.name);
        CHECK(ok_cbd, "%s: sample_cbd matches ref", be->info.name);
        CHECK(ok_mat, "%s: gen_matrix matches ref", be->info.name);
    }
}

/* ---------------- sample_many: the hook == the generic path ---------------- */

/* What a request asks for, through backend be's kernels one call at a time (the whole matrix,
 * whatever its rows; the hash in progress with the portable permutation). */
static void generic_sample(const nuri_mlkem_backend *be, const mlk_sample_req *q)
{
    if (q->n_jobs) be->keccak_jobs(q->jobs, q->n_jobs, q->rate);
    if (q->a) be->gen_matrix(q->a, q->rho, q->k, q->transposed);
    for (unsigned i = 0; i < q->n_noise; i++)
        be->sample_cbd(q->noise[i].r, q->noise[i].n, q->noise[i].seed, q->noise[i].nonce0, q->noise[i].eta);
    for (unsigned b = 0; b < q->n_absorb; b++) {
        for (unsigned i = 0; i < 17; i++) {
            uint64_t w;
            memcpy(&w, q->absorb_in + 136 * b + 8 * i, 8); /* little-endian hosts only (as the tests' KATs) */
            q->absorb_st[i] ^= w;
        }
        nuri_keccakf1600(q->absorb_st);
    }
}

/* Accepted SampleNTT candidates in the first 3 SHAKE128 blocks of rho || j || i (< 256: the
 * sampler must squeeze more, a path random seeds reach for about 1% of the entries). */
static unsigned accepted_in_3_blocks(const uint8_t rho[32], uint8_t j, uint8_t i)
{
    uint8_t in[34], buf[3 * NURI_SHAKE128_RATE];
    memcpy(in, rho, 32);
    in[32] = j;
    in[33] = i;
    nuri_shake128(buf, sizeof buf, in, 34);
    unsigned n = 0;
    for (size_t b = 0; b + 3 <= sizeof buf; b += 3) {
        unsigned d1 = buf[b] | (unsigned)(buf[b + 1] & 15) << 8, d2 = buf[b + 1] >> 4 | (unsigned)buf[b + 2] << 4;
        n += (d1 < MLKEM_Q) + (d2 < MLKEM_Q);
    }
    return n;
}

/* Every backend with the hook: random requests (a range of rows of a matrix of every k, either
 * orientation, or none; up to 8 noise groups of eta 2 and 3; up to 5 hashes of one to 12 blocks
 * with a prefix, at rates 72, 136 and 168; a SHA3-256 in progress over up to 9 blocks) give exactly
 * the generic path's outputs; and a rho whose matrix needs more than three blocks for some entry is
 * among them. */
static void test_sample_many(void)
{
    uint8_t rho_long[32];
    unsigned long_j = 0, long_i = 0, found = 0;
    for (int tries = 0; tries < 4000 && !found; tries++) { /* ~1% of entries: found within a few dozen */
        tu_randbytes(rho_long, 32);
        for (unsigned e = 0; e < 16 && !found; e++)
            if (accepted_in_3_blocks(rho_long, (uint8_t)(e % 4), (uint8_t)(e / 4)) < MLKEM_N) {
                long_j = e % 4, long_i = e / 4;
                found = 1;
            }
    }
    CHECK(found, "a rho with a matrix entry needing a 4th SHAKE128 block (found at entry %u,%u)", long_i, long_j);
    for (size_t ii = 0; ii < n_impls; ii++) {
        const nuri_mlkem_backend *be = backend_by_name(impl_names[ii]);
        if (!be || !be->sample_many) continue;
        int ok = 1;
        for (int it = 0; it < 300; it++) {
            static mlk_poly a1[16], a2[16], n1[40], n2[40];
            static uint8_t msg[5][12 * 168], out1[5][168], out2[5][168];
            uint8_t rho[32], seeds[8][32], pre[5][32];
            static const unsigned rates[3] = {72, 136, 168};
            mlk_noise g1[8], g2[8];
            nuri_keccak_job j1[5], j2[5];
            const unsigned k = 2 + (unsigned)(tu_rand64() % 3), rate = it < 3 ? 136 : rates[tu_rand64() % 3];
            const int with_a = it == 0 || tu_rand64() % 4 != 0;
            const unsigned ng = it == 1 ? 0 : (unsigned)(tu_rand64() % 9), nj = (unsigned)(tu_rand64() % 6);
            if (it == 0) memcpy(rho, rho_long, 32);
            else tu_randbytes(rho, 32);
            unsigned used = 0;
            for (unsigned g = 0; g < ng; g++) {
                unsigned n = 1 + (unsigned)(tu_rand64() % 5);
                if (used + n > 40) n = 0;
                tu_randbytes(seeds[g], 32);
                g1[g] = (mlk_noise){n1 + used, seeds[g], n, 2 + (unsigned)(tu_rand64() % 2), (uint8_t)tu_rand64()};
                g2[g] = g1[g];
                g2[g].r = n2 + used;
                used += n;
            }
            for (unsigned j = 0; j < nj; j++) {
                size_t len = (size_t)(tu_rand64() % (12 * rate - 32)), prelen = tu_rand64() % 2 ? 32 : 0;
                size_t outlen = 1 + (size_t)(tu_rand64() % (rate < 64 ? rate : 64));
                tu_randbytes(msg[j], len);
                tu_randbytes(pre[j], 32);
                j1[j] = (nuri_keccak_job){prelen ? pre[j] : NULL,
                                          prelen,
                                          msg[j],
                                          len,
                                          out1[j],
                                          outlen,
                                          (uint8_t)(tu_rand64() % 2 ? 0x06 : 0x1F)};
                j2[j] = j1[j];
                j2[j].out = out2[j];
            }
            const int tr = it == 0 ? 0 : (int)(tu_rand64() % 2);
            const unsigned kk = it == 0 ? 4 : k, row0 = it == 0 ? 0 : (unsigned)(tu_rand64() % kk);
            const unsigned rows = it == 0 ? kk : 1 + (unsigned)(tu_rand64() % (kk - row0));
            static uint8_t absorb_in[9 * 136];
            uint64_t st1[25], st2[25];
            const unsigned na = (unsigned)(tu_rand64() % 10);
            tu_randbytes(absorb_in, sizeof absorb_in);
            tu_randbytes((uint8_t *)st1, sizeof st1);
            memcpy(st2, st1, sizeof st1);
            const mlk_sample_req q1 = {with_a ? a1 : NULL, rho, kk, tr, g1, ng, j1, nj, rate, row0, rows, st1,
                                       absorb_in,          na};
            const mlk_sample_req q2 = {with_a ? a2 : NULL, rho, kk, tr, g2, ng, j2, nj, rate, 0, kk, st2,
                                       absorb_in,          na};
            memset(a1, 0x55, sizeof a1);
            memset(a2, 0xAA, sizeof a2);
            be->sample_many(&q1);
            generic_sample(&nuri_mlkem_backend_ref, &q2);
            if (with_a) ok &= memcmp(a1 + row0 * kk, a2 + row0 * kk, rows * kk * sizeof a1[0]) == 0;
            ok &= memcmp(st1, st2, sizeof st1) == 0;
            ok &= memcmp(n1, n2, used * sizeof n1[0]) == 0;
            for (unsigned j = 0; j < nj; j++) ok &= memcmp(out1[j], out2[j], j1[j].outlen) == 0;
        }
        CHECK(ok, "%s: sample_many == ref's keccak_jobs, gen_matrix and sample_cbd on 300 random requests",
              be->info.name);
    }
}

/* ---------------- ACVP ---------------- */
static void test_acvp(void)
{
    size_t n;
    tu_set_begin();
    for (size_t ii = 0; ii < n_impls; ii++) {
        const char *impl = impl_names[ii];
        for (size_t v = 0; v < sizeof mlkem_acvp_keygen / sizeof mlkem_acvp_keygen[0]; v++) {
            const mlkem_keygen_vec *t = &mlkem_acvp_keygen[v];
            uint8_t seed[64], ek[NURI_MLKEM_MAX_EK_BYTES], dk[NURI_MLKEM_MAX_DK_BYTES];
            size_t ekl = nuri_mlkem_ek_bytes(t->level), dkl = nuri_mlkem_dk_bytes(t->level);
            tu_unhex(seed, 32, t->d);
            tu_unhex(seed + 32, 32, t->z);
            uint8_t *wek = unhex_alloc(t->ek, &n), *wdk = unhex_alloc(t->dk, &n);
            int rc = kg(t->level, ek, ekl, dk, dkl, seed, 64, impl);
            CHECK(rc == 0 && memcmp(ek, wek, ekl) == 0 && memcmp(dk, wdk, dkl) == 0, "%s: ACVP keyGen tcId %u", impl,
                  t->tcid);
            free(wek);
            free(wdk);
        }
    }
    tu_set_end("test_mlkem", "acvp_keyGen_subset.json", sizeof mlkem_acvp_keygen / sizeof mlkem_acvp_keygen[0], 15);
    tu_set_begin();
    for (size_t ii = 0; ii < n_impls; ii++) {
        const char *impl = impl_names[ii];
        for (size_t v = 0; v < sizeof mlkem_acvp_encaps / sizeof mlkem_acvp_encaps[0]; v++) {
            const mlkem_encaps_vec *t = &mlkem_acvp_encaps[v];
            size_t ekl, ml, cl, kl;
            uint8_t *ek = unhex_alloc(t->ek, &ekl), *m = unhex_alloc(t->m, &ml), *wc = unhex_alloc(t->c, &cl),
                    *wk = unhex_alloc(t->k, &kl);
            uint8_t ct[NURI_MLKEM_MAX_CT_BYTES], ss[32];
            int rc = enc(t->level, ct, cl, ss, 32, ek, ekl, m, ml, impl);
            CHECK(rc == 0 && memcmp(ct, wc, cl) == 0 && memcmp(ss, wk, 32) == 0, "%s: ACVP encapsulation tcId %u", impl,
                  t->tcid);
            free(ek);
            free(m);
            free(wc);
            free(wk);
        }
        int rejections = 0;
        for (size_t v = 0; v < sizeof mlkem_acvp_decaps / sizeof mlkem_acvp_decaps[0]; v++) {
            const mlkem_decaps_vec *t = &mlkem_acvp_decaps[v];
            size_t dkl, cl, kl;
            uint8_t *dk = unhex_alloc(t->dk, &dkl), *c = unhex_alloc(t->c, &cl), *wk = unhex_alloc(t->k, &kl);
            uint8_t ss[32], j[32];
            int rc = dec(t->level, ss, 32, c, cl, dk, dkl, impl);
            CHECK(rc == 0 && memcmp(ss, wk, 32) == 0, "%s: ACVP decapsulation tcId %u", impl, t->tcid);
            /* the implicit-rejection cases return J(z || c), computed here independently */
            nuri_shake_ctx x;
            nuri_shake256_init(&x);
            nuri_shake_absorb(&x, dk + dkl - 32, 32);
            nuri_shake_absorb(&x, c, cl);
            nuri_shake_squeeze(&x, j, 32);
            CHECK((memcmp(ss, j, 32) == 0) == t->implicit_rejection, "%s: tcId %u implicit rejection = %d", impl,
                  t->tcid, t->implicit_rejection);
            rejections += t->implicit_rejection;
            free(dk);
            free(c);
            free(wk);
        }
        CHECK(rejections >= 3, "ACVP subset has implicit-rejection cases (%d)", rejections);
    }
    int fails = 0;
    for (size_t v = 0; v < sizeof mlkem_acvp_ekcheck / sizeof mlkem_acvp_ekcheck[0]; v++) {
        const mlkem_keycheck_vec *t = &mlkem_acvp_ekcheck[v];
        size_t l;
        uint8_t *k = unhex_alloc(t->key, &l);
        int rc = nuri_mlkem_check_ek(t->level, k, l);
        CHECK((rc == 0) == t->passed, "ACVP encapsulationKeyCheck tcId %u: rc %d, expected %s", t->tcid, rc,
              t->passed ? "pass" : "fail");
        /* and encaps itself refuses it */
        for (size_t ii = 0; ii < n_impls; ii++) {
            uint8_t ct[NURI_MLKEM_MAX_CT_BYTES], ss[32], m[32] = {1};
            int rc2 = enc(t->level, ct, nuri_mlkem_ct_bytes(t->level), ss, 32, k, l, m, 32, impl_names[ii]);
            CHECK((rc2 == 0) == t->passed, "%s: encaps on ACVP ek tcId %u", impl_names[ii], t->tcid);
        }
        fails += !t->passed;
        free(k);
    }
    for (size_t v = 0; v < sizeof mlkem_acvp_dkcheck / sizeof mlkem_acvp_dkcheck[0]; v++) {
        const mlkem_keycheck_vec *t = &mlkem_acvp_dkcheck[v];
        size_t l;
        uint8_t *k = unhex_alloc(t->key, &l);
        int rc = nuri_mlkem_check_dk(t->level, k, l);
        CHECK((rc == 0) == t->passed, "ACVP decapsulationKeyCheck tcId %u: rc %d, expected %s", t->tcid, rc,
              t->passed ? "pass" : "fail");
        for (size_t ii = 0; ii < n_impls; ii++) {
            uint8_t ct[NURI_MLKEM_MAX_CT_BYTES] = {0}, ss[32];
            int rc2 = dec(t->level, ss, 32, ct, nuri_mlkem_ct_bytes(t->level), k, l, impl_names[ii]);
            CHECK((rc2 == 0) == t->passed, "%s: decaps on ACVP dk tcId %u", impl_names[ii], t->tcid);
        }
        fails += !t->passed;
        free(k);
    }
    CHECK(fails > 0, "ACVP key-check subset has failing cases");
    tu_set_end("test_mlkem", "acvp_encapDecap_subset.json",
               sizeof mlkem_acvp_encaps / sizeof mlkem_acvp_encaps[0] +
                   sizeof mlkem_acvp_decaps / sizeof mlkem_acvp_decaps[0] +
                   sizeof mlkem_acvp_ekcheck / sizeof mlkem_acvp_ekcheck[0] +
                   sizeof mlkem_acvp_dkcheck / sizeof mlkem_acvp_dkcheck[0],
               60);
}

/* ---------------- NIST-style KAT (AES-256 CTR-DRBG, test code only) ---------------- */
typedef struct {
    uint8_t key[32], v[16];
} drbg;

/* libcrypto's AES where the build has it; the test's own (tests/common/aes256.c) on the emulated
 * targets, which have no libcrypto (it is checked against FIPS 197 below, and against libcrypto
 * where both exist). */
static void aes256_ecb(const uint8_t key[32], const uint8_t in[16], uint8_t out[16])
{
#if defined(NURI_TEST_OPENSSL)
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int ol = 0;
    EVP_EncryptInit_ex(c, EVP_aes_256_ecb(), NULL, key, NULL);
    EVP_CIPHER_CTX_set_padding(c, 0);
    EVP_EncryptUpdate(c, out, &ol, in, 16);
    EVP_CIPHER_CTX_free(c);
#else
    tu_aes256_encrypt(key, in, out);
#endif
}

static void test_aes256(void)
{
    uint8_t key[32], pt[16], ct[16], want[16];
    for (int i = 0; i < 32; i++) key[i] = (uint8_t)i;
    tu_unhex(pt, 16, "00112233445566778899aabbccddeeff");
    tu_unhex(want, 16, "8ea2b7ca516745bfeafc49904b496089"); /* FIPS 197, Appendix C.3 */
    tu_aes256_encrypt(key, pt, ct);
    CHECK_MEM(ct, want, 16, "test AES-256: FIPS 197 C.3");
    int ok = 1;
    for (int it = 0; it < 20; it++) {
        tu_randbytes(key, 32);
        tu_randbytes(pt, 16);
        tu_aes256_encrypt(key, pt, ct);
        aes256_ecb(key, pt, want);
        ok &= memcmp(ct, want, 16) == 0;
    }
    CHECK(ok, "test AES-256 == the DRBG's AES-256 on random blocks");
}
static void v_inc(uint8_t v[16])
{
    for (int j = 15; j >= 0; j--)
        if (++v[j]) break;
}
static void drbg_update(drbg *d, const uint8_t *provided)
{
    uint8_t t[48];
    for (int i = 0; i < 3; i++) {
        v_inc(d->v);
        aes256_ecb(d->key, d->v, t + 16 * i);
    }
    if (provided)
        for (int i = 0; i < 48; i++) t[i] ^= provided[i];
    memcpy(d->key, t, 32);
    memcpy(d->v, t + 32, 16);
}
static void drbg_init(drbg *d, const uint8_t entropy[48])
{
    memset(d, 0, sizeof *d);
    drbg_update(d, entropy);
}
static void drbg_bytes(drbg *d, uint8_t *out, size_t n)
{
    uint8_t blk[16];
    while (n > 0) {
        v_inc(d->v);
        aes256_ecb(d->key, d->v, blk);
        size_t m = n < 16 ? n : 16;
        memcpy(out, blk, m);
        out += m;
        n -= m;
    }
    drbg_update(d, NULL);
}

typedef struct {
    char *p;
    size_t len, cap;
} sbuf;
static void sb_add(sbuf *s, const char *name, const uint8_t *b, size_t n)
{
    size_t need = s->len + strlen(name) + 2 * n + 8;
    if (need > s->cap) {
        s->cap = need * 2;
        s->p = realloc(s->p, s->cap);
    }
    s->len += (size_t)sprintf(s->p + s->len, "%s = ", name);
    tu_hex(s->p + s->len, b, n);
    s->len += 2 * n;
    s->p[s->len++] = '\n';
    s->p[s->len] = 0;
}
static void sha256_hex(char out[65], const char *p, size_t n)
{
    uint8_t h[32];
    tu_sha256(h, p, n);
    for (int i = 0; i < 32; i++) sprintf(out + 2 * i, "%02x", h[i]);
}

static sbuf kat_first[3]; /* the count = 0 entry of the first implementation, per level */

static void test_kat(void)
{
    tu_set_begin();
    for (size_t ii = 0; ii < n_impls; ii++) {
        for (int li = 0; li < 3; li++) {
            unsigned level = LEVELS[li];
            size_t ekl = nuri_mlkem_ek_bytes(level), dkl = nuri_mlkem_dk_bytes(level), ctl = nuri_mlkem_ct_bytes(level);
            uint8_t entropy[48], seeds[100][48];
            drbg master, d;
            for (int i = 0; i < 48; i++) entropy[i] = (uint8_t)i;
            drbg_init(&master, entropy);
            for (int i = 0; i < 100; i++) drbg_bytes(&master, seeds[i], 48);
            sbuf all = {0}, single = {0};
            int ok = 1;
            for (int i = 0; i < 100; i++) {
                uint8_t coins[64], m[32], ek[NURI_MLKEM_MAX_EK_BYTES], dk[NURI_MLKEM_MAX_DK_BYTES],
                    ct[NURI_MLKEM_MAX_CT_BYTES], ss[32], ss2[32];
                drbg_init(&d, seeds[i]);
                drbg_bytes(&d, coins, 64);
                ok &= kg(level, ek, ekl, dk, dkl, coins, 64, impl_names[ii]) == 0;
                drbg_bytes(&d, m, 32);
                ok &= enc(level, ct, ctl, ss, 32, ek, ekl, m, 32, impl_names[ii]) == 0;
                ok &= dec(level, ss2, 32, ct, ctl, dk, dkl, impl_names[ii]) == 0;
                ok &= memcmp(ss, ss2, 32) == 0;
                sbuf *s = &all;
                char cnt[32];
                snprintf(cnt, sizeof cnt, "count = %d\n", i);
                for (int pass = 0; pass < (i == 0 ? 2 : 1); pass++, s = &single) {
                    size_t need = s->len + strlen(cnt) + 1;
                    if (need > s->cap) {
                        s->cap = need * 2 + 4096;
                        s->p = realloc(s->p, s->cap);
                    }
                    s->len += (size_t)sprintf(s->p + s->len, "%s", cnt);
                    sb_add(s, "seed", seeds[i], 48);
                    sb_add(s, "pk", ek, ekl);
                    sb_add(s, "sk", dk, dkl);
                    sb_add(s, "ct", ct, ctl);
                    sb_add(s, "ss", ss, 32);
                }
                all.p[all.len++] = '\n'; /* blank line after each entry (sb_add leaves room) */
                all.p[all.len] = 0;
            }
            CHECK(ok, "%s: ML-KEM-%u KAT: 100 keygen/encaps/decaps round trips", impl_names[ii], level);
            char h[65];
            CHECK(mlkem_kat_digests[li].level == level, "KAT digest table row %d is ML-KEM-%u, want %u", li,
                  mlkem_kat_digests[li].level, level);
            /* liboqs "all": the 100 entries without the final trailing newline */
            sha256_hex(h, all.p, all.len - 1);
            CHECK(strcmp(h, mlkem_kat_digests[li].all) == 0, "%s: ML-KEM-%u KAT all digest %s, want %s", impl_names[ii],
                  level, h, mlkem_kat_digests[li].all);
            printf("%s ML-KEM-%u KAT all    sha256 %s\n", impl_names[ii], level, h);
            sha256_hex(h, single.p, single.len);
            printf("%s ML-KEM-%u KAT single sha256 %s\n", impl_names[ii], level, h);
            CHECK(strcmp(h, mlkem_kat_digests[li].single) == 0, "%s: ML-KEM-%u KAT single digest %s, want %s",
                  impl_names[ii], level, h, mlkem_kat_digests[li].single);
            free(all.p);
            if (ii == 0) kat_first[li] = single;
            else free(single.p);
        }
    }
    tu_set_end("test_mlkem", "liboqs_kats_mlkem.json", 3 * 100, 300); /* 100 KAT entries per level */
}

/* The count = 0 .rsp entries, field by field, against the entries the first implementation wrote. */
static void test_kat_files(const char *dir)
{
    for (int li = 0; li < 3; li++) {
        char path[1024], name[64];
        snprintf(name, sizeof name, "PQCkemKAT_ML-KEM-%u_count0.rsp", LEVELS[li]);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        tu_set_begin();
        unsigned long got = 0;
        tu_kv kv;
        if (tu_kv_open(&kv, path) != 0) {
            CHECK(0, "cannot open %s", path);
        } else {
            while (tu_kv_next(&kv)) {
                static const char *f[] = {"count", "seed", "pk", "sk", "ct", "ss"};
                sbuf e = {0};
                for (int fi = 0; fi < 6; fi++) {
                    const char *val = tu_kv_get(&kv, f[fi]);
                    if (!val) val = "";
                    size_t need = e.len + strlen(val) + 16;
                    if (need > e.cap) {
                        e.cap = need * 2;
                        e.p = realloc(e.p, e.cap);
                    }
                    e.len += (size_t)sprintf(e.p + e.len, "%s = %s\n", f[fi], val);
                }
                const sbuf *want = &kat_first[li];
                CHECK(want->p && e.len == want->len && memcmp(e.p, want->p, e.len) == 0, "%s matches", path);
                free(e.p);
                got++;
            }
            tu_kv_close(&kv);
        }
        tu_set_end("test_mlkem", name, got, 1);
        free(kat_first[li].p);
        kat_first[li].p = NULL;
    }
}

/* ---------------- our own input-check and error-path tests ---------------- */
static void keypair(unsigned level, uint8_t *ek, uint8_t *dk)
{
    uint8_t seed[64];
    tu_randbytes(seed, 64);
    if (kg(level, ek, nuri_mlkem_ek_bytes(level), dk, nuri_mlkem_dk_bytes(level), seed, 64, NULL)) {
        fprintf(stderr, "keygen failed\n");
        exit(2);
    }
}

static void set_coeff(uint8_t *ek, unsigned idx, unsigned val)
{
    uint8_t *p = ek + 3 * (idx / 2);
    if (idx % 2 == 0) {
        p[0] = (uint8_t)val;
        p[1] = (uint8_t)((p[1] & 0xF0) | (val >> 8));
    } else {
        p[1] = (uint8_t)((p[1] & 0x0F) | ((val & 15) << 4));
        p[2] = (uint8_t)(val >> 4);
    }
}

static unsigned get_coeff(const uint8_t *ek, unsigned idx)
{
    const uint8_t *p = ek + 3 * (idx / 2);
    return idx % 2 == 0 ? (unsigned)(p[0] | (p[1] & 15) << 8) : (unsigned)(p[1] >> 4 | p[2] << 4);
}

static void test_modulus_check(void)
{
    for (int li = 0; li < 3; li++) {
        unsigned level = LEVELS[li], k = level / 256;
        size_t ekl = nuri_mlkem_ek_bytes(level), ctl = nuri_mlkem_ct_bytes(level);
        uint8_t ek[NURI_MLKEM_MAX_EK_BYTES], dk[NURI_MLKEM_MAX_DK_BYTES], bad[NURI_MLKEM_MAX_EK_BYTES];
        keypair(level, ek, dk);
        int rejected = 0, zeroed = 0, total = 0, boundary_ok = 1;
        for (unsigned val = 3329; val <= 4095; val++) {
            /* walk the coefficient position over every polynomial, both nibble alignments, first and last */
            unsigned idx = (val * 97u) % (256 * k);
            if (val == 3329) idx = 0;
            if (val == 4095) idx = 256 * k - 1;
            memcpy(bad, ek, ekl);
            set_coeff(bad, idx, val);
            uint8_t ct[NURI_MLKEM_MAX_CT_BYTES], ss[32], m[32] = {7};
            memset(ct, 0xAA, sizeof ct);
            memset(ss, 0xAA, sizeof ss);
            /* the implementations take turns (each has its own pass over ek, e.g. neon's), and
             * the first and last positions go through every one */
            int rc = enc(level, ct, ctl, ss, 32, bad, ekl, m, 32, impl_names[val % n_impls]);
            for (size_t ii = 0; (val == 3329 || val == 4095) && ii < n_impls; ii++)
                rc |= enc(level, ct, ctl, ss, 32, bad, ekl, m, 32, impl_names[ii]) != NURI_EBADEK;
            rejected += rc == NURI_EBADEK && nuri_mlkem_check_ek(level, bad, ekl) == NURI_EBADEK;
            zeroed += all_zero(ct, ctl) && all_zero(ss, 32);
            total++;
        }
        /* the largest valid value, 3328, at the same positions, is accepted */
        for (unsigned idx = 0; idx < 256 * k; idx += 37) {
            uint8_t ct[NURI_MLKEM_MAX_CT_BYTES], ss[32], m[32] = {7};
            memcpy(bad, ek, ekl);
            set_coeff(bad, idx, 3328);
            boundary_ok &= nuri_mlkem_check_ek(level, bad, ekl) == 0;
            boundary_ok &= enc(level, ct, ctl, ss, 32, bad, ekl, m, 32, impl_names[idx % n_impls]) == 0;
        }
        CHECK(rejected == total && total == 767, "ML-KEM-%u: modulus check rejects %d of %d values 3329..4095", level,
              rejected, total);
        CHECK(zeroed == total, "ML-KEM-%u: outputs zeroed on rejected ek", level);
        CHECK(boundary_ok, "ML-KEM-%u: coefficient 3328 accepted", level);
    }
}

/* Degenerate keys beyond FIPS 203: an ek whose t-hat = ByteDecode12(ek[0:384k]) has 16k or more
 * zero coefficients (of 256k) is refused with NURI_EWEAKEK by every path that encapsulates, by
 * every implementation. With t = 0 the ciphertext's v is e2 + Decompress1(m): m in the clear. A
 * fresh key has about 0.08k zero coefficients; 16k - 1 zeros are still accepted. */
static void test_degenerate_ek(void)
{
    for (int li = 0; li < 3; li++) {
        unsigned level = LEVELS[li], k = level / 256;
        size_t ekl = nuri_mlkem_ek_bytes(level), ctl = nuri_mlkem_ct_bytes(level);
        uint8_t ek[NURI_MLKEM_MAX_EK_BYTES], dk[NURI_MLKEM_MAX_DK_BYTES], bad[NURI_MLKEM_MAX_EK_BYTES];
        uint8_t ct[NURI_MLKEM_MAX_CT_BYTES], ss[32], m[32] = {1};
        keypair(level, ek, dk);

        /* t = 0 (rho kept, and rho = 0 too), every implementation and the fixed-size API */
        for (int rho_zero = 0; rho_zero < 2; rho_zero++) {
            memcpy(bad, ek, ekl);
            memset(bad, 0, rho_zero ? ekl : 384 * k);
            CHECK(nuri_mlkem_check_ek(level, bad, ekl) == NURI_EWEAKEK, "ML-KEM-%u: check_ek refuses t = 0 (rho %s)",
                  level, rho_zero ? "zero" : "kept");
            for (size_t ii = 0; ii < n_impls; ii++) {
                memset(ct, 0xAA, sizeof ct);
                memset(ss, 0xAA, sizeof ss);
                int rc = enc(level, ct, ctl, ss, 32, bad, ekl, m, 32, impl_names[ii]);
                CHECK(rc == NURI_EWEAKEK && all_zero(ct, ctl) && all_zero(ss, 32),
                      "%s ML-KEM-%u: encaps refuses t = 0 (rc %d), outputs zeroed", impl_names[ii], level, rc);
                rc = enc(level, ct, ctl, ss, 32, bad, ekl, NULL, 0, impl_names[ii]);
                CHECK(rc == NURI_EWEAKEK, "%s ML-KEM-%u: encaps (OS randomness) refuses t = 0", impl_names[ii], level);
            }
        }
        if (level == 768) {
            memset(bad, 0, ekl);
            CHECK(nuri_mlkem768_encaps(ct, ss, bad) == NURI_EWEAKEK, "ML-KEM-768 fixed-size encaps refuses ek = 0");
        }
        /* a whole polynomial of t zero, the others from a real key */
        for (unsigned i = 0; i < k; i++) {
            memcpy(bad, ek, ekl);
            memset(bad + 384 * i, 0, 384);
            CHECK(nuri_mlkem_check_ek(level, bad, ekl) == NURI_EWEAKEK, "ML-KEM-%u: t[%u] = 0 refused", level, i);
        }
        /* the threshold: 16k - 1 zero coefficients pass, 16k do not (spread over the polynomials) */
        memcpy(bad, ek, ekl);
        unsigned zeros = 0;
        for (unsigned idx = 0; idx < 256 * k; idx++) zeros += get_coeff(bad, idx) == 0;
        for (unsigned idx = 3; zeros < 16 * k - 1; idx += 7)
            if (get_coeff(bad, idx) != 0) {
                set_coeff(bad, idx, 0);
                zeros++;
            }
        CHECK(nuri_mlkem_check_ek(level, bad, ekl) == 0, "ML-KEM-%u: %u zero coefficients accepted", level, zeros);
        for (size_t ii = 0; ii < n_impls; ii++)
            CHECK(enc(level, ct, ctl, ss, 32, bad, ekl, m, 32, impl_names[ii]) == 0, "%s ML-KEM-%u: encaps accepts it",
                  impl_names[ii], level);
        for (unsigned idx = 1; zeros < 16 * k; idx++)
            if (get_coeff(bad, idx) != 0) {
                set_coeff(bad, idx, 0);
                zeros++;
            }
        CHECK(nuri_mlkem_check_ek(level, bad, ekl) == NURI_EWEAKEK, "ML-KEM-%u: %u zero coefficients refused", level,
              zeros);
        for (size_t ii = 0; ii < n_impls; ii++)
            CHECK(enc(level, ct, ctl, ss, 32, bad, ekl, m, 32, impl_names[ii]) == NURI_EWEAKEK,
                  "%s ML-KEM-%u: encaps refuses %u zero coefficients", impl_names[ii], level, zeros);
        /* the modulus check comes first: t = 0 but one coefficient >= q is NURI_EBADEK */
        memset(bad, 0, 384 * k);
        set_coeff(bad, 7, 3329);
        CHECK(nuri_mlkem_check_ek(level, bad, ekl) == NURI_EBADEK, "ML-KEM-%u: modulus check before the zero check",
              level);
        for (size_t ii = 0; ii < n_impls; ii++)
            CHECK(enc(level, ct, ctl, ss, 32, bad, ekl, m, 32, impl_names[ii]) == NURI_EBADEK,
                  "%s ML-KEM-%u: encaps: modulus check before the zero check", impl_names[ii], level);
        /* the batch form: one degenerate ek among good ones refuses the whole call, outputs zeroed */
        uint8_t eks[3 * NURI_MLKEM_MAX_EK_BYTES], cts[3 * NURI_MLKEM_MAX_CT_BYTES], sss[3 * 32], ms[3 * 32] = {2};
        memcpy(eks, ek, ekl);
        memset(eks + ekl, 0, ekl);
        memcpy(eks + 2 * ekl, ek, ekl);
        memset(sss, 0xAA, sizeof sss);
        int rc = enc_many(level, cts, 3 * ctl, sss, 3 * 32, eks, 3 * ekl, ms, 3 * 32, 3, NULL);
        CHECK(rc == NURI_EWEAKEK && all_zero(sss, sizeof sss) && all_zero(cts, 3 * ctl),
              "ML-KEM-%u: encaps_many refuses a degenerate ek among good ones (rc %d)", level, rc);
    }
    CHECK(strcmp(nuri_strerror(NURI_EWEAKEK), "unknown error") != 0, "NURI_EWEAKEK has its own message");
}

static void test_hash_check_and_rejection(void)
{
    for (int li = 0; li < 3; li++) {
        unsigned level = LEVELS[li], k = level / 256;
        size_t ekl = nuri_mlkem_ek_bytes(level), dkl = nuri_mlkem_dk_bytes(level), ctl = nuri_mlkem_ct_bytes(level);
        uint8_t ek[NURI_MLKEM_MAX_EK_BYTES], dk[NURI_MLKEM_MAX_DK_BYTES], bad[NURI_MLKEM_MAX_DK_BYTES];
        uint8_t ct[NURI_MLKEM_MAX_CT_BYTES], ss[32], ss2[32], j[32];
        keypair(level, ek, dk);
        CHECK(nuri_mlkem_check_dk(level, dk, dkl) == 0, "ML-KEM-%u: fresh dk passes the hash check", level);
        /* wrong H(ek): each byte of the hash field, one bit flipped */
        int ok = 1;
        for (size_t i = 0; i < 32; i++) {
            memcpy(bad, dk, dkl);
            bad[768 * k + 32 + i] ^= (uint8_t)(1u << (i % 8));
            memset(ss, 0xAA, 32);
            ok &= nuri_mlkem_check_dk(level, bad, dkl) == NURI_EBADDK;
            ok &= dec(level, ss, 32, ct, ctl, bad, dkl, NULL) == NURI_EBADDK && all_zero(ss, 32);
        }
        CHECK(ok, "ML-KEM-%u: dk with a wrong H(ek) rejected by check and decaps, ss zeroed", level);
        /* an ek inside dk that no longer matches its hash */
        memcpy(bad, dk, dkl);
        bad[384 * k + 5] ^= 1;
        CHECK(dec(level, ss, 32, ct, ctl, bad, dkl, NULL) == NURI_EBADDK, "ML-KEM-%u: dk with a modified ek rejected",
              level);

        /* implicit rejection on a last-byte change, for every implementation */
        for (size_t ii = 0; ii < n_impls; ii++) {
            uint8_t m[32];
            tu_randbytes(m, 32);
            int rc = enc(level, ct, ctl, ss, 32, ek, ekl, m, 32, impl_names[ii]);
            rc |= dec(level, ss2, 32, ct, ctl, dk, dkl, impl_names[ii]);
            CHECK(rc == 0 && memcmp(ss, ss2, 32) == 0, "%s ML-KEM-%u: round trip", impl_names[ii], level);
            for (int bit = 0; bit < 8; bit++) {
                ct[ctl - 1] ^= (uint8_t)(1u << bit);
                rc = dec(level, ss2, 32, ct, ctl, dk, dkl, impl_names[ii]);
                nuri_shake_ctx x;
                nuri_shake256_init(&x);
                nuri_shake_absorb(&x, dk + dkl - 32, 32);
                nuri_shake_absorb(&x, ct, ctl);
                nuri_shake_squeeze(&x, j, 32);
                CHECK(rc == 0 && memcmp(ss2, j, 32) == 0 && memcmp(ss2, ss, 32) != 0,
                      "%s ML-KEM-%u: last ct byte ^ %02x gives J(z || c), rc %d", impl_names[ii], level, 1u << bit, rc);
                ct[ctl - 1] ^= (uint8_t)(1u << bit);
            }
            /* first byte too */
            ct[0] ^= 0x80;
            rc = dec(level, ss2, 32, ct, ctl, dk, dkl, impl_names[ii]);
            CHECK(rc == 0 && memcmp(ss2, ss, 32) != 0, "%s ML-KEM-%u: first ct byte changed -> rejection key",
                  impl_names[ii], level);
        }
    }
}

static void test_length_errors(void)
{
    for (int li = 0; li < 3; li++) {
        unsigned level = LEVELS[li];
        size_t ekl = nuri_mlkem_ek_bytes(level), dkl = nuri_mlkem_dk_bytes(level), ctl = nuri_mlkem_ct_bytes(level);
        static uint8_t ek[NURI_MLKEM_MAX_EK_BYTES + 40], dk[NURI_MLKEM_MAX_DK_BYTES + 40],
            ct[NURI_MLKEM_MAX_CT_BYTES + 40], ss[40], seed[72], m[40];
        keypair(level, ek, dk);
        tu_randbytes(seed, sizeof seed);
        tu_randbytes(m, sizeof m);
        nuri_mlkem_ctx kem;
        CHECK(nuri_mlkem_init(&kem, (nuri_mlkem_level)level, NULL) == 0 &&
                  strcmp(nuri_mlkem_ctx_impl_name(&kem), nuri_mlkem_default_impl()) == 0,
              "ML-KEM-%u: init with dispatch", level);
#define EXPECT(call, code, ...)                          \
    do {                                                 \
        memset(ct, 0xAA, sizeof ct);                     \
        memset(ss, 0xAA, sizeof ss);                     \
        int rc_ = (call);                                \
        CHECK(rc_ == (code), "ML-KEM-%u: " __VA_ARGS__); \
    } while (0)
        static const long deltas[] = {-1, 1, -32, 32};
        uint8_t ek2[NURI_MLKEM_MAX_EK_BYTES + 40], dk2[NURI_MLKEM_MAX_DK_BYTES + 40];
        for (int di = 0; di < 4; di++) {
            long dl = deltas[di];
            /* outputs: a capacity below the size is NURI_EBUFFER (outputs zeroed), above it is fine
             * (the size is written); inputs: any other length is NURI_ELENGTH */
            int out_code = dl < 0 ? NURI_EBUFFER : NURI_OK;
            memset(ek2, 0xAA, sizeof ek2);
            memset(dk2, 0xAA, sizeof dk2);
            CHECK(nuri_mlkem_keygen(&kem, ek2, ekl + dl, dk2, dkl, seed, 64) == out_code &&
                      (dl > 0 || (all_zero(ek2, ekl + dl) && all_zero(dk2, dkl))),
                  "ML-KEM-%u: keygen ek_cap %+ld, outputs zeroed on error", level, dl);
            if (dl > 0) CHECK(ek2[ekl] == 0xAA, "ML-KEM-%u: keygen writes exactly the ek size", level);
            memset(dk2, 0xAA, sizeof dk2);
            CHECK(nuri_mlkem_keygen(&kem, ek2, ekl, dk2, dkl + dl, seed, 64) == out_code &&
                      (dl > 0 || all_zero(dk2, dkl + dl)),
                  "ML-KEM-%u: keygen dk_cap %+ld", level, dl);
            CHECK(nuri_mlkem_keygen(&kem, ek2, ekl, dk2, dkl, seed, 64 + dl) == NURI_ELENGTH,
                  "ML-KEM-%u: seed_len %+ld", level, dl);
            /* encaps: ct, ss (outputs), ek, m (inputs) */
            EXPECT(nuri_mlkem_encaps(&kem, ct, ctl + dl, ss, 32, ek, ekl, m, 32), out_code, "encaps ct_cap %+ld", level,
                   dl);
            if (dl < 0) CHECK(all_zero(ct, ctl + dl) && all_zero(ss, 32), "ML-KEM-%u: encaps outputs zeroed", level);
            if (dl > 0) CHECK(ct[ctl] == 0xAA, "ML-KEM-%u: encaps writes exactly the ct size", level);
            if (dl >= -32 && dl <= 8)
                EXPECT(nuri_mlkem_encaps(&kem, ct, ctl, ss, 32 + dl, ek, ekl, m, 32), out_code, "encaps ss_cap %+ld",
                       level, dl);
            EXPECT(nuri_mlkem_encaps(&kem, ct, ctl, ss, 32, ek, ekl + dl, m, 32), NURI_ELENGTH, "encaps ek_len %+ld",
                   level, dl);
            CHECK(all_zero(ct, ctl) && all_zero(ss, 32), "ML-KEM-%u: encaps outputs zeroed on an input error", level);
            EXPECT(nuri_mlkem_check_ek((nuri_mlkem_level)level, ek, ekl + dl), NURI_ELENGTH, "check_ek len %+ld", level,
                   dl);
            EXPECT(nuri_mlkem_encaps(&kem, ct, ctl, ss, 32, ek, ekl, m, 32 + dl), NURI_ELENGTH, "encaps m_len %+ld",
                   level, dl);
            /* decaps: ss (output), ct, dk (inputs) */
            if (dl >= -32 && dl <= 8)
                EXPECT(nuri_mlkem_decaps(&kem, ss, 32 + dl, ct, ctl, dk, dkl), out_code, "decaps ss_cap %+ld", level,
                       dl);
            EXPECT(nuri_mlkem_decaps(&kem, ss, 32, ct, ctl + dl, dk, dkl), NURI_ELENGTH, "decaps ct_len %+ld", level,
                   dl);
            CHECK(all_zero(ss, 32), "ML-KEM-%u: decaps output zeroed on error", level);
            EXPECT(nuri_mlkem_decaps(&kem, ss, 32, ct, ctl, dk, dkl + dl), NURI_ELENGTH, "decaps dk_len %+ld", level,
                   dl);
            EXPECT(nuri_mlkem_check_dk((nuri_mlkem_level)level, dk, dkl + dl), NURI_ELENGTH, "check_dk len %+ld", level,
                   dl);
        }
        /* the other level's sizes */
        unsigned other = LEVELS[(li + 1) % 3];
        EXPECT(nuri_mlkem_encaps(&kem, ct, ctl, ss, 32, ek, nuri_mlkem_ek_bytes(other), m, 32), NURI_ELENGTH,
               "ek of another level", level);
        EXPECT(nuri_mlkem_decaps(&kem, ss, 32, ct, nuri_mlkem_ct_bytes(other), dk, dkl), NURI_ELENGTH,
               "ct of another level", level);
        /* NULL pointers */
        EXPECT(nuri_mlkem_encaps(&kem, ct, ctl, ss, 32, NULL, ekl, m, 32), NURI_ELENGTH, "NULL ek", level);
        EXPECT(nuri_mlkem_decaps(&kem, ss, 32, NULL, ctl, dk, dkl), NURI_ELENGTH, "NULL ct", level);
        EXPECT(nuri_mlkem_keygen(&kem, NULL, ekl, dk2, dkl, seed, 64), NURI_EBUFFER, "NULL ek out", level);
        /* the context: unknown implementation, bad level, one not set up */
        nuri_mlkem_ctx bad;
        CHECK(nuri_mlkem_init(&bad, (nuri_mlkem_level)level, "nope") == NURI_ENOTFOUND &&
                  nuri_mlkem_ctx_impl_name(&bad) == NULL,
              "ML-KEM-%u: unknown impl", level);
        EXPECT(nuri_mlkem_encaps(&bad, ct, ctl, ss, 32, ek, ekl, m, 32), NURI_ESTATE, "context not set up", level);
        CHECK(all_zero(ct, ctl) && all_zero(ss, 32), "ML-KEM-%u: outputs zeroed for a context not set up", level);
        CHECK(nuri_mlkem_init(&bad, (nuri_mlkem_level)(level + 1), NULL) == NURI_EINVAL &&
                  nuri_mlkem_init(&bad, (nuri_mlkem_level)0, "ref") == NURI_EINVAL,
              "ML-KEM-%u: bad level", level);
        EXPECT(nuri_mlkem_keygen(&bad, ek2, ekl, dk2, dkl, seed, 64), NURI_ESTATE, "keygen, context not set up", level);
        CHECK(nuri_mlkem_ek_bytes((nuri_mlkem_level)(level + 1)) == 0 &&
                  nuri_mlkem_dk_bytes((nuri_mlkem_level)7) == 0 && nuri_mlkem_ct_bytes((nuri_mlkem_level)0) == 0,
              "size getters return 0 for unknown levels");
    }
    CHECK(nuri_mlkem_ss_bytes() == 32 && nuri_mlkem_ctx_bytes() == sizeof(nuri_mlkem_ctx), "size getters");
    CHECK(nuri_mlkem_ek_bytes(NURI_MLKEM512) == NURI_MLKEM512_EK_BYTES &&
              nuri_mlkem_dk_bytes(NURI_MLKEM768) == NURI_MLKEM768_DK_BYTES &&
              nuri_mlkem_ct_bytes(NURI_MLKEM1024) == NURI_MLKEM1024_CT_BYTES,
          "size macros = getters");
}

/* Randomized round trips through the OS RNG, fixed-size API == generic API, impls agree. */
/* ---------------- malformed inputs: every backend == ref ---------------- */

/* Random keys and ciphertexts that did not come from keygen/encaps, against ref: an ek of random
 * coefficients below q with a random rho (accepted; its matrix comes from that rho), an ek of
 * random bytes (rejected by the modulus check alike), a dk whose secret part holds random 12-bit
 * values, up to 4095 (ByteDecode12 reduces them mod q), with its ek and H(ek) consistent, a dk
 * with a stale H(ek) (rejected alike), and random, all-zero and all-ones ciphertexts. */
static void test_malformed_differential(void)
{
    for (size_t ii = 0; ii < n_impls; ii++) {
        int ok = 1;
        for (int it = 0; it < 30; it++) {
            const unsigned level = LEVELS[it % 3], k = level / 256;
            const size_t ekl = nuri_mlkem_ek_bytes(level), dkl = nuri_mlkem_dk_bytes(level),
                         ctl = nuri_mlkem_ct_bytes(level);
            uint8_t ek[NURI_MLKEM_MAX_EK_BYTES], dk[NURI_MLKEM_MAX_DK_BYTES], ct[NURI_MLKEM_MAX_CT_BYTES];
            uint8_t c1[NURI_MLKEM_MAX_CT_BYTES], c2[NURI_MLKEM_MAX_CT_BYTES], s1[32], s2[32], m[32];
            /* ek: random coefficients < q, random rho */
            for (unsigned i = 0; i < 256 * k; i++) set_coeff(ek, i, (unsigned)(tu_rand64() % MLKEM_Q));
            tu_randbytes(ek + 384 * k, 32);
            tu_randbytes(m, 32);
            int r1 = enc(level, c1, ctl, s1, 32, ek, ekl, m, 32, "ref");
            int r2 = enc(level, c2, ctl, s2, 32, ek, ekl, m, 32, impl_names[ii]);
            ok &= r1 == 0 && r2 == 0 && memcmp(c1, c2, ctl) == 0 && memcmp(s1, s2, 32) == 0;
            /* ek: random bytes (some 12-bit value >= q: rejected, outputs zeroed) */
            uint8_t bad[NURI_MLKEM_MAX_EK_BYTES];
            tu_randbytes(bad, ekl);
            set_coeff(bad, (unsigned)(tu_rand64() % (256 * k)), MLKEM_Q + (unsigned)(tu_rand64() % (4096 - MLKEM_Q)));
            r2 = enc(level, c2, ctl, s2, 32, bad, ekl, m, 32, impl_names[ii]);
            ok &= r2 == NURI_EBADEK && all_zero(c2, ctl) && all_zero(s2, 32);
            /* dk: random 12-bit values as s, then ek (above), H(ek), z */
            tu_randbytes(dk, 384 * k);
            memcpy(dk + 384 * k, ek, ekl);
            nuri_sha3_256(dk + 384 * k + ekl, ek, ekl);
            tu_randbytes(dk + dkl - 32, 32);
            for (int v = 0; v < 4; v++) {
                if (v == 0) memcpy(ct, c1, ctl); /* the ciphertext of ek (under another s: rejected) */
                else memset(ct, v == 1 ? 0 : 0xFF, ctl);
                if (v == 3) tu_randbytes(ct, ctl);
                r1 = dec(level, s1, 32, ct, ctl, dk, dkl, "ref");
                r2 = dec(level, s2, 32, ct, ctl, dk, dkl, impl_names[ii]);
                ok &= r1 == 0 && r2 == 0 && memcmp(s1, s2, 32) == 0;
            }
            /* the same dk with a stale H(ek) */
            dk[384 * k + ekl + (size_t)(tu_rand64() % 32)] ^= (uint8_t)(1u << (tu_rand64() % 8));
            memset(s2, 0x55, 32);
            r2 = dec(level, s2, 32, ct, ctl, dk, dkl, impl_names[ii]);
            ok &= r2 == NURI_EBADDK && all_zero(s2, 32);
            uint8_t sss[3 * 32], cts[3 * NURI_MLKEM_MAX_CT_BYTES];
            memset(sss, 0x55, sizeof sss);
            for (int t = 0; t < 3; t++) memcpy(cts + t * ctl, ct, ctl);
            r2 = dec_many(level, sss, 3 * 32, cts, 3 * ctl, dk, dkl, 3, impl_names[ii]);
            ok &= r2 == NURI_EBADDK && all_zero(sss, 3 * 32);
        }
        CHECK(ok,
              "%s == ref on malformed keys and ciphertexts (random ek and dk contents, stale H(ek), "
              "zero, all-ones and random ct)",
              impl_names[ii]);
    }
}

static void test_api_and_differential(void)
{
    uint8_t ek[NURI_MLKEM_MAX_EK_BYTES], dk[NURI_MLKEM_MAX_DK_BYTES], ct[NURI_MLKEM_MAX_CT_BYTES], ss[32], ss2[32];
    uint8_t ek2[NURI_MLKEM_MAX_EK_BYTES], dk2[NURI_MLKEM_MAX_DK_BYTES], ct2[NURI_MLKEM_MAX_CT_BYTES], ss3[32];
    uint8_t seed[64], m[32];
    CHECK(nuri_mlkem512_keygen(ek, dk) == 0 && nuri_mlkem512_encaps(ct, ss, ek) == 0 &&
              nuri_mlkem512_decaps(ss2, ct, dk) == 0 && memcmp(ss, ss2, 32) == 0,
          "ML-KEM-512 random round trip (OS RNG)");
    CHECK(nuri_mlkem768_keygen(ek, dk) == 0 && nuri_mlkem768_encaps(ct, ss, ek) == 0 &&
              nuri_mlkem768_decaps(ss2, ct, dk) == 0 && memcmp(ss, ss2, 32) == 0,
          "ML-KEM-768 random round trip (OS RNG)");
    CHECK(nuri_mlkem1024_keygen(ek, dk) == 0 && nuri_mlkem1024_encaps(ct, ss, ek) == 0 &&
              nuri_mlkem1024_decaps(ss2, ct, dk) == 0 && memcmp(ss, ss2, 32) == 0,
          "ML-KEM-1024 random round trip (OS RNG)");
    tu_randbytes(seed, 64);
    tu_randbytes(m, 32);
    CHECK(nuri_mlkem768_keygen_derand(ek, dk, seed) == 0 && kg(768, ek2, 1184, dk2, 2400, seed, 64, "ref") == 0 &&
              memcmp(ek, ek2, 1184) == 0 && memcmp(dk, dk2, 2400) == 0,
          "fixed-size keygen_derand == generic ref");
    CHECK(nuri_mlkem768_encaps_derand(ct, ss, ek, m) == 0 &&
              enc(768, ct2, 1088, ss2, 32, ek, 1184, m, 32, "ref") == 0 && memcmp(ct, ct2, 1088) == 0 &&
              memcmp(ss, ss2, 32) == 0,
          "fixed-size encaps_derand == generic ref");
    CHECK(nuri_mlkem512_keygen_derand(ek, dk, seed) == 0 && nuri_mlkem512_encaps_derand(ct, ss, ek, m) == 0 &&
              nuri_mlkem512_decaps(ss2, ct, dk) == 0 && memcmp(ss, ss2, 32) == 0,
          "ML-KEM-512 derand round trip");
    CHECK(nuri_mlkem1024_keygen_derand(ek, dk, seed) == 0 && nuri_mlkem1024_encaps_derand(ct, ss, ek, m) == 0 &&
              nuri_mlkem1024_decaps(ss2, ct, dk) == 0 && memcmp(ss, ss2, 32) == 0,
          "ML-KEM-1024 derand round trip");
    int ok = 1;
    for (int it = 0; it < 60; it++) {
        unsigned level = LEVELS[it % 3];
        size_t ekl = nuri_mlkem_ek_bytes(level), dkl = nuri_mlkem_dk_bytes(level), ctl = nuri_mlkem_ct_bytes(level);
        tu_randbytes(seed, 64);
        tu_randbytes(m, 32);
        ok &= kg(level, ek, ekl, dk, dkl, seed, 64, "ref") == 0;
        ok &= enc(level, ct, ctl, ss, 32, ek, ekl, m, 32, "ref") == 0;
        /* a random (almost surely invalid) ciphertext too */
        tu_randbytes(ct2, ctl);
        ok &= dec(level, ss3, 32, ct2, ctl, dk, dkl, "ref") == 0;
        for (size_t ii = 0; ii < n_impls; ii++) {
            uint8_t e2[NURI_MLKEM_MAX_EK_BYTES], d2[NURI_MLKEM_MAX_DK_BYTES], c2[NURI_MLKEM_MAX_CT_BYTES], s2[32];
            ok &= kg(level, e2, ekl, d2, dkl, seed, 64, impl_names[ii]) == 0;
            ok &= memcmp(e2, ek, ekl) == 0 && memcmp(d2, dk, dkl) == 0;
            ok &= enc(level, c2, ctl, s2, 32, ek, ekl, m, 32, impl_names[ii]) == 0;
            ok &= memcmp(c2, ct, ctl) == 0 && memcmp(s2, ss, 32) == 0;
            ok &= dec(level, s2, 32, ct, ctl, dk, dkl, impl_names[ii]) == 0 && memcmp(s2, ss, 32) == 0;
            ok &= dec(level, s2, 32, ct2, ctl, dk, dkl, impl_names[ii]) == 0 && memcmp(s2, ss3, 32) == 0;
        }
    }
    CHECK(ok, "every implementation agrees with ref on 60 random key pairs, ciphertexts and invalid ciphertexts");
}

/* Every implementation against ref on valid keys and ciphertexts changed a little, random per run:
 * eks with one value made >= q (EBADEK, outputs zeroed) and eks with random t and rho that pass the
 * check (same ct and K); dks with a changed byte in their copy of ek or in H(ek) (EBADDK), and dks
 * keeping the hash with a random dk_PKE (12-bit values up to 4095, which ByteDecode reduces) or
 * another z (same K'); ciphertexts with one or a few flipped bits, all zero, all ones, or from
 * another key (same K, the implicit-rejection value). */
static void test_malformed_mutations(void)
{
    static uint8_t ek[NURI_MLKEM_MAX_EK_BYTES], dk[NURI_MLKEM_MAX_DK_BYTES], ct[NURI_MLKEM_MAX_CT_BYTES],
        ek2[NURI_MLKEM_MAX_EK_BYTES], dk2[NURI_MLKEM_MAX_DK_BYTES], ct2[NURI_MLKEM_MAX_CT_BYTES],
        c1[NURI_MLKEM_MAX_CT_BYTES];
    uint8_t seed[64], m[32], ss[32], want[32], s1[32];
    int ok_ek = 1, ok_dk = 1, ok_ct = 1, cases = 0;
    for (int it = 0; it < 45; it++) {
        const unsigned level = LEVELS[it % 3], k = level / 256;
        const size_t ekl = nuri_mlkem_ek_bytes(level), dkl = nuri_mlkem_dk_bytes(level),
                     ctl = nuri_mlkem_ct_bytes(level), pke = 384 * (size_t)k;
        tu_randbytes(seed, 64);
        tu_randbytes(m, 32);
        ok_ek &= kg(level, ek, ekl, dk, dkl, seed, 64, "ref") == 0;
        ok_ek &= enc(level, ct, ctl, ss, 32, ek, ekl, m, 32, "ref") == 0;
        /* eks: one value in [q, 4095] at a random place; then random t (values < q) and rho */
        memcpy(ek2, ek, ekl);
        set_coeff(ek2, (unsigned)(tu_rand64() % (256 * k)), MLKEM_Q + (unsigned)(tu_rand64() % (4096 - MLKEM_Q)));
        for (size_t ii = 0; ii < n_impls; ii++) {
            memset(c1, 0x55, ctl);
            memset(s1, 0x55, 32);
            ok_ek &= enc(level, c1, ctl, s1, 32, ek2, ekl, m, 32, impl_names[ii]) == NURI_EBADEK;
            ok_ek &= all_zero(c1, ctl) && all_zero(s1, 32);
        }
        for (unsigned i = 0; i < 256 * k; i++) set_coeff(ek2, i, (unsigned)(tu_rand64() % MLKEM_Q));
        tu_randbytes(ek2 + pke, 32);
        ok_ek &= enc(level, ct2, ctl, want, 32, ek2, ekl, m, 32, "ref") == 0;
        for (size_t ii = 0; ii < n_impls; ii++) {
            ok_ek &= enc(level, c1, ctl, s1, 32, ek2, ekl, m, 32, impl_names[ii]) == 0;
            ok_ek &= memcmp(c1, ct2, ctl) == 0 && memcmp(s1, want, 32) == 0;
        }
        /* dks: a changed byte of the ek copy or of H(ek); a random dk_PKE (hash still right); another z */
        for (int v = 0; v < 4; v++) {
            memcpy(dk2, dk, dkl);
            const int expect_bad = v < 2;
            if (v == 0) dk2[pke + tu_rand64() % ekl] ^= (uint8_t)(1 + tu_rand64() % 255);
            else if (v == 1) dk2[pke + ekl + tu_rand64() % 32] ^= (uint8_t)(1 + tu_rand64() % 255);
            else if (v == 2) tu_randbytes(dk2, pke);
            else tu_randbytes(dk2 + dkl - 32, 32);
            if (!expect_bad) ok_dk &= dec(level, want, 32, ct, ctl, dk2, dkl, "ref") == 0;
            for (size_t ii = 0; ii < n_impls; ii++) {
                memset(s1, 0x55, 32);
                int rc = dec(level, s1, 32, ct, ctl, dk2, dkl, impl_names[ii]);
                ok_dk &= expect_bad ? rc == NURI_EBADDK && all_zero(s1, 32) : rc == 0 && memcmp(s1, want, 32) == 0;
            }
        }
        /* ciphertexts */
        for (int v = 0; v < 6; v++) {
            memcpy(ct2, ct, ctl);
            if (v == 0) ct2[tu_rand64() % ctl] ^= (uint8_t)(1u << (tu_rand64() % 8));
            else if (v == 1)
                for (size_t f = 0; f < 5; f++) /* one bit in each fifth: they cannot cancel */
                    ct2[f * (ctl / 5) + tu_rand64() % (ctl / 5)] ^= (uint8_t)(1u << (tu_rand64() % 8));
            else if (v == 2) memset(ct2, 0, ctl);
            else if (v == 3) memset(ct2, 0xFF, ctl);
            else if (v == 4) ct2[ctl - 1 - tu_rand64() % 32] ^= 0x80;                /* inside the compressed v */
            else ok_ct &= enc(level, ct2, ctl, s1, 32, ek2, ekl, m, 32, "ref") == 0; /* other key */
            ok_ct &= dec(level, want, 32, ct2, ctl, dk, dkl, "ref") == 0;
            for (size_t ii = 0; ii < n_impls; ii++) {
                ok_ct &= dec(level, s1, 32, ct2, ctl, dk, dkl, impl_names[ii]) == 0;
                ok_ct &= memcmp(s1, want, 32) == 0;
            }
            ok_ct &= memcmp(want, ss, 32) != 0; /* every change is rejected (implicitly) */
            cases++;
        }
    }
    CHECK(ok_ek, "malformed eks (modulus check fails / random t and rho): every implementation == ref, 45 keys");
    CHECK(ok_dk, "malformed dks (hash check fails / random dk_PKE / other z): every implementation == ref");
    CHECK(ok_ct && cases == 270,
          "malformed ciphertexts (bit flips, zero, ones, other key): every implementation == ref");
}

/* Batch forms: every item equals the single call (valid and altered ciphertexts, repeated and
 * distinct keys, group sizes around 4), OS-random round trips across the randomness chunking,
 * and all-or-nothing errors. */
static void test_batch(void)
{
    enum { NMAX = 21 };
    static uint8_t ek[NMAX][NURI_MLKEM_MAX_EK_BYTES], dk[NURI_MLKEM_MAX_DK_BYTES], dk2[NURI_MLKEM_MAX_DK_BYTES];
    static uint8_t eks[NMAX * NURI_MLKEM_MAX_EK_BYTES], cts[NMAX * NURI_MLKEM_MAX_CT_BYTES], ss[NMAX * 32],
        ss2[NMAX * 32], ms[NMAX * 32], ct1[NURI_MLKEM_MAX_CT_BYTES], s1[32];
    static const size_t counts[] = {0, 1, 2, 3, 4, 5, 8, 9, NMAX};
    for (size_t ii = 0; ii < n_impls; ii++) {
        const char *impl = impl_names[ii];
        int ok_enc = 1, ok_dec = 1, ok_rt = 1, ok_err = 1;
        for (int li = 0; li < 3; li++) {
            unsigned level = LEVELS[li];
            size_t ekl = nuri_mlkem_ek_bytes(level), dkl = nuri_mlkem_dk_bytes(level), ctl = nuri_mlkem_ct_bytes(level);
            uint8_t seed[64];
            /* three key pairs; the dk of the first is kept for decaps_many */
            for (int k = 0; k < 3; k++) {
                tu_randbytes(seed, 64);
                ok_enc &= kg(level, ek[k], ekl, k ? dk2 : dk, dkl, seed, 64, impl) == 0;
            }
            for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
                size_t n = counts[ci];
                /* encaps_many to keys 0,0,1,2,0,... (runs of equal keys and changes) */
                for (size_t i = 0; i < n; i++)
                    memcpy(eks + i * ekl, ek[(i * 7 / 3) % 3 == 1 ? 1 : (i % 5 == 4 ? 2 : 0)], ekl);
                tu_randbytes(ms, n * 32);
                memset(cts, 0xAA, sizeof cts);
                ok_enc &= enc_many(level, cts, n * ctl, ss, n * 32, eks, n * ekl, ms, n * 32, n, impl) == 0;
                for (size_t i = 0; i < n; i++) {
                    ok_enc &= enc(level, ct1, ctl, s1, 32, eks + i * ekl, ekl, ms + i * 32, 32, "ref") == 0;
                    ok_enc &= memcmp(ct1, cts + i * ctl, ctl) == 0 && memcmp(s1, ss + i * 32, 32) == 0;
                }
                /* decaps_many under dk (key 0): items for other keys and altered ones reject implicitly */
                for (size_t i = 0; i < n; i += 3) cts[i * ctl + (i * 13) % ctl] ^= (uint8_t)(1 + i);
                ok_dec &= dec_many(level, ss2, n * 32, cts, n * ctl, dk, dkl, n, impl) == 0;
                for (size_t i = 0; i < n; i++) {
                    ok_dec &= dec(level, s1, 32, cts + i * ctl, ctl, dk, dkl, "ref") == 0;
                    ok_dec &= memcmp(s1, ss2 + i * 32, 32) == 0;
                }
            }
            /* OS randomness, 21 items (crosses the 16-item randomness chunks), one key: round trip */
            size_t n = NMAX;
            for (size_t i = 0; i < n; i++) memcpy(eks + i * ekl, ek[0], ekl);
            ok_rt &= enc_many(level, cts, n * ctl, ss, n * 32, eks, n * ekl, NULL, 0, n, impl) == 0;
            ok_rt &= dec_many(level, ss2, n * 32, cts, n * ctl, dk, dkl, n, impl) == 0;
            ok_rt &= memcmp(ss, ss2, n * 32) == 0 && memcmp(ss, ss + 32, 32) != 0;
            /* errors: one ek failing the modulus check fails the call and zeroes every output */
            n = 6;
            set_coeff(eks + 4 * ekl, 3, MLKEM_Q);
            memset(ss, 0x55, n * 32);
            ok_err &= enc_many(level, cts, n * ctl, ss, n * 32, eks, n * ekl, ms, n * 32, n, impl) == NURI_EBADEK;
            ok_err &= all_zero(ss, n * 32) && all_zero(cts, n * ctl);
            /* a dk failing its hash check */
            memcpy(dk2, dk, dkl);
            dk2[384 * (level / 256) + 5] ^= 1;
            memset(ss2, 0x55, n * 32);
            ok_err &= dec_many(level, ss2, n * 32, cts, n * ctl, dk2, dkl, n, impl) == NURI_EBADDK;
            ok_err &= all_zero(ss2, n * 32);
            /* lengths: output capacities below n items (NURI_EBUFFER), inputs of the wrong length */
            ok_err &= dec_many(level, ss2, n * 32 - 1, cts, n * ctl, dk, dkl, n, impl) == NURI_EBUFFER;
            ok_err &= dec_many(level, ss2, n * 32, cts, n * ctl + 1, dk, dkl, n, impl) == NURI_ELENGTH;
            ok_err &= dec_many(level, ss2, n * 32, cts, n * ctl, dk, dkl - 1, n, impl) == NURI_ELENGTH;
            ok_err &= enc_many(level, cts, n * ctl, ss, n * 32, eks, n * ekl, ms, 32, n, impl) == NURI_ELENGTH;
            ok_err &= enc_many(level, cts, n * ctl, ss, n * 32, eks, n * ekl - 1, ms, n * 32, n, impl) == NURI_ELENGTH;
            ok_err &= enc_many(level, cts, n * ctl - 1, ss, n * 32, eks, n * ekl, ms, n * 32, n, impl) == NURI_EBUFFER;
            ok_err &= enc_many(level, cts, 0, ss, 64, eks, n * ekl, NULL, 0, /* n * ct bytes overflows */
                               SIZE_MAX / ctl + 2, impl) == NURI_EBUFFER;
            /* a context not set up: NURI_ESTATE, and the outputs zeroed all the same */
            nuri_mlkem_ctx unset = {0};
            memset(ss2, 0x55, n * 32);
            ok_err &= nuri_mlkem_decaps_many(&unset, ss2, n * 32, cts, n * ctl, dk, dkl, n) == NURI_ESTATE;
            ok_err &= all_zero(ss2, n * 32);
            memset(ss, 0x55, n * 32);
            memset(cts, 0x55, n * ctl);
            ok_err &=
                nuri_mlkem_encaps_many(&unset, cts, n * ctl, ss, n * 32, eks, n * ekl, ms, n * 32, n) == NURI_ESTATE;
            ok_err &= all_zero(ss, n * 32) && all_zero(cts, n * ctl);
        }
        CHECK(ok_enc, "%s: encaps_many == encaps per item (3 levels, n = 0..21, repeated and distinct keys)", impl);
        CHECK(ok_dec, "%s: decaps_many == decaps per item (valid, other-key and altered ciphertexts)", impl);
        CHECK(ok_rt, "%s: encaps_many with OS randomness round-trips through decaps_many (21 items)", impl);
        CHECK(ok_err, "%s: batch errors: bad ek / dk zero every output, length errors", impl);
    }
    /* fixed-size forms */
    {
        static uint8_t e[2][NURI_MLKEM768_EK_BYTES], d[NURI_MLKEM768_DK_BYTES], c[2][NURI_MLKEM768_CT_BYTES], k[2][32],
            k2[2][32], mm[2][32];
        int ok = nuri_mlkem768_keygen(e[0], d) == 0;
        memcpy(e[1], e[0], sizeof e[0]);
        tu_randbytes(&mm[0][0], sizeof mm);
        ok &= nuri_mlkem768_encaps_many_derand(c, k, (const uint8_t(*)[NURI_MLKEM768_EK_BYTES])e,
                                               (const uint8_t(*)[32])mm, 2) == 0;
        ok &= nuri_mlkem768_decaps_many(k2, (const uint8_t(*)[NURI_MLKEM768_CT_BYTES])c, d, 2) == 0;
        ok &= memcmp(k, k2, sizeof k) == 0;
        ok &= nuri_mlkem768_encaps_many(c, k, (const uint8_t(*)[NURI_MLKEM768_EK_BYTES])e, 2) == 0;
        ok &= nuri_mlkem768_decaps_many(k2, (const uint8_t(*)[NURI_MLKEM768_CT_BYTES])c, d, 2) == 0;
        ok &= memcmp(k, k2, sizeof k) == 0;
        CHECK(ok, "fixed-size ML-KEM-768 encaps_many(_derand)/decaps_many round trips");
    }
}

/* The 24 fixed-size functions of src/mlkem/levels.c against the context API with ref: the same
 * keys, ciphertexts and shared keys from the same randomness, for every level; the batch forms
 * refuse an item count whose byte size overflows (NURI_EBUFFER, nothing written). */
#define FIXED_LEVEL_CASE(L)                                                                                            \
    do {                                                                                                               \
        static uint8_t ek[2][NURI_MLKEM##L##_EK_BYTES], dk[NURI_MLKEM##L##_DK_BYTES], ct[2][NURI_MLKEM##L##_CT_BYTES], \
            ss[2][32], ss2[2][32], ek2[NURI_MLKEM##L##_EK_BYTES], dk2[NURI_MLKEM##L##_DK_BYTES],                       \
            ct2[NURI_MLKEM##L##_CT_BYTES], m[2][32], seed[64];                                                         \
        tu_randbytes(seed, sizeof seed);                                                                               \
        tu_randbytes(&m[0][0], sizeof m);                                                                              \
        int ok = nuri_mlkem##L##_keygen_derand(ek[0], dk, seed) == 0;                                                  \
        ok &= kg(L, ek2, sizeof ek2, dk2, sizeof dk2, seed, 64, "ref") == 0;                                           \
        ok &= memcmp(ek[0], ek2, sizeof ek2) == 0 && memcmp(dk, dk2, sizeof dk2) == 0;                                 \
        memcpy(ek[1], ek[0], sizeof ek[0]);                                                                            \
        ok &= nuri_mlkem##L##_encaps_derand(ct[0], ss[0], ek[0], m[0]) == 0;                                           \
        ok &= enc(L, ct2, sizeof ct2, ss2[0], 32, ek[0], sizeof ek[0], m[0], 32, "ref") == 0;                          \
        ok &= memcmp(ct[0], ct2, sizeof ct2) == 0 && memcmp(ss[0], ss2[0], 32) == 0;                                   \
        ok &= nuri_mlkem##L##_decaps(ss2[1], ct[0], dk) == 0 && memcmp(ss2[1], ss[0], 32) == 0;                        \
        ok &= nuri_mlkem##L##_encaps_many_derand(ct, ss, (const uint8_t(*)[NURI_MLKEM##L##_EK_BYTES])ek,               \
                                                 (const uint8_t(*)[32])m, 2) == 0;                                     \
        ok &= memcmp(ct[0], ct2, sizeof ct2) == 0;                                                                     \
        ok &= nuri_mlkem##L##_decaps_many(ss2, (const uint8_t(*)[NURI_MLKEM##L##_CT_BYTES])ct, dk, 2) == 0;            \
        ok &= memcmp(ss, ss2, sizeof ss) == 0;                                                                         \
        ok &= nuri_mlkem##L##_keygen(ek[0], dk) == 0 && nuri_mlkem##L##_encaps(ct[0], ss[0], ek[0]) == 0;              \
        ok &= nuri_mlkem##L##_decaps(ss2[0], ct[0], dk) == 0 && memcmp(ss[0], ss2[0], 32) == 0;                        \
        memcpy(ek[1], ek[0], sizeof ek[0]);                                                                            \
        ok &= nuri_mlkem##L##_encaps_many(ct, ss, (const uint8_t(*)[NURI_MLKEM##L##_EK_BYTES])ek, 2) == 0;             \
        ok &= nuri_mlkem##L##_decaps_many(ss2, (const uint8_t(*)[NURI_MLKEM##L##_CT_BYTES])ct, dk, 2) == 0;            \
        ok &= memcmp(ss, ss2, sizeof ss) == 0 && memcmp(ss[0], ss[1], 32) != 0;                                        \
        size_t huge = SIZE_MAX / NURI_MLKEM##L##_CT_BYTES + 2;                                                         \
        ok &=                                                                                                          \
            nuri_mlkem##L##_encaps_many(ct, ss, (const uint8_t(*)[NURI_MLKEM##L##_EK_BYTES])ek, huge) == NURI_EBUFFER; \
        ok &= nuri_mlkem##L##_decaps_many(ss2, (const uint8_t(*)[NURI_MLKEM##L##_CT_BYTES])ct, dk,                     \
                                          SIZE_MAX / 32 + 2) == NURI_EBUFFER;                                          \
        CHECK(ok, "ML-KEM-%d: the fixed-size functions == the context API (ref), overflowing counts refused", L);      \
    } while (0)

static void test_fixed_levels(void)
{
    FIXED_LEVEL_CASE(512);
    FIXED_LEVEL_CASE(768);
    FIXED_LEVEL_CASE(1024);
}
#undef FIXED_LEVEL_CASE

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_mlkem <tests/vectors/mlkem>\n");
        return 2;
    }
    tu_seed_from_env();
    load_impls();
    test_sha3();
#if defined(NURI_HAVE_MLKEM_AVX512)
    test_keccak_tasks_x8();
#endif
#if defined(NURI_HAVE_MLKEM_NEON)
    test_keccakx2();
#endif
    test_compress_exhaustive();
    test_compress_all_backends();
    test_kernels();
    test_sample_many();
    test_acvp();
    test_aes256();
    test_kat();
    test_kat_files(argv[1]);
    test_modulus_check();
    test_degenerate_ek();
    test_hash_check_and_rejection();
    test_length_errors();
    test_api_and_differential();
    test_malformed_differential();
    test_malformed_mutations();
    test_batch();
    test_fixed_levels();
    return tu_finish("test_mlkem");
}
