/* Esch256 and Esch384 streaming and one-shot: the sponge steps of duplex.c (rate 16 bytes, block
 * injection with the Feistel map M_h, domain constant 0x01/0x02 in the top byte of y_{h-1} before
 * the last block, big permutation after it, 16-byte squeezes separated by slim permutations). */
#include "sparkle_modes.h"

size_t nuri_esch_ctx_bytes(void) { return sizeof(nuri_esch_ctx); }

static void block(nuri_esch_ctx *c, const uint8_t *in, size_t len, int last)
{
    const nuri_esch_params *e = nuri_esch_params_of(c->digest_bytes);
    c->impl->permute(c->state, e->nb, nuri_esch_block(e, c->state, in, len, last));
}

static void full_block(void *c, const uint8_t *in) { block(c, in, NURI_ESCH_RATE_BYTES, 0); }

int nuri_esch_init(nuri_esch_ctx *ctx, size_t digest_bytes, const char *impl_name)
{
    memset(ctx, 0, sizeof *ctx);
    if (!nuri_esch_params_of(digest_bytes)) return NURI_ELENGTH;
    const nuri_sparkle_impl *impl;
    int rc = nuri_sparkle_select(impl_name, &impl);
    if (rc) return rc;
    ctx->impl = impl;
    ctx->digest_bytes = (unsigned)digest_bytes;
    return NURI_OK;
}

int nuri_esch_update(nuri_esch_ctx *c, const uint8_t *in, size_t len)
{
    if (!c->impl || c->finished) return NURI_ESTATE;
    nuri_sparkle_hold_last(c->buf, &c->buf_len, NURI_ESCH_RATE_BYTES, in, len, full_block, c);
    return NURI_OK;
}

int nuri_esch_final(nuri_esch_ctx *c, uint8_t *out, size_t out_len)
{
    int rc = !c->impl || c->finished ? NURI_ESTATE : out_len != c->digest_bytes ? NURI_ELENGTH : NURI_OK;
    if (rc) {
        if (out) nuri_wipe(out, out_len); /* outputs zeroed on error */
        return rc;
    }
    block(c, c->buf, c->buf_len, 1); /* an empty message is one padded block */
    nuri_esch_squeeze(nuri_esch_params_of(c->digest_bytes), c->impl, c->state, out);
    nuri_wipe(c, sizeof *c);
    c->finished = 1;
    return NURI_OK;
}

int nuri_esch(size_t digest_bytes, uint8_t *out, const uint8_t *in, size_t in_len, const char *impl_name)
{
    nuri_esch_ctx c;
    int rc = nuri_esch_init(&c, digest_bytes, impl_name);
    if (rc == NURI_OK) rc = nuri_esch_update(&c, in, in_len);
    if (rc == NURI_OK) rc = nuri_esch_final(&c, out, digest_bytes);
    else if (out && (digest_bytes == 32 || digest_bytes == 48)) nuri_wipe(out, digest_bytes);
    nuri_wipe(&c, sizeof c);
    return rc;
}

int nuri_esch256(uint8_t out[32], const uint8_t *in, size_t in_len) { return nuri_esch(32, out, in, in_len, NULL); }
int nuri_esch384(uint8_t out[48], const uint8_t *in, size_t in_len) { return nuri_esch(48, out, in, in_len, NULL); }
