/* ECB, CBC and CTR for PIPO, written once over the batch block interface.
 * CBC encryption is inherently sequential (one block per kernel call); ECB, CBC decryption
 * and the CTR keystream go through the kernel CHUNK blocks at a time, so SIMD kernels see
 * full batches. */
#include "pipo_impl.h"

#define BS NURI_PIPO_BLOCK_BYTES
#ifdef NURI_PIPO_CHUNK /* small-RAM targets (AVR: 2 KiB) set a smaller batch */
#define CHUNK NURI_PIPO_CHUNK
#else
#define CHUNK 128 /* blocks per kernel call in CTR and CBC decryption (1 KiB of stack) */
#endif

static void xor_bytes(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) out[i] = a[i] ^ b[i];
}

static void ctr_add(uint8_t ctr[BS], uint64_t n) { nuri_store64_be(ctr, nuri_load64_be(ctr) + n); }

int nuri_pipo_init(nuri_pipo_ctx *ctx, const nuri_pipo_key *k, nuri_pipo_mode mode, int encrypt, const uint8_t *iv,
                   size_t iv_len, nuri_padding padding)
{
    memset(ctx, 0, sizeof *ctx);
    if (!k || !k->impl) return NURI_EINVAL;
    if (mode != NURI_PIPO_ECB && mode != NURI_PIPO_CBC && mode != NURI_PIPO_CTR) return NURI_EINVAL;
    if (padding != NURI_PAD_NONE && padding != NURI_PAD_PKCS7) return NURI_EINVAL;
    if (mode == NURI_PIPO_CTR && padding != NURI_PAD_NONE) return NURI_EINVAL;
    if (mode == NURI_PIPO_ECB) {
        if (iv_len != 0) return NURI_ELENGTH;
    } else {
        if (!iv || iv_len != BS) return NURI_ELENGTH;
        memcpy(ctx->iv, iv, BS);
    }
    ctx->key = *k;
    ctx->mode = mode;
    ctx->padding = padding;
    ctx->encrypt = encrypt ? 1 : 0;
    return NURI_OK;
}

void nuri_pipo_ctx_wipe(nuri_pipo_ctx *ctx) { nuri_wipe(ctx, sizeof *ctx); }

/* CTR: XOR n bytes with the keystream, carrying unused keystream bytes in ctx->buf. */
static void ctr_xor(nuri_pipo_ctx *ctx, uint8_t *out, const uint8_t *in, size_t n)
{
    uint8_t ks[CHUNK * BS];
    /* leftover keystream sits at buf[BS - buf_len .. BS) */
    while (n > 0 && ctx->buf_len > 0) {
        *out++ = *in++ ^ ctx->buf[BS - ctx->buf_len];
        ctx->buf_len--;
        n--;
    }
    while (n >= BS) {
        size_t m = n / BS < CHUNK ? n / BS : CHUNK;
        uint64_t c = nuri_load64_be(ctx->iv);
        for (size_t i = 0; i < m; i++) nuri_store64_be(ks + BS * i, c + i); /* wraps mod 2^64 */
        ctr_add(ctx->iv, m);
        nuri_pipo_encrypt_blocks(&ctx->key, ks, ks, m);
        xor_bytes(out, in, ks, m * BS);
        out += m * BS; in += m * BS; n -= m * BS;
    }
    if (n > 0) {
        nuri_pipo_encrypt_blocks(&ctx->key, ctx->buf, ctx->iv, 1);
        ctr_add(ctx->iv, 1);
        xor_bytes(out, in, ctx->buf, n);
        ctx->buf_len = BS - n;
    }
    nuri_wipe(ks, sizeof ks);
}

/* ECB/CBC on m whole blocks (in may equal out). */
static void blocks(nuri_pipo_ctx *ctx, uint8_t *out, const uint8_t *in, size_t m)
{
    const nuri_pipo_key *k = &ctx->key;
    if (ctx->mode == NURI_PIPO_ECB) {
        if (ctx->encrypt) nuri_pipo_encrypt_blocks(k, out, in, m);
        else nuri_pipo_decrypt_blocks(k, out, in, m);
        return;
    }
    if (ctx->encrypt) { /* CBC encryption: sequential */
        for (size_t i = 0; i < m; i++) {
            xor_bytes(ctx->iv, ctx->iv, in + BS * i, BS);
            nuri_pipo_encrypt_blocks(k, ctx->iv, ctx->iv, 1);
            memcpy(out + BS * i, ctx->iv, BS);
        }
        return;
    }
    /* CBC decryption: batch-decrypt, then XOR with the previous ciphertext blocks. Walk the
     * batch backwards so an in-place call still reads C_{i-1} before overwriting it. */
    uint8_t tmp[CHUNK * BS], next_iv[BS];
    while (m > 0) {
        size_t c = m < CHUNK ? m : CHUNK;
        nuri_pipo_decrypt_blocks(k, tmp, in, c);
        memcpy(next_iv, in + BS * (c - 1), BS);
        for (size_t i = c; i-- > 0;) {
            const uint8_t *prev = i ? in + BS * (i - 1) : ctx->iv;
            xor_bytes(out + BS * i, tmp + BS * i, prev, BS);
        }
        memcpy(ctx->iv, next_iv, BS);
        in += BS * c; out += BS * c; m -= c;
    }
    nuri_wipe(tmp, sizeof tmp);
}

int nuri_pipo_update(nuri_pipo_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *in,
                     size_t in_len)
{
    *out_len = 0;
    if (ctx->finished || !ctx->key.impl) return NURI_ESTATE;
    if (ctx->mode == NURI_PIPO_CTR) {
        if (out_cap < in_len) return NURI_EBUFFER;
        ctr_xor(ctx, out, in, in_len);
        *out_len = in_len;
        return NURI_OK;
    }
    size_t total = ctx->buf_len + in_len;
    /* Decrypting with padding keeps the last full block back until final. */
    int hold = !ctx->encrypt && ctx->padding == NURI_PAD_PKCS7;
    size_t nblocks = hold ? (total ? (total - 1) / BS : 0) : total / BS;
    if (out_cap < nblocks * BS) return NURI_EBUFFER;
    size_t done = 0;
    if (nblocks > 0 && ctx->buf_len > 0) {
        size_t take = BS - ctx->buf_len;
        memcpy(ctx->buf + ctx->buf_len, in, take);
        blocks(ctx, out, ctx->buf, 1);
        in += take; in_len -= take; ctx->buf_len = 0;
        done = 1;
    }
    if (nblocks > done) {
        blocks(ctx, out + BS * done, in, nblocks - done);
        in += BS * (nblocks - done); in_len -= BS * (nblocks - done);
    }
    memcpy(ctx->buf + ctx->buf_len, in, in_len);
    ctx->buf_len += in_len;
    *out_len = nblocks * BS;
    return NURI_OK;
}

int nuri_pipo_final(nuri_pipo_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len)
{
    int rc = NURI_OK;
    *out_len = 0;
    if (ctx->finished || !ctx->key.impl) { rc = NURI_ESTATE; goto done; }
    if (ctx->mode == NURI_PIPO_CTR) goto done;
    if (ctx->padding == NURI_PAD_NONE) {
        if (ctx->buf_len != 0) rc = NURI_ELENGTH;
        goto done;
    }
    if (out_cap < BS) { rc = NURI_EBUFFER; goto done; }
    if (ctx->encrypt) {
        uint8_t pad = (uint8_t)(BS - ctx->buf_len);
        memset(ctx->buf + ctx->buf_len, pad, pad);
        blocks(ctx, out, ctx->buf, 1);
        *out_len = BS;
        goto done;
    }
    if (ctx->buf_len != BS) { rc = NURI_ELENGTH; goto done; }
    {
        uint8_t blk[BS];
        blocks(ctx, blk, ctx->buf, 1);
        /* Constant-time PKCS#7 check: 1 <= p <= 8 and the last p bytes all equal p. */
        uint32_t p = blk[BS - 1], bad = ((p - 1) >> 8) | ((BS - p) >> 8); /* p == 0 or p > 8 */
        for (uint32_t i = 0; i < BS; i++) {
            uint32_t in_pad = ((BS - 1 - i) - p) >> 31 & 1; /* i >= BS - p */
            bad |= in_pad & (uint32_t)((blk[i] ^ p) != 0);
        }
        bad = nuri_value_barrier_u32(bad & 1);
        /* Validity and the pad length are public results (the error code and the output
         * length reveal them); everything above ran in constant time. */
        NURI_CT_PUBLIC(&bad, sizeof bad);
        NURI_CT_PUBLIC(&p, sizeof p);
        if (bad) {
            rc = NURI_EPADDING;
        } else {
            memcpy(out, blk, BS - p);
            *out_len = BS - p;
        }
        nuri_wipe(blk, sizeof blk);
    }
done:
    nuri_pipo_ctx_wipe(ctx);
    ctx->finished = 1;
    return rc;
}

static int oneshot(const nuri_pipo_key *k, nuri_pipo_mode mode, int enc, const uint8_t *iv, size_t iv_len,
                   nuri_padding padding, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *in,
                   size_t in_len)
{
    nuri_pipo_ctx ctx;
    size_t a = 0, b = 0;
    *out_len = 0;
    size_t need = in_len + ((enc && padding == NURI_PAD_PKCS7) ? BS - in_len % BS : 0);
    int rc = nuri_pipo_init(&ctx, k, mode, enc, iv, iv_len, padding);
    if (rc == NURI_OK && out_cap < need) rc = NURI_EBUFFER;
    if (rc == NURI_OK) rc = nuri_pipo_update(&ctx, out, out_cap, &a, in, in_len);
    if (rc == NURI_OK) rc = nuri_pipo_final(&ctx, out + a, out_cap - a, &b);
    nuri_pipo_ctx_wipe(&ctx);
    if (rc != NURI_OK) {
        nuri_wipe(out, out_cap < need ? out_cap : need);
        return rc;
    }
    *out_len = a + b;
    return NURI_OK;
}

int nuri_pipo_encrypt(const nuri_pipo_key *k, nuri_pipo_mode mode, const uint8_t *iv, size_t iv_len,
                      nuri_padding padding, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *in,
                      size_t in_len)
{
    return oneshot(k, mode, 1, iv, iv_len, padding, out, out_cap, out_len, in, in_len);
}

int nuri_pipo_decrypt(const nuri_pipo_key *k, nuri_pipo_mode mode, const uint8_t *iv, size_t iv_len,
                      nuri_padding padding, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *in,
                      size_t in_len)
{
    return oneshot(k, mode, 0, iv, iv_len, padding, out, out_cap, out_len, in, in_len);
}
