/* The Schwaemm duplex and the Esch sponge, once: the block steps on one state, and the engines
 * that run one message or many over them.
 *  - One message (the one-shot functions in schwaemm.c, and a lone message of a batch): one(), a
 *    plain block loop over impl->permute (the best single-state kernel), inlined with constant
 *    parameters for Schwaemm256-128.
 *  - Batches on a backend with a duplex32 kernel (avx2; Schwaemm256-128 and 256-256, rate 32):
 *    runs of consecutive messages with the same lengths (every full chunk of a file) go up to
 *    `lanes` at a time through run_duplex32(): the states stay transposed from nonce to tag and the
 *    kernel takes the message blocks in registers (transposing each 32-byte block there), so a
 *    batch of 64 KiB chunks runs at the multi-instance kernel's speed.
 *  - Other batches (other variants, other multi-instance kernels): the lane engine lanes(). Messages
 *    may have different lengths: at every round the states that need the slim permutation and
 *    those that need the big one are gathered into two groups and each group is permuted in one
 *    call (gather/scatter per block: no faster than single calls for long messages). */
#include "sparkle_modes.h"

const nuri_schwaemm_params nuri_schwaemm_table[4] = {
    {4, 16, 16, 7, 10, 0x04}, /* Schwaemm128-128 */
    {6, 32, 16, 7, 11, 0x04}, /* Schwaemm256-128 */
    {6, 24, 24, 7, 11, 0x08}, /* Schwaemm192-192 */
    {8, 32, 32, 8, 12, 0x10}, /* Schwaemm256-256 */
};

const nuri_esch_params nuri_esch_table[2] = {{32, 6, 7, 11}, {48, 8, 8, 12}};

/* ---- the lane engine ---- */

/* States in flight per chunk (two avx512 passes); all on the stack, no allocation. */
#if defined(__AVR__)
#define CHUNK 1 /* 2 KiB of RAM; AVR has no multi-instance kernel anyway */
#else
#define CHUNK 32
#endif

typedef struct {
    uint32_t st[CHUNK][NURI_SPARKLE_MAX_WORDS];
    unsigned steps[CHUNK]; /* steps this round; 0 = idle */
    size_t used, tmp_used; /* lanes and tmp words written: what lane_wipe clears */
#if CHUNK > 1
    uint32_t tmp[CHUNK * NURI_SPARKLE_MAX_WORDS];
#endif
} lane_set;

/* Wipes the lanes used (not the whole 4 KiB: a one-shot call on 64 bytes must not pay for it). */
static void lane_wipe(lane_set *L)
{
    nuri_wipe(L->st, L->used * sizeof L->st[0]);
#if CHUNK > 1
    nuri_wipe(L->tmp, L->tmp_used * sizeof L->tmp[0]);
#endif
    L->used = L->tmp_used = 0;
}

/* Permutes every lane whose steps == steps. A lone state goes to impl->permute in place (the
 * best single-state kernel: a multi-instance pass costs as much for one state as for all). */
static void run_group(const nuri_sparkle_impl *impl, lane_set *L, size_t n, unsigned nb, unsigned steps)
{
    if (n == 1) { /* one message (the one-shot forms) */
        if (L->steps[0] == steps) impl->permute(L->st[0], nb, steps);
        return;
    }
    size_t cnt = 0, last = 0, w = 2 * nb;
    for (size_t k = 0; k < n; k++)
        if (L->steps[k] == steps) cnt++, last = k;
    if (cnt == 1 || !impl->permute_many) {
        for (size_t k = cnt == 1 ? last : 0; k < n && cnt; k++)
            if (L->steps[k] == steps) impl->permute(L->st[k], nb, steps), cnt--;
        return;
    }
#if CHUNK > 1
    cnt = 0;
    for (size_t k = 0; k < n; k++)
        if (L->steps[k] == steps) memcpy(L->tmp + w * cnt++, L->st[k], 4 * w);
    if (w * cnt > L->tmp_used) L->tmp_used = w * cnt;
    impl->permute_many(L->tmp, cnt, nb, steps);
    cnt = 0;
    for (size_t k = 0; k < n; k++)
        if (L->steps[k] == steps) memcpy(L->st[k], L->tmp + w * cnt++, 4 * w);
#else
    (void)w;
#endif
}

/* One round: each distinct step count (slim, big) permuted as a group. */
static void run_round(const nuri_sparkle_impl *impl, lane_set *L, size_t n, unsigned nb, unsigned slim, unsigned big)
{
    run_group(impl, L, n, nb, slim);
    run_group(impl, L, n, nb, big);
}

static size_t blocks_of(size_t len, size_t rate) { return (len + rate - 1) / rate; }

/* The end of one message: ENC writes the tag after the ciphertext; DEC compares it with the one
 * after the ciphertext in `in` and wipes the plaintext when it differs (the caller never sees
 * unverified plaintext). Returns NURI_OK or NURI_EAUTH (also in *status when status is not NULL). */
static int finish(const nuri_schwaemm_params *p, const uint32_t *st, const uint8_t *key, int mode, const uint8_t *in,
                  size_t len, uint8_t *out, int *status)
{
    if (mode == NURI_DUPLEX_ENC) {
        nuri_schwaemm_tag(p, st, key, out + len);
        return NURI_OK;
    }
    uint8_t t[32];
    nuri_schwaemm_tag(p, st, key, t);
    int ok = nuri_ct_memcmp(t, in + len, p->cap) == 0;
    NURI_CT_PUBLIC(&ok, sizeof ok); /* the verdict is public */
    nuri_wipe(t, sizeof t);
    if (!ok) nuri_wipe(out, len);
    if (status) *status = ok ? NURI_OK : NURI_EAUTH;
    return ok ? NURI_OK : NURI_EAUTH;
}

/* Inlined twice below with a constant mode, so the block steps lose their mode tests. */
static inline __attribute__((always_inline)) int lanes(const nuri_schwaemm_params *p, const nuri_sparkle_impl *impl,
                                                       int mode, const uint8_t *key, const uint8_t *const *nonces,
                                                       const uint8_t *const *ads, const size_t *ad_lens,
                                                       const uint8_t *const *in, const size_t *lens,
                                                       uint8_t *const *out, int *status, size_t count)
{
    unsigned nb = p->nb;
    int rc = NURI_OK;
    lane_set L;
    L.used = L.tmp_used = 0;
    for (size_t base = 0; base < count; base += CHUNK) {
        size_t n = count - base < CHUNK ? count - base : CHUNK, rounds = 0;
        size_t nad[CHUNK], nm[CHUNK];
        for (size_t k = 0; k < n; k++) {
            nad[k] = ads ? blocks_of(ad_lens[base + k], p->rate) : 0;
            nm[k] = blocks_of(lens[base + k], p->rate);
            if (nad[k] + nm[k] > rounds) rounds = nad[k] + nm[k];
            L.steps[k] = nuri_schwaemm_start(p, L.st[k], key, nonces[base + k]);
        }
        if (n > L.used) L.used = n;
        run_round(impl, &L, n, nb, p->slim, p->big);
        for (size_t op = 0; op < rounds; op++) {
            for (size_t k = 0; k < n; k++) {
                size_t i = base + k;
                L.steps[k] = 0;
                if (op < nad[k]) { /* associated data block */
                    size_t off = op * p->rate, blen = ad_lens[i] - off < p->rate ? ad_lens[i] - off : p->rate;
                    L.steps[k] = nuri_schwaemm_ad_block(p, L.st[k], ads[i] + off, blen, op + 1 == nad[k]);
                } else if (op - nad[k] < nm[k]) { /* message block */
                    size_t off = (op - nad[k]) * p->rate, blen = lens[i] - off < p->rate ? lens[i] - off : p->rate;
                    L.steps[k] = nuri_schwaemm_msg_block(p, L.st[k], out[i] + off, in[i] + off, blen,
                                                         op - nad[k] + 1 == nm[k], mode);
                }
            }
            run_round(impl, &L, n, nb, p->slim, p->big);
        }
        for (size_t k = 0; k < n; k++) {
            size_t i = base + k;
            if (finish(p, L.st[k], key, mode, in[i], lens[i], out[i], status ? status + i : NULL)) rc = NURI_EAUTH;
        }
    }
    lane_wipe(&L);
    return rc;
}

/* One message on its own: the block steps and impl->permute (the best single-state kernel) in a
 * plain loop, with nothing of the lane bookkeeping (inlined per variant, so rate and branch
 * counts are constants). */
static inline __attribute__((always_inline)) int one(const nuri_schwaemm_params *p, const nuri_sparkle_impl *impl,
                                                     int mode, const uint8_t *key, const uint8_t *nonce,
                                                     const uint8_t *ad, size_t ad_len, const uint8_t *in, size_t len,
                                                     uint8_t *out, int *status)
{
    uint32_t st[NURI_SPARKLE_MAX_WORDS];
    const unsigned nb = p->nb, rate = p->rate;
    impl->permute(st, nb, nuri_schwaemm_start(p, st, key, nonce));
    if (ad && ad_len) {
        size_t off = 0;
        for (; ad_len - off > rate; off += rate)
            impl->permute(st, nb, nuri_schwaemm_ad_block(p, st, ad + off, rate, 0));
        impl->permute(st, nb, nuri_schwaemm_ad_block(p, st, ad + off, ad_len - off, 1));
    }
    if (len) {
        size_t off = 0;
        for (; len - off > rate; off += rate)
            impl->permute(st, nb, nuri_schwaemm_msg_block(p, st, out + off, in + off, rate, 0, mode));
        impl->permute(st, nb, nuri_schwaemm_msg_block(p, st, out + off, in + off, len - off, 1, mode));
    }
    int rc = finish(p, st, key, mode, in, len, out, status);
    nuri_wipe(st, sizeof st);
    return rc;
}

static int one_enc(const nuri_schwaemm_params *p, const nuri_sparkle_impl *impl, const uint8_t *key,
                   const uint8_t *nonce, const uint8_t *ad, size_t ad_len, const uint8_t *in, size_t len, uint8_t *out,
                   int *status)
{
    switch (p - nuri_schwaemm_table) { /* constant parameters per variant */
    case NURI_SCHWAEMM256_128:
        return one(&nuri_schwaemm_table[1], impl, NURI_DUPLEX_ENC, key, nonce, ad, ad_len, in, len, out, status);
    default:
        return one(p, impl, NURI_DUPLEX_ENC, key, nonce, ad, ad_len, in, len, out, status);
    }
}

static int one_dec(const nuri_schwaemm_params *p, const nuri_sparkle_impl *impl, const uint8_t *key,
                   const uint8_t *nonce, const uint8_t *ad, size_t ad_len, const uint8_t *in, size_t len, uint8_t *out,
                   int *status)
{
    switch (p - nuri_schwaemm_table) {
    case NURI_SCHWAEMM256_128:
        return one(&nuri_schwaemm_table[1], impl, NURI_DUPLEX_DEC, key, nonce, ad, ad_len, in, len, out, status);
    default:
        return one(p, impl, NURI_DUPLEX_DEC, key, nonce, ad, ad_len, in, len, out, status);
    }
}

/* ---- uniform runs on a duplex32 kernel: the states stay transposed from nonce to tag ---- */

static void soa_get(const uint32_t *soa, size_t lanes, size_t k, unsigned words, uint32_t *st)
{
    for (unsigned w = 0; w < words; w++) st[w] = soa[w * lanes + k];
}

static void soa_put(uint32_t *soa, size_t lanes, size_t k, unsigned words, const uint32_t *st)
{
    for (unsigned w = 0; w < words; w++) soa[w * lanes + k] = st[w];
}

/* n (2..impl->lanes) messages of one length and one AD length (rate 32). Nonce, AD blocks, the
 * last message block and the tag go lane by lane through the block steps (a few per message);
 * every other message block goes through impl->duplex32 with the states in registers. Idle
 * lanes (n < lanes) permute a zero state over a zero block into a scratch block. */
__attribute__((noinline)) /* its 1 KiB frame only when called (AVR has 2 KiB of RAM in all) */
static int
run_duplex32(const nuri_schwaemm_params *p, const nuri_sparkle_impl *impl, int mode, const uint8_t *key,
             const uint8_t *const *nonces, const uint8_t *const *ads, size_t ad_len, const uint8_t *const *in,
             size_t len, uint8_t *const *out, int *status, size_t n)
{
    const size_t lanes = impl->lanes, rate = p->rate, nad = ads ? blocks_of(ad_len, rate) : 0;
    const size_t nm = blocks_of(len, rate);
    const unsigned nb = p->nb, words = 2 * nb;
    uint32_t soa[NURI_SPARKLE_MAX_WORDS * 16] __attribute__((aligned(64)));
    uint32_t st[NURI_SPARKLE_MAX_WORDS];
    uint8_t idle_in[32], idle_out[32];
    memset(soa, 0, sizeof soa);
    memset(idle_in, 0, sizeof idle_in);
    unsigned steps = 0;
    for (size_t k = 0; k < n; k++) {
        steps = nuri_schwaemm_start(p, st, key, nonces[k]);
        soa_put(soa, lanes, k, words, st);
    }
    impl->permute_soa(soa, nb, steps);
    for (size_t b = 0; b < nad; b++) {
        size_t off = b * rate, blen = ad_len - off < rate ? ad_len - off : rate;
        for (size_t k = 0; k < n; k++) {
            soa_get(soa, lanes, k, words, st);
            steps = nuri_schwaemm_ad_block(p, st, ads[k] + off, blen, b + 1 == nad);
            soa_put(soa, lanes, k, words, st);
        }
        impl->permute_soa(soa, nb, steps);
    }
    if (nm > 1) {
        const uint8_t *ip[16];
        uint8_t *op[16];
        size_t stride[16];
        for (size_t k = 0; k < lanes; k++) {
            ip[k] = k < n ? in[k] : idle_in;
            op[k] = k < n ? out[k] : idle_out;
            stride[k] = k < n ? rate : 0;
        }
        impl->duplex32(soa, nb, p->slim, mode == NURI_DUPLEX_DEC, ip, op, stride, nm - 1);
    }
    if (nm) {
        size_t off = (nm - 1) * rate;
        for (size_t k = 0; k < n; k++) {
            soa_get(soa, lanes, k, words, st);
            steps = nuri_schwaemm_msg_block(p, st, out[k] + off, in[k] + off, len - off, 1, mode);
            soa_put(soa, lanes, k, words, st);
        }
        impl->permute_soa(soa, nb, steps);
    }
    int rc = NURI_OK;
    for (size_t k = 0; k < n; k++) {
        soa_get(soa, lanes, k, words, st);
        if (finish(p, st, key, mode, in[k], len, out[k], status ? status + k : NULL)) rc = NURI_EAUTH;
    }
    nuri_wipe(soa, sizeof soa);
    nuri_wipe(st, sizeof st);
    nuri_wipe(idle_out, sizeof idle_out);
    return rc;
}

/* A batch on a duplex32 kernel: runs of consecutive messages with the same lengths (all full
 * chunks of a file are) go transposed, up to impl->lanes at a time; a message alone goes to one(). */
static int runs_duplex32(const nuri_schwaemm_params *p, const nuri_sparkle_impl *impl, int mode, const uint8_t *key,
                         const uint8_t *const *nonces, const uint8_t *const *ads, const size_t *ad_lens,
                         const uint8_t *const *in, const size_t *lens, uint8_t *const *out, int *status, size_t count)
{
    int rc = NURI_OK;
    for (size_t i = 0; i < count;) {
        size_t adl = ads ? ad_lens[i] : 0, n = 1;
        while (i + n < count && n < impl->lanes && lens[i + n] == lens[i] && (!ads || ad_lens[i + n] == adl)) n++;
        int r;
        if (n > 1)
            r = run_duplex32(p, impl, mode, key, nonces + i, ads ? ads + i : NULL, adl, in + i, lens[i], out + i,
                             status ? status + i : NULL, n);
        else if (mode == NURI_DUPLEX_ENC)
            r = one_enc(p, impl, key, nonces[i], ads ? ads[i] : NULL, adl, in[i], lens[i], out[i],
                        status ? status + i : NULL);
        else
            r = one_dec(p, impl, key, nonces[i], ads ? ads[i] : NULL, adl, in[i], lens[i], out[i],
                        status ? status + i : NULL);
        if (r) rc = r;
        i += n;
    }
    return rc;
}

int nuri_schwaemm_lanes(const nuri_schwaemm_params *p, const nuri_sparkle_impl *impl, int mode, const uint8_t *key,
                        const uint8_t *const *nonces, const uint8_t *const *ads, const size_t *ad_lens,
                        const uint8_t *const *in, const size_t *lens, uint8_t *const *out, int *status, size_t count)
{
    if (count == 1) {
        const uint8_t *ad = ads ? ads[0] : NULL;
        size_t adl = ads ? ad_lens[0] : 0;
        return mode == NURI_DUPLEX_ENC ? one_enc(p, impl, key, nonces[0], ad, adl, in[0], lens[0], out[0], status)
                                       : one_dec(p, impl, key, nonces[0], ad, adl, in[0], lens[0], out[0], status);
    }
    if (impl->duplex32 && impl->permute_soa && impl->lanes <= 16 && p->rate == 32)
        return runs_duplex32(p, impl, mode, key, nonces, ads, ad_lens, in, lens, out, status, count);
    if (mode == NURI_DUPLEX_ENC)
        return lanes(p, impl, NURI_DUPLEX_ENC, key, nonces, ads, ad_lens, in, lens, out, status, count);
    return lanes(p, impl, NURI_DUPLEX_DEC, key, nonces, ads, ad_lens, in, lens, out, status, count);
}

/* Zeroes out[i] (n_i bytes each, tag included when add is the tag size) after an early error. */
static void zero_outputs(uint8_t *const *out, const size_t *lens, size_t add, size_t sub, size_t count)
{
    for (size_t i = 0; out && lens && i < count; i++)
        if (lens[i] >= sub) nuri_wipe(out[i], lens[i] + add - sub);
}

int nuri_schwaemm_encrypt_many(const nuri_schwaemm_key *k, uint8_t *const *out, const uint8_t *const *nonces,
                               const uint8_t *const *ads, const size_t *ad_lens, const uint8_t *const *msgs,
                               const size_t *msg_lens, size_t count)
{
    const nuri_schwaemm_params *p = k->impl ? nuri_schwaemm_params_of(k->variant) : NULL;
    if (!p) {
        zero_outputs(out, msg_lens, nuri_schwaemm_tag_bytes(k->variant), 0, count);
        return NURI_ESTATE;
    }
    for (size_t i = 0; i < count; i++)
        if (nuri_overlap_partial(out[i], msg_lens[i] + p->cap, msgs[i], msg_lens[i]))
            return NURI_EINVAL; /* before anything is written: zeroing would destroy input */
    return nuri_schwaemm_lanes(p, k->impl, NURI_DUPLEX_ENC, k->key, nonces, ads, ad_lens, msgs, msg_lens, out, NULL,
                               count);
}

int nuri_schwaemm_decrypt_many(const nuri_schwaemm_key *k, uint8_t *const *out, const uint8_t *const *nonces,
                               const uint8_t *const *ads, const size_t *ad_lens, const uint8_t *const *cts,
                               const size_t *ct_lens, int *status, size_t count)
{
    const nuri_schwaemm_params *p = k->impl ? nuri_schwaemm_params_of(k->variant) : NULL;
    const nuri_sparkle_impl *impl = k->impl;
    const uint8_t *key = k->key;
    size_t tag = nuri_schwaemm_tag_bytes(k->variant);
    int rc = !p ? NURI_ESTATE : NURI_OK;
    for (size_t i = 0; rc == NURI_OK && i < count; i++)
        if (ct_lens[i] < p->cap) rc = NURI_ELENGTH; /* shorter than a tag */
    for (size_t i = 0; rc == NURI_OK && i < count; i++)
        if (nuri_overlap_partial(out[i], ct_lens[i] - p->cap, cts[i], ct_lens[i])) {
            for (size_t j = 0; status && j < count; j++) status[j] = NURI_EINVAL;
            return NURI_EINVAL; /* before anything is written: zeroing would destroy input */
        }
    if (rc) {
        if (tag) zero_outputs(out, ct_lens, 0, tag, count);
        for (size_t i = 0; status && i < count; i++) status[i] = rc;
        return rc;
    }
    /* message lengths without the tag, a chunk at a time (no allocation) */
    int result = NURI_OK;
    for (size_t base = 0; base < count; base += CHUNK) {
        size_t n = count - base < CHUNK ? count - base : CHUNK, lens[CHUNK];
        for (size_t j = 0; j < n; j++) lens[j] = ct_lens[base + j] - p->cap;
        rc = nuri_schwaemm_lanes(p, impl, NURI_DUPLEX_DEC, key, nonces + base, ads ? ads + base : NULL,
                                 ads ? ad_lens + base : NULL, cts + base, lens, out + base,
                                 status ? status + base : NULL, n);
        if (rc) result = rc;
    }
    return result;
}

/* ---- Esch over many messages ---- */

/* n <= lanes messages with the same block count, kept transposed between rounds (soa_fn). */
static void esch_chunk_soa(const nuri_esch_params *e, nuri_sparkle_soa_fn fn, size_t lanes, uint8_t *out,
                           const uint8_t *const *msgs, const size_t *lens, size_t n, size_t nblk)
{
    uint32_t soa[NURI_SPARKLE_MAX_WORDS * 16] __attribute__((aligned(64)));
    uint32_t P[4 * 16] __attribute__((aligned(64)));
    memset(soa, 0, sizeof soa);
    memset(P, 0, sizeof P);
    for (size_t r = 0; r < nblk; r++) {
        int last = r + 1 == nblk;
        for (size_t k = 0; k < n; k++) { /* the blocks of all lanes, transposed */
            size_t off = 16 * r, blen = lens[k] - off < 16 ? lens[k] - off : 16;
            uint32_t p[4];
            if (blen == 16) {
                for (unsigned w = 0; w < 4; w++) p[w] = nuri_load32_le(msgs[k] + off + 4 * w);
            } else {
                nuri_sparkle_pad_words(p, 4, msgs[k] + off, blen);
            }
            for (unsigned w = 0; w < 4; w++) P[w * lanes + k] = p[w];
            if (last) soa[(e->nb - 1) * lanes + k] ^= nuri_esch_domain(blen);
        }
        nuri_esch_inject(soa, lanes, e->nb, P); /* the same injection as one state's, over all lanes */
        fn(soa, e->nb, last ? e->big : e->slim);
    }
    nuri_wipe(P, sizeof P);
    for (size_t off = 0;; off += 16) {
        for (size_t k = 0; k < n; k++)
            for (unsigned i = 0; i < 4; i++) nuri_store32_le(out + k * e->digest + off + 4 * i, soa[i * lanes + k]);
        if (off + 16 >= e->digest) break;
        fn(soa, e->nb, e->slim);
    }
    nuri_wipe(soa, sizeof soa);
}

/* count * digest bytes, or 0 on overflow (never enough room then) */
static size_t digests_bytes(size_t count, size_t dl) { return count > SIZE_MAX / dl ? 0 : count * dl; }

static int esch_many(const nuri_esch_params *e, const nuri_sparkle_impl *impl, uint8_t *out, size_t out_cap,
                     const uint8_t *const *msgs, const size_t *lens, size_t count)
{
    size_t dl = e ? e->digest : 0;
    int rc = NURI_OK;
    if (!e || !impl) rc = NURI_ESTATE;
    else if (count && (digests_bytes(count, dl) == 0 || out_cap < count * dl)) rc = NURI_EBUFFER;
    if (rc) {
        if (out) nuri_wipe(out, out_cap);
        return rc;
    }
    /* transposed batches for multi-instance kernels that have them (esch_chunk_soa keeps <= 16 lanes) */
    int soa = impl->permute_soa && impl->lanes <= 16;
    size_t chunk = soa ? impl->lanes : CHUNK;
    lane_set L;
    L.used = L.tmp_used = 0;
    for (size_t base = 0; base < count; base += chunk) {
        size_t n = count - base < chunk ? count - base : chunk, maxblk = 0, minblk = (size_t)-1;
        size_t nblk[CHUNK > 16 ? CHUNK : 16];
        for (size_t k = 0; k < n; k++) {
            size_t len = lens[base + k];
            nblk[k] = len ? blocks_of(len, 16) : 1; /* an empty message is one padded block */
            if (nblk[k] > maxblk) maxblk = nblk[k];
            if (nblk[k] < minblk) minblk = nblk[k];
        }
        if (soa && minblk == maxblk && n > 1) { /* uniform chunk: stays transposed from start to end */
            esch_chunk_soa(e, impl->permute_soa, chunk, out + base * dl, msgs + base, lens + base, n, maxblk);
            continue;
        }
        for (size_t k = 0; k < n; k++) memset(L.st[k], 0, sizeof L.st[k]);
        if (n > L.used) L.used = n;
        for (size_t r = 0; r < maxblk; r++) {
            for (size_t k = 0; k < n; k++) {
                size_t len = lens[base + k], off = 16 * r;
                L.steps[k] = r < nblk[k] ? nuri_esch_block(e, L.st[k], msgs[base + k] + off,
                                                           len - off < 16 ? len - off : 16, r + 1 == nblk[k])
                                         : 0;
            }
            run_round(impl, &L, n, e->nb, e->slim, e->big);
        }
        for (size_t off = 0;; off += 16) {
            for (size_t k = 0; k < n; k++) {
                for (unsigned i = 0; i < 4; i++) nuri_store32_le(out + (base + k) * dl + off + 4 * i, L.st[k][i]);
                L.steps[k] = e->slim;
            }
            if (off + 16 >= dl) break;
            run_round(impl, &L, n, e->nb, e->slim, e->big);
        }
    }
    lane_wipe(&L);
    return NURI_OK;
}

int nuri_esch_many(const nuri_esch_ctx *ctx, uint8_t *out, size_t out_cap, const uint8_t *const *msgs,
                   const size_t *msg_lens, size_t count)
{
    return esch_many(ctx->impl ? nuri_esch_params_of(ctx->digest_bytes) : NULL, ctx->impl, out, out_cap, msgs, msg_lens,
                     count);
}

static int esch_many_dispatch(nuri_esch_variant variant, uint8_t *out, size_t out_cap, const uint8_t *const *msgs,
                              const size_t *msg_lens, size_t count)
{
    nuri_esch_ctx c;
    int rc = nuri_esch_init(&c, variant, NULL);
    if (rc == NURI_OK) rc = nuri_esch_many(&c, out, out_cap, msgs, msg_lens, count);
    else if (out) nuri_wipe(out, out_cap);
    return rc;
}

int nuri_esch256_many(uint8_t *out, size_t out_cap, const uint8_t *const *msgs, const size_t *msg_lens, size_t count)
{
    return esch_many_dispatch(NURI_ESCH256, out, out_cap, msgs, msg_lens, count);
}

int nuri_esch384_many(uint8_t *out, size_t out_cap, const uint8_t *const *msgs, const size_t *msg_lens, size_t count)
{
    return esch_many_dispatch(NURI_ESCH384, out, out_cap, msgs, msg_lens, count);
}
