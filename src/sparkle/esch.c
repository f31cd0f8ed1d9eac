/* Esch256 and Esch384 streaming and one-shot: the sponge steps of duplex.c (rate 16 bytes, block
 * injection with the Feistel map M_h, domain constant 0x01/0x02 in the top byte of y_{h-1} before
 * the last block, big permutation after it, 16-byte squeezes separated by slim permutations). */
#include "sparkle_modes.h"

size_t nuri_esch_ctx_bytes(void) { return sizeof(nuri_esch_ctx); }

/* Esch256 -> 32 and Esch384 -> 48 bytes: the digest size selects the parameters (nuri_esch_params_of). */
size_t nuri_esch_digest_bytes(nuri_esch_variant variant)
{
    return variant == NURI_ESCH256   ? NURI_ESCH256_DIGEST_BYTES
           : variant == NURI_ESCH384 ? NURI_ESCH384_DIGEST_BYTES
                                     : 0;
}

static void block(nuri_esch_ctx *c, const uint8_t *in, size_t len, int last)
{
    const nuri_esch_params *e = nuri_esch_params_of(c->digest_bytes);
    c->impl->permute(c->state, e->nb, nuri_esch_block(e, c->state, in, len, last));
}

static void full_block(void *c, const uint8_t *in) { block(c, in, NURI_ESCH_RATE_BYTES, 0); }

int nuri_esch_init(nuri_esch_ctx *ctx, nuri_esch_variant variant, const char *impl)
{
    memset(ctx, 0, sizeof *ctx);
    size_t digest = nuri_esch_digest_bytes(variant);
    if (!digest) return NURI_EINVAL;
    const nuri_sparkle_impl *chosen;
    int rc = nuri_sparkle_select(impl, &chosen);
    if (rc) return rc;
    ctx->impl = chosen;
    ctx->digest_bytes = (unsigned)digest;
    return NURI_OK;
}

const char *nuri_esch_ctx_impl_name(const nuri_esch_ctx *ctx) { return ctx->impl ? ctx->impl->info.name : NULL; }

int nuri_esch_update(nuri_esch_ctx *c, const uint8_t *in, size_t in_len)
{
    if (!c->impl || c->finished) return NURI_ESTATE;
    nuri_sparkle_hold_last(c->buf, &c->buf_len, NURI_ESCH_RATE_BYTES, in, in_len, full_block, c);
    return NURI_OK;
}

int nuri_esch_final(nuri_esch_ctx *c, uint8_t *out, size_t out_cap, size_t *out_len)
{
    *out_len = 0;
    int rc = !c->impl || c->finished ? NURI_ESTATE : out_cap < c->digest_bytes ? NURI_EBUFFER : NURI_OK;
    if (rc) {
        if (out) nuri_wipe(out, out_cap); /* outputs zeroed on error */
        return rc;
    }
    size_t n = c->digest_bytes;
    block(c, c->buf, c->buf_len, 1); /* an empty message is one padded block */
    nuri_esch_squeeze(nuri_esch_params_of(n), c->impl, c->state, out);
    nuri_wipe(c, sizeof *c);
    c->finished = 1;
    *out_len = n;
    return NURI_OK;
}

/* One-shot: a context on the stack with dispatch. */
static int esch_oneshot(nuri_esch_variant variant, uint8_t *out, const uint8_t *in, size_t in_len)
{
    nuri_esch_ctx c;
    size_t n = nuri_esch_digest_bytes(variant), got;
    int rc = nuri_esch_init(&c, variant, NULL);
    if (rc == NURI_OK) rc = nuri_esch_update(&c, in, in_len);
    if (rc == NURI_OK) rc = nuri_esch_final(&c, out, n, &got);
    else nuri_wipe(out, n);
    nuri_wipe(&c, sizeof c);
    return rc;
}

int nuri_esch256(uint8_t out[NURI_ESCH256_DIGEST_BYTES], const uint8_t *in, size_t in_len)
{
    return esch_oneshot(NURI_ESCH256, out, in, in_len);
}

int nuri_esch384(uint8_t out[NURI_ESCH384_DIGEST_BYTES], const uint8_t *in, size_t in_len)
{
    return esch_oneshot(NURI_ESCH384, out, in, in_len);
}
