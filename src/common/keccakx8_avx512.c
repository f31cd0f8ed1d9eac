/* Eight-way Keccak-f[1600] in AVX-512 registers, and a runner for lists of Keccak tasks on it.
 *
 * The permutation is keccak_round.h's round on a vector of eight 64-bit lanes (lane i of
 * instance j at s[8*i + j]); GCC turns its rotations into vprolq and its chi (b ^ (~b' & b'')) and
 * three-way XORs into vpternlogq. With 32 vector registers the state stays in registers. On the
 * AMD EPYC (family 26) it was measured on, one eight-way permutation costs about 1.05x a
 * single-state one (BMI2 build) and 1.1x a four-way one in 256-bit AVX-512VL registers, so the
 * ML-KEM avx512 backend runs all its Keccak work through it, except a task left alone at the end
 * of a list, which finishes on one state.
 *
 * The runner takes tasks of any rate and length (one-shot hashes, and XOF streams squeezing
 * several blocks) and keeps the eight instances busy: a lane that finishes its task takes the next
 * one, longest first. Its branches depend on lengths and rates only, never on data. Compiled with
 * the AVX-512 flags only (family.cmake); callers reach it through a backend chosen by dispatch on
 * AVX-512 CPUs. */
#if defined(NURI_AVX512_EMULATED)
#include "avx512_emul.h" /* test builds: the same code through portable intrinsics */
#else
#include <immintrin.h>
#endif
#include <string.h>

#include "fips202.h"
#include "keccak_job.h"
#include "keccak_round.h"
#include "nuri_internal.h"

typedef uint64_t v8u64 __attribute__((vector_size(64), aligned(64)));
typedef uint64_t v8u64_u __attribute__((vector_size(64), aligned(8), may_alias)); /* unaligned access */

void nuri_keccakf1600_x8_avx512(uint64_t s[200])
{
    v8u64_u *v = (v8u64_u *)s;
    v8u64 a0 = v[0], a1 = v[1], a2 = v[2], a3 = v[3], a4 = v[4], a5 = v[5], a6 = v[6], a7 = v[7], a8 = v[8];
    v8u64 a9 = v[9], a10 = v[10], a11 = v[11], a12 = v[12], a13 = v[13], a14 = v[14], a15 = v[15], a16 = v[16];
    v8u64 a17 = v[17], a18 = v[18], a19 = v[19], a20 = v[20], a21 = v[21], a22 = v[22], a23 = v[23], a24 = v[24];
    v8u64 e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15, e16, e17, e18, e19, e20, e21, e22, e23,
        e24;
    v8u64 b0, b1, b2, b3, b4, c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
    for (int r = 0; r < 24; r += 2) {
        KECCAK_ROUND_AE
        e0 ^= RC[r];
        KECCAK_ROUND_EA
        a0 ^= RC[r + 1];
    }
    v[0] = a0;
    v[1] = a1;
    v[2] = a2;
    v[3] = a3;
    v[4] = a4;
    v[5] = a5;
    v[6] = a6;
    v[7] = a7;
    v[8] = a8;
    v[9] = a9;
    v[10] = a10;
    v[11] = a11;
    v[12] = a12;
    v[13] = a13;
    v[14] = a14;
    v[15] = a15;
    v[16] = a16;
    v[17] = a17;
    v[18] = a18;
    v[19] = a19;
    v[20] = a20;
    v[21] = a21;
    v[22] = a22;
    v[23] = a23;
    v[24] = a24;
}

/* x / rate, by constants for the rates in use (a division instruction costs tens of cycles). */
static inline size_t per_rate(size_t x, unsigned rate)
{
    switch (rate) {
    case NURI_SHAKE128_RATE:
        return x / NURI_SHAKE128_RATE;
    case NURI_SHAKE256_RATE:
        return x / NURI_SHAKE256_RATE;
    case NURI_SHA3_512_RATE:
        return x / NURI_SHA3_512_RATE;
    default:
        return x / rate;
    }
}

/* Blocks a task absorbs (the last one padded), and the permutations it needs: one more per
 * squeezed block after the first (which the last absorbing permutation yields). */
static size_t task_absorb(const nuri_keccak_task *t)
{
    return per_rate(t->job.prelen + t->job.len, t->rate) + (t->job.out != NULL); /* no padding block */
}
static size_t task_perms(const nuri_keccak_task *t)
{
    const size_t squeeze = t->job.outlen ? per_rate(t->job.outlen + t->rate - 1, t->rate) : 1;
    return task_absorb(t) + (t->job.out ? squeeze - 1 : 0);
}

#define LANES     8
#define CHUNK_MAX 64 /* tasks ordered at once (longer lists run in chunks) */

/* 8 x 8 transpose of 64-bit words: c[j] word i <-> c[i] word j. */
static inline void transpose8(__m512i c[8])
{
    __m512i t[8], u[8];
    for (int i = 0; i < 4; i++) {
        t[2 * i] = _mm512_unpacklo_epi64(c[2 * i], c[2 * i + 1]);     /* words 0 2 4 6 of rows 2i, 2i+1 */
        t[2 * i + 1] = _mm512_unpackhi_epi64(c[2 * i], c[2 * i + 1]); /* words 1 3 5 7 */
    }
    const __m512i lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13), hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    for (int h = 0; h < 2; h++) {
        for (int o = 0; o < 2; o++) {
            u[4 * h + o] = _mm512_permutex2var_epi64(t[4 * h + o], lo, t[4 * h + o + 2]);     /* words o, o+4 */
            u[4 * h + o + 2] = _mm512_permutex2var_epi64(t[4 * h + o], hi, t[4 * h + o + 2]); /* words o+2, o+6 */
        }
    }
    for (int w = 0; w < 4; w++) {
        c[w] = _mm512_shuffle_i64x2(u[w], u[w + 4], 0x44);
        c[w + 4] = _mm512_shuffle_i64x2(u[w], u[w + 4], 0xEE);
    }
}

/* XOR bytes[j] bytes from src[j] into lane j (none for bytes[j] = 0); lanes in `fresh` are first
 * set to zero (a new task). With three or more lanes absorbing, or a new task's lane to clear,
 * 8 x 8 blocks of words go through transpose8 under byte masks; otherwise word by word. */
static void absorb8(uint64_t *s, const uint8_t *const src[LANES], const unsigned bytes[LANES], __mmask8 fresh)
{
    unsigned most = 0, busy = 0, lanes[LANES];
    for (unsigned j = 0; j < LANES; j++) {
        most = bytes[j] > most ? bytes[j] : most;
        if (bytes[j]) lanes[busy++] = j;
    }
    if (busy == 1 && !fresh && bytes[lanes[0]] % 8 == 0) { /* one lane, whole words: the common case */
        const unsigned j = lanes[0];
        const __mmask8 m = (__mmask8)(1u << j);
        for (unsigned i = 0; i < bytes[j] / 8; i++) {
            __m512i *row = (__m512i *)(s + LANES * i), v = _mm512_loadu_si512(row);
            const __m512i w = _mm512_set1_epi64((long long)nuri_load64_le(src[j] + 8 * i));
            _mm512_storeu_si512(row, _mm512_mask_xor_epi64(v, m, v, w));
        }
        return;
    }
    if (busy < 3 && !fresh) { /* each word broadcast and XORed into its lane under a mask */
        const unsigned rows = fresh ? 25 : (most + 7) / 8;
        for (unsigned i = 0; i < rows; i++) {
            __m512i *row = (__m512i *)(s + LANES * i);
            __m512i v = _mm512_maskz_mov_epi64((__mmask8)~fresh, _mm512_loadu_si512(row));
            for (unsigned l = 0; l < busy; l++) {
                const unsigned j = lanes[l];
                if (bytes[j] <= 8 * i) continue;
                uint64_t w = 0;
                const unsigned n = bytes[j] - 8 * i;
                if (n >= 8) w = nuri_load64_le(src[j] + 8 * i);
                else
                    for (unsigned b = 0; b < n; b++) w |= (uint64_t)src[j][8 * i + b] << (8 * b);
                v = _mm512_mask_xor_epi64(v, (__mmask8)(1u << j), v, _mm512_set1_epi64((long long)w));
            }
            _mm512_storeu_si512(row, v);
        }
        return;
    }
    for (unsigned g = 0; g < 25; g += 8) {
        __m512i c[8];
        if (8 * g < most) {
            for (unsigned j = 0; j < LANES; j++) {
                const unsigned n = bytes[j] > 8 * g ? bytes[j] - 8 * g : 0;
                /* no load at all past the data: a masked load of an unmapped address is slow */
                c[j] = n >= 64 ? _mm512_loadu_si512(src[j] + 8 * g)
                       : n     ? _mm512_maskz_loadu_epi8(((__mmask64)1 << n) - 1, src[j] + 8 * g)
                               : _mm512_setzero_si512();
            }
            transpose8(c);
        } else {
            for (unsigned j = 0; j < LANES; j++) c[j] = _mm512_setzero_si512();
        }
        for (unsigned i = 0; i < 8 && g + i < 25; i++) {
            __m512i *row = (__m512i *)(s + LANES * (g + i));
            __m512i v = _mm512_loadu_si512(row);
            _mm512_storeu_si512(row, _mm512_mask_mov_epi64(_mm512_xor_si512(v, c[i]), fresh, c[i]));
        }
    }
}

/* Word `row` of lane j ^= w, in vector form (a scalar store into the state would stall the
 * permutation's vector load of the row). */
static inline void xor_word(uint64_t *s, unsigned row, unsigned j, uint64_t w)
{
    __m512i *p = (__m512i *)(s + LANES * row), v = _mm512_loadu_si512(p);
    _mm512_storeu_si512(p, _mm512_mask_xor_epi64(v, (__mmask8)(1u << j), v, _mm512_set1_epi64((long long)w)));
}

/* Word `row` ^= w in the lanes of mask m. */
static inline void xor_lanes(uint64_t *s, unsigned row, __mmask8 m, uint64_t w)
{
    if (!m) return;
    __m512i *p = (__m512i *)(s + LANES * row), v = _mm512_loadu_si512(p);
    _mm512_storeu_si512(p, _mm512_mask_xor_epi64(v, m, v, _mm512_set1_epi64((long long)w)));
}

/* The first bytes[j] bytes of lane j's state (at most 200) to dst[j] (none for bytes[j] = 0). */
static void squeeze8(const uint64_t *s, uint8_t *const dst[LANES], const unsigned bytes[LANES])
{
    unsigned most = 0;
    for (unsigned j = 0; j < LANES; j++) most = bytes[j] > most ? bytes[j] : most;
    for (unsigned g = 0; 8 * g < most; g += 8) {
        __m512i c[8];
        for (unsigned i = 0; i < 8; i++)
            c[i] = g + i < 25 ? _mm512_loadu_si512(s + LANES * (g + i)) : _mm512_setzero_si512();
        transpose8(c);
        for (unsigned j = 0; j < LANES; j++) {
            const unsigned n = bytes[j] > 8 * g ? bytes[j] - 8 * g : 0;
            if (n >= 64) _mm512_storeu_si512(dst[j] + 8 * g, c[j]);
            else if (n) _mm512_mask_storeu_epi8(dst[j] + 8 * g, ((__mmask64)1 << n) - 1, c[j]);
        }
    }
}

typedef struct {
    const nuri_keccak_task *t; /* NULL: idle */
    size_t blk, absorb;        /* blocks absorbed so far, blocks to absorb */
    size_t done;               /* output bytes written */
} lane;

/* The last task of a list, when no other lane is busy, continues on one state: the single-state
 * permutation (BMI2 build where the CPU has it) costs about as much as the eight-way one without
 * the lane bookkeeping. Lane j of s is as the eight-way loop left it (fresh: not started). */
static void finish_lone(lane *l, const uint64_t *s, unsigned j, int fresh, uint8_t *blk)
{
    const nuri_keccak_task *t = l->t;
    const nuri_keccak_job *job = &t->job;
    const unsigned rate = t->rate;
    void (*permute)(uint64_t *) = nuri_cpu_has(NURI_CPU_BMI2) ? nuri_keccakf1600_bmi2 : nuri_keccakf1600;
    uint64_t st[25];
    int out_ready = 0; /* the state holds an output block not yet taken */
    for (unsigned i = 0; i < 25; i++) st[i] = fresh ? (t->state ? t->state[i] : 0) : s[LANES * i + j];
    for (; l->blk < l->absorb; l->blk++) {
        const size_t off = l->blk * rate;
        const uint8_t *p = blk;
        if (off >= job->prelen && off + rate <= job->prelen + job->len) p = job->in + (off - job->prelen);
        else nuri_keccak_job_block(blk, job, off, rate); /* padded if it is the last */
        for (unsigned i = 0; i < rate / 8; i++) st[i] ^= nuri_load64_le(p + 8 * i);
        permute(st);
        out_ready = 1;
    }
    if (!job->out) { /* absorbed in part: the sponge waits in *state */
        memcpy(t->state, st, sizeof st);
    } else {
        while (l->done < job->outlen) {
            if (!out_ready) permute(st);
            out_ready = 0;
            const size_t m = job->outlen - l->done < rate ? job->outlen - l->done : rate;
            size_t b = 0;
            for (; b + 8 <= m; b += 8) nuri_store64_le(job->out + l->done + b, st[b / 8]);
            for (; b < m; b++) job->out[l->done + b] = (uint8_t)(st[b / 8] >> (8 * (b % 8)));
            l->done += m;
        }
    }
    l->t = NULL;
    nuri_wipe(st, sizeof st);
}

/* Returns 1 if it assembled blocks in blk (which then needs wiping). */
static int run_chunk(const nuri_keccak_task *tasks, unsigned n, uint64_t *s, uint8_t blk[LANES][NURI_SHAKE128_RATE])
{
    int used = 0;
    /* longest first (insertion sort of the indices; lengths are public) */
    uint8_t order[CHUNK_MAX];
    size_t perms[CHUNK_MAX];
    for (unsigned i = 0; i < n; i++) {
        size_t p = task_perms(&tasks[i]);
        unsigned j = i;
        for (; j > 0 && perms[j - 1] < p; j--) {
            perms[j] = perms[j - 1];
            order[j] = order[j - 1];
        }
        perms[j] = p;
        order[j] = (uint8_t)i;
    }
    lane ln[LANES];
    memset(ln, 0, sizeof ln);
    unsigned next = 0;
    for (;;) {
        const uint8_t *src[LANES];
        unsigned bytes[LANES], active = 0, lone = 0;
        __mmask8 fresh = 0, pad = 0;
        for (unsigned j = 0; j < LANES; j++) {
            while (next < n && perms[next] == 0) next++; /* nothing to absorb: *state stays as it is */
            if (!ln[j].t && next < n) {
                ln[j].t = &tasks[order[next++]];
                ln[j].blk = 0;
                ln[j].absorb = task_absorb(ln[j].t);
                ln[j].done = 0;
                fresh |= (__mmask8)(1u << j);
            }
            if (ln[j].t) {
                active++;
                lone = j;
            }
        }
        if (!active) break;
        if (active == 1 && next >= n) { /* the last task, alone: on one state */
            finish_lone(&ln[lone], s, lone, fresh >> lone & 1, blk[0]);
            return 1;
        }
        for (unsigned j = 0; j < LANES; j++) {
            bytes[j] = 0;
            src[j] = NULL;
            if (ln[j].t && ln[j].blk < ln[j].absorb) { /* the next block of pre || in */
                const nuri_keccak_job *job = &ln[j].t->job;
                const unsigned rate = ln[j].t->rate;
                const size_t off = ln[j].blk * rate, total = job->prelen + job->len;
                if (off >= job->prelen) { /* inside in: read in place, padded below if it is the last */
                    src[j] = job->in + (off - job->prelen);
                    bytes[j] = (unsigned)(total - off < rate ? total - off : rate);
                    if (total - off < rate) pad |= (__mmask8)(1u << j);
                } else { /* pre and in, or pre alone: assembled and padded in blk[j] */
                    nuri_keccak_job_block(blk[j], job, off, rate);
                    used = 1;
                    src[j] = blk[j];
                    bytes[j] = rate;
                }
                ln[j].blk++;
            }
        }
        absorb8(s, src, bytes, fresh);
        for (unsigned j = 0; j < LANES; j++) /* a task continuing a sponge: its state on top */
            if ((fresh >> j & 1) && ln[j].t->state)
                for (unsigned i = 0; i < 25; i++) xor_word(s, i, j, ln[j].t->state[i]);
        if (pad) { /* the domain bytes, then the final 0x80 (byte 7 of a rate's last word) per rate */
            __mmask8 r136 = 0, r168 = 0;
            for (unsigned j = 0; j < LANES; j++) {
                if (!(pad >> j & 1)) continue;
                const unsigned at = bytes[j], last = ln[j].t->rate - 1;
                xor_word(s, at / 8, j, (uint64_t)ln[j].t->job.ds << (8 * (at % 8)));
                if (last == NURI_SHAKE256_RATE - 1) r136 |= (__mmask8)(1u << j);
                else if (last == NURI_SHAKE128_RATE - 1) r168 |= (__mmask8)(1u << j);
                else xor_word(s, last / 8, j, 0x80ULL << (8 * (last % 8)));
            }
            xor_lanes(s, NURI_SHAKE256_RATE / 8 - 1, r136, 0x80ULL << 56);
            xor_lanes(s, NURI_SHAKE128_RATE / 8 - 1, r168, 0x80ULL << 56);
        }
        nuri_keccakf1600_x8_avx512(s);
        uint8_t *dst[LANES];
        for (unsigned j = 0; j < LANES; j++) {
            bytes[j] = 0;
            dst[j] = NULL;
            if (!ln[j].t || ln[j].blk < ln[j].absorb) continue;
            const nuri_keccak_job *job = &ln[j].t->job;
            if (!job->out) { /* absorbed in part: the sponge waits in *state */
                for (unsigned i = 0; i < 25; i++) ln[j].t->state[i] = s[LANES * i + j];
                ln[j].t = NULL;
                continue;
            }
            const size_t m = job->outlen - ln[j].done < ln[j].t->rate ? job->outlen - ln[j].done : ln[j].t->rate;
            dst[j] = job->out + ln[j].done;
            bytes[j] = (unsigned)m;
            ln[j].done += m;
            if (ln[j].done >= job->outlen) ln[j].t = NULL;
        }
        squeeze8(s, dst, bytes);
    }
    return used;
}

void nuri_keccak_tasks_x8_avx512(const nuri_keccak_task *tasks, unsigned n)
{
    _Alignas(64) uint64_t s[25 * LANES];
    uint8_t blk[LANES][NURI_SHAKE128_RATE];
    int used = 0;
    for (unsigned i = 0; i < n; i += CHUNK_MAX)
        used |= run_chunk(tasks + i, n - i < CHUNK_MAX ? n - i : CHUNK_MAX, s, blk);
    nuri_wipe(s, sizeof s);
    if (used) nuri_wipe(blk, sizeof blk);
}

void nuri_keccak_jobs_x8_avx512(const nuri_keccak_job *jobs, unsigned n, unsigned rate)
{
    if (n == 1) { /* one state: the single-state permutation is as fast and has no lane bookkeeping */
        nuri_keccak_job1(jobs, rate);
        return;
    }
    nuri_keccak_task t[CHUNK_MAX];
    for (unsigned i = 0; i < n; i += CHUNK_MAX) {
        const unsigned m = n - i < CHUNK_MAX ? n - i : CHUNK_MAX;
        for (unsigned j = 0; j < m; j++) t[j] = (nuri_keccak_task){.job = jobs[i + j], .rate = rate};
        nuri_keccak_tasks_x8_avx512(t, m);
    }
}
