/* Schwaemm128-128, 256-128, 192-192 and 256-256: the duplex construction over the SPARKLE
 * backend. One-shot and streaming encryption; decryption releases plaintext only after the tag
 * has been verified (see sparkle.h). */
#include "sparkle_modes.h"

const nuri_schwaemm_params nuri_schwaemm_table[4] = {
    {4, 16, 16, 7, 10, 0x04}, /* Schwaemm128-128 */
    {6, 32, 16, 7, 11, 0x04}, /* Schwaemm256-128 */
    {6, 24, 24, 7, 11, 0x08}, /* Schwaemm192-192 */
    {8, 32, 32, 8, 12, 0x10}, /* Schwaemm256-256 */
};

enum { PH_AD = 0, PH_MSG = 1, PH_VERIFIED = 2, PH_DONE = 3 };
enum { M_ENC, M_DEC, M_VERIFY };

/* Plaintext staged on the stack by the one-shot decryption up to this size (single pass);
 * longer messages are verified first, then decrypted (two passes). */
#if defined(__AVR__)
#define STAGE_BYTES 64 /* 2 KiB of RAM: longer messages take the two-pass path */
#else
#define STAGE_BYTES 1024
#endif

static const nuri_schwaemm_params *params(int v)
{
    return v >= 0 && v < 4 ? &nuri_schwaemm_table[v] : NULL;
}

size_t nuri_schwaemm_key_bytes(int v) { return params(v) ? params(v)->cap : 0; }
size_t nuri_schwaemm_nonce_bytes(int v) { return params(v) ? params(v)->rate : 0; }
size_t nuri_schwaemm_tag_bytes(int v) { return params(v) ? params(v)->cap : 0; }
size_t nuri_schwaemm_rate_bytes(int v) { return params(v) ? params(v)->rate : 0; }
size_t nuri_schwaemm_ctx_bytes(void) { return sizeof(nuri_schwaemm_ctx); }

static void perm(nuri_schwaemm_ctx *c, unsigned steps)
{
    c->impl->permute(c->state, params(c->variant)->nb, steps);
}

static void ad_block(nuri_schwaemm_ctx *c, const uint8_t *in, size_t len, int last)
{
    const nuri_schwaemm_params *p = params(c->variant);
    uint32_t d[8];
    nuri_sparkle_pad_words(d, p->rate / 4, in, len);
    if (last) c->state[2 * p->nb - 1] ^= (p->cbase + (len == p->rate)) << 24;
    nuri_schwaemm_absorb(p, c->state, d);
    perm(c, last ? p->big : p->slim);
    nuri_wipe(d, sizeof d);
}

/* One message block (len <= rate; len < rate only if last). ENC: out = in ^ S_L, absorb in.
 * DEC: out = in ^ S_L = plaintext, absorb it. VERIFY: as DEC without output. */
static void msg_block(nuri_schwaemm_ctx *c, uint8_t *out, const uint8_t *in, size_t len, int last, int mode)
{
    const nuri_schwaemm_params *p = params(c->variant);
    unsigned rw = p->rate / 4;
    uint32_t m[8];
    if (len == p->rate) {
        for (unsigned i = 0; i < rw; i++) {
            uint32_t w = nuri_load32_le(in + 4 * i), o = w ^ c->state[i];
            m[i] = mode == M_ENC ? w : o;
            if (mode != M_VERIFY) nuri_store32_le(out + 4 * i, o);
        }
    } else {
        uint8_t s[32], b[32];
        /* rw <= 8 always (rate <= 32 bytes); the explicit bound keeps GCC 12 -O3 from a false
         * -Wstringop-overflow on s[]. */
        for (unsigned i = 0; i < rw && i < 8; i++) nuri_store32_le(s + 4 * i, c->state[i]);
        for (size_t i = 0; i < len; i++) {
            uint8_t o = (uint8_t)(in[i] ^ s[i]);
            b[i] = mode == M_ENC ? in[i] : o;
            if (mode != M_VERIFY) out[i] = o;
        }
        nuri_sparkle_pad_words(m, rw, b, len);
        nuri_wipe(s, sizeof s);
        nuri_wipe(b, sizeof b);
    }
    if (last) c->state[2 * p->nb - 1] ^= (p->cbase + 2 + (len == p->rate)) << 24;
    nuri_schwaemm_absorb(p, c->state, m);
    perm(c, last ? p->big : p->slim);
    nuri_wipe(m, sizeof m);
}

int nuri_schwaemm_init(nuri_schwaemm_ctx *ctx, int variant, int encrypt, const uint8_t *key, size_t key_len,
                       const uint8_t *nonce, size_t nonce_len, const char *impl_name)
{
    memset(ctx, 0, sizeof *ctx);
    const nuri_schwaemm_params *p = params(variant);
    if (!p) return NURI_EINVAL;
    if (key_len != p->cap || nonce_len != p->rate) return NURI_ELENGTH;
    const nuri_sparkle_impl *impl;
    int rc = nuri_sparkle_select(impl_name, &impl);
    if (rc) return rc;
    ctx->impl = impl;
    ctx->variant = variant;
    ctx->encrypt = encrypt ? 1 : 0;
    ctx->phase = PH_AD;
    memcpy(ctx->key, key, key_len);
    /* S = N || K, then the big permutation */
    for (unsigned i = 0; i < p->rate / 4; i++) ctx->state[i] = nuri_load32_le(nonce + 4 * i);
    for (unsigned i = 0; i < p->cap / 4; i++) ctx->state[p->rate / 4 + i] = nuri_load32_le(key + 4 * i);
    perm(ctx, p->big);
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
    if (s->mode != M_VERIFY) s->written += s->rate;
}

static size_t msg_update(nuri_schwaemm_ctx *c, uint8_t *out, const uint8_t *in, size_t len, int mode)
{
    msg_sink s = {c, out, 0, params(c->variant)->rate, mode};
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
    for (unsigned i = 0; i < p->cap / 4; i++)
        nuri_store32_le(tag + 4 * i, c->state[p->rate / 4 + i] ^ nuri_load32_le(c->key + 4 * i));
    return mode == M_VERIFY ? 0 : n;
}

int nuri_schwaemm_encrypt_update(nuri_schwaemm_ctx *c, uint8_t *out, size_t out_cap, size_t *out_len,
                                 const uint8_t *in, size_t in_len)
{
    *out_len = 0;
    if (!c->impl || !c->encrypt || c->phase > PH_MSG) return NURI_ESTATE;
    size_t rate = params(c->variant)->rate;
    /* exact output size: whole blocks that stop being the pending one */
    size_t pending = c->phase == PH_MSG ? c->buf_len : 0, total = pending + in_len;
    size_t emit = total ? ((total - 1) / rate) * rate : 0;
    if (out_cap < emit) return NURI_EBUFFER;
    finish_ad(c);
    *out_len = msg_update(c, out, in, in_len, M_ENC);
    return NURI_OK;
}

int nuri_schwaemm_encrypt_final(nuri_schwaemm_ctx *c, uint8_t *out, size_t out_cap, size_t *out_len, uint8_t *tag,
                                size_t tag_len)
{
    *out_len = 0;
    if (!c->impl || !c->encrypt || c->phase > PH_MSG) return NURI_ESTATE;
    const nuri_schwaemm_params *p = params(c->variant);
    size_t pending = c->phase == PH_MSG ? c->buf_len : 0;
    if (tag_len != p->cap) return NURI_ELENGTH;
    if (out_cap < pending) return NURI_EBUFFER;
    finish_ad(c);
    *out_len = msg_final(c, out, tag, M_ENC);
    nuri_schwaemm_ctx_wipe(c);
    return NURI_OK;
}

int nuri_schwaemm_verify_update(nuri_schwaemm_ctx *c, const uint8_t *ct, size_t ct_len)
{
    if (!c->impl || c->encrypt || c->phase > PH_MSG) return NURI_ESTATE;
    finish_ad(c);
    (void)msg_update(c, NULL, ct, ct_len, M_VERIFY);
    return NURI_OK;
}

int nuri_schwaemm_verify_final(nuri_schwaemm_ctx *c, const uint8_t *tag, size_t tag_len)
{
    if (!c->impl || c->encrypt || c->phase > PH_MSG) return NURI_ESTATE;
    const nuri_schwaemm_params *p = params(c->variant);
    if (tag_len != p->cap) return NURI_ELENGTH;
    uint8_t t[32];
    finish_ad(c);
    (void)msg_final(c, NULL, t, M_VERIFY);
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

int nuri_schwaemm_decrypt_update(nuri_schwaemm_ctx *c, uint8_t *out, size_t out_cap, size_t *out_len,
                                 const uint8_t *ct, size_t ct_len)
{
    *out_len = 0;
    if (!c->impl || c->encrypt || c->phase != PH_VERIFIED) return NURI_ESTATE;
    size_t rate = params(c->variant)->rate, total = c->buf_len + ct_len;
    size_t emit = total ? ((total - 1) / rate) * rate : 0;
    if (out_cap < emit) return NURI_EBUFFER;
    *out_len = msg_update(c, out, ct, ct_len, M_DEC);
    return NURI_OK;
}

int nuri_schwaemm_decrypt_final(nuri_schwaemm_ctx *c, uint8_t *out, size_t out_cap, size_t *out_len,
                                const uint8_t *tag, size_t tag_len)
{
    *out_len = 0;
    if (!c->impl || c->encrypt || c->phase != PH_VERIFIED) return NURI_ESTATE;
    const nuri_schwaemm_params *p = params(c->variant);
    if (tag_len != p->cap) return NURI_ELENGTH;
    if (out_cap < c->buf_len) return NURI_EBUFFER;
    uint8_t t[32];
    size_t n = msg_final(c, out, t, M_DEC);
    int ok = nuri_ct_memcmp(t, tag, tag_len) == 0;
    NURI_CT_PUBLIC(&ok, sizeof ok);
    nuri_wipe(t, sizeof t);
    nuri_schwaemm_ctx_wipe(c);
    if (!ok) {
        nuri_wipe(out, n);
        return NURI_EAUTH;
    }
    *out_len = n;
    return NURI_OK;
}

int nuri_schwaemm_encrypt(int variant, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *key,
                          size_t key_len, const uint8_t *nonce, size_t nonce_len, const uint8_t *ad, size_t ad_len,
                          const uint8_t *msg, size_t msg_len, const char *impl_name)
{
    nuri_schwaemm_ctx c;
    size_t n1 = 0, n2 = 0;
    *out_len = 0;
    const nuri_schwaemm_params *p = params(variant);
    int rc = !p ? NURI_EINVAL : out_cap < msg_len + p->cap || msg_len + p->cap < msg_len ? NURI_EBUFFER : NURI_OK;
    if (rc == NURI_OK) rc = nuri_schwaemm_init(&c, variant, NURI_SCHWAEMM_ENCRYPT, key, key_len, nonce, nonce_len,
                                               impl_name);
    if (rc == NURI_OK) rc = nuri_schwaemm_update_ad(&c, ad, ad_len);
    if (rc == NURI_OK) rc = nuri_schwaemm_encrypt_update(&c, out, out_cap, &n1, msg, msg_len);
    if (rc == NURI_OK) rc = nuri_schwaemm_encrypt_final(&c, out + n1, out_cap - n1, &n2, out + msg_len, p->cap);
    nuri_schwaemm_ctx_wipe(&c);
    if (rc != NURI_OK) {
        nuri_wipe(out, out_cap);
        return rc;
    }
    *out_len = msg_len + p->cap;
    return NURI_OK;
}

int nuri_schwaemm_decrypt(int variant, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *key,
                          size_t key_len, const uint8_t *nonce, size_t nonce_len, const uint8_t *ad, size_t ad_len,
                          const uint8_t *ct, size_t ct_len, const char *impl_name)
{
    nuri_schwaemm_ctx c;
    uint8_t stage[STAGE_BYTES], t[32];
    *out_len = 0;
    const nuri_schwaemm_params *p = params(variant);
    int rc = NURI_OK;
    if (!p) rc = NURI_EINVAL;
    else if (ct_len < p->cap) rc = NURI_ELENGTH;
    else if (out_cap < ct_len - p->cap) rc = NURI_EBUFFER;
    if (rc == NURI_OK) rc = nuri_schwaemm_init(&c, variant, NURI_SCHWAEMM_DECRYPT, key, key_len, nonce, nonce_len,
                                               impl_name);
    if (rc == NURI_OK) rc = nuri_schwaemm_update_ad(&c, ad, ad_len);
    if (rc != NURI_OK) {
        nuri_schwaemm_ctx_wipe(&c);
        nuri_wipe(out, out_cap);
        return rc;
    }
    size_t len = ct_len - p->cap;
    const uint8_t *tag = ct + len;
    uint8_t *dst = len <= STAGE_BYTES ? stage : NULL;
    finish_ad(&c);
    /* pass 1: the plaintext goes to the stack stage (short messages) or nowhere (long ones) */
    size_t n = msg_update(&c, dst, ct, len, dst ? M_DEC : M_VERIFY);
    (void)msg_final(&c, dst ? dst + n : NULL, t, dst ? M_DEC : M_VERIFY);
    int ok = nuri_ct_memcmp(t, tag, p->cap) == 0;
    NURI_CT_PUBLIC(&ok, sizeof ok); /* the verdict is public */
    if (ok && dst) {
        memmove(out, stage, len);
    } else if (ok) {
        /* pass 2 over the verified ciphertext (in place is fine: each block is read before written).
         * Keep the tag: with out == ct it would be overwritten only beyond len, so it stays. */
        memcpy(c.state, c.saved, sizeof c.state);
        c.buf_len = 0;
        n = msg_update(&c, out, ct, len, M_DEC);
        (void)msg_final(&c, out + n, t, M_DEC);
    }
    nuri_wipe(stage, dst ? len : 0);
    nuri_wipe(t, sizeof t);
    nuri_schwaemm_ctx_wipe(&c);
    if (!ok) {
        nuri_wipe(out, out_cap);
        return NURI_EAUTH;
    }
    *out_len = len;
    return NURI_OK;
}
