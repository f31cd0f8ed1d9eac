/* Search plan: candidate bit positions and the rounds all candidates share. */
#include "ks_impl.h"

#include "../pipo/pipo_impl.h"

static unsigned full_rounds(size_t key_len) { return key_len == 16 ? NURI_PIPO128_ROUNDS : NURI_PIPO256_ROUNDS; }

int nuri_ks_plan_make(ks_plan *p, const nuri_keysearch_params *prm)
{
    memset(p, 0, sizeof *p);
    if (prm->key_len != 16 && prm->key_len != 32) return NURI_ELENGTH;
    unsigned R = prm->rounds ? prm->rounds : full_rounds(prm->key_len);
    if (R > full_rounds(prm->key_len)) return NURI_EINVAL;
    p->key_len = (unsigned)prm->key_len;
    p->nwords = p->key_len / 8;
    p->rounds = R;
    /* candidate order: last byte's bit 0 first, first byte's bit 7 last */
    for (int byte = (int)p->key_len - 1; byte >= 0; byte--)
        for (unsigned bit = 0; bit < 8; bit++)
            if (prm->mask[byte] >> bit & 1) {
                if (p->k == 64) return NURI_EINVAL;
                p->pos[p->k++] = (uint16_t)(8 * byte + bit);
            }
    if (p->k == 0) return NURI_EINVAL;
    for (unsigned i = 0; i < p->key_len; i++) p->base[i] = prm->key[i] & (uint8_t)~prm->mask[i];
    memcpy(p->pt, prm->pt, 8);
    memcpy(p->ct, prm->ct, 8);

    int varies[4] = {0, 0, 0, 0};
    for (unsigned i = 0; i < p->key_len; i++) varies[i / 8] |= prm->mask[i] != 0;
    p->first = R + 1;
    for (unsigned i = 0; i <= R; i++)
        if (varies[i % p->nwords]) {
            if (p->first > R) p->first = i;
            p->last = i;
        }
    uint64_t rk[NURI_PIPO_MAX_ROUNDS + 1];
    for (unsigned i = 0; i <= R; i++) rk[i] = ks_round_key(p->base, p->nwords, i);
    if (p->first > R) { /* e.g. --rounds 1 with unknown bits only in K2: the key bits are unused */
        p->no_round_varies = 1;
        p->first = p->last = 0;
        return NURI_OK;
    }
    if (p->first == 0) {
        memcpy(p->init, p->pt, 8);
    } else {
        static const uint64_t zero[2] = {0, 0};
        nuri_pipo_ref_encrypt(rk, p->first - 1, p->init, p->pt, 1); /* whitening + rounds 1..first-1 */
        nuri_pipo_ref_encrypt(zero, 1, p->init, p->init, 1);        /* S-layer + R-layer of round first */
    }
    if (p->last == R) {
        memcpy(p->target, p->ct, 8);
    } else {
        uint64_t tail[NURI_PIPO_MAX_ROUNDS + 1] = {0}; /* tail[j] = RK_(last + j), tail[0] = 0 */
        for (unsigned j = 1; j <= R - p->last; j++) tail[j] = rk[p->last + j];
        nuri_pipo_ref_decrypt(tail, R - p->last, p->target, p->ct, 1);
    }
    return NURI_OK;
}

void nuri_ks_plan_key(const ks_plan *p, uint64_t index, uint8_t *key)
{
    memcpy(key, p->base, p->key_len);
    ks_flip_bits(p, key, index);
}
