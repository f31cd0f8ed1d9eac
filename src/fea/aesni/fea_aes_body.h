/* The FEA round function on the AES S-box instruction, written once for the 128-bit (AES-NI,
 * SSSE3) and 256-bit (VAES, AVX2) kernels: the including file defines the vector type and
 * operations (V, V_*), the function names (FN_F, FN_SD) and LANES (64-bit values per vector).
 *
 * Per SD layer and vector: one AES instruction with a zero round key (SubBytes_AES and ShiftRows),
 * a nibble split, 16 pshufb lookups (c_d * L2 with the constant folded in, scripts/gen_fea_aesni.py)
 * and 8 pshufb byte placements (M's terms, ShiftRows undone). The first SD of F applies L1 to its
 * own output through its tables, so only F's input needs an explicit L1 (2 lookups). Every table
 * index is a nibble of data inside a register (pshufb): no memory is addressed by data, no branch
 * depends on it. */
#include "../fea_impl.h"
#include "fea_aesni_consts.h"

typedef struct {
    V l1[2], t1[8][2], t2[8][2], perm[8], mask;
} aes_consts;

static inline void load_consts(aes_consts *c)
{
    c->l1[0] = V_BCAST16(fea_aes_l1[0]);
    c->l1[1] = V_BCAST16(fea_aes_l1[1]);
    for (int d = 0; d < 8; d++) {
        c->t1[d][0] = V_BCAST16(fea_aes_t1[d][0]);
        c->t1[d][1] = V_BCAST16(fea_aes_t1[d][1]);
        c->t2[d][0] = V_BCAST16(fea_aes_t2[d][0]);
        c->t2[d][1] = V_BCAST16(fea_aes_t2[d][1]);
        c->perm[d] = V_BCAST16(fea_aes_perm[d]);
    }
    c->mask = V_SET1_8(0x0F);
}

#define LOOKUP(t, lo, hi) V_XOR(V_SHUF((t)[0], (lo)), V_SHUF((t)[1], (hi)))

static inline V apply_l1(const aes_consts *c, V x)
{
    V lo = V_AND(x, c->mask), hi = V_AND(V_SRL16(x, 4), c->mask);
    return LOOKUP(c->l1, lo, hi);
}

/* SD of an L1-image input, through tables t (t1: result in the L1 image, t2: plain) */
static inline V sd_core(const aes_consts *c, V x, const V (*t)[2])
{
    V z = V_AESLAST0(x);
    V lo = V_AND(z, c->mask), hi = V_AND(V_SRL16(z, 4), c->mask);
    V a0 = V_SHUF(LOOKUP(t[0], lo, hi), c->perm[0]);
    V a1 = V_SHUF(LOOKUP(t[1], lo, hi), c->perm[1]);
    V a2 = V_SHUF(LOOKUP(t[2], lo, hi), c->perm[2]);
    V a3 = V_SHUF(LOOKUP(t[3], lo, hi), c->perm[3]);
    a0 = V_XOR(a0, V_SHUF(LOOKUP(t[4], lo, hi), c->perm[4]));
    a1 = V_XOR(a1, V_SHUF(LOOKUP(t[5], lo, hi), c->perm[5]));
    a2 = V_XOR(a2, V_SHUF(LOOKUP(t[6], lo, hi), c->perm[6]));
    a3 = V_XOR(a3, V_SHUF(LOOKUP(t[7], lo, hi), c->perm[7]));
    return V_XOR(V_XOR(a0, a1), V_XOR(a2, a3));
}

uint64_t FN_SD(uint64_t x)
{
    aes_consts c;
    load_consts(&c);
    V v = sd_core(&c, apply_l1(&c, V_SET1_64(x)), c.t2);
    uint64_t out[LANES];
    V_STOREU(out, v);
    return out[0];
}

/* L1(k) on a broadcast word */
static inline V l1_key(const aes_consts *c, uint64_t k) { return apply_l1(c, V_SET1_64(k)); }

static inline V f_vec(const aes_consts *c, V x, V l1ka, V l1kb)
{
    x = V_XOR(apply_l1(c, x), l1ka);
    x = V_XOR(sd_core(c, x, c->t1), l1kb);
    return sd_core(c, x, c->t2);
}

void FN_F(const uint64_t rk[2], uint64_t *x, size_t count)
{
    aes_consts c;
    load_consts(&c);
    const V ka = l1_key(&c, rk[0]), kb = l1_key(&c, rk[1]);
    size_t i = 0;
    for (; i + 2 * LANES <= count; i += 2 * LANES) { /* two independent vectors per step */
        V v0 = V_LOADU(x + i), v1 = V_LOADU(x + i + LANES);
        V_STOREU(x + i, f_vec(&c, v0, ka, kb));
        V_STOREU(x + i + LANES, f_vec(&c, v1, ka, kb));
    }
    for (; i < count; i += LANES) {
        uint64_t buf[LANES] = {0};
        size_t m = count - i < LANES ? count - i : LANES;
        memcpy(buf, x + i, m * sizeof *buf);
        V_STOREU(buf, f_vec(&c, V_LOADU(buf), ka, kb));
        memcpy(x + i, buf, m * sizeof *buf);
        nuri_wipe(buf, sizeof buf);
    }
}
