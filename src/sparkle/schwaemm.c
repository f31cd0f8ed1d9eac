/* Schwaemm128-128, 256-128, 192-192 and 256-256: the duplex construction over the SPARKLE
 * backend. One-shot and streaming encryption; decryption releases plaintext only after the tag
 * has been verified (see sparkle.h). */
#include "sparkle_modes.h"

enum { PH_AD = 0, PH_MSG = 1, PH_VERIFIED = 2, PH_DONE = 3 };

static const nuri_schwaemm_params *params(nuri_schwaemm_variant v) { return nuri_schwaemm_params_of(v); }

size_t nuri_schwaemm_key_bytes(nuri_schwaemm_variant variant) { return params(variant) ? params(variant)->cap : 0; }
size_t nuri_schwaemm_nonce_bytes(nuri_schwaemm_variant variant) { return params(variant) ? params(variant)->rate : 0; }
size_t nuri_schwaemm_tag_bytes(nuri_schwaemm_variant variant) { return params(variant) ? params(variant)->cap : 0; }
size_t nuri_schwaemm_rate_bytes(nuri_schwaemm_variant variant) { return params(variant) ? params(variant)->rate : 0; }
size_t nuri_schwaemm_ctx_bytes(void) { return sizeof(nuri_schwaemm_ctx); }
size_t nuri_schwaemm_key_struct_bytes(void) { return sizeof(nuri_schwaemm_key); }

int nuri_schwaemm_key_init(nuri_schwaemm_key *k, nuri_schwaemm_variant variant, const uint8_t *key, size_t key_len,
                           const char *impl)
{
    memset(k, 0, sizeof *k);
    const nuri_schwaemm_params *p = params(variant);
    if (!p) return NURI_EINVAL;
    if (key_len != p->cap) return NURI_ELENGTH;
    const nuri_sparkle_impl *chosen;
    int rc = nuri_sparkle_select(impl, &chosen);
    if (rc) return rc;
    memcpy(k->key, key, key_len);
    k->variant = variant;
    k->impl = chosen;
    return NURI_OK;
}

void nuri_schwaemm_key_wipe(nuri_schwaemm_key *k) { nuri_wipe(k, sizeof *k); }

const char *nuri_schwaemm_key_impl_name(const nuri_schwaemm_key *k) { return k->impl ? k->impl->info.name : NULL; }

static void perm(nuri_schwaemm_ctx *c, unsigned steps) { c->impl->permute(c->state, params(c->variant)->nb, steps); }

static void ad_block(nuri_schwaemm_ctx *c, const uint8_t *in, size_t len, int last)
{
    perm(c, nuri_schwaemm_ad_block(params(c->variant), c->state, in, len, last));
}

static void msg_block(nuri_schwaemm_ctx *c, uint8_t *out, const uint8_t *in, size_t len, int last, int mode)
{
    perm(c, nuri_schwaemm_msg_block(params(c->variant), c->state, out, in, len, last, mode));
}

int nuri_schwaemm_init(nuri_schwaemm_ctx *ctx, const nuri_schwaemm_key *k, int encrypt, const uint8_t *nonce,
                       size_t nonce_len)
{
    memset(ctx, 0, sizeof *ctx);
    const nuri_schwaemm_params *p = params(k->variant);
    if (!k->impl || !p) return NURI_ESTATE;
    if (nonce_len != p->rate) return NURI_ELENGTH;
    ctx->impl = k->impl;
    ctx->variant = k->variant;
    ctx->encrypt = encrypt ? 1 : 0;
    ctx->phase = PH_AD;
    memcpy(ctx->key, k->key, p->cap);
    perm(ctx, nuri_schwaemm_start(p, ctx->state, ctx->key, nonce)); /* S = N || K, then big */
    return NURI_OK;
}

void nuri_schwaemm_ctx_wipe(nuri_schwaemm_ctx *ctx) { nuri_wipe(ctx, sizeof *ctx); }

static void full_ad_block(void *c, const uint8_t *in)
{
    ad_block(c, in, params(((nuri_schwaemm_ctx *)c)->variant)->rate, 0);
}

int nuri_schwaemm_update_ad(nuri_schwaemm_ctx *c, const uint8_t *ad, size_t len)
{
    if (!c->impl || c->phase != PH_AD) return NURI_ESTATE;
    nuri_sparkle_hold_last(c->buf, &c->buf_len, params(c->variant)->rate, ad, len, full_ad_block, c);
    return NURI_OK;
}

/* Leaves the AD phase: the last AD block (if any AD) with A0/A1 and the big permutation. */
static void finish_ad(nuri_schwaemm_ctx *c)
{
    if (c->phase != PH_AD) return;
    if (c->buf_len) ad_block(c, c->buf, c->buf_len, 1);
    c->buf_len = 0;
    c->phase = PH_MSG;
    memcpy(c->saved, c->state, sizeof c->state);
}

/* Streams message bytes through msg_block, keeping the last (possibly full) block pending. */
typedef struct {
    nuri_schwaemm_ctx *c;
    uint8_t *out;
    size_t written, rate;
    int mode;
} msg_sink;

static void full_msg_block(void *ctx, const uint8_t *in)
{
    msg_sink *s = ctx;
    /* verification streams have no output buffer: NULL + 0 is undefined behaviour (clang UBSan) */
    msg_block(s->c, s->out ? s->out + s->written : NULL, in, s->rate, 0, s->mode);
    if (s->mode != NURI_DUPLEX_VERIFY) s->written += s->rate;
}

/* Whole message blocks straight from in, none of them the last: the loop of the one-shot form
 * (duplex.c one()), inlined with constant parameters for Schwaemm256-128, so streaming costs
 * what the one-shot call does (the EVP provider streams). Returns the bytes consumed. */
static inline __attribute__((always_inline)) size_t bulk(const nuri_schwaemm_params *p, nuri_schwaemm_ctx *c,
                                                         uint8_t *out, const uint8_t *in, size_t len, int mode)
{
    size_t off = 0;
    for (; len - off > p->rate; off += p->rate)
        c->impl->permute(c->state, p->nb,
                         nuri_schwaemm_msg_block(p, c->state, out ? out + off : NULL, in + off, p->rate, 0, mode));
    return off;
}

static size_t msg_update(nuri_schwaemm_ctx *c, uint8_t *out, const uint8_t *in, size_t len, int mode)
{
    msg_sink s = {c, out, 0, params(c->variant)->rate, mode};
    if (c->buf_len == s.rate && len) { /* a full pending block with more data after it */
        full_msg_block(&s, c->buf);
        c->buf_len = 0;
    }
    if (c->buf_len == 0 && len > s.rate) {
        uint8_t *o = out ? out + s.written : NULL;
        size_t n = c->variant == NURI_SCHWAEMM256_128 ? bulk(&nuri_schwaemm_table[1], c, o, in, len, mode)
                                                      : bulk(params(c->variant), c, o, in, len, mode);
        in += n, len -= n;
        if (mode != NURI_DUPLEX_VERIFY) s.written += n;
    }
    nuri_sparkle_hold_last(c->buf, &c->buf_len, s.rate, in, len, full_msg_block, &s);
    return s.written;
}

/* Processes the pending last block (if any) and leaves the tag S_R ^ K in tag. */
static size_t msg_final(nuri_schwaemm_ctx *c, uint8_t *out, uint8_t *tag, int mode)
{
    const nuri_schwaemm_params *p = params(c->variant);
    size_t n = c->buf_len;
    if (n) msg_block(c, out, c->buf, n, 1, mode);
    c->buf_len = 0;
    nuri_schwaemm_tag(p, c->state, c->key, tag);
    return mode == NURI_DUPLEX_VERIFY ? 0 : n;
}

/* Outputs zeroed on error (the C API convention): the first out_cap bytes of out and tag_len of tag. */
static int stream_fail(uint8_t *out, size_t out_cap, uint8_t *tag, size_t tag_len, int rc)
{
    if (out) nuri_wipe(out, out_cap);
    if (tag) nuri_wipe(tag, tag_len);
    return rc;
}

int nuri_schwaemm_encrypt_update(nuri_schwaemm_ctx *c, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *in,
                                 size_t in_len)
{
    *out_len = 0;
    if (!c->impl || !c->encrypt || c->phase > PH_MSG) return stream_fail(out, out_cap, NULL, 0, NURI_ESTATE);
    size_t rate = params(c->variant)->rate;
    /* exact output size: whole blocks that stop being the pending one */
    size_t pending = c->phase == PH_MSG ? c->buf_len : 0, total = pending + in_len;
    size_t emit = total ? ((total - 1) / rate) * rate : 0;
    if (out_cap < emit) return stream_fail(out, out_cap, NULL, 0, NURI_EBUFFER);
    finish_ad(c);
    *out_len = msg_update(c, out, in, in_len, NURI_DUPLEX_ENC);
    return NURI_OK;
}

int nuri_schwaemm_encrypt_final(nuri_schwaemm_ctx *c, uint8_t *out, size_t out_cap, size_t *out_len, uint8_t *tag,
                                size_t tag_cap)
{
    *out_len = 0;
    if (!c->impl || !c->encrypt || c->phase > PH_MSG) return stream_fail(out, out_cap, tag, tag_cap, NURI_ESTATE);
    const nuri_schwaemm_params *p = params(c->variant);
    size_t pending = c->phase == PH_MSG ? c->buf_len : 0;
    if (tag_cap < p->cap || out_cap < pending) return stream_fail(out, out_cap, tag, tag_cap, NURI_EBUFFER);
    finish_ad(c);
    *out_len = msg_final(c, out, tag, NURI_DUPLEX_ENC);
    nuri_schwaemm_ctx_wipe(c);
    return NURI_OK;
}

int nuri_schwaemm_verify_update(nuri_schwaemm_ctx *c, const uint8_t *ct, size_t ct_len)
{
    if (!c->impl || c->encrypt || c->phase > PH_MSG) return NURI_ESTATE;
    finish_ad(c);
    (void)msg_update(c, NULL, ct, ct_len, NURI_DUPLEX_VERIFY);
    return NURI_OK;
}

int nuri_schwaemm_verify_final(nuri_schwaemm_ctx *c, const uint8_t *tag, size_t tag_len)
{
    if (!c->impl || c->encrypt || c->phase > PH_MSG) return NURI_ESTATE;
    const nuri_schwaemm_params *p = params(c->variant);
    if (tag_len != p->cap) return NURI_ELENGTH;
    uint8_t t[32];
    finish_ad(c);
    (void)msg_final(c, NULL, t, NURI_DUPLEX_VERIFY);
    int ok = nuri_ct_memcmp(t, tag, tag_len) == 0;
    NURI_CT_PUBLIC(&ok, sizeof ok); /* the verdict is public */
    nuri_wipe(t, sizeof t);
    if (!ok) {
        nuri_schwaemm_ctx_wipe(c);
        return NURI_EAUTH;
    }
    memcpy(c->state, c->saved, sizeof c->state); /* rewind to the start of the ciphertext */
    c->buf_len = 0;
    c->phase = PH_VERIFIED;
    return NURI_OK;
}

int nuri_schwaemm_decrypt_update(nuri_schwaemm_ctx *c, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *ct,
                                 size_t ct_len)
{
    *out_len = 0;
    if (!c->impl || c->encrypt || c->phase != PH_VERIFIED) return stream_fail(out, out_cap, NULL, 0, NURI_ESTATE);
    size_t rate = params(c->variant)->rate, total = c->buf_len + ct_len;
    size_t emit = total ? ((total - 1) / rate) * rate : 0;
    if (out_cap < emit) return stream_fail(out, out_cap, NULL, 0, NURI_EBUFFER);
    *out_len = msg_update(c, out, ct, ct_len, NURI_DUPLEX_DEC);
    return NURI_OK;
}

int nuri_schwaemm_decrypt_final(nuri_schwaemm_ctx *c, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *tag,
                                size_t tag_len)
{
    *out_len = 0;
    if (!c->impl || c->encrypt || c->phase != PH_VERIFIED) return stream_fail(out, out_cap, NULL, 0, NURI_ESTATE);
    const nuri_schwaemm_params *p = params(c->variant);
    if (tag_len != p->cap) return stream_fail(out, out_cap, NULL, 0, NURI_ELENGTH);
    if (out_cap < c->buf_len) return stream_fail(out, out_cap, NULL, 0, NURI_EBUFFER);
    uint8_t t[32];
    size_t n = msg_final(c, out, t, NURI_DUPLEX_DEC);
    int ok = nuri_ct_memcmp(t, tag, tag_len) == 0;
    NURI_CT_PUBLIC(&ok, sizeof ok);
    nuri_wipe(t, sizeof t);
    nuri_schwaemm_ctx_wipe(c);
    if (!ok) return stream_fail(out, out_cap, NULL, 0, NURI_EAUTH);
    *out_len = n;
    return NURI_OK;
}

/* The one-shot forms are the lane engine (duplex.c) with one lane: decryption writes the
 * plaintext straight into out in one pass and wipes it again if the tag fails, so it runs at
 * encryption speed and the caller never sees unverified plaintext. out may be the input exactly;
 * a partial overlap is refused with NURI_EINVAL before anything is written. */
int nuri_schwaemm_encrypt(const nuri_schwaemm_key *k, uint8_t *out, size_t out_cap, size_t *out_len,
                          const uint8_t *nonce, size_t nonce_len, const uint8_t *ad, size_t ad_len, const uint8_t *msg,
                          size_t msg_len)
{
    const nuri_schwaemm_params *p = k->impl ? params(k->variant) : NULL;
    const uint8_t *key = k->key;
    *out_len = 0;
    if (p && nuri_overlap_partial(out, msg_len + p->cap, msg, msg_len)) return NURI_EINVAL; /* nothing written */
    int rc = !p                                                         ? NURI_ESTATE
             : out_cap < msg_len + p->cap || msg_len + p->cap < msg_len ? NURI_EBUFFER
             : nonce_len != p->rate                                     ? NURI_ELENGTH
                                                                        : NURI_OK;
    if (rc == NURI_OK)
        rc = nuri_schwaemm_lanes(p, k->impl, NURI_DUPLEX_ENC, key, &nonce, &ad, &ad_len, &msg, &msg_len, &out, NULL, 1);
    if (rc != NURI_OK) {
        nuri_wipe(out, out_cap);
        return rc;
    }
    *out_len = msg_len + p->cap;
    return NURI_OK;
}

int nuri_schwaemm_decrypt(const nuri_schwaemm_key *k, uint8_t *out, size_t out_cap, size_t *out_len,
                          const uint8_t *nonce, size_t nonce_len, const uint8_t *ad, size_t ad_len, const uint8_t *ct,
                          size_t ct_len)
{
    const nuri_schwaemm_params *p = k->impl ? params(k->variant) : NULL;
    const uint8_t *key = k->key;
    *out_len = 0;
    if (p && ct_len >= p->cap && nuri_overlap_partial(out, ct_len - p->cap, ct, ct_len))
        return NURI_EINVAL; /* nothing written */
    int rc = !p                          ? NURI_ESTATE
             : ct_len < p->cap           ? NURI_ELENGTH
             : out_cap < ct_len - p->cap ? NURI_EBUFFER
             : nonce_len != p->rate      ? NURI_ELENGTH
                                         : NURI_OK;
    size_t len = rc == NURI_OK ? ct_len - p->cap : 0;
    if (rc == NURI_OK)
        rc = nuri_schwaemm_lanes(p, k->impl, NURI_DUPLEX_DEC, key, &nonce, &ad, &ad_len, &ct, &len, &out, NULL, 1);
    if (rc != NURI_OK) {
        nuri_wipe(out, out_cap);
        return rc;
    }
    *out_len = len;
    return NURI_OK;
}
