/* The FEA Feistel network and tweak schedule, written once over the kernel's batch round
 * function (fea_impl.h), and the batch API on 64-bit and 128-bit values. */
#include "fea_impl.h"

void nuri_fea_feistel(const nuri_fea_key *k, int decrypt, uint64_t *a, uint64_t *b, const uint64_t *tl,
                      const uint64_t *tr, size_t tw_stride, size_t m)
{
    uint64_t x[NURI_FEA_CHUNK];
    const unsigned sa = 64 - k->n1, sb = 64 - k->n2; /* halves sit in the top bits of F's input */
#if defined(__AVR__)
    if (m == 1) {
        /* one value (the MCU case): the same rounds on scalars; avr-gcc's code for the batch
         * loops over 64-bit arrays costs about as much as the round function itself */
        uint64_t va = a[0], vb = b[0];
        const int ftw = k->variant == 1;
        for (unsigned step = 0; step < k->rounds; step++) {
            unsigned r = decrypt ? k->rounds - 1 - step : step;
            unsigned which = ftw ? 1 + (r & 1) : r % 3;
            uint64_t t = which == 0 ? 0 : which == 1 ? tl[0] : tr[0];
            if (r & 1) {
                x[0] = (va << sa) ^ t;
                k->impl->f(k->rk[r], x, 1);
                vb ^= x[0] >> sb;
            } else {
                x[0] = (vb << sb) ^ t;
                k->impl->f(k->rk[r], x, 1);
                va ^= x[0] >> sa;
            }
        }
        a[0] = va;
        b[0] = vb;
        nuri_wipe(&va, sizeof va);
        nuri_wipe(&vb, sizeof vb);
        nuri_wipe(x, sizeof x);
        return;
    }
#endif
    for (unsigned step = 0; step < k->rounds; step++) {
        unsigned r = decrypt ? k->rounds - 1 - step : step;
        /* even rounds: A ^= top_n1(F(B || .)); odd rounds: B ^= top_n2(F(A || .)) */
        const uint64_t *src = (r & 1) ? a : b;
        uint64_t *dst = (r & 1) ? b : a;
        unsigned sin = (r & 1) ? sa : sb, sout = (r & 1) ? sb : sa;
        /* tweak word: FEA-1 T_L on even rounds, T_R on odd; FEA-2 none / T_L / T_R by r mod 3 */
        unsigned which = k->variant == 1 ? 1 + (r & 1) : r % 3;
        const uint64_t *tw = which == 1 ? tl : tr;
        if (which == 0) {
            for (size_t j = 0; j < m; j++) x[j] = src[j] << sin;
        } else if (tw_stride) {
            for (size_t j = 0; j < m; j++) x[j] = (src[j] << sin) ^ tw[j];
        } else {
            uint64_t t = tw[0];
            for (size_t j = 0; j < m; j++) x[j] = (src[j] << sin) ^ t;
        }
        k->impl->f(k->rk[r], x, m);
        for (size_t j = 0; j < m; j++) dst[j] ^= x[j] >> sout;
    }
    nuri_wipe(x, m * sizeof x[0]); /* only what was used: one value must not pay for a full chunk */
}

/* Splits tweak t into the two round-tweak words; NURI_EINVAL if out of range. */
static int split_tweak(const nuri_fea_key *k, const nuri_fea_u128 *t, uint64_t *tl, uint64_t *tr)
{
    if (k->variant == 2) {
        *tl = t->hi;
        *tr = t->lo;
        return NURI_OK;
    }
    unsigned bits = 128 - k->n; /* 0..120 */
    int bad = bits >= 64 ? (t->hi >> (bits - 64)) != 0 : (t->hi != 0 || (t->lo >> bits) != 0);
    if (bad) return NURI_EINVAL;
    unsigned rbits = 64 - k->n1; /* |T_R|, 0..60 */
    *tr = rbits ? t->lo & ((UINT64_C(1) << rbits) - 1) : 0;
    *tl = rbits ? (t->lo >> rbits) | (t->hi << (64 - rbits)) : t->lo;
    return NURI_OK;
}

/* Checks the tweak arguments; fills the single-tweak words when ntweaks == 1 or tweaks == NULL. */
static int check_tweaks(const nuri_fea_key *k, size_t count, const nuri_fea_u128 *tweaks, size_t ntweaks,
                        uint64_t *tl1, uint64_t *tr1)
{
    *tl1 = *tr1 = 0;
    if (!k->impl) return NURI_EINVAL;
    if (!tweaks) return ntweaks == 0 ? NURI_OK : NURI_EINVAL;
    if (ntweaks != 1 && ntweaks != count) return NURI_EINVAL;
    for (size_t i = 0; i < ntweaks; i++) {
        uint64_t l, r;
        if (split_tweak(k, &tweaks[i], &l, &r) != NURI_OK) return NURI_EINVAL;
    }
    if (ntweaks == 1) return split_tweak(k, &tweaks[0], tl1, tr1);
    return NURI_OK;
}

int nuri_fea_check_tweaks(const nuri_fea_key *k, size_t count, const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    uint64_t l, r;
    return check_tweaks(k, count, tweaks, ntweaks, &l, &r);
}

static void fill_tweaks(const nuri_fea_key *k, const nuri_fea_u128 *tweaks, size_t off, size_t m, uint64_t *tl,
                        uint64_t *tr)
{
    for (size_t j = 0; j < m; j++) (void)split_tweak(k, &tweaks[off + j], &tl[j], &tr[j]);
}

static int crypt_u64(const nuri_fea_key *k, int dec, uint64_t *out, const uint64_t *in, size_t count,
                     const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    uint64_t tl1, tr1;
    int rc = check_tweaks(k, count, tweaks, ntweaks, &tl1, &tr1);
    if (rc == NURI_OK && k->n > 64) rc = NURI_EINVAL;
    if (rc == NURI_OK && k->n < 64) {
        uint64_t acc = 0;
        for (size_t i = 0; i < count; i++) acc |= in[i] >> k->n;
        NURI_CT_PUBLIC(&acc, sizeof acc); /* whether the input is in range is public */
        if (acc) rc = NURI_EDOMAIN;
    }
    if (rc != NURI_OK) {
        if (count) memset(out, 0, count * sizeof *out);
        return rc;
    }
    const unsigned n1 = k->n1, n2 = k->n2;
    const uint64_t m1 = (UINT64_C(1) << n1) - 1, m2 = (UINT64_C(1) << n2) - 1; /* n1, n2 <= 32 here */
    const int swap = (k->rounds & 1) == 0; /* even round count: C = B || A */
    uint64_t a[NURI_FEA_CHUNK], b[NURI_FEA_CHUNK], tl[NURI_FEA_CHUNK], tr[NURI_FEA_CHUNK];
    const int per_value = tweaks && ntweaks == count && count > 1;
    for (size_t off = 0; off < count; off += NURI_FEA_CHUNK) {
        size_t m = count - off < NURI_FEA_CHUNK ? count - off : NURI_FEA_CHUNK;
        if (!dec || !swap) {
            for (size_t j = 0; j < m; j++) { a[j] = in[off + j] >> n2; b[j] = in[off + j] & m2; }
        } else {
            for (size_t j = 0; j < m; j++) { b[j] = in[off + j] >> n1; a[j] = in[off + j] & m1; }
        }
        if (per_value) fill_tweaks(k, tweaks, off, m, tl, tr);
        nuri_fea_feistel(k, dec, a, b, per_value ? tl : &tl1, per_value ? tr : &tr1, per_value, m);
        if (dec || !swap) {
            for (size_t j = 0; j < m; j++) out[off + j] = (a[j] << n2) | b[j];
        } else {
            for (size_t j = 0; j < m; j++) out[off + j] = (b[j] << n1) | a[j];
        }
    }
    const size_t used = count < NURI_FEA_CHUNK ? count : NURI_FEA_CHUNK;
    nuri_wipe(a, used * sizeof a[0]);
    nuri_wipe(b, used * sizeof b[0]);
    if (per_value) {
        nuri_wipe(tl, used * sizeof tl[0]);
        nuri_wipe(tr, used * sizeof tr[0]);
    }
    return NURI_OK;
}

int nuri_fea_encrypt_u64(const nuri_fea_key *k, uint64_t *out, const uint64_t *in, size_t count,
                         const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    return crypt_u64(k, 0, out, in, count, tweaks, ntweaks);
}

int nuri_fea_decrypt_u64(const nuri_fea_key *k, uint64_t *out, const uint64_t *in, size_t count,
                         const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    return crypt_u64(k, 1, out, in, count, tweaks, ntweaks);
}

/* 128-bit helpers: w = 1..64 bit fields of v. */
static uint64_t low_bits(nuri_fea_u128 v, unsigned w) { return w == 64 ? v.lo : v.lo & ((UINT64_C(1) << w) - 1); }
static uint64_t shr_bits(nuri_fea_u128 v, unsigned s) /* (v >> s) truncated to 64 bits, 1 <= s <= 64 */
{
    return s == 64 ? v.hi : (v.lo >> s) | (v.hi << (64 - s));
}
static nuri_fea_u128 join(uint64_t top, uint64_t bottom, unsigned w) /* top << w | bottom, 1 <= w <= 64 */
{
    nuri_fea_u128 r;
    r.lo = w == 64 ? bottom : (top << w) | bottom;
    r.hi = w == 64 ? top : top >> (64 - w);
    return r;
}

static int crypt_u128(const nuri_fea_key *k, int dec, nuri_fea_u128 *out, const nuri_fea_u128 *in, size_t count,
                      const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    uint64_t tl1, tr1;
    int rc = check_tweaks(k, count, tweaks, ntweaks, &tl1, &tr1);
    if (rc == NURI_OK && k->n < 128) {
        uint64_t acc = 0;
        for (size_t i = 0; i < count; i++)
            acc |= k->n >= 64 ? in[i].hi >> (k->n - 64) : (in[i].hi | (in[i].lo >> k->n));
        NURI_CT_PUBLIC(&acc, sizeof acc); /* whether the input is in range is public */
        if (acc) rc = NURI_EDOMAIN;
    }
    if (rc != NURI_OK) {
        if (count) memset(out, 0, count * sizeof *out);
        return rc;
    }
    const unsigned n1 = k->n1, n2 = k->n2;
    const int swap = (k->rounds & 1) == 0;
    uint64_t a[NURI_FEA_CHUNK], b[NURI_FEA_CHUNK], tl[NURI_FEA_CHUNK], tr[NURI_FEA_CHUNK];
    const int per_value = tweaks && ntweaks == count && count > 1;
    for (size_t off = 0; off < count; off += NURI_FEA_CHUNK) {
        size_t m = count - off < NURI_FEA_CHUNK ? count - off : NURI_FEA_CHUNK;
        if (!dec || !swap) {
            for (size_t j = 0; j < m; j++) { a[j] = shr_bits(in[off + j], n2); b[j] = low_bits(in[off + j], n2); }
        } else {
            for (size_t j = 0; j < m; j++) { b[j] = shr_bits(in[off + j], n1); a[j] = low_bits(in[off + j], n1); }
        }
        if (per_value) fill_tweaks(k, tweaks, off, m, tl, tr);
        nuri_fea_feistel(k, dec, a, b, per_value ? tl : &tl1, per_value ? tr : &tr1, per_value, m);
        if (dec || !swap) {
            for (size_t j = 0; j < m; j++) out[off + j] = join(a[j], b[j], n2);
        } else {
            for (size_t j = 0; j < m; j++) out[off + j] = join(b[j], a[j], n1);
        }
    }
    const size_t used = count < NURI_FEA_CHUNK ? count : NURI_FEA_CHUNK;
    nuri_wipe(a, used * sizeof a[0]);
    nuri_wipe(b, used * sizeof b[0]);
    if (per_value) {
        nuri_wipe(tl, used * sizeof tl[0]);
        nuri_wipe(tr, used * sizeof tr[0]);
    }
    return NURI_OK;
}

int nuri_fea_encrypt_u128(const nuri_fea_key *k, nuri_fea_u128 *out, const nuri_fea_u128 *in, size_t count,
                          const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    return crypt_u128(k, 0, out, in, count, tweaks, ntweaks);
}

int nuri_fea_decrypt_u128(const nuri_fea_key *k, nuri_fea_u128 *out, const nuri_fea_u128 *in, size_t count,
                          const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    return crypt_u128(k, 1, out, in, count, tweaks, ntweaks);
}
