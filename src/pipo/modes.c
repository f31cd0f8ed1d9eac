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

/* Whole 8-byte blocks are XORed as 64-bit words through memcpy (alignment-safe on every target).
 * When all pointers are word-aligned the compiler is told so: strict-alignment targets (rv32)
 * then use word loads and stores instead of byte accesses. */
#if UINTPTR_MAX > 0xFFFFFFFFu
#define WORD_ALIGN 8
#else
#define WORD_ALIGN 4
#endif
#if defined(__GNUC__)
#define ALIGNED(p) __builtin_assume_aligned((p), WORD_ALIGN)
#else
#define ALIGNED(p) (p)
#endif
static inline uint64_t ld64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}
static inline void st64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static inline int all_aligned(const void *a, const void *b, const void *c)
{
    return (((uintptr_t)a | (uintptr_t)b | (uintptr_t)c) & (WORD_ALIGN - 1)) == 0;
}

/* Zeroes n bytes at p (4-byte aligned on 32-bit targets) and keeps the stores. nuri_wipe goes
 * through memset, which small libcs run byte by byte (picolibc on rv32: 4 instructions per
 * byte); on 32-bit targets volatile word stores are used instead. */
static void wipe_aligned(void *p, size_t n)
{
#if UINTPTR_MAX == 0xFFFFFFFFu
    volatile uint32_t *v = (volatile uint32_t *)p;
    size_t i = 0, w = n / 4;
    for (; i + 2 <= w; i += 2) {
        v[i] = 0;
        v[i + 1] = 0;
    }
    for (; i < w; i++) v[i] = 0;
    for (size_t j = 4 * w; j < n; j++) ((volatile uint8_t *)p)[j] = 0;
#else
    nuri_wipe(p, n);
#endif
}

/* out[i] = a[i] ^ b[i] for nb blocks, front to back (out may equal a or b). */
static void xor_blocks(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t nb)
{
    if (all_aligned(out, a, b)) {
        for (size_t i = 0; i < nb; i++)
            st64(ALIGNED(out + BS * i), ld64(ALIGNED(a + BS * i)) ^ ld64(ALIGNED(b + BS * i)));
    } else {
        for (size_t i = 0; i < nb; i++) st64(out + BS * i, ld64(a + BS * i) ^ ld64(b + BS * i));
    }
}

/* Counter blocks c, c+1, ... (mod 2^64) into ks[0..m): each block is the counter big-endian,
 * written with one 64-bit store (64-bit hosts: bswap), or as two 32-bit words on 32-bit
 * targets, where the high word is swapped again only when it changes. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BE64(v) (v)
#define BE32(v) (v)
#else
#define BE64(v) __builtin_bswap64(v)
/* spelled out: without Zbb, rv32 GCC turns __builtin_bswap32 into a library call */
#define BE32(v) (((v) >> 24) | (((v) >> 8) & 0xff00u) | (((v) & 0xff00u) << 8) | ((v) << 24))
#endif
static void ctr_fill(uint64_t *ks, size_t m, uint64_t c)
{
#if UINTPTR_MAX > 0xFFFFFFFFu
    for (size_t i = 0; i < m; i++) ks[i] = BE64(c + i);
#else
    uint32_t hi = (uint32_t)(c >> 32), lo = (uint32_t)c, w[2];
    w[0] = BE32(hi);
    for (size_t i = 0; i < m; i++) {
        w[1] = BE32(lo);
        memcpy(&ks[i], w, 8);
        if (++lo == 0) { /* public counter: the carry may branch */
            hi++;
            w[0] = BE32(hi);
        }
    }
#endif
}

int nuri_pipo_init(nuri_pipo_ctx *ctx, const nuri_pipo_key *k, nuri_pipo_mode mode, int encrypt, const uint8_t *iv,
                   size_t iv_len, nuri_padding padding)
{
    wipe_aligned(ctx, sizeof *ctx);
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

void nuri_pipo_ctx_wipe(nuri_pipo_ctx *ctx) { wipe_aligned(ctx, sizeof *ctx); }

/* Generic CTR over whole blocks: counter blocks in a stack buffer, encrypted CHUNK blocks per
 * kernel call, XORed in 64-bit words. The used part of the buffer is wiped once, at the end. */
static void ctr_generic(const nuri_pipo_key *k, uint8_t *out, const uint8_t *in, size_t nb, uint64_t c)
{
    uint64_t ks[CHUNK]; /* 8-byte aligned: kernels see aligned input */
    uint8_t *ksb = (uint8_t *)ks;
    size_t used = nb < CHUNK ? nb : CHUNK;
    while (nb > 0) {
        size_t m = nb < CHUNK ? nb : CHUNK;
        ctr_fill(ks, m, c); /* wraps mod 2^64 */
        c += m;
        nuri_pipo_encrypt_blocks(k, ksb, ksb, m);
        xor_blocks(out, in, ksb, m);
        out += m * BS;
        in += m * BS;
        nb -= m;
    }
    wipe_aligned(ks, used * BS);
}

/* CTR: XOR n bytes with the keystream, carrying unused keystream bytes in ctx->buf. Whole blocks
 * go to the implementation's ctr hook when it has one (written once here for every kernel that
 * provides it), else to the generic path. */
static void ctr_xor(nuri_pipo_ctx *ctx, uint8_t *out, const uint8_t *in, size_t n)
{
    /* leftover keystream sits at buf[BS - buf_len .. BS) */
    while (n > 0 && ctx->buf_len > 0) {
        *out++ = *in++ ^ ctx->buf[BS - ctx->buf_len];
        ctx->buf_len--;
        n--;
    }
    size_t nb = n / BS;
    if (nb > 0) {
        uint64_t c = nuri_load64_be(ctx->iv);
        const nuri_pipo_impl *impl = ctx->key.impl;
        if (impl->ctr) impl->ctr(ctx->key.rk, ctx->key.rounds, out, in, nb, c);
        else ctr_generic(&ctx->key, out, in, nb, c);
        nuri_store64_be(ctx->iv, c + nb);
        out += nb * BS;
        in += nb * BS;
        n -= nb * BS;
    }
    if (n > 0) {
        nuri_pipo_encrypt_blocks(&ctx->key, ctx->buf, ctx->iv, 1);
        nuri_store64_be(ctx->iv, nuri_load64_be(ctx->iv) + 1);
        for (size_t i = 0; i < n; i++) out[i] = in[i] ^ ctx->buf[i];
        ctx->buf_len = BS - n;
    }
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
            st64(ctx->iv, ld64(ctx->iv) ^ ld64(in + BS * i));
            nuri_pipo_encrypt_blocks(k, ctx->iv, ctx->iv, 1);
            memcpy(out + BS * i, ctx->iv, BS);
        }
        return;
    }
    /* CBC decryption: batch-decrypt, then XOR with the previous ciphertext blocks. Walk the
     * batch backwards so an in-place call still reads C_{i-1} before overwriting it. */
    uint64_t tmp[CHUNK]; /* 8-byte aligned */
    uint8_t next_iv[BS];
    size_t used = m < CHUNK ? m : CHUNK;
    while (m > 0) {
        size_t c = m < CHUNK ? m : CHUNK;
        nuri_pipo_decrypt_blocks(k, (uint8_t *)tmp, in, c);
        memcpy(next_iv, in + BS * (c - 1), BS);
        if (all_aligned(out, in, tmp)) {
            for (size_t i = c; i-- > 1;) st64(ALIGNED(out + BS * i), tmp[i] ^ ld64(ALIGNED(in + BS * (i - 1))));
        } else {
            for (size_t i = c; i-- > 1;) st64(out + BS * i, tmp[i] ^ ld64(in + BS * (i - 1)));
        }
        st64(out, tmp[0] ^ ld64(ctx->iv));
        memcpy(ctx->iv, next_iv, BS);
        in += BS * c;
        out += BS * c;
        m -= c;
    }
    wipe_aligned(tmp, used * BS);
}

/* On an error a streaming call zeroes the bytes of out it may write (at most `most`, pipo.h),
 * within out_cap. */
static int fail_zeroed(int rc, uint8_t *out, size_t out_cap, size_t most)
{
    size_t n = out_cap < most ? out_cap : most;
    if (out && n) nuri_wipe(out, n);
    return rc;
}

static int update(nuri_pipo_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *in, size_t in_len)
{
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
        in += take;
        in_len -= take;
        ctx->buf_len = 0;
        done = 1;
    }
    if (nblocks > done) {
        blocks(ctx, out + BS * done, in, nblocks - done);
        in += BS * (nblocks - done);
        in_len -= BS * (nblocks - done);
    }
    memcpy(ctx->buf + ctx->buf_len, in, in_len);
    ctx->buf_len += in_len;
    *out_len = nblocks * BS;
    return NURI_OK;
}

int nuri_pipo_update(nuri_pipo_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len, const uint8_t *in,
                     size_t in_len)
{
    *out_len = 0;
    int rc = update(ctx, out, out_cap, out_len, in, in_len);
    /* in_len + BS cannot wrap: in_len counts the bytes of an object */
    return rc == NURI_OK ? rc : fail_zeroed(rc, out, out_cap, in_len + BS);
}

int nuri_pipo_final(nuri_pipo_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len)
{
    int rc = NURI_OK;
    *out_len = 0;
    if (ctx->finished || !ctx->key.impl) {
        rc = NURI_ESTATE;
        goto done;
    }
    if (ctx->mode == NURI_PIPO_CTR) goto done;
    if (ctx->padding == NURI_PAD_NONE) {
        if (ctx->buf_len != 0) rc = NURI_ELENGTH;
        goto done;
    }
    if (out_cap < BS) {
        rc = NURI_EBUFFER;
        goto done;
    }
    if (ctx->encrypt) {
        uint8_t pad = (uint8_t)(BS - ctx->buf_len);
        memset(ctx->buf + ctx->buf_len, pad, pad);
        blocks(ctx, out, ctx->buf, 1);
        *out_len = BS;
        goto done;
    }
    if (ctx->buf_len != BS) {
        rc = NURI_ELENGTH;
        goto done;
    }
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
    return rc == NURI_OK ? rc : fail_zeroed(rc, out, out_cap, BS);
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
    if (rc == NURI_OK) {
        rc = nuri_pipo_final(&ctx, out + a, out_cap - a, &b); /* wipes the context on every path */
    } else {
        nuri_pipo_ctx_wipe(&ctx);
    }
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
