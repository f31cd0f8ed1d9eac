/* The Schwaemm duplex and the Esch sponge, written once: instance parameters, the block steps
 * (each returns the number of SPARKLE steps to permute by next; the caller permutes, one state
 * or many at a time) and the lane engine (duplex.c) that runs one message or many in lock-step.
 * schwaemm.c and esch.c (streaming contexts, one-shot forms) and the *_many batch API all call
 * these; nothing here is written twice. */
#ifndef NURI_SPARKLE_MODES_H
#define NURI_SPARKLE_MODES_H

#include "sparkle_impl.h"

typedef struct {
    unsigned nb, rate, cap, slim, big; /* rate/cap in bytes; key = cap, nonce = rate, tag = cap */
    uint32_t cbase;                    /* domain constants: A0 = cbase, A1 = cbase+1, M2 = +2, M3 = +3 */
} nuri_schwaemm_params;

/* Schwaemm128-128, 256-128, 192-192, 256-256 (index = nuri_schwaemm_variant), in duplex.c. */
extern const nuri_schwaemm_params nuri_schwaemm_table[4];
/* NULL for an unknown variant. */
static inline const nuri_schwaemm_params *nuri_schwaemm_params_of(int variant)
{
    return variant >= 0 && variant < 4 ? &nuri_schwaemm_table[variant] : NULL;
}

/* Esch256 (SPARKLE384, 7/11 steps) and Esch384 (SPARKLE512, 8/12 steps): the one place. */
typedef struct {
    unsigned digest, nb, slim, big;
} nuri_esch_params;
/* Esch256, Esch384 (duplex.c). */
extern const nuri_esch_params nuri_esch_table[2];
/* NULL unless digest is 32 or 48. */
static inline const nuri_esch_params *nuri_esch_params_of(size_t digest)
{
    return digest == 32 ? &nuri_esch_table[0] : digest == 48 ? &nuri_esch_table[1] : NULL;
}

static inline uint32_t nuri_sparkle_ell(uint32_t v)
{
    v ^= v << 16;
    return (v >> 16) | (v << 16);
}

/* Rate words of a (possibly partial) block, padded with 0x80 0x00... when len < rate bytes. */
static inline void nuri_sparkle_pad_words(uint32_t *w, unsigned words, const uint8_t *in, size_t len)
{
    uint8_t b[32];
    memset(b, 0, sizeof b);
    memcpy(b, in, len);
    if (len < 4u * words) b[len] = 0x80;
    for (unsigned i = 0; i < words; i++) w[i] = nuri_load32_le(b + 4 * i);
    nuri_wipe(b, sizeof b);
}

/* Schwaemm: S_L <- FeistelSwap(S_L) ^ D ^ W(S_R) (rho and rate whitening). */
static inline void nuri_schwaemm_absorb(const nuri_schwaemm_params *p, uint32_t *st, const uint32_t *d)
{
    unsigned rw = p->rate / 4, cw = p->cap / 4, half = rw / 2;
    for (unsigned i = 0; i < half; i++) {
        unsigned j = i + half;
        uint32_t s1 = st[i], s2 = st[j];
        st[i] = s2 ^ d[i] ^ st[rw + (i % cw)];
        st[j] = s1 ^ s2 ^ d[j] ^ st[rw + (j % cw)];
    }
}

/* Esch: inject a 16-byte block (already padded) with the Feistel map M_h, into a batch of
 * states in transposed form: word w of state k is st[w * lanes + k], word w of its block
 * P[w * lanes + k]. lanes = 1 is one state in its ordinary layout. */
static inline void nuri_esch_inject(uint32_t *st, size_t lanes, unsigned nb, const uint32_t *P)
{
    for (size_t k = 0; k < lanes; k++) {
        uint32_t p0 = P[k], p1 = P[lanes + k], p2 = P[2 * lanes + k], p3 = P[3 * lanes + k];
        uint32_t tx = nuri_sparkle_ell(p0 ^ p2), ty = nuri_sparkle_ell(p1 ^ p3);
        st[k] ^= p0 ^ ty;
        st[lanes + k] ^= p1 ^ tx;
        st[2 * lanes + k] ^= p2 ^ ty;
        st[3 * lanes + k] ^= p3 ^ tx;
        for (unsigned j = 2; j < nb / 2; j++) {
            st[2 * j * lanes + k] ^= ty;
            st[(2 * j + 1) * lanes + k] ^= tx;
        }
    }
}

/* Esch's domain constant for the last block (0x01 padded, 0x02 full), XORed into the top byte
 * of y_{h-1} (word nb - 1). */
static inline uint32_t nuri_esch_domain(size_t last_len)
{
    return (uint32_t)(last_len < NURI_ESCH_RATE_BYTES ? 0x01u : 0x02u) << 24;
}

/* ---- block steps on one state: each returns the SPARKLE steps to permute by next ---- */
enum { NURI_DUPLEX_ENC, NURI_DUPLEX_DEC, NURI_DUPLEX_VERIFY };

/* S = N || K; returns the steps of the initial permutation (big). */
static inline unsigned nuri_schwaemm_start(const nuri_schwaemm_params *p, uint32_t *st, const uint8_t *key,
                                           const uint8_t *nonce)
{
    unsigned rw = p->rate / 4;
    for (unsigned i = 0; i < rw; i++) st[i] = nuri_load32_le(nonce + 4 * i);
    for (unsigned i = 0; i < p->cap / 4; i++) st[rw + i] = nuri_load32_le(key + 4 * i);
    return p->big;
}

/* One AD block (len <= rate; len < rate only if last). */
static inline unsigned nuri_schwaemm_ad_block(const nuri_schwaemm_params *p, uint32_t *st, const uint8_t *in,
                                              size_t len, int last)
{
    uint32_t d[8];
    nuri_sparkle_pad_words(d, p->rate / 4, in, len);
    if (last) st[2 * p->nb - 1] ^= (p->cbase + (len == p->rate)) << 24; /* A0 / A1 */
    nuri_schwaemm_absorb(p, st, d);
    nuri_wipe(d, sizeof d);
    return last ? p->big : p->slim;
}

/* One message block. ENC: out = in ^ S_L, absorb in. DEC: out = in ^ S_L = plaintext, absorb it.
 * VERIFY: as DEC without output (out unused, may be NULL). in and out may alias exactly. */
static inline unsigned nuri_schwaemm_msg_block(const nuri_schwaemm_params *p, uint32_t *st, uint8_t *out,
                                               const uint8_t *in, size_t len, int last, int mode)
{
    unsigned rw = p->rate / 4;
    uint32_t m[8];
    if (len == p->rate) {
        for (unsigned i = 0; i < rw; i++) {
            uint32_t w = nuri_load32_le(in + 4 * i), o = w ^ st[i];
            m[i] = mode == NURI_DUPLEX_ENC ? w : o;
            if (mode != NURI_DUPLEX_VERIFY) nuri_store32_le(out + 4 * i, o);
        }
    } else {
        uint8_t s[32], b[32];
        /* rw <= 8 always (rate <= 32 bytes); the explicit bound keeps GCC 12 -O3 from a false
         * -Wstringop-overflow on s[]. */
        for (unsigned i = 0; i < rw && i < 8; i++) nuri_store32_le(s + 4 * i, st[i]);
        for (size_t i = 0; i < len; i++) {
            uint8_t o = (uint8_t)(in[i] ^ s[i]);
            b[i] = mode == NURI_DUPLEX_ENC ? in[i] : o;
            if (mode != NURI_DUPLEX_VERIFY) out[i] = o;
        }
        nuri_sparkle_pad_words(m, rw, b, len);
        nuri_wipe(s, sizeof s);
        nuri_wipe(b, sizeof b);
    }
    if (last) st[2 * p->nb - 1] ^= (p->cbase + 2 + (len == p->rate)) << 24; /* M2 / M3 */
    nuri_schwaemm_absorb(p, st, m);
    nuri_wipe(m, sizeof m);
    return last ? p->big : p->slim;
}

/* tag = S_R ^ K (cap bytes). */
static inline void nuri_schwaemm_tag(const nuri_schwaemm_params *p, const uint32_t *st, const uint8_t *key,
                                     uint8_t *tag)
{
    unsigned rw = p->rate / 4;
    for (unsigned i = 0; i < p->cap / 4; i++) nuri_store32_le(tag + 4 * i, st[rw + i] ^ nuri_load32_le(key + 4 * i));
}

/* One Esch block (len <= 16; len < 16 only if last; an empty message is one padded block). */
static inline unsigned nuri_esch_block(const nuri_esch_params *e, uint32_t *st, const uint8_t *in, size_t len, int last)
{
    uint32_t P[4];
    nuri_sparkle_pad_words(P, 4, in, len);
    if (last) st[e->nb - 1] ^= nuri_esch_domain(len);
    nuri_esch_inject(st, 1, e->nb, P);
    nuri_wipe(P, sizeof P);
    return last ? e->big : e->slim;
}

/* Digest: 16-byte squeezes separated by slim permutations. */
static inline void nuri_esch_squeeze(const nuri_esch_params *e, const nuri_sparkle_impl *impl, uint32_t *st,
                                     uint8_t *out)
{
    for (unsigned off = 0;; off += 16) {
        for (unsigned i = 0; i < 4; i++) nuri_store32_le(out + off + 4 * i, st[i]);
        if (off + 16 >= e->digest) break;
        impl->permute(st, e->nb, e->slim);
    }
}

/* ---- the lane engine (duplex.c): count messages in lock-step, one state per message ----
 * Schwaemm under one key. ENC: out[i] = ciphertext || tag of in[i] (lens[i] bytes of message).
 * DEC: in[i] = ciphertext || tag with lens[i] bytes of ciphertext; out[i] = the plaintext, written
 * in one pass and wiped again when the tag fails; status[i] = 0 or NURI_EAUTH (status may be NULL).
 * Returns NURI_OK, or NURI_EAUTH if any tag failed. Single messages go to impl->permute (the best
 * single-state kernel); batches to the multi-instance kernel. */
int nuri_schwaemm_lanes(const nuri_schwaemm_params *p, const nuri_sparkle_impl *impl, int mode, const uint8_t *key,
                        const uint8_t *const *nonces, const uint8_t *const *ads, const size_t *ad_lens,
                        const uint8_t *const *in, const size_t *lens, uint8_t *const *out, int *status, size_t count);

/* Streams len bytes through rate-byte blocks, always keeping the last block (full or partial)
 * pending in buf: the sponge and the duplex treat the final block differently, and only final
 * knows which block is last. Every block known not to be the last goes to f(ctx, block). */
typedef void (*nuri_sparkle_block_fn)(void *ctx, const uint8_t *block);
static inline void nuri_sparkle_hold_last(uint8_t *buf, size_t *buf_len, size_t rate, const uint8_t *in, size_t len,
                                          nuri_sparkle_block_fn f, void *ctx)
{
    while (len) {
        if (*buf_len == rate) { /* a full pending block with more data after it: not the last */
            f(ctx, buf);
            *buf_len = 0;
        }
        if (*buf_len == 0) {
            for (; len > rate; in += rate, len -= rate) f(ctx, in);
        }
        size_t take = rate - *buf_len < len ? rate - *buf_len : len;
        memcpy(buf + *buf_len, in, take);
        *buf_len += take;
        in += take;
        len -= take;
    }
}

#endif
