/* Two-way Keccak-f[1600] on plain NEON (ASIMD, part of every ARMv8-A core), and the two-way
 * sponge functions (SHAKE absorb/squeeze, lists of one-shot hashes) over either permutation.
 * The round is keccakx2_round.h's plain-NEON form (KX2_ROUND_ROL), with the SHA-3-extension
 * operations built from NEON ones (rotations as SHL + SRI). The sponge functions run
 * keccakx2_neon_sha3.c's permutation instead when their caller says the CPU has the SHA-3
 * extension (nuri_keccakx2_has_sha3). No data-dependent branches or memory indices: the loops
 * branch on lengths only. */
#if defined(NURI_NEON_EMULATED)
#include "neon_emul.h" /* test builds: the same code through portable intrinsics */
#else
#include <arm_neon.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "fips202.h"
#include "keccak_job.h"
#include "nuri_internal.h"

#define ROL(x, n)     vsriq_n_u64(vshlq_n_u64((x), (n)), (x), 64 - (n))
#define EOR3(a, b, c) veorq_u64(veorq_u64((a), (b)), (c))
#define RAX1(a, b)    veorq_u64((a), vsriq_n_u64(vaddq_u64((b), (b)), (b), 63))
#define BCAX(a, b, c) veorq_u64((a), vbicq_u64((b), (c)))
#include "keccakx2_round.h"

void nuri_keccakf1600_x2_neon(uint64_t s[50]) { KX2_PERMUTE_BODY(s, KX2_ROUND_ROL); }

int nuri_keccakx2_has_sha3(void)
{
#if defined(NURI_NEON_EMULATED)
    /* the emulated build runs both permutations on any CPU; NURI_CPU_MASK's SHA-3 bit selects */
    const char *mask = nuri_getenv_cached(NURI_ENV_CPU_MASK);
    return !(mask && *mask && (strtoul(mask, NULL, 16) & NURI_CPU_ARM_SHA3));
#else
    return nuri_cpu_has(NURI_CPU_ARM_SHA3);
#endif
}

static inline void permute(uint64_t s[50], int sha3)
{
    if (sha3) nuri_keccakf1600_x2_sha3(s);
    else nuri_keccakf1600_x2_neon(s);
}

/* s ^= the first `lanes` 64-bit words of in0 (instance 0) and in1 (instance 1), little-endian. */
static void xor_lanes(uint64_t s[50], const uint8_t *in0, const uint8_t *in1, unsigned lanes)
{
    for (unsigned i = 0; i < lanes; i++) {
        uint64x2_t v = vreinterpretq_u64_u8(vcombine_u8(vld1_u8(in0 + 8 * i), vld1_u8(in1 + 8 * i)));
        vst1q_u64(s + 2 * i, veorq_u64(vld1q_u64(s + 2 * i), v));
    }
}

/* out0, out1 = the first `lanes` 64-bit words of each instance. */
static void extract_lanes(uint8_t *out0, uint8_t *out1, const uint64_t s[50], unsigned lanes)
{
    unsigned i = 0;
    for (; i + 2 <= lanes; i += 2) {
        uint64x2x2_t v = vld2q_u64(s + 2 * i); /* val[j] = lanes i, i+1 of instance j */
        vst1q_u8(out0 + 8 * i, vreinterpretq_u8_u64(v.val[0]));
        vst1q_u8(out1 + 8 * i, vreinterpretq_u8_u64(v.val[1]));
    }
    if (i < lanes) {
        uint8x16_t v = vreinterpretq_u8_u64(vld1q_u64(s + 2 * i));
        vst1_u8(out0 + 8 * i, vget_low_u8(v));
        vst1_u8(out1 + 8 * i, vget_high_u8(v));
    }
}

/* len < rate bytes of one instance's last block, with SHAKE's padding, into blk (rate bytes). */
static void pad_block(uint8_t *blk, const uint8_t *in, size_t len, unsigned rate, uint8_t ds)
{
    memset(blk, 0, rate);
    memcpy(blk, in, len);
    blk[len] ^= ds;
    blk[rate - 1] ^= 0x80;
}

void nuri_shake_x2_absorb_once(nuri_keccakx2 *st, unsigned rate, const uint8_t *in0, const uint8_t *in1, size_t len,
                               int sha3)
{
    uint8_t b0[NURI_SHAKE128_RATE], b1[NURI_SHAKE128_RATE];
    memset(st->s, 0, sizeof st->s);
    for (; len >= rate; len -= rate, in0 += rate, in1 += rate) {
        xor_lanes(st->s, in0, in1, rate / 8);
        permute(st->s, sha3);
    }
    pad_block(b0, in0, len, rate, 0x1F);
    pad_block(b1, in1, len, rate, 0x1F);
    xor_lanes(st->s, b0, b1, rate / 8);
    nuri_wipe(b0, sizeof b0);
    nuri_wipe(b1, sizeof b1);
}

void nuri_shake_x2_squeezeblocks(uint8_t *out0, uint8_t *out1, size_t nblocks, nuri_keccakx2 *st, unsigned rate,
                                 int sha3)
{
    for (; nblocks; nblocks--, out0 += rate, out1 += rate) {
        permute(st->s, sha3);
        extract_lanes(out0, out1, st->s, rate / 8);
    }
}

/* The first len bytes of instance `lane`. */
static void extract_bytes(uint8_t *out, const uint64_t s[50], unsigned lane, size_t len)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8) nuri_store64_le(out + i, s[2 * (i / 8) + lane]);
    if (i < len) {
        uint8_t t[8];
        nuri_store64_le(t, s[2 * (i / 8) + lane]);
        memcpy(out + i, t, len - i);
        nuri_wipe(t, sizeof t);
    }
}

void nuri_keccak_jobs_x2(const nuri_keccak_job *jobs, unsigned n, unsigned rate, int sha3)
{
    static const uint8_t zero[NURI_SHAKE128_RATE];
    _Alignas(16) uint64_t s[50];
    uint8_t blk0[NURI_SHAKE128_RATE], blk1[NURI_SHAKE128_RATE];
    for (unsigned i = 0; i < n; i += 2) {
        const nuri_keccak_job *j0 = &jobs[i], *j1 = i + 1 < n ? &jobs[i + 1] : NULL;
        if (!j1 && !sha3) { /* one state alone: the scalar permutation is cheaper than plain NEON x2 */
            nuri_keccak_jobs(j0, 1, rate);
            break;
        }
        const size_t n0 = nuri_keccak_job_blocks(j0, rate), n1 = j1 ? nuri_keccak_job_blocks(j1, rate) : 0,
                     nb = n0 > n1 ? n0 : n1;
        memset(s, 0, sizeof s);
        for (size_t b = 0; b < nb; b++) {
            /* a job that has finished keeps being permuted on zero blocks: its output is taken */
            const uint8_t *p0 = b < n0 ? nuri_keccak_job_block_at(blk0, j0, b, rate) : zero;
            const uint8_t *p1 = b < n1 ? nuri_keccak_job_block_at(blk1, j1, b, rate) : zero;
            xor_lanes(s, p0, p1, rate / 8);
            permute(s, sha3);
            if (b + 1 == n0) extract_bytes(j0->out, s, 0, j0->outlen);
            if (j1 && b + 1 == n1) extract_bytes(j1->out, s, 1, j1->outlen);
        }
    }
    nuri_wipe(s, sizeof s);
    nuri_wipe(blk0, sizeof blk0);
    nuri_wipe(blk1, sizeof blk1);
}
