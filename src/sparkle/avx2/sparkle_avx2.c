/* SPARKLE multi-instance kernel for AVX2: 8 independent states per pass, transposed so that a
 * ymm register holds one state word of all 8 instances (lane i = instance i). Every instruction
 * then serves 8 Alzettes; rotations by 16 and 24 are one vpshufb, the others shift+shift+or. The
 * linear layer's branch rotation is register renaming. Constant-time: no data-dependent branches
 * or addresses (the lane count depends only on the public batch size). */
#include <immintrin.h>

#include "../sparkle_impl.h"

static const uint32_t RCON[8] = NURI_SPARKLE_RCON;

#define LANES 8

static inline __m256i rotr(__m256i v, int n)
{
    return _mm256_or_si256(_mm256_srli_epi32(v, n), _mm256_slli_epi32(v, 32 - n));
}

static inline __m256i rotr16(__m256i v)
{
    const __m256i m = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10,
                                       11, 8, 9, 14, 15, 12, 13);
    return _mm256_shuffle_epi8(v, m);
}

static inline __m256i rotr24(__m256i v)
{
    const __m256i m = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11,
                                       8, 9, 10, 15, 12, 13, 14);
    return _mm256_shuffle_epi8(v, m);
}

#define ADD _mm256_add_epi32
#define XOR _mm256_xor_si256

static inline __m256i ell(__m256i v) { return rotr16(XOR(v, _mm256_slli_epi32(v, 16))); }

static inline __attribute__((always_inline)) void perm(__m256i *x, __m256i *y, const unsigned nb, unsigned steps)
{
    const unsigned h = nb / 2;
    for (unsigned s = 0; s < steps; s++) {
        y[0] = XOR(y[0], _mm256_set1_epi32((int)RCON[s & 7]));
        y[1] = XOR(y[1], _mm256_set1_epi32((int)s));
#pragma GCC unroll 8
        for (unsigned i = 0; i < nb; i++) {
            const __m256i c = _mm256_set1_epi32((int)RCON[i]);
            __m256i a = x[i], b = y[i];
            a = ADD(a, rotr(b, 31));
            b = XOR(b, rotr24(a));
            a = XOR(a, c);
            a = ADD(a, rotr(b, 17));
            b = XOR(b, rotr(a, 17));
            a = XOR(a, c);
            a = ADD(a, b);
            b = XOR(b, rotr(a, 31));
            a = XOR(a, c);
            a = ADD(a, rotr24(b));
            b = XOR(b, rotr16(a));
            a = XOR(a, c);
            x[i] = a;
            y[i] = b;
        }
        __m256i tx = x[0], ty = y[0];
#pragma GCC unroll 4
        for (unsigned j = 1; j < h; j++) {
            tx = XOR(tx, x[j]);
            ty = XOR(ty, y[j]);
        }
        tx = ell(tx);
        ty = ell(ty);
        __m256i u[4], v[4];
#pragma GCC unroll 4
        for (unsigned j = 0; j < h; j++) {
            u[j] = XOR(XOR(x[h + j], x[j]), ty);
            v[j] = XOR(XOR(y[h + j], y[j]), tx);
            x[h + j] = x[j];
            y[h + j] = y[j];
        }
#pragma GCC unroll 4
        for (unsigned j = 0; j < h; j++) {
            x[j] = u[j + 1 == h ? 0 : j + 1];
            y[j] = v[j + 1 == h ? 0 : j + 1];
        }
    }
}

void nuri_sparkle_avx2_permute_soa(uint32_t *soa, unsigned nb, unsigned steps)
{
    __m256i x[8], y[8];
    for (unsigned i = 0; i < nb; i++) {
        x[i] = _mm256_load_si256((const __m256i *)(soa + 2 * i * LANES));
        y[i] = _mm256_load_si256((const __m256i *)(soa + (2 * i + 1) * LANES));
    }
    switch (nb) {
    case 4:
        perm(x, y, 4, steps);
        break;
    case 6:
        perm(x, y, 6, steps);
        break;
    default:
        perm(x, y, 8, steps);
        break;
    }
    for (unsigned i = 0; i < nb; i++) {
        _mm256_store_si256((__m256i *)(soa + 2 * i * LANES), x[i]);
        _mm256_store_si256((__m256i *)(soa + (2 * i + 1) * LANES), y[i]);
    }
}

/* 8x8 transpose of 32-bit words: row k (8 words of instance k) <-> column k (word k of all 8).
 * Its own inverse. */
static inline __attribute__((always_inline)) void transpose8(__m256i *r)
{
    __m256i t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
        u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
        u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
        u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (int i = 0; i < 4; i++) {
        r[i] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x20);
        r[i + 4] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x31);
    }
}

/* One rho + whitening absorb of the 8 rate words d into the transposed state (rate 32 bytes:
 * words 0..7 = x0,y0,x1,y1,x2,y2,x3,y3; capacity words 8.. = x4,y4,x5,...), the same map as
 * nuri_schwaemm_absorb: S_i <- S_j ^ d_i ^ C_i, S_j <- S_i ^ S_j ^ d_j ^ C_(j mod cw), j = i + 4. */
#define ABSORB(XI, XJ, CI, CJ, DI, DJ)        \
    do {                                      \
        __m256i s1_ = XI, s2_ = XJ;           \
        XI = XOR(XOR(s2_, DI), CI);           \
        XJ = XOR(XOR(XOR(s1_, s2_), DJ), CJ); \
    } while (0)

static inline __attribute__((always_inline)) void duplex32(uint32_t *soa, const unsigned nb, unsigned slim,
                                                           const int dec, const uint8_t *const *in, uint8_t *const *out,
                                                           const size_t *stride, size_t nblocks)
{
    __m256i x[8], y[8];
    for (unsigned i = 0; i < nb; i++) {
        x[i] = _mm256_load_si256((const __m256i *)(soa + 2 * i * LANES));
        y[i] = _mm256_load_si256((const __m256i *)(soa + (2 * i + 1) * LANES));
    }
    for (size_t b = 0; b < nblocks; b++) {
        __m256i m[8], o[8];
        for (int k = 0; k < 8; k++) m[k] = _mm256_loadu_si256((const __m256i *)(in[k] + b * stride[k]));
        transpose8(m); /* m[w] = message word w of every instance */
        o[0] = XOR(m[0], x[0]);
        o[1] = XOR(m[1], y[0]);
        o[2] = XOR(m[2], x[1]);
        o[3] = XOR(m[3], y[1]);
        o[4] = XOR(m[4], x[2]);
        o[5] = XOR(m[5], y[2]);
        o[6] = XOR(m[6], x[3]);
        o[7] = XOR(m[7], y[3]);
        const __m256i *d = dec ? o : m; /* the duplex absorbs the plaintext */
        if (nb == 6) {                  /* Schwaemm256-128: capacity 4 words */
            ABSORB(x[0], x[2], x[4], x[4], d[0], d[4]);
            ABSORB(y[0], y[2], y[4], y[4], d[1], d[5]);
            ABSORB(x[1], x[3], x[5], x[5], d[2], d[6]);
            ABSORB(y[1], y[3], y[5], y[5], d[3], d[7]);
        } else { /* Schwaemm256-256: capacity 8 words */
            ABSORB(x[0], x[2], x[4], x[6], d[0], d[4]);
            ABSORB(y[0], y[2], y[4], y[6], d[1], d[5]);
            ABSORB(x[1], x[3], x[5], x[7], d[2], d[6]);
            ABSORB(y[1], y[3], y[5], y[7], d[3], d[7]);
        }
        transpose8(o);
        for (int k = 0; k < 8; k++) _mm256_storeu_si256((__m256i *)(out[k] + b * stride[k]), o[k]);
        perm(x, y, nb, slim);
    }
    for (unsigned i = 0; i < nb; i++) {
        _mm256_store_si256((__m256i *)(soa + 2 * i * LANES), x[i]);
        _mm256_store_si256((__m256i *)(soa + (2 * i + 1) * LANES), y[i]);
    }
}

/* The duplex32 hook (sparkle_impl.h): Schwaemm256-128 (nb 6) and Schwaemm256-256 (nb 8). */
void nuri_sparkle_avx2_duplex32(uint32_t *soa, unsigned nb, unsigned slim, int decrypt, const uint8_t *const *in,
                                uint8_t *const *out, const size_t *stride, size_t nblocks)
{
    if (nb == 6) {
        if (decrypt) duplex32(soa, 6, slim, 1, in, out, stride, nblocks);
        else duplex32(soa, 6, slim, 0, in, out, stride, nblocks);
    } else {
        if (decrypt) duplex32(soa, 8, slim, 1, in, out, stride, nblocks);
        else duplex32(soa, 8, slim, 0, in, out, stride, nblocks);
    }
}

static void pass(uint32_t *states, size_t cnt, const unsigned nb, unsigned steps)
{
    uint32_t t[NURI_SPARKLE_MAX_WORDS * LANES] __attribute__((aligned(64)));
    const unsigned w = 2 * nb;
    memset(t, 0, sizeof t);
    for (size_t l = 0; l < cnt; l++)
        for (unsigned k = 0; k < w; k++) t[k * LANES + l] = states[l * w + k];
    nuri_sparkle_avx2_permute_soa(t, nb, steps);
    for (size_t l = 0; l < cnt; l++)
        for (unsigned k = 0; k < w; k++) states[l * w + k] = t[k * LANES + l];
    nuri_wipe(t, sizeof t);
}

void nuri_sparkle_avx2_permute_many(uint32_t *states, size_t count, unsigned nb, unsigned steps)
{
    for (size_t done = 0; done < count; done += LANES) {
        size_t cnt = count - done < LANES ? count - done : LANES;
        pass(states + done * 2 * nb, cnt, nb, steps);
    }
}

const nuri_sparkle_impl nuri_sparkle_backend_avx2 = {
    .info = {"avx2", NURI_CPU_AVX2, 1,
             "8 states per pass, one 32-bit word of 8 states per ymm register (vpshufb for rotations by 16/24); "
             "single states: opt"},
    .permute = nuri_sparkle_opt_permute,
    .permute_many = nuri_sparkle_avx2_permute_many,
    .permute_soa = nuri_sparkle_avx2_permute_soa,
    .duplex32 = nuri_sparkle_avx2_duplex32,
    .lanes = 8,
};
