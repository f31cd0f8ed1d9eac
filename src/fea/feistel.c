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
#if !defined(__AVR__)
        if (k->impl->round) { /* the kernel does the whole round in registers */
            static const uint64_t zero = 0;
            k->impl->round(k->rk[r], src, dst, which == 0 ? &zero : tw, which == 0 ? 0 : tw_stride, sin, sout, m);
            continue;
        }
#endif
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
static int check_tweaks(const nuri_fea_key *k, size_t count, const nuri_fea_u128 *tweaks, size_t ntweaks, uint64_t *tl1,
                        uint64_t *tr1)
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

/* The batch API in one form for both widths: a value is read as 128 bits ({0, x} from the u64
 * arrays), split, run through the network and joined in that form. `wide` is a constant at each
 * call below, so the compiler emits one specialised copy per width: the u64 copy (n <= 64,
 * halves of at most 32 bits) keeps the plain shifts it had as a separate function. */
static inline uint64_t low_bits(nuri_fea_u128 v, unsigned w, int wide) /* the low w bits, 1 <= w <= 64 */
{
    if (!wide) return v.lo & ((UINT64_C(1) << w) - 1); /* u64 values: halves of at most 32 bits */
    return w == 64 ? v.lo : v.lo & ((UINT64_C(1) << w) - 1);
}
static inline uint64_t shr_bits(nuri_fea_u128 v, unsigned s, int wide) /* (v >> s) mod 2^64, 1 <= s <= 64 */
{
    if (!wide) return v.lo >> s;
    return s == 64 ? v.hi : (v.lo >> s) | (v.hi << (64 - s));
}
static inline nuri_fea_u128 join(uint64_t top, uint64_t bottom, unsigned w, int wide) /* top << w | bottom */
{
    nuri_fea_u128 r;
    if (!wide) {
        r.lo = (top << w) | bottom;
        r.hi = 0;
        return r;
    }
    r.lo = w == 64 ? bottom : (top << w) | bottom;
    r.hi = w == 64 ? top : top >> (64 - w);
    return r;
}
static inline int crypt_batch(const nuri_fea_key *k, int dec, void *out, const void *in, size_t count,
                              const nuri_fea_u128 *tweaks, size_t ntweaks, int wide)
{
    uint64_t tl1, tr1;
    const size_t bytes = count * (wide ? sizeof(nuri_fea_u128) : sizeof(uint64_t));
    /* in place is out == in; a shifted out would overwrite values of the next chunk not yet read */
    if (nuri_overlap_partial(out, bytes, in, bytes)) return NURI_EINVAL; /* nothing written */
    int rc = check_tweaks(k, count, tweaks, ntweaks, &tl1, &tr1);
    if (rc == NURI_OK && !wide && k->n > 64) rc = NURI_EINVAL;
    if (rc == NURI_OK && k->n < 128) {
        uint64_t acc = 0;
        for (size_t i = 0; i < count; i++) {
            nuri_fea_u128 v = nuri_fea_get_value(in, i, wide);
            acc |= k->n >= 64 ? v.hi >> (k->n - 64) : (v.hi | (v.lo >> k->n));
        }
        NURI_CT_PUBLIC(&acc, sizeof acc); /* whether the input is in range is public */
        if (acc) rc = NURI_EDOMAIN;
    }
    if (rc != NURI_OK) {
        if (count) memset(out, 0, bytes);
        return rc;
    }
    const unsigned n1 = k->n1, n2 = k->n2;
    const int swap = (k->rounds & 1) == 0; /* even round count: C = B || A */
    uint64_t a[NURI_FEA_CHUNK], b[NURI_FEA_CHUNK], tl[NURI_FEA_CHUNK], tr[NURI_FEA_CHUNK];
    const int per_value = tweaks && ntweaks == count && count > 1;
    for (size_t off = 0; off < count; off += NURI_FEA_CHUNK) {
        size_t m = count - off < NURI_FEA_CHUNK ? count - off : NURI_FEA_CHUNK;
        if (!dec || !swap) {
            for (size_t j = 0; j < m; j++) {
                nuri_fea_u128 v = nuri_fea_get_value(in, off + j, wide);
                a[j] = shr_bits(v, n2, wide);
                b[j] = low_bits(v, n2, wide);
            }
        } else {
            for (size_t j = 0; j < m; j++) {
                nuri_fea_u128 v = nuri_fea_get_value(in, off + j, wide);
                b[j] = shr_bits(v, n1, wide);
                a[j] = low_bits(v, n1, wide);
            }
        }
        if (per_value) fill_tweaks(k, tweaks, off, m, tl, tr);
        nuri_fea_feistel(k, dec, a, b, per_value ? tl : &tl1, per_value ? tr : &tr1, per_value, m);
        if (dec || !swap) {
            for (size_t j = 0; j < m; j++) nuri_fea_put_value(out, off + j, join(a[j], b[j], n2, wide), wide);
        } else {
            for (size_t j = 0; j < m; j++) nuri_fea_put_value(out, off + j, join(b[j], a[j], n1, wide), wide);
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
    return crypt_batch(k, 0, out, in, count, tweaks, ntweaks, 0);
}

int nuri_fea_decrypt_u64(const nuri_fea_key *k, uint64_t *out, const uint64_t *in, size_t count,
                         const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    return crypt_batch(k, 1, out, in, count, tweaks, ntweaks, 0);
}

int nuri_fea_encrypt_u128(const nuri_fea_key *k, nuri_fea_u128 *out, const nuri_fea_u128 *in, size_t count,
                          const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    return crypt_batch(k, 0, out, in, count, tweaks, ntweaks, 1);
}

int nuri_fea_decrypt_u128(const nuri_fea_key *k, nuri_fea_u128 *out, const nuri_fea_u128 *in, size_t count,
                          const nuri_fea_u128 *tweaks, size_t ntweaks)
{
    return crypt_batch(k, 1, out, in, count, tweaks, ntweaks, 1);
}
