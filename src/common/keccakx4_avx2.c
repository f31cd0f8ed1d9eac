/* Four-way Keccak-f[1600] in AVX2 registers, and the x4 block-level SHAKE on top of it.
 * The state layout is nuri_keccakx4's (lane i of instance j at s[4*i + j]), so lane i of all four
 * instances is one 256-bit load. The round is keccak_round.h's, instantiated on a 4 x 64-bit
 * vector type; rotations by 8 and 56 are byte shuffles. Compiled with -mavx2 only (family.cmake);
 * callers reach it through a backend chosen by dispatch on AVX2 CPUs. No data-dependent branches
 * or memory indices. */
#include <immintrin.h>
#include <string.h>

#include "fips202.h"
#include "keccak_job.h"
#include "nuri_internal.h"

typedef uint64_t v4u64 __attribute__((vector_size(32), aligned(32)));

static inline v4u64 rol8(v4u64 x)
{
    const __m256i m = _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, 7, 0, 1, 2, 3, 4, 5, 6, 15,
                                       8, 9, 10, 11, 12, 13, 14);
    return (v4u64)_mm256_shuffle_epi8((__m256i)x, m);
}
static inline v4u64 rol56(v4u64 x)
{
    const __m256i m = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0, 9,
                                       10, 11, 12, 13, 14, 15, 8);
    return (v4u64)_mm256_shuffle_epi8((__m256i)x, m);
}
#define ROL(x, n) ((n) == 8 ? rol8(x) : (n) == 56 ? rol56(x) : (((x) << (n)) | ((x) >> (64 - (n)))))
#include "keccak_round.h"

void nuri_keccakf1600_x4_avx2(uint64_t s[100])
{
    v4u64 *v = (v4u64 *)s; /* nuri_keccakx4 is 32-byte aligned by its users; loads below are unaligned-safe */
    v4u64 a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23,
        a24;
    v4u64 e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15, e16, e17, e18, e19, e20, e21, e22, e23,
        e24;
    v4u64 b0, b1, b2, b3, b4, c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
#define LD(i) a##i = (v4u64)_mm256_loadu_si256((const __m256i *)&v[i])
    LD(0);
    LD(1);
    LD(2);
    LD(3);
    LD(4);
    LD(5);
    LD(6);
    LD(7);
    LD(8);
    LD(9);
    LD(10);
    LD(11);
    LD(12);
    LD(13);
    LD(14);
    LD(15);
    LD(16);
    LD(17);
    LD(18);
    LD(19);
    LD(20);
    LD(21);
    LD(22);
    LD(23);
    LD(24);
#undef LD
    for (int r = 0; r < 24; r += 2) {
        KECCAK_ROUND_AE
        e0 ^= RC[r];
        KECCAK_ROUND_EA
        a0 ^= RC[r + 1];
    }
#define ST(i) _mm256_storeu_si256((__m256i *)&v[i], (__m256i)a##i)
    ST(0);
    ST(1);
    ST(2);
    ST(3);
    ST(4);
    ST(5);
    ST(6);
    ST(7);
    ST(8);
    ST(9);
    ST(10);
    ST(11);
    ST(12);
    ST(13);
    ST(14);
    ST(15);
    ST(16);
    ST(17);
    ST(18);
    ST(19);
    ST(20);
    ST(21);
    ST(22);
    ST(23);
    ST(24);
#undef ST
}

/* XOR one rate-sized block (or the padded tail) of each instance into the interleaved state. */
static void xor_lanes(uint64_t *s, const uint8_t *const in[4], size_t off, size_t len)
{
    for (size_t i = 0; i < len / 8; i++)
        for (int j = 0; j < 4; j++) s[4 * i + j] ^= nuri_load64_le(in[j] + off + 8 * i);
    for (size_t b = len & ~(size_t)7; b < len; b++)
        for (int j = 0; j < 4; j++) s[4 * (b >> 3) + j] ^= (uint64_t)in[j][off + b] << (8 * (b & 7));
}

/* XOR one rate-sized block of each instance into the interleaved state: four lanes of four
 * instances at a time through a 4x4 transpose of 64-bit words (the squeeze's, reversed). */
static void xor_blocks(uint64_t *s, const uint8_t *const in[4], unsigned rate)
{
    unsigned i = 0;
    for (; i + 4 <= rate / 8; i += 4) {
        __m256i r0 = _mm256_loadu_si256((const __m256i *)(in[0] + 8 * i)); /* lanes i..i+3 of instance 0 */
        __m256i r1 = _mm256_loadu_si256((const __m256i *)(in[1] + 8 * i));
        __m256i r2 = _mm256_loadu_si256((const __m256i *)(in[2] + 8 * i));
        __m256i r3 = _mm256_loadu_si256((const __m256i *)(in[3] + 8 * i));
        __m256i t0 = _mm256_unpacklo_epi64(r0, r1), t1 = _mm256_unpackhi_epi64(r0, r1);
        __m256i t2 = _mm256_unpacklo_epi64(r2, r3), t3 = _mm256_unpackhi_epi64(r2, r3);
        __m256i *v = (__m256i *)&s[4 * i];
        _mm256_storeu_si256(v, _mm256_xor_si256(_mm256_loadu_si256(v), _mm256_permute2x128_si256(t0, t2, 0x20)));
        _mm256_storeu_si256(v + 1,
                            _mm256_xor_si256(_mm256_loadu_si256(v + 1), _mm256_permute2x128_si256(t1, t3, 0x20)));
        _mm256_storeu_si256(v + 2,
                            _mm256_xor_si256(_mm256_loadu_si256(v + 2), _mm256_permute2x128_si256(t0, t2, 0x31)));
        _mm256_storeu_si256(v + 3,
                            _mm256_xor_si256(_mm256_loadu_si256(v + 3), _mm256_permute2x128_si256(t1, t3, 0x31)));
    }
    for (; i < rate / 8; i++)
        for (int j = 0; j < 4; j++) s[4 * i + j] ^= nuri_load64_le(in[j] + 8 * i);
}

void nuri_shake_x4_absorb_once_avx2(nuri_keccakx4 *st, unsigned rate, const uint8_t *in0, const uint8_t *in1,
                                    const uint8_t *in2, const uint8_t *in3, size_t len)
{
    const uint8_t *const in[4] = {in0, in1, in2, in3};
    size_t off = 0;
    memset(st->s, 0, sizeof st->s);
    for (; len - off >= rate; off += rate) {
        xor_lanes(st->s, in, off, rate);
        nuri_keccakf1600_x4_avx2(st->s);
    }
    xor_lanes(st->s, in, off, len - off);
    size_t t = len - off;
    for (int j = 0; j < 4; j++) {
        st->s[4 * (t >> 3) + j] ^= 0x1FULL << (8 * (t & 7));
        st->s[4 * ((rate - 1) >> 3) + j] ^= 0x80ULL << (8 * ((rate - 1) & 7));
    }
}

/* Squeeze: four lanes of four instances form a 4x4 matrix of 64-bit words; transposing it gives
 * 32 contiguous output bytes per instance. rate is 168 or 136 (21 or 17 lanes). */
void nuri_shake_x4_squeezeblocks_avx2(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3, size_t nblocks,
                                      nuri_keccakx4 *st, unsigned rate)
{
    uint8_t *out[4] = {out0, out1, out2, out3};
    const unsigned lanes = rate / 8;
    while (nblocks--) {
        nuri_keccakf1600_x4_avx2(st->s);
        unsigned i = 0;
        for (; i + 4 <= lanes; i += 4) {
            __m256i r0 = _mm256_loadu_si256((const __m256i *)&st->s[4 * i]);
            __m256i r1 = _mm256_loadu_si256((const __m256i *)&st->s[4 * i + 4]);
            __m256i r2 = _mm256_loadu_si256((const __m256i *)&st->s[4 * i + 8]);
            __m256i r3 = _mm256_loadu_si256((const __m256i *)&st->s[4 * i + 12]);
            __m256i t0 = _mm256_unpacklo_epi64(r0, r1); /* l0j0 l1j0 | l0j2 l1j2 */
            __m256i t1 = _mm256_unpackhi_epi64(r0, r1); /* l0j1 l1j1 | l0j3 l1j3 */
            __m256i t2 = _mm256_unpacklo_epi64(r2, r3);
            __m256i t3 = _mm256_unpackhi_epi64(r2, r3);
            _mm256_storeu_si256((__m256i *)(out[0] + 8 * i), _mm256_permute2x128_si256(t0, t2, 0x20));
            _mm256_storeu_si256((__m256i *)(out[1] + 8 * i), _mm256_permute2x128_si256(t1, t3, 0x20));
            _mm256_storeu_si256((__m256i *)(out[2] + 8 * i), _mm256_permute2x128_si256(t0, t2, 0x31));
            _mm256_storeu_si256((__m256i *)(out[3] + 8 * i), _mm256_permute2x128_si256(t1, t3, 0x31));
        }
        for (; i < lanes; i++)
            for (int j = 0; j < 4; j++) nuri_store64_le(out[j] + 8 * i, st->s[4 * i + j]);
        for (int j = 0; j < 4; j++) out[j] += rate;
    }
}

void nuri_keccak_job1(const nuri_keccak_job *job, unsigned rate)
{
    if (nuri_cpu_has(NURI_CPU_BMI2)) nuri_keccak_job_bmi2(job, rate);
    else nuri_keccak_jobs(job, 1, rate);
}

void nuri_keccak_jobs_avx2(const nuri_keccak_job *jobs, unsigned n, unsigned rate)
{
    unsigned i = 0;
    while (i < n) {
        unsigned m = n - i < 4 ? n - i : 4;
        size_t blocks = (jobs[i].prelen + jobs[i].len) / rate + 1;
        int same = m > 1;
        for (unsigned j = 1; j < m; j++) same &= (jobs[i + j].prelen + jobs[i + j].len) / rate + 1 == blocks;
        if (!same) {
            nuri_keccak_job1(&jobs[i], rate);
            i++;
            continue;
        }
        _Alignas(32) nuri_keccakx4 st;
        uint8_t blk[4][200];
        const uint8_t *lanes[4];
        memset(&st, 0, sizeof st);
        memset(blk, 0, sizeof blk);
        for (unsigned j = 0; j < 4; j++) lanes[j] = blk[j]; /* idle lanes stay on zero blocks */
        for (size_t b = 0; b < blocks; b++) {
            for (unsigned j = 0; j < m; j++) {
                const nuri_keccak_job *job = &jobs[i + j];
                const size_t off = b * rate;
                if (off >= job->prelen && off + rate <= job->prelen + job->len) {
                    lanes[j] = job->in + (off - job->prelen); /* a whole block of in: read in place */
                } else {
                    nuri_keccak_job_block(blk[j], job, off, rate);
                    lanes[j] = blk[j];
                }
            }
            xor_blocks(st.s, lanes, rate);
            nuri_keccakf1600_x4_avx2(st.s);
        }
        for (unsigned j = 0; j < m; j++)
            for (size_t b = 0; b < jobs[i + j].outlen; b++)
                jobs[i + j].out[b] = (uint8_t)(st.s[4 * (b >> 3) + j] >> (8 * (b & 7)));
        nuri_wipe(&st, sizeof st);
        nuri_wipe(blk, sizeof blk);
        i += m;
    }
}
