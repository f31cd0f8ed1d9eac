/* Internal Keccak interface (FIPS 202): the permutation, block-level SHAKE, and a four-way
 * batched form. The x4 state is lane-interleaved (lane i of instance j at s[4*i + j]) so a
 * 256-bit SIMD permutation can load lane i of all four instances with one vector load; the
 * portable version permutes each instance in place with stride 4 (no copies). */
#ifndef NURI_FIPS202_H
#define NURI_FIPS202_H

#include <stddef.h>
#include <stdint.h>

#include "nuri/sha3.h"

void nuri_keccakf1600(uint64_t s[25]);

/* Four independent Keccak-f[1600] states, interleaved. */
typedef struct nuri_keccakx4 {
    uint64_t s[100];
} nuri_keccakx4;

void nuri_keccakf1600_x4(uint64_t s[100]);

/* SHAKE with whole-block squeezing (rate 168 or 136): absorb all input at once, then squeeze
 * nblocks full blocks. Used for matrix expansion and noise sampling. */
void nuri_shake_absorb_once(uint64_t s[25], unsigned rate, const uint8_t *in, size_t len);
void nuri_shake_squeezeblocks(uint8_t *out, size_t nblocks, uint64_t s[25], unsigned rate);

/* The same on four instances with equal-length inputs. */
void nuri_shake_x4_absorb_once(nuri_keccakx4 *st, unsigned rate, const uint8_t *in0, const uint8_t *in1,
                               const uint8_t *in2, const uint8_t *in3, size_t len);
void nuri_shake_x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3, size_t nblocks,
                                 nuri_keccakx4 *st, unsigned rate);

/* One-shot Keccak hashing as a list of independent jobs of the same rate (SHA3-256 and SHAKE256:
 * 136, SHA3-512: 72, SHAKE128: 168). Each job hashes pre || in (pre may be NULL) with domain byte
 * ds (0x06 SHA-3, 0x1F SHAKE) into outlen <= rate bytes. nuri_keccak_jobs runs them one after the
 * other; a SIMD form may run up to four at once (e.g. two hashes a protocol needs independently). */
typedef struct nuri_keccak_job {
    const uint8_t *pre;
    size_t prelen;
    const uint8_t *in;
    size_t len;
    uint8_t *out;
    size_t outlen;
    uint8_t ds;
} nuri_keccak_job;

void nuri_keccak_jobs(const nuri_keccak_job *jobs, unsigned n, unsigned rate);

/* The same three functions on AVX2 (keccakx4_avx2.c, built on x86-64 only): call them only
 * when the CPU has AVX2, i.e. from a backend that dispatch chose for its AVX2 requirement. */
void nuri_keccakf1600_x4_avx2(uint64_t s[100]);
void nuri_shake_x4_absorb_once_avx2(nuri_keccakx4 *st, unsigned rate, const uint8_t *in0, const uint8_t *in1,
                                    const uint8_t *in2, const uint8_t *in3, size_t len);
void nuri_shake_x4_squeezeblocks_avx2(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3, size_t nblocks,
                                      nuri_keccakx4 *st, unsigned rate);
/* nuri_keccak_jobs with four jobs per AVX2 permutation (jobs of one group of four that need
 * different numbers of blocks, and a lone last job, go through nuri_keccak_job1). Needs AVX2. */
void nuri_keccak_jobs_avx2(const nuri_keccak_job *jobs, unsigned n, unsigned rate);
/* One job on a single state built with BMI1/BMI2 (keccak1_bmi2.c, x86-64 builds; needs BMI2).
 * Here outlen may exceed the rate (SHAKE output of several blocks). nuri_keccak_job1 runs it when
 * the CPU has BMI2 and the portable permutation otherwise (x86-64 builds). */
void nuri_keccak_job_bmi2(const nuri_keccak_job *job, unsigned rate);
void nuri_keccakf1600_bmi2(uint64_t s[25]); /* the permutation of that build (needs BMI2) */
void nuri_keccak_job1(const nuri_keccak_job *job, unsigned rate);

/* A job with its own rate, in lists that mix SHAKE128, SHAKE256 and SHA-3; here outlen may exceed
 * the rate (several squeezed blocks: XOF output for sampling). With `state` set, the sponge
 * continues from *state instead of starting from zero (a message hashed in parts, as it is
 * produced), and a task with job.out == NULL absorbs its message -- whole blocks, no padding --
 * and leaves the sponge in *state for a later task. */
typedef struct nuri_keccak_task {
    nuri_keccak_job job;
    unsigned rate;
    uint64_t *state;
} nuri_keccak_task;

/* Eight interleaved states (lane i of instance j at s[8*i + j]) on AVX-512 (keccakx8_avx512.c,
 * x86-64 builds; needs AVX-512F). nuri_keccak_tasks_x8_avx512 runs a task list on it, eight at a
 * time: a lane that finishes its task takes the next (longest first), so tasks of different
 * lengths and rates share permutations. nuri_keccak_jobs_x8_avx512 is nuri_keccak_jobs on it. */
void nuri_keccakf1600_x8_avx512(uint64_t s[200]);
void nuri_keccak_tasks_x8_avx512(const nuri_keccak_task *tasks, unsigned n);
void nuri_keccak_jobs_x8_avx512(const nuri_keccak_job *jobs, unsigned n, unsigned rate);

/* Two Keccak-f[1600] states, interleaved (lane i of instance j at s[2*i + j]), so that lane i of
 * both is one 128-bit NEON register (keccakx2_neon.c, keccakx2_neon_sha3.c; AArch64 builds and
 * the emulated NEON build). The permutation on plain NEON, or on the ARMv8.2 SHA-3 extension
 * (EOR3/RAX1/XAR/BCAX; call it only when nuri_keccakx2_has_sha3()). With the extension one
 * state alone is also cheapest on the two-way permutation; without it, on the scalar one. The
 * sponge functions take `sha3` = nuri_keccakx2_has_sha3(), read once by their caller. */
typedef struct nuri_keccakx2 {
    _Alignas(16) uint64_t s[50];
} nuri_keccakx2;
void nuri_keccakf1600_x2_neon(uint64_t s[50]);
void nuri_keccakf1600_x2_sha3(uint64_t s[50]);
int nuri_keccakx2_has_sha3(void);
/* SHAKE on two instances with equal-length inputs (rate 168 or 136), whole-block squeezing. */
void nuri_shake_x2_absorb_once(nuri_keccakx2 *st, unsigned rate, const uint8_t *in0, const uint8_t *in1, size_t len,
                               int sha3);
void nuri_shake_x2_squeezeblocks(uint8_t *out0, uint8_t *out1, size_t nblocks, nuri_keccakx2 *st, unsigned rate,
                                 int sha3);
/* nuri_keccak_jobs two at a time (a pair runs as many permutations as its longer job needs; a
 * lone last job runs on the two-way permutation with the SHA-3 extension, else on the scalar one). */
void nuri_keccak_jobs_x2(const nuri_keccak_job *jobs, unsigned n, unsigned rate, int sha3);

#endif
