/* Batch API: many independent Esch hashes or Schwaemm encryptions advanced in lock-step, so the
 * multi-instance kernels (avx2: 8, avx512: 16 states per pass) permute them together. Messages
 * may have different lengths: at every round the states that need the slim permutation and those
 * that need the big one are gathered into two groups and each group is permuted in one call. */
#include "sparkle_modes.h"

#define CHUNK 32 /* states in flight (two avx512 passes); all on the stack, no allocation */

typedef struct {
    uint32_t st[CHUNK][NURI_SPARKLE_MAX_WORDS];
    uint32_t tmp[CHUNK * NURI_SPARKLE_MAX_WORDS];
    uint8_t need[CHUNK]; /* 0: idle this round, 1: slim, 2: big */
} lane_set;

/* Permutes every state with need == which, gathered contiguously (2*nb words each). */
static void run_group(const nuri_sparkle_impl *impl, lane_set *L, size_t n, unsigned nb, unsigned which, unsigned steps)
{
    size_t cnt = 0, w = 2 * nb;
    for (size_t k = 0; k < n; k++)
        if (L->need[k] == which) memcpy(L->tmp + w * cnt++, L->st[k], 4 * w);
    if (!cnt) return;
    nuri_sparkle_impl_permute_many(impl, L->tmp, cnt, nb, steps);
    cnt = 0;
    for (size_t k = 0; k < n; k++)
        if (L->need[k] == which) memcpy(L->st[k], L->tmp + w * cnt++, 4 * w);
}

static void run_round(const nuri_sparkle_impl *impl, lane_set *L, size_t n, unsigned nb, unsigned slim, unsigned big)
{
    run_group(impl, L, n, nb, 1, slim);
    run_group(impl, L, n, nb, 2, big);
}

/* Multi-instance kernel working on transposed batches, if impl has one. */
static nuri_sparkle_soa_fn soa_for(const nuri_sparkle_impl *impl, size_t *lanes)
{
    if (impl->permute_soa && impl->lanes <= 16) { /* esch_chunk_soa keeps at most 16 lanes */
        *lanes = impl->lanes;
        return impl->permute_soa;
    }
    *lanes = CHUNK;
    return NULL;
}

/* Esch over n <= lanes messages with the same block count, kept transposed between rounds. */
static void esch_chunk_soa(nuri_sparkle_soa_fn fn, size_t lanes, size_t dl, uint8_t *out,
                           const uint8_t *const *msgs, const size_t *lens, size_t n, size_t nblk)
{
    unsigned nb = dl == 32 ? 6 : 8, slim = dl == 32 ? 7 : 8, big = dl == 32 ? 11 : 12;
    uint32_t soa[NURI_SPARKLE_MAX_WORDS * 16] __attribute__((aligned(64)));
    memset(soa, 0, sizeof soa);
    uint32_t P[4][16] __attribute__((aligned(64))), dom[16];
    memset(P, 0, sizeof P);
    for (size_t r = 0; r < nblk; r++) {
        int last = r + 1 == nblk;
        /* the blocks of all lanes, transposed; loops over lanes are plain (auto-vectorised) C */
        for (size_t k = 0; k < n; k++) {
            size_t off = 16 * r, blen = lens[k] - off < 16 ? lens[k] - off : 16;
            if (blen == 16) {
                for (unsigned w = 0; w < 4; w++) P[w][k] = nuri_load32_le(msgs[k] + off + 4 * w);
            } else {
                uint32_t p[4];
                nuri_sparkle_pad_words(p, 4, msgs[k] + off, blen);
                for (unsigned w = 0; w < 4; w++) P[w][k] = p[w];
            }
            dom[k] = last ? (uint32_t)(blen < 16 ? 0x01u : 0x02u) << 24 : 0;
        }
        for (size_t k = 0; k < n; k++) soa[(nb - 1) * lanes + k] ^= dom[k];
        for (size_t k = 0; k < lanes; k++) {
            uint32_t tx = nuri_sparkle_ell(P[0][k] ^ P[2][k]), ty = nuri_sparkle_ell(P[1][k] ^ P[3][k]);
            soa[0 * lanes + k] ^= P[0][k] ^ ty;
            soa[1 * lanes + k] ^= P[1][k] ^ tx;
            soa[2 * lanes + k] ^= P[2][k] ^ ty;
            soa[3 * lanes + k] ^= P[3][k] ^ tx;
            for (unsigned j = 2; j < nb / 2; j++) {
                soa[2 * j * lanes + k] ^= ty;
                soa[(2 * j + 1) * lanes + k] ^= tx;
            }
        }
        fn(soa, nb, last ? big : slim);
    }
    nuri_wipe(P, sizeof P);
    for (size_t off = 0;; off += 16) {
        for (size_t k = 0; k < n; k++)
            for (unsigned i = 0; i < 4; i++) nuri_store32_le(out + k * dl + off + 4 * i, soa[i * lanes + k]);
        if (off + 16 >= dl) break;
        fn(soa, nb, slim);
    }
    nuri_wipe(soa, sizeof soa);
}

int nuri_esch_many(size_t dl, uint8_t *out, const uint8_t *const *msgs, const size_t *lens, size_t count,
                   const char *impl_name)
{
    if (dl != 32 && dl != 48) return NURI_ELENGTH;
    const nuri_sparkle_impl *impl;
    int rc = nuri_sparkle_select(impl_name, &impl);
    if (rc) return rc;
    unsigned nb = dl == 32 ? 6 : 8, slim = dl == 32 ? 7 : 8, big = dl == 32 ? 11 : 12;
    size_t chunk;
    nuri_sparkle_soa_fn soa = soa_for(impl, &chunk);
    lane_set L;
    for (size_t base = 0; base < count; base += chunk) {
        size_t n = count - base < chunk ? count - base : chunk, maxblk = 0, minblk = (size_t)-1;
        size_t nblk[CHUNK];
        for (size_t k = 0; k < n; k++) {
            size_t len = lens[base + k];
            nblk[k] = len ? (len + 15) / 16 : 1; /* an empty message is one padded block */
            if (nblk[k] > maxblk) maxblk = nblk[k];
            if (nblk[k] < minblk) minblk = nblk[k];
        }
        if (soa && minblk == maxblk) { /* uniform chunk: stays transposed from start to end */
            esch_chunk_soa(soa, chunk, dl, out + base * dl, msgs + base, lens + base, n, maxblk);
            continue;
        }
        for (size_t k = 0; k < n; k++) memset(L.st[k], 0, sizeof L.st[k]);
        for (size_t r = 0; r < maxblk; r++) {
            for (size_t k = 0; k < n; k++) {
                L.need[k] = 0;
                if (r >= nblk[k]) continue;
                size_t len = lens[base + k], off = 16 * r, blen = len - off < 16 ? len - off : 16;
                int last = r + 1 == nblk[k];
                uint32_t p[4];
                nuri_sparkle_pad_words(p, 4, msgs[base + k] + off, blen);
                if (last) L.st[k][nb - 1] ^= (uint32_t)(blen < 16 ? 0x01u : 0x02u) << 24;
                nuri_esch_inject(L.st[k], nb, p);
                L.need[k] = (uint8_t)(last ? 2 : 1);
            }
            run_round(impl, &L, n, nb, slim, big);
        }
        for (size_t off = 0;; off += 16) {
            for (size_t k = 0; k < n; k++) {
                for (unsigned i = 0; i < 4; i++) nuri_store32_le(out + (base + k) * dl + off + 4 * i, L.st[k][i]);
                L.need[k] = 1;
            }
            if (off + 16 >= dl) break;
            run_round(impl, &L, n, nb, slim, big);
        }
        nuri_wipe(&L, sizeof L);
    }
    return NURI_OK;
}

int nuri_esch256_many(uint8_t *out, const uint8_t *const *msgs, const size_t *lens, size_t count)
{
    return nuri_esch_many(32, out, msgs, lens, count, NULL);
}

int nuri_esch384_many(uint8_t *out, const uint8_t *const *msgs, const size_t *lens, size_t count)
{
    return nuri_esch_many(48, out, msgs, lens, count, NULL);
}

/* Encrypts one message block of a Schwaemm state (same as schwaemm.c's msg_block, ENC mode). */
static void enc_block(const nuri_schwaemm_params *p, uint32_t *st, uint8_t *out, const uint8_t *in, size_t len,
                      int last)
{
    unsigned rw = p->rate / 4;
    uint32_t m[8];
    uint8_t s[32];
    nuri_sparkle_pad_words(m, rw, in, len);
    for (unsigned i = 0; i < rw; i++) nuri_store32_le(s + 4 * i, st[i]);
    for (size_t i = 0; i < len; i++) out[i] = (uint8_t)(in[i] ^ s[i]);
    if (last) st[2 * p->nb - 1] ^= (p->cbase + 2 + (len == p->rate)) << 24;
    nuri_schwaemm_absorb(p, st, m);
    nuri_wipe(m, sizeof m);
    nuri_wipe(s, sizeof s);
}

int nuri_schwaemm_encrypt_many(int variant, uint8_t *const *out, const uint8_t *key, size_t key_len,
                               const uint8_t *const *nonces, const uint8_t *const *ads, const size_t *ad_lens,
                               const uint8_t *const *msgs, const size_t *msg_lens, size_t count, const char *impl_name)
{
    if (variant < 0 || variant > 3) return NURI_EINVAL;
    const nuri_schwaemm_params *p = &nuri_schwaemm_table[variant];
    if (key_len != p->cap) return NURI_ELENGTH;
    const nuri_sparkle_impl *impl;
    int rc = nuri_sparkle_select(impl_name, &impl);
    if (rc) return rc;
    unsigned nb = p->nb, rw = p->rate / 4, cw = p->cap / 4;
    lane_set L;
    for (size_t base = 0; base < count; base += CHUNK) {
        size_t n = count - base < CHUNK ? count - base : CHUNK, maxops = 0;
        size_t nad[CHUNK], nm[CHUNK];
        for (size_t k = 0; k < n; k++) {
            size_t al = ads ? ad_lens[base + k] : 0, ml = msg_lens[base + k];
            nad[k] = (al + p->rate - 1) / p->rate;
            nm[k] = (ml + p->rate - 1) / p->rate;
            if (1 + nad[k] + nm[k] > maxops) maxops = 1 + nad[k] + nm[k];
            /* S = N || K, then big */
            for (unsigned i = 0; i < rw; i++) L.st[k][i] = nuri_load32_le(nonces[base + k] + 4 * i);
            for (unsigned i = 0; i < cw; i++) L.st[k][rw + i] = nuri_load32_le(key + 4 * i);
            L.need[k] = 2;
        }
        run_round(impl, &L, n, nb, p->slim, p->big);
        for (size_t r = 1; r < maxops; r++) {
            for (size_t k = 0; k < n; k++) {
                size_t op = r - 1;
                L.need[k] = 0;
                if (op < nad[k]) { /* associated data block */
                    size_t al = ad_lens[base + k], off = op * p->rate, blen = al - off < p->rate ? al - off : p->rate;
                    int last = op + 1 == nad[k];
                    uint32_t d[8];
                    nuri_sparkle_pad_words(d, rw, ads[base + k] + off, blen);
                    if (last) L.st[k][2 * nb - 1] ^= (p->cbase + (blen == p->rate)) << 24;
                    nuri_schwaemm_absorb(p, L.st[k], d);
                    L.need[k] = (uint8_t)(last ? 2 : 1);
                } else if (op - nad[k] < nm[k]) { /* message block */
                    size_t j = op - nad[k], ml = msg_lens[base + k], off = j * p->rate;
                    size_t blen = ml - off < p->rate ? ml - off : p->rate;
                    int last = j + 1 == nm[k];
                    enc_block(p, L.st[k], out[base + k] + off, msgs[base + k] + off, blen, last);
                    L.need[k] = (uint8_t)(last ? 2 : 1);
                }
            }
            run_round(impl, &L, n, nb, p->slim, p->big);
        }
        for (size_t k = 0; k < n; k++) { /* tag = S_R ^ K */
            uint8_t *tag = out[base + k] + msg_lens[base + k];
            for (unsigned i = 0; i < cw; i++) nuri_store32_le(tag + 4 * i, L.st[k][rw + i] ^ nuri_load32_le(key + 4 * i));
        }
    }
    nuri_wipe(&L, sizeof L);
    return NURI_OK;
}
