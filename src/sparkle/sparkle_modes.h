/* Shared by schwaemm.c, esch.c and batch.c: instance parameters and the block operations of
 * the Schwaemm duplex and the Esch sponge, written once over the permutation backend. */
#ifndef NURI_SPARKLE_MODES_H
#define NURI_SPARKLE_MODES_H

#include "sparkle_impl.h"

typedef struct {
    unsigned nb, rate, cap, slim, big; /* rate/cap in bytes; key = cap, nonce = rate, tag = cap */
    uint32_t cbase;                    /* domain constants: A0 = cbase, A1 = cbase+1, M2 = +2, M3 = +3 */
} nuri_schwaemm_params;

extern const nuri_schwaemm_params nuri_schwaemm_table[4];

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

/* Esch: inject a 16-byte block (4 words, already padded) with the Feistel map M_h. */
static inline void nuri_esch_inject(uint32_t *st, unsigned nb, const uint32_t *p)
{
    uint32_t tx = nuri_sparkle_ell(p[0] ^ p[2]), ty = nuri_sparkle_ell(p[1] ^ p[3]);
    st[0] ^= p[0] ^ ty;
    st[1] ^= p[1] ^ tx;
    st[2] ^= p[2] ^ ty;
    st[3] ^= p[3] ^ tx;
    for (unsigned j = 2; j < nb / 2; j++) {
        st[2 * j] ^= ty;
        st[2 * j + 1] ^= tx;
    }
}

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
