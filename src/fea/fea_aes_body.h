/* The FEA round function on the AES S-box instruction, written once for the 128-bit (AES-NI,
 * SSSE3), 256-bit (VAES, AVX2) and ARMv8 (AESE, tbl) kernels: the including file defines the vector type and
 * operations (V, V_*), the function names (FN_F, FN_SD) and LANES (64-bit values per vector).
 *
 * Per SD layer and vector: one AES instruction with a zero round key (SubBytes_AES and ShiftRows),
 * a nibble split, 16 pshufb lookups (c_d * L2 with the constant folded in, scripts/gen_fea_aes.py)
 * and 8 pshufb byte placements (M's terms, ShiftRows undone). The first SD of F applies L1 to its
 * own output through its tables, so only F's input needs an explicit L1 (2 lookups). Every table
 * index is a nibble of data inside a register (pshufb): no memory is addressed by data, no branch
 * depends on it. */
#include "fea_impl.h"
#include "fea_aes_consts.h"

/* The tables are read from static memory where they are used (a broadcast load per use, or a
 * register when the compiler keeps one): nothing is copied per call, which matters for one value. */
#define TAB(p)            V_BCAST16(p)
#define MASK              V_SET1_8(0x0F)
#define LOOKUP(t, lo, hi) V_XOR(V_SHUF(TAB((t)[0]), (lo)), V_SHUF(TAB((t)[1]), (hi)))

static inline V apply_l1(V x)
{
    V lo = V_AND(x, MASK), hi = V_AND(V_SRL16(x, 4), MASK);
    return LOOKUP(fea_aes_l1, lo, hi);
}

/* SD of an L1-image input, through tables t (fea_aes_t1: result in the L1 image; t2: plain) */
static inline V sd_core(V x, const uint8_t (*t)[2][16])
{
    V z = V_AESLAST0(x);
    V lo = V_AND(z, MASK), hi = V_AND(V_SRL16(z, 4), MASK);
    V a0 = V_SHUF(LOOKUP(t[0], lo, hi), TAB(fea_aes_perm[0]));
    V a1 = V_SHUF(LOOKUP(t[1], lo, hi), TAB(fea_aes_perm[1]));
    V a2 = V_SHUF(LOOKUP(t[2], lo, hi), TAB(fea_aes_perm[2]));
    V a3 = V_SHUF(LOOKUP(t[3], lo, hi), TAB(fea_aes_perm[3]));
    a0 = V_XOR(a0, V_SHUF(LOOKUP(t[4], lo, hi), TAB(fea_aes_perm[4])));
    a1 = V_XOR(a1, V_SHUF(LOOKUP(t[5], lo, hi), TAB(fea_aes_perm[5])));
    a2 = V_XOR(a2, V_SHUF(LOOKUP(t[6], lo, hi), TAB(fea_aes_perm[6])));
    a3 = V_XOR(a3, V_SHUF(LOOKUP(t[7], lo, hi), TAB(fea_aes_perm[7])));
    return V_XOR(V_XOR(a0, a1), V_XOR(a2, a3));
}

uint64_t FN_SD(uint64_t x)
{
    V v = sd_core(apply_l1(V_SET1_64(x)), fea_aes_t2);
    uint64_t out[LANES];
    V_STOREU(out, v);
    return out[0];
}

/* L1(k) on a broadcast word */
static inline V l1_key(uint64_t k) { return apply_l1(V_SET1_64(k)); }

static inline V f_vec(V x, V l1ka, V l1kb)
{
    x = V_XOR(apply_l1(x), l1ka);
    x = V_XOR(sd_core(x, fea_aes_t1), l1kb);
    return sd_core(x, fea_aes_t2);
}

#ifdef FN_ROUND
/* A whole Feistel round (fea_impl.h: nuri_fea_round_fn): the shift, the tweak and the XOR into
 * the other half around f_vec, without the round trip of every value through a buffer. */
static inline V round_vec(V s, V t, V d, __m128i sl, __m128i sr, V ka, V kb)
{
    return V_XOR(d, V_SRL64(f_vec(V_XOR(V_SLL64(s, sl), t), ka, kb), sr));
}

void FN_ROUND(const uint64_t rk[2], const uint64_t *src, uint64_t *dst, const uint64_t *tw, size_t tw_stride,
              unsigned sin, unsigned sout, size_t count)
{
    const V ka = l1_key(rk[0]), kb = l1_key(rk[1]), t1 = V_SET1_64(tw[0]);
    const __m128i sl = _mm_cvtsi32_si128((int)sin), sr = _mm_cvtsi32_si128((int)sout);
    size_t i = 0;
    for (; i + 2 * LANES <= count; i += 2 * LANES) { /* two independent vectors per step */
        V t0 = tw_stride ? V_LOADU(tw + i) : t1, tb = tw_stride ? V_LOADU(tw + i + LANES) : t1;
        V d0 = round_vec(V_LOADU(src + i), t0, V_LOADU(dst + i), sl, sr, ka, kb);
        V d1 = round_vec(V_LOADU(src + i + LANES), tb, V_LOADU(dst + i + LANES), sl, sr, ka, kb);
        V_STOREU(dst + i, d0);
        V_STOREU(dst + i + LANES, d1);
    }
    if (i < count) { /* the last 1..2*LANES-1 values, through a small buffer and f */
        uint64_t x[2 * LANES];
        const size_t m = count - i;
        for (size_t j = 0; j < m; j++) x[j] = (src[i + j] << sin) ^ tw[tw_stride ? i + j : 0];
        FN_F(rk, x, m);
        for (size_t j = 0; j < m; j++) dst[i + j] ^= x[j] >> sout;
        nuri_wipe(x, sizeof x);
    }
}
#endif

void FN_F(const uint64_t rk[2], uint64_t *x, size_t count)
{
    const V ka = l1_key(rk[0]), kb = l1_key(rk[1]);
    size_t i = 0;
    for (; i + 2 * LANES <= count; i += 2 * LANES) { /* two independent vectors per step */
        V v0 = V_LOADU(x + i), v1 = V_LOADU(x + i + LANES);
        V_STOREU(x + i, f_vec(v0, ka, kb));
        V_STOREU(x + i + LANES, f_vec(v1, ka, kb));
    }
    if (i < count) { /* the last 1..2*LANES-1 values; loaded and stored in place (no bounce buffer) */
        for (; i + LANES <= count; i += LANES) V_STOREU(x + i, f_vec(V_LOADU(x + i), ka, kb));
        if (i < count) V_STOREN(x + i, f_vec(V_LOADN(x + i, count - i), ka, kb), count - i);
    }
}
