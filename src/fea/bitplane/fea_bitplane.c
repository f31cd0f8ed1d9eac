/* FEA constant-time kernel for one value at a time (microcontrollers, and the single-value path
 * of ct64): the 8 S-boxes of an SD layer as bit planes. Word W holds plane b = bit b of the 8
 * bytes of the value (one byte position per bit; on 32-bit targets the 8 positions repeated 4
 * times, so a 32-bit rotation rotates every copy by one position; on AVR a byte). The S-box is a
 * tower-field inversion circuit (58 AND, 113 XOR) between linear maps, M a Horner scheme over
 * its coefficients with one rotation per step (scripts/gen_fea_bitplane.py emits both and
 * checks them). Only AND/XOR/NOT/shifts by constants on data: no table, no secret-dependent
 * branch or address. The byte layout flips at each layer (see the generator), and two layers
 * (one F) restore it; the round key of the second layer is laid out to match. */
#include "../fea_impl.h"

#if defined(__AVR__)
typedef uint8_t W;
#define ROTL1(v)  ((W)(((v) << 1) | ((v) >> 7)))
#define ROTR1(v)  ((W)(((v) >> 1) | ((v) << 7)))
#define SPREAD(b) ((W)(b))
#else
typedef uint32_t W;
#define ROTL1(v)  (((v) << 1) | ((v) >> 31))
#define ROTR1(v)  (((v) >> 1) | ((v) << 31))
#define SPREAD(b) ((W)(b) * 0x01010101u)
#endif
#include "fea_bitplane_gen.h"

/* One copy of each layer part in the binary (flash is 32 KiB on the ATmega328P): a call costs
 * little next to the ~170-gate S-box or the ~260-XOR M. */
static __attribute__((noinline)) void sbox(W p[8]) { fea_bp_sbox(p); }
static __attribute__((noinline)) void m_rotl(W p[8]) { fea_bp_m_rotl(p); }
static __attribute__((noinline)) void m_rotr(W p[8]) { fea_bp_m_rotr(p); }

#if defined(__AVR__)
/* plane b, bit q = bit b of byte q (least significant byte first; rev: of byte 7 - q, which is
 * the byte-swapped word): each byte is shifted out bit by bit through the carry into the planes
 * (lsr/rol: 2 cycles per bit, no branch on data) */
static void planes_in(uint64_t x, W p[8], int rev)
{
    const uint8_t *v = (const uint8_t *)&x; /* AVR is little-endian: v[q] = byte q */
    uint8_t p0 = 0, p1 = 0, p2 = 0, p3 = 0, p4 = 0, p5 = 0, p6 = 0, p7 = 0;
    for (int i = 0; i < 8; i++) {
        uint8_t b = v[rev ? i : 7 - i];
        __asm__("lsr %[b]\n\trol %[p0]\n\tlsr %[b]\n\trol %[p1]\n\tlsr %[b]\n\trol %[p2]\n\t"
                "lsr %[b]\n\trol %[p3]\n\tlsr %[b]\n\trol %[p4]\n\tlsr %[b]\n\trol %[p5]\n\t"
                "lsr %[b]\n\trol %[p6]\n\tlsr %[b]\n\trol %[p7]"
                : [b] "+r"(b), [p0] "+r"(p0), [p1] "+r"(p1), [p2] "+r"(p2), [p3] "+r"(p3), [p4] "+r"(p4), [p5] "+r"(p5),
                  [p6] "+r"(p6), [p7] "+r"(p7));
    }
    p[0] = p0;
    p[1] = p1;
    p[2] = p2;
    p[3] = p3;
    p[4] = p4;
    p[5] = p5;
    p[6] = p6;
    p[7] = p7;
}

static uint64_t planes_out(const W p[8], int rev)
{
    uint64_t x;
    uint8_t *v = (uint8_t *)&x;
    uint8_t p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3], p4 = p[4], p5 = p[5], p6 = p[6], p7 = p[7];
    for (int q = 0; q < 8; q++) {
        uint8_t b = 0;
        __asm__("lsr %[p0]\n\tror %[b]\n\tlsr %[p1]\n\tror %[b]\n\tlsr %[p2]\n\tror %[b]\n\t"
                "lsr %[p3]\n\tror %[b]\n\tlsr %[p4]\n\tror %[b]\n\tlsr %[p5]\n\tror %[b]\n\t"
                "lsr %[p6]\n\tror %[b]\n\tlsr %[p7]\n\tror %[b]"
                : [b] "+r"(b), [p0] "+r"(p0), [p1] "+r"(p1), [p2] "+r"(p2), [p3] "+r"(p3), [p4] "+r"(p4), [p5] "+r"(p5),
                  [p6] "+r"(p6), [p7] "+r"(p7));
        v[rev ? 7 - q : q] = b;
    }
    return x;
}
#else

/* 8x8 bit transpose of the 64-bit word hi:lo (three delta swaps): afterwards byte b holds bit b
 * of every byte (bit q = old byte q, least significant byte first). Its own inverse. */
static inline void transpose(uint32_t *hi, uint32_t *lo)
{
    uint32_t h = *hi, l = *lo, t;
    t = (l ^ (l >> 7)) & 0x00AA00AAu;
    l ^= t ^ (t << 7);
    t = (h ^ (h >> 7)) & 0x00AA00AAu;
    h ^= t ^ (t << 7);
    t = (l ^ (l >> 14)) & 0x0000CCCCu;
    l ^= t ^ (t << 14);
    t = (h ^ (h >> 14)) & 0x0000CCCCu;
    h ^= t ^ (t << 14);
    t = (((l >> 28) | (h << 4)) ^ l) & 0xF0F0F0F0u; /* the 4x4 blocks swap across the halves */
    l ^= t;
    h ^= t >> 4;
    *hi = h;
    *lo = l;
}

static inline void planes_in(uint64_t x, W p[8], int rev)
{
    if (rev) x = __builtin_bswap64(x);
    uint32_t h = (uint32_t)(x >> 32), l = (uint32_t)x;
    transpose(&h, &l);
    for (int b = 0; b < 4; b++) {
        p[b] = SPREAD((uint8_t)(l >> (8 * b)));
        p[b + 4] = SPREAD((uint8_t)(h >> (8 * b)));
    }
}

static inline uint64_t planes_out(const W p[8], int rev)
{
    uint32_t l = 0, h = 0;
    for (int b = 0; b < 4; b++) {
        l |= (uint32_t)(uint8_t)p[b] << (8 * b);
        h |= (uint32_t)(uint8_t)p[b + 4] << (8 * b);
    }
    transpose(&h, &l);
    uint64_t x = ((uint64_t)h << 32) | l;
    return rev ? __builtin_bswap64(x) : x;
}
#endif

uint64_t nuri_fea_bitplane_sd(uint64_t x)
{
    W p[8];
    planes_in(x, p, 0);
    sbox(p);
    m_rotl(p); /* byte i now at position i - 1: rotate to i, then undo the byte reversal */
    for (int b = 0; b < 8; b++) p[b] = ROTL1(p[b]);
    uint64_t y = planes_out(p, 1);
    nuri_wipe(p, sizeof p);
    return y;
}

void nuri_fea_bitplane_f(const uint64_t rk[2], uint64_t *x, size_t count)
{
    W p[8], kb[8];
    /* RKb in the middle layout: byte i at position i - 1 */
    planes_in(rk[1], kb, 1);
    for (int b = 0; b < 8; b++) kb[b] = ROTR1(kb[b]);
    for (size_t i = 0; i < count; i++) {
        planes_in(x[i] ^ rk[0], p, 0);
        sbox(p);
        m_rotl(p);
        for (int b = 0; b < 8; b++) p[b] ^= kb[b];
        sbox(p);
        m_rotr(p);
        x[i] = planes_out(p, 0);
    }
    nuri_wipe(p, sizeof p);
    nuri_wipe(kb, sizeof kb);
}

const nuri_fea_impl nuri_fea_backend_bitplane = {
    .info = {"bitplane", 0, 1, "portable C, one value at a time, the 8 S-boxes of a layer as bit planes; no tables"},
    .f = nuri_fea_bitplane_f,
    .sd = nuri_fea_bitplane_sd,
};
