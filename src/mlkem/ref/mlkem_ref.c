/* ML-KEM reference kernels: one coefficient at a time, straight from FIPS 203 with signed
 * Montgomery (R = 2^16) and Barrett reductions. Also the portable pieces other backends reuse
 * (rejection sampling, CBD, 12-bit and d-bit packing). No secret-dependent branches or indices;
 * no division (compression divides by q through a multiply-shift). */
#include "../mlkem_impl.h"
#include "../zetas.h"

#define Q    MLKEM_Q
#define QINV (-3327) /* q^-1 mod 2^16 */

/* a * R^-1 mod q for |a| < q * 2^15; result in (-q, q). */
static inline int16_t mont_reduce(int32_t a)
{
    int16_t t = (int16_t)((uint32_t)a * (uint32_t)(uint16_t)QINV);
    return (int16_t)((a - (int32_t)t * Q) >> 16);
}

static inline int16_t fqmul(int16_t a, int16_t b) { return mont_reduce((int32_t)a * b); }

/* Centred Barrett: a mod q in [-(q-1)/2, (q-1)/2] for any int16 a. */
static inline int16_t barrett_reduce(int16_t a)
{
    const int32_t v = ((1 << 26) + Q / 2) / Q; /* 20159 */
    int16_t t = (int16_t)((v * a + (1 << 25)) >> 26);
    return (int16_t)(a - t * Q);
}

/* x in (-q, q) -> [0, q) without branching. */
static inline int16_t caddq(int16_t a) { return (int16_t)(a + ((a >> 15) & Q)); }

static void ref_ntt(mlk_poly *p)
{
    int16_t *r = p->c;
    unsigned z = 1;
    for (unsigned len = 128; len >= 2; len >>= 1) {
        for (unsigned start = 0; start < 256; start += 2 * len) {
            int16_t zeta = ZETAS[z++];
            for (unsigned j = start; j < start + len; j++) {
                int16_t t = fqmul(zeta, r[j + len]);
                r[j + len] = (int16_t)(r[j] - t);
                r[j] = (int16_t)(r[j] + t);
            }
        }
    }
    for (unsigned j = 0; j < 256; j++) r[j] = barrett_reduce(r[j]);
}

static void ref_invntt(mlk_poly *p)
{
    const int16_t f = 1441; /* R^2 / 128 mod q */
    int16_t *r = p->c;
    unsigned z = 127;
    for (unsigned len = 2; len <= 128; len <<= 1) {
        for (unsigned start = 0; start < 256; start += 2 * len) {
            int16_t zeta = ZETAS[z--];
            for (unsigned j = start; j < start + len; j++) {
                int16_t t = r[j];
                r[j] = barrett_reduce((int16_t)(t + r[j + len]));
                r[j + len] = fqmul(zeta, (int16_t)(r[j + len] - t));
            }
        }
    }
    for (unsigned j = 0; j < 256; j++) r[j] = fqmul(r[j], f);
}

/* gamma_i = zeta^(2 bitrev7(i) + 1) = +-ZETAS[64 + i/2]. */
static void ref_mulcache(mlk_mulcache *c, const mlk_poly *b)
{
    for (unsigned i = 0; i < 64; i++) {
        c->c[2 * i] = fqmul(b->c[4 * i + 1], ZETAS[64 + i]);
        c->c[2 * i + 1] = fqmul(b->c[4 * i + 3], (int16_t)-ZETAS[64 + i]);
    }
}

static void ref_basemul_acc(mlk_poly *r, const mlk_poly *a, const mlk_poly *b, const mlk_mulcache *bc, unsigned k)
{
    for (unsigned i = 0; i < 128; i++) {
        int32_t c0 = 0, c1 = 0;
        for (unsigned l = 0; l < k; l++) {
            int32_t a0 = a[l].c[2 * i], a1 = a[l].c[2 * i + 1];
            c0 += a0 * b[l].c[2 * i] + a1 * bc[l].c[i];
            c1 += a0 * b[l].c[2 * i + 1] + a1 * b[l].c[2 * i];
        }
        r->c[2 * i] = mont_reduce(c0);
        r->c[2 * i + 1] = mont_reduce(c1);
    }
}

static void ref_tomont(mlk_poly *r)
{
    const int16_t f = 1353; /* R^2 mod q */
    for (unsigned j = 0; j < 256; j++) r->c[j] = fqmul(r->c[j], f);
}

static void ref_reduce(mlk_poly *r)
{
    for (unsigned j = 0; j < 256; j++) r->c[j] = caddq(barrett_reduce(r->c[j]));
}

void nuri_mlkem_ref_tobytes(uint8_t r[MLKEM_POLYBYTES], const mlk_poly *a)
{
    for (unsigned i = 0; i < 128; i++) {
        uint16_t t0 = (uint16_t)a->c[2 * i], t1 = (uint16_t)a->c[2 * i + 1];
        r[3 * i] = (uint8_t)t0;
        r[3 * i + 1] = (uint8_t)((t0 >> 8) | (t1 << 4));
        r[3 * i + 2] = (uint8_t)(t1 >> 4);
    }
}

/* Decode 12-bit values and reduce them mod q (values are < 4096 < 2q: one conditional subtraction). */
void nuri_mlkem_ref_frombytes(mlk_poly *r, const uint8_t a[MLKEM_POLYBYTES])
{
    for (unsigned i = 0; i < 128; i++) {
        int16_t t0 = (int16_t)(a[3 * i] | ((a[3 * i + 1] & 15) << 8));
        int16_t t1 = (int16_t)((a[3 * i + 1] >> 4) | (a[3 * i + 2] << 4));
        r->c[2 * i] = caddq((int16_t)(t0 - Q));
        r->c[2 * i + 1] = caddq((int16_t)(t1 - Q));
    }
}

/* Compress_d(x) = round(2^d x / q) mod 2^d = floor((2^d x + 1664) / q) mod 2^d; the quotient of
 * t < 2^23 by q is (t * 2580335) >> 33 (exact for t < 13.7e6; checked exhaustively in the tests). */
static inline uint32_t compress_coeff(int16_t x, unsigned d)
{
    uint64_t t = ((uint64_t)(uint16_t)x << d) + Q / 2;
    return (uint32_t)((t * 2580335u) >> 33) & ((1u << d) - 1);
}

void nuri_mlkem_ref_compress(uint8_t *r, const mlk_poly *a, unsigned d)
{
    uint64_t acc = 0;
    unsigned bits = 0;
    for (unsigned j = 0; j < 256; j++) {
        acc |= (uint64_t)compress_coeff(a->c[j], d) << bits;
        bits += d;
        while (bits >= 8) {
            *r++ = (uint8_t)acc;
            acc >>= 8;
            bits -= 8;
        }
    }
}

/* Decompress_d(y) = round(q y / 2^d) = (q y + 2^(d-1)) >> d. */
void nuri_mlkem_ref_decompress(mlk_poly *r, const uint8_t *a, unsigned d)
{
    uint64_t acc = 0;
    unsigned bits = 0;
    const uint32_t mask = (1u << d) - 1;
    for (unsigned j = 0; j < 256; j++) {
        while (bits < d) {
            acc |= (uint64_t)*a++ << bits;
            bits += 8;
        }
        uint32_t y = (uint32_t)acc & mask;
        acc >>= d;
        bits -= d;
        r->c[j] = (int16_t)((y * Q + (1u << (d - 1))) >> d);
    }
}

/* SamplePolyCBD_eta from 64*eta bytes. */
void nuri_mlkem_cbd(mlk_poly *r, const uint8_t *buf, unsigned eta)
{
    if (eta == 2) {
        for (unsigned i = 0; i < 32; i++) {
            uint32_t t = nuri_load32_le(buf + 4 * i);
            uint32_t d = (t & 0x55555555u) + ((t >> 1) & 0x55555555u);
            for (unsigned j = 0; j < 8; j++) {
                int16_t x = (int16_t)((d >> (4 * j)) & 3), y = (int16_t)((d >> (4 * j + 2)) & 3);
                r->c[8 * i + j] = (int16_t)(x - y);
            }
        }
    } else { /* eta == 3 */
        for (unsigned i = 0; i < 64; i++) {
            const uint8_t *b = buf + 3 * i;
            uint32_t t = (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16);
            uint32_t d = (t & 0x249249u) + ((t >> 1) & 0x249249u) + ((t >> 2) & 0x249249u);
            for (unsigned j = 0; j < 4; j++) {
                int16_t x = (int16_t)((d >> (6 * j)) & 7), y = (int16_t)((d >> (6 * j + 3)) & 7);
                r->c[4 * i + j] = (int16_t)(x - y);
            }
        }
    }
}

/* SampleNTT's acceptance loop over public XOF output; returns the new number of coefficients. */
unsigned nuri_mlkem_rej_uniform(int16_t *r, unsigned ctr, const uint8_t *buf, size_t buflen)
{
    for (size_t pos = 0; ctr < MLKEM_N && pos + 3 <= buflen; pos += 3) {
        uint16_t d1 = (uint16_t)(buf[pos] | ((buf[pos + 1] & 15) << 8));
        uint16_t d2 = (uint16_t)((buf[pos + 1] >> 4) | (buf[pos + 2] << 4));
        if (d1 < Q) r[ctr++] = (int16_t)d1;
        if (d2 < Q && ctr < MLKEM_N) r[ctr++] = (int16_t)d2;
    }
    return ctr;
}

static void ref_sample_cbd(mlk_poly *r, unsigned n, const uint8_t seed[32], uint8_t nonce0, unsigned eta)
{
    uint8_t in[33], buf[3 * 64];
    memcpy(in, seed, 32);
    for (unsigned i = 0; i < n; i++) {
        in[32] = (uint8_t)(nonce0 + i);
        nuri_shake256(buf, 64 * eta, in, 33);
        nuri_mlkem_cbd(&r[i], buf, eta);
    }
    nuri_wipe(in, sizeof in);
    nuri_wipe(buf, sizeof buf);
}

static void ref_gen_matrix(mlk_poly *a, const uint8_t rho[32], unsigned k, int transposed)
{
    uint8_t in[34], buf[3 * NURI_SHAKE128_RATE];
    uint64_t s[25];
    memcpy(in, rho, 32);
    for (unsigned i = 0; i < k; i++) {
        for (unsigned j = 0; j < k; j++) {
            in[32] = (uint8_t)(transposed ? i : j);
            in[33] = (uint8_t)(transposed ? j : i);
            nuri_shake_absorb_once(s, NURI_SHAKE128_RATE, in, 34);
            nuri_shake_squeezeblocks(buf, 3, s, NURI_SHAKE128_RATE);
            unsigned ctr = nuri_mlkem_rej_uniform(a[i * k + j].c, 0, buf, sizeof buf);
            while (ctr < MLKEM_N) {
                nuri_shake_squeezeblocks(buf, 1, s, NURI_SHAKE128_RATE);
                ctr = nuri_mlkem_rej_uniform(a[i * k + j].c, ctr, buf, NURI_SHAKE128_RATE);
            }
        }
    }
}

const nuri_mlkem_backend nuri_mlkem_backend_ref = {
    {"ref", 0, 1, "portable C, one coefficient at a time (FIPS 203 as written, Montgomery/Barrett)"},
    ref_ntt,
    ref_invntt,
    ref_mulcache,
    ref_basemul_acc,
    ref_tomont,
    ref_reduce,
    nuri_mlkem_ref_tobytes,
    nuri_mlkem_ref_frombytes,
    nuri_mlkem_ref_compress,
    nuri_mlkem_ref_decompress,
    ref_sample_cbd,
    ref_gen_matrix,
    nuri_keccak_jobs,
    NULL, /* sample_many: the generic path */
    NULL, /* keygen_rows: the whole matrix at once */
    NULL, /* ek_scan: kem.c's portable pass */
    NULL, /* keccakf1: nuri_keccakf1600 */
};
