/* Keccak-f[1600], SHA3-256/512 and SHAKE128/256 (FIPS 202), portable C.
 *
 * The permutation keeps the 25 lanes in local variables and unrolls two rounds per loop
 * iteration (A -> E -> A), so the state touches memory only at entry and exit; this is also
 * why the four-way form can work on an interleaved state with stride 4 at no extra cost.
 * No data-dependent branches or memory indices anywhere. */
#include <string.h>

#include "fips202.h"
#include "nuri_internal.h"

#include "keccak_round.h"

#if defined(__GNUC__) || defined(__clang__)
#define NURI_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define NURI_ALWAYS_INLINE inline
#endif

static NURI_ALWAYS_INLINE void keccak_permute(uint64_t *s, size_t st)
{
    uint64_t a0 = s[0 * st], a1 = s[1 * st], a2 = s[2 * st], a3 = s[3 * st], a4 = s[4 * st];
    uint64_t a5 = s[5 * st], a6 = s[6 * st], a7 = s[7 * st], a8 = s[8 * st], a9 = s[9 * st];
    uint64_t a10 = s[10 * st], a11 = s[11 * st], a12 = s[12 * st], a13 = s[13 * st], a14 = s[14 * st];
    uint64_t a15 = s[15 * st], a16 = s[16 * st], a17 = s[17 * st], a18 = s[18 * st], a19 = s[19 * st];
    uint64_t a20 = s[20 * st], a21 = s[21 * st], a22 = s[22 * st], a23 = s[23 * st], a24 = s[24 * st];
    uint64_t e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15, e16, e17, e18, e19, e20, e21, e22,
        e23, e24;
    uint64_t b0, b1, b2, b3, b4, c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
    for (int r = 0; r < 24; r += 2) {
        KECCAK_ROUND_AE
        e0 ^= RC[r];
        KECCAK_ROUND_EA
        a0 ^= RC[r + 1];
    }
    s[0 * st] = a0;
    s[1 * st] = a1;
    s[2 * st] = a2;
    s[3 * st] = a3;
    s[4 * st] = a4;
    s[5 * st] = a5;
    s[6 * st] = a6;
    s[7 * st] = a7;
    s[8 * st] = a8;
    s[9 * st] = a9;
    s[10 * st] = a10;
    s[11 * st] = a11;
    s[12 * st] = a12;
    s[13 * st] = a13;
    s[14 * st] = a14;
    s[15 * st] = a15;
    s[16 * st] = a16;
    s[17 * st] = a17;
    s[18 * st] = a18;
    s[19 * st] = a19;
    s[20 * st] = a20;
    s[21 * st] = a21;
    s[22 * st] = a22;
    s[23 * st] = a23;
    s[24 * st] = a24;
}

void nuri_keccakf1600(uint64_t s[25]) { keccak_permute(s, 1); }

void nuri_keccakf1600_x4(uint64_t s[100])
{
    for (int j = 0; j < 4; j++) keccak_permute(s + j, 4);
}

/* XOR len bytes into the state (lanes little-endian) starting at byte offset pos; stride st. */
static void xor_bytes(uint64_t *s, size_t st, unsigned pos, const uint8_t *in, size_t len)
{
    while (len > 0 && (pos & 7)) {
        s[st * (pos >> 3)] ^= (uint64_t)*in++ << (8 * (pos & 7));
        pos++;
        len--;
    }
    while (len >= 8) {
        s[st * (pos >> 3)] ^= nuri_load64_le(in);
        in += 8;
        pos += 8;
        len -= 8;
    }
    while (len > 0) {
        s[st * (pos >> 3)] ^= (uint64_t)*in++ << (8 * (pos & 7));
        pos++;
        len--;
    }
}

static void extract_bytes(uint8_t *out, const uint64_t *s, size_t st, unsigned pos, size_t len)
{
    while (len > 0 && (pos & 7)) {
        *out++ = (uint8_t)(s[st * (pos >> 3)] >> (8 * (pos & 7)));
        pos++;
        len--;
    }
    while (len >= 8) {
        nuri_store64_le(out, s[st * (pos >> 3)]);
        out += 8;
        pos += 8;
        len -= 8;
    }
    while (len > 0) {
        *out++ = (uint8_t)(s[st * (pos >> 3)] >> (8 * (pos & 7)));
        pos++;
        len--;
    }
}

/* Absorb a whole message into a zeroed strided state and pad with domain byte `ds`. */
static void absorb_pad(uint64_t *s, size_t st, unsigned rate, const uint8_t *in, size_t len, uint8_t ds, int x4)
{
    while (len >= rate) {
        xor_bytes(s, st, 0, in, rate);
        if (x4) keccak_permute(s, 4);
        else keccak_permute(s, 1);
        in += rate;
        len -= rate;
    }
    xor_bytes(s, st, 0, in, len);
    s[st * (len >> 3)] ^= (uint64_t)ds << (8 * (len & 7));
    s[st * ((rate - 1) >> 3)] ^= 0x80ULL << (8 * ((rate - 1) & 7));
}

static void hash_fixed(uint8_t *out, size_t outlen, unsigned rate, uint8_t ds, const uint8_t *in, size_t len)
{
    uint64_t s[25];
    memset(s, 0, sizeof s);
    absorb_pad(s, 1, rate, in, len, ds, 0);
    for (;;) {
        keccak_permute(s, 1);
        size_t n = outlen < rate ? outlen : rate;
        extract_bytes(out, s, 1, 0, n);
        out += n;
        outlen -= n;
        if (!outlen) break;
    }
    nuri_wipe(s, sizeof s);
}

void nuri_sha3_256(uint8_t out[NURI_SHA3_256_BYTES], const uint8_t *in, size_t in_len)
{
    hash_fixed(out, 32, 136, 0x06, in, in_len);
}
void nuri_sha3_512(uint8_t out[NURI_SHA3_512_BYTES], const uint8_t *in, size_t in_len)
{
    hash_fixed(out, 64, 72, 0x06, in, in_len);
}
void nuri_shake128(uint8_t *out, size_t out_cap, const uint8_t *in, size_t in_len)
{
    if (out_cap) hash_fixed(out, out_cap, 168, 0x1F, in, in_len);
}
void nuri_shake256(uint8_t *out, size_t out_cap, const uint8_t *in, size_t in_len)
{
    if (out_cap) hash_fixed(out, out_cap, 136, 0x1F, in, in_len);
}

void nuri_keccak_jobs(const nuri_keccak_job *jobs, unsigned n, unsigned rate)
{
    for (unsigned i = 0; i < n; i++) {
        const nuri_keccak_job *j = &jobs[i];
        uint64_t s[25];
        unsigned pos = 0;
        memset(s, 0, sizeof s);
        for (int part = 0; part < 2; part++) {
            const uint8_t *in = part ? j->in : j->pre;
            size_t len = part ? j->len : j->prelen;
            while (len > 0) {
                size_t take = rate - pos < len ? rate - pos : len;
                xor_bytes(s, 1, pos, in, take);
                pos += (unsigned)take;
                in += take;
                len -= take;
                if (pos == rate) {
                    keccak_permute(s, 1);
                    pos = 0;
                }
            }
        }
        s[pos >> 3] ^= (uint64_t)j->ds << (8 * (pos & 7));
        s[(rate - 1) >> 3] ^= 0x80ULL << (8 * ((rate - 1) & 7));
        keccak_permute(s, 1);
        for (size_t o = 0; o < j->outlen; o += rate) { /* more than one block: a XOF (squeeze) */
            if (o) keccak_permute(s, 1);
            extract_bytes(j->out + o, s, 1, 0, j->outlen - o < rate ? j->outlen - o : rate);
        }
        nuri_wipe(s, sizeof s);
    }
}

/* ---- incremental SHAKE ---- */
void nuri_shake128_init(nuri_shake_ctx *c)
{
    memset(c, 0, sizeof *c);
    c->rate = NURI_SHAKE128_RATE;
}
void nuri_shake256_init(nuri_shake_ctx *c)
{
    memset(c, 0, sizeof *c);
    c->rate = NURI_SHAKE256_RATE;
}
void nuri_shake_absorb(nuri_shake_ctx *c, const uint8_t *in, size_t in_len)
{
    if (c->squeezing) return;
    for (size_t len = in_len; len > 0;) {
        size_t n = c->rate - c->pos;
        if (n > len) n = len;
        xor_bytes(c->s, 1, c->pos, in, n);
        c->pos += (unsigned)n;
        in += n;
        len -= n;
        if (c->pos == c->rate) {
            keccak_permute(c->s, 1);
            c->pos = 0;
        }
    }
}
void nuri_shake_squeeze(nuri_shake_ctx *c, uint8_t *out, size_t out_cap)
{
    if (!c->squeezing) {
        c->s[c->pos >> 3] ^= 0x1FULL << (8 * (c->pos & 7));
        c->s[(c->rate - 1) >> 3] ^= 0x80ULL << (8 * ((c->rate - 1) & 7));
        keccak_permute(c->s, 1);
        c->squeezing = 1;
        c->pos = 0;
    }
    for (size_t len = out_cap; len > 0;) {
        if (c->pos == c->rate) {
            keccak_permute(c->s, 1);
            c->pos = 0;
        }
        size_t n = c->rate - c->pos;
        if (n > len) n = len;
        extract_bytes(out, c->s, 1, c->pos, n);
        c->pos += (unsigned)n;
        out += n;
        len -= n;
    }
}
void nuri_shake_wipe(nuri_shake_ctx *c) { nuri_wipe(c, sizeof *c); }

/* ---- block-level SHAKE, single and x4 ---- */
void nuri_shake_absorb_once(uint64_t s[25], unsigned rate, const uint8_t *in, size_t len)
{
    memset(s, 0, 25 * sizeof s[0]);
    absorb_pad(s, 1, rate, in, len, 0x1F, 0);
}

void nuri_shake_squeezeblocks(uint8_t *out, size_t nblocks, uint64_t s[25], unsigned rate)
{
    while (nblocks--) {
        keccak_permute(s, 1);
        extract_bytes(out, s, 1, 0, rate);
        out += rate;
    }
}

void nuri_shake_x4_absorb_once(nuri_keccakx4 *st, unsigned rate, const uint8_t *in0, const uint8_t *in1,
                               const uint8_t *in2, const uint8_t *in3, size_t len)
{
    const uint8_t *in[4] = {in0, in1, in2, in3};
    memset(st->s, 0, sizeof st->s);
    for (int j = 0; j < 4; j++) absorb_pad(st->s + j, 4, rate, in[j], len, 0x1F, 1);
}

void nuri_shake_x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3, size_t nblocks,
                                 nuri_keccakx4 *st, unsigned rate)
{
    while (nblocks--) {
        nuri_keccakf1600_x4(st->s);
        extract_bytes(out0, st->s + 0, 4, 0, rate);
        extract_bytes(out1, st->s + 1, 4, 0, rate);
        extract_bytes(out2, st->s + 2, 4, 0, rate);
        extract_bytes(out3, st->s + 3, 4, 0, rate);
        out0 += rate;
        out1 += rate;
        out2 += rate;
        out3 += rate;
    }
}
